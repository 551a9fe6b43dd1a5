// Dynamics: inverse and forward dynamics, the mass matrix, actuation, and their analytical
// derivatives. Results are new arrays (copies of the Data members).

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <tuple>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

using DataArg = std::shared_ptr<DataHandle>;
using ModelArg = std::shared_ptr<Model>;
using Pair = std::tuple<Eigen::MatrixXd, Eigen::MatrixXd>;
using Release = py::call_guard<py::gil_scoped_release>;

void checkState(const Model& model, const ConstVector& q, const ConstVector& v) {
  checkSize(q, model.nq, "q", "nq");
  checkSize(v, model.nv, "v", "nv");
}

Eigen::VectorXd inverse(const ModelArg& model, const ConstVector& q, const ConstVector& v,
                        const ConstVector& a, double t, const DataArg& given) {
  checkState(*model, q, v);
  checkSize(a, model->nv, "a", "nv");
  Workspace work(model, given);
  return inverseDynamics(*model, work.data(), q, v, a, t);
}

Eigen::MatrixXd mass(const ModelArg& model, const ConstVector& q, const DataArg& given) {
  checkSize(q, model->nq, "q", "nq");
  Workspace work(model, given);
  return massMatrix(*model, work.data(), q);
}

Eigen::VectorXd actuation(const ModelArg& model, const ConstVector& q, double t) {
  checkSize(q, model->nq, "q", "nq");
  Eigen::VectorXd tau(model->nv);
  actuationForces(*model, q, t, tau);
  return tau;
}

Eigen::VectorXd forward(const ModelArg& model, const ConstVector& q, const ConstVector& v,
                        const std::optional<Eigen::VectorXd>& tau, double t, const DataArg& given) {
  checkState(*model, q, v);
  if (tau) checkSize(*tau, model->nv, "tau", "nv");
  const Eigen::VectorXd applied = tau ? *tau : actuation(model, q, t);
  Workspace work(model, given);
  return forwardDynamics(*model, work.data(), q, v, applied, t);
}

Pair inverseDerivatives(const ModelArg& model, const ConstVector& q, const ConstVector& v,
                        const ConstVector& a, double t, const DataArg& given) {
  checkState(*model, q, v);
  checkSize(a, model->nv, "a", "nv");
  Workspace work(model, given);
  inverseDynamicsDerivatives(*model, work.data(), q, v, a, t);
  return {work.data().dtau_dq, work.data().dtau_dv};
}

Pair forwardDerivatives(const ModelArg& model, const ConstVector& q, const ConstVector& v, double t,
                        const DataArg& given) {
  checkState(*model, q, v);
  const Eigen::VectorXd applied = actuation(model, q, t);
  Workspace work(model, given);
  forwardDynamicsDerivatives(*model, work.data(), q, v, applied, t);
  return {work.data().dqdd_dq, work.data().dqdd_dv};
}

Eigen::MatrixXd actuationDerivative(const ModelArg& model, const ConstVector& q, double t,
                                    const DataArg& given) {
  checkSize(q, model->nq, "q", "nq");
  Workspace work(model, given);
  actuationJacobian(*model, work.data(), q, t);
  return work.data().dtau_applied_dq;
}

}  // namespace

void bindDynamics(py::module_& m) {
  const auto data = (py::arg("data") = py::none());
  m.def(
      "inverse_dynamics", &inverse, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"),
      py::arg("t") = 0.0, py::kw_only(), data,
      "ID(q, v, a) = M(q) a + C(q, v) v - F_ext: the generalised forces that give the\n"
      "accelerations a, from inertia, gravity and point loads (time t [s]); internal elastic and\n"
      "damping forces and actuation are not included (the equations of motion read\n"
      "ID = B u - K q - D v). q (nq; rad, m or strain), v (nv; per s), a (nv; per s^2).\n"
      "Returns a new array (nv; N m, N or N m per unit strain).");
  m.def("mass_matrix", &mass, py::arg("model"), py::arg("q"), py::kw_only(), data, Release(),
        "The generalised mass matrix M(q) (nv x nv, symmetric positive definite; kg, kg m, kg m^2\n"
        "by coordinate) by composite inertias. Returns a new array.");
  m.def("actuation_forces", &actuation, py::arg("model"), py::arg("q"), py::arg("t") = 0.0,
        "B(q) u(t): the generalised forces of the model's cables and force-mode joint inputs at\n"
        "time t [s]. Returns a new array (nv).");
  m.def("forward_dynamics", &forward, py::arg("model"), py::arg("q"), py::arg("v"),
        py::arg("tau") = py::none(), py::arg("t") = 0.0, py::kw_only(), data, Release(),
        "Accelerations qdd (nv; per s^2) solving M qdd = tau - K q - D v - ID(q, v, 0) at time t\n"
        "[s]. tau: applied generalised forces (nv); None takes the model's actuation B(q) u(t)\n"
        "(actuation_forces). Closed chains and prescribed coordinates are not applied here.\n"
        "NaN when M is not positive definite. Returns a new array.");
  m.def("inverse_dynamics_derivatives", &inverseDerivatives, py::arg("model"), py::arg("q"),
        py::arg("v"), py::arg("a"), py::arg("t") = 0.0, py::kw_only(), data, Release(),
        "Analytical (dID/dq, dID/dv) at (q, v, a, t [s]), each a new nv x nv array; dID/da is\n"
        "mass_matrix(q).");
  m.def(
      "forward_dynamics_derivatives", &forwardDerivatives, py::arg("model"), py::arg("q"),
      py::arg("v"), py::arg("t") = 0.0, py::kw_only(), data, Release(),
      "Analytical (dFD/dq, dFD/dv) of forward_dynamics(q, v, None, t) (the model's own actuation\n"
      "B(q) u(t), whose q-dependence is included), each a new nv x nv array (1/s^2, 1/s).");
  m.def("actuation_jacobian", &actuationDerivative, py::arg("model"), py::arg("q"),
        py::arg("t") = 0.0, py::kw_only(), data, Release(),
        "d(B u)/dq at q and time t [s]: how the cables' generalised forces change with the\n"
        "configuration (joint inputs do not). A new nv x nq array.");
}

}  // namespace tendril::python
