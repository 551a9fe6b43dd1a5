// Inverse statics: actuator values whose equilibrium puts a tip on a target.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <Eigen/Geometry>
#include <optional>

#include "core/algorithm/inverse_statics.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

/// the result with the actuators it is about
struct PyInverseStaticsResult {
  InverseStaticsResult result;
  std::vector<std::string> actuators, units;
};

// a 3 x 3 rotation, a quaternion (w, x, y, z) or a rotation vector [rad]
Eigen::Matrix3d orientationFrom(const Eigen::MatrixXd& value) {
  if (value.rows() == 3 && value.cols() == 3) return value;
  const Eigen::VectorXd v = value.reshaped();
  if (v.size() == 4) {
    const Eigen::Quaterniond quaternion(v(0), v(1), v(2), v(3));
    if (!(quaternion.norm() > 1e-12)) throw py::value_error("orientation: a zero quaternion");
    return quaternion.normalized().toRotationMatrix();
  }
  if (v.size() == 3) {
    const double angle = v.norm();
    if (!std::isfinite(angle)) throw py::value_error("orientation: not finite");
    return angle == 0.0 ? Eigen::Matrix3d::Identity()
                        : Eigen::Matrix3d(Eigen::AngleAxisd(angle, v.normalized()));
  }
  throw py::value_error(
      "orientation must be a 3 x 3 rotation matrix, a quaternion (w, x, y, z) or a rotation "
      "vector (3)");
}

PyInverseStaticsResult solveInverseStatics(const std::shared_ptr<Model>& model, const Eigen::Vector3d& target,
                             const py::object& link,
                             const std::optional<std::vector<std::string>>& actuators,
                             const std::optional<std::vector<std::pair<double, double>>>& bounds,
                             const std::optional<Eigen::MatrixXd>& orientation,
                             const std::optional<Eigen::VectorXd>& q0,
                             const std::optional<Eigen::VectorXd>& u0,
                             const Eigen::Vector3d& offset, double orientation_weight, double time,
                             double tolerance, int max_iterations) {
  if (q0) checkSize(*q0, model->nq, "q0", "nq");
  InverseStaticsTarget goal;
  {
    py::gil_scoped_acquire gil;  // linkIndex reads a Python object
    goal.link = model->links[linkIndex(*model, link)].name;
  }
  goal.position = target;
  goal.offset = offset;
  if (orientation) goal.orientation = orientationFrom(*orientation);
  goal.orientation_weight = orientation_weight;
  InverseStaticsOptions options;
  if (actuators) options.actuators = *actuators;
  if (bounds) options.bounds = *bounds;
  options.statics.time = time;
  options.position_tolerance = tolerance;
  options.max_iterations = max_iterations;
  InverseStaticsSolver solver(*model, options);
  PyInverseStaticsResult out;
  for (const Actuator& actuator : solver.actuators()) {
    out.actuators.push_back(actuator.name);
    out.units.push_back(actuator.unit);
  }
  if (u0 && static_cast<std::size_t>(u0->size()) != out.actuators.size())
    throw py::value_error("u0 has " + std::to_string(u0->size()) + " entries, for " +
                          std::to_string(out.actuators.size()) + " actuators");
  out.result = solver.solve(goal, u0 ? *u0 : solver.initialValues(),
                            q0 ? *q0 : Eigen::VectorXd::Zero(model->nq));
  return out;
}

}  // namespace

void bindInverseStatics(py::module_& m) {
  using R = PyInverseStaticsResult;
  py::class_<R>(m, "InverseStaticsResult", "The outcome of tendril.inverse_statics (copies).")
      .def_property_readonly(
          "converged", [](const R& r) { return r.result.converged; },
          "the tip is on the target within the tolerance")
      .def_property_readonly(
          "u", [](const R& r) { return r.result.u; },
          "actuator values, in the order of .actuators [.units]")
      .def_readonly("actuators", &R::actuators, "actuator names (cables, joint-input coordinates)")
      .def_readonly("units", &R::units, "unit of each actuator value ('N', 'N m')")
      .def_property_readonly(
          "q", [](const R& r) { return r.result.q; }, "the equilibrium at u (nq)")
      .def_property_readonly(
          "tip", [](const R& r) { return r.result.point; }, "the placed point reached [m], world")
      .def_property_readonly(
          "tip_rotation", [](const R& r) { return r.result.tip.R; },
          "rotation of the tip frame reached (3 x 3), world")
      .def_property_readonly(
          "position_error", [](const R& r) { return r.result.position_error; },
          "|tip - target| [m]")
      .def_property_readonly(
          "orientation_error", [](const R& r) { return r.result.orientation_error; },
          "|log(R_tip R_target^T)| [rad]; 0 without an orientation target")
      .def_property_readonly(
          "iterations", [](const R& r) { return r.result.iterations; },
          "outer (Levenberg-Marquardt) iterations")
      .def_property_readonly(
          "statics_iterations", [](const R& r) { return r.result.statics_iterations; },
          "Newton iterations of all the inner statics solves")
      .def_property_readonly("message", [](const R& r) { return r.result.message; })
      .def("__repr__", [](const R& r) {
        return "<tendril.InverseStaticsResult converged=" +
               std::string(r.result.converged ? "True" : "False") + ": " + r.result.message + ">";
      });
  m.def("inverse_statics", &solveInverseStatics, py::arg("model"), py::arg("target"), py::kw_only(),
        py::arg("link"), py::arg("actuators") = py::none(), py::arg("bounds") = py::none(),
        py::arg("orientation") = py::none(), py::arg("q0") = py::none(), py::arg("u0") = py::none(),
        py::arg("offset") = Eigen::Vector3d::Zero(), py::arg("orientation_weight") = 0.1,
        py::arg("time") = 0.0, py::arg("tolerance") = 1e-10, py::arg("max_iterations") = 100,
        py::call_guard<py::gil_scoped_release>(),
        "Actuator values whose static equilibrium puts the tip of `link` on `target` (x, y, z)\n"
        "[m, world], as `tendril-cli inverse-statics`: bound-constrained Levenberg-Marquardt\n"
        "with the implicit-function gradient dq*/du = -(dR/dq)^-1 dR/du (analytical).\n"
        "link: name or index. actuators: names of cables [N] and joint-input coordinates\n"
        "(e.g. 'link1/joint/0') [N m or N]; default: every cable and force joint input.\n"
        "bounds: one (lower, upper) per actuator; default cables (0, inf), joint inputs\n"
        "unbounded. orientation: target rotation of the tip frame (3 x 3, quaternion (w, x, y, z)\n"
        "or rotation vector [rad]), weighed by orientation_weight [m/rad]. offset: the placed\n"
        "point in the tip frame [m]. q0 (nq), u0: the start (default zeros and the inputs' values\n"
        "at `time` [s], clamped). tolerance: tip distance counted as on target [m].\n"
        "Returns an InverseStaticsResult; an unreachable target gives converged False and\n"
        "message 'unreachable: closest point (x, y, z) at d m from the target ...'.\n"
        "Bad names, bounds or targets raise ValueError.");
}

}  // namespace tendril::python
