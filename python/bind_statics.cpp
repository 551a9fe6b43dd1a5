// Statics: the equilibrium under the model's loads and inputs.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>

#include "core/algorithm/statics.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

StaticsResult solve(const std::shared_ptr<Model>& model, const std::optional<Eigen::VectorXd>& q0,
                    double time, const std::vector<int>& prescribed, double tolerance,
                    const std::string& jacobian, int max_iterations,
                    const std::shared_ptr<DataHandle>& given) {
  if (q0) checkSize(*q0, model->nq, "q0", "nq");
  if (jacobian != "analytic" && jacobian != "fd")
    throw py::value_error("jacobian must be 'analytic' or 'fd', got '" + jacobian + "'");
  for (int k : prescribed) {
    if (k < 0 || k >= model->nq)
      throw py::value_error("prescribed coordinate " + std::to_string(k) + " out of range");
  }
  StaticsOptions options;
  options.time = time;
  options.prescribed = prescribed;
  options.residual_tolerance = tolerance;
  options.analytic_jacobian = jacobian == "analytic";
  options.max_iterations = max_iterations;
  Workspace work(model, given);
  return solveStatics(*model, work.data(), q0 ? *q0 : Eigen::VectorXd::Zero(model->nq), options);
}

}  // namespace

void bindStatics(py::module_& m) {
  py::class_<StaticsResult>(m, "StaticsResult", "The outcome of tendril.statics (copies).")
      .def_readonly("converged", &StaticsResult::converged)
      .def_readonly("q", &StaticsResult::q, "the equilibrium, or the last iterate (nq)")
      .def_readonly("reactions", &StaticsResult::reactions,
                    "generalised forces holding the prescribed coordinates, then the model's\n"
                    "position inputs [N or N m]")
      .def_readonly("constraint_forces", &StaticsResult::lambda,
                    "closed-chain constraint forces (n_constraints)")
      .def_readonly("constraint_error", &StaticsResult::constraint_error,
                    "|e(q)| of the closed chains at the solution")
      .def_readonly("residual_norm", &StaticsResult::residual_norm, "|R(q)| [N, N m]")
      .def_readonly("iterations", &StaticsResult::iterations, "Newton iterations, all load steps")
      .def_readonly("load_steps", &StaticsResult::load_steps)
      .def_readonly("residual_history", &StaticsResult::residual_history,
                    "|R| after every iteration")
      .def_readonly("message", &StaticsResult::message)
      .def("__repr__", [](const StaticsResult& r) {
        return "<tendril.StaticsResult converged=" + std::string(r.converged ? "True" : "False") +
               " iterations=" + std::to_string(r.iterations) + ": " + r.message + ">";
      });
  m.def("statics", &solve, py::arg("model"), py::arg("q0") = py::none(), py::kw_only(),
        py::arg("time") = 0.0, py::arg("prescribed") = std::vector<int>{},
        py::arg("tolerance") = 1e-12, py::arg("jacobian") = "analytic",
        py::arg("max_iterations") = 50, py::arg("data") = py::none(),
        py::call_guard<py::gil_scoped_release>(),
        "Static equilibrium B u - K q - ID(q, 0, 0) = 0 nearest q0 (nq; default zeros) by damped\n"
        "Newton with load stepping, as `tendril-cli statics`.\n"
        "time: when inputs and loads are evaluated [s]. prescribed: coordinate indices held at\n"
        "their value in q0. tolerance: relative residual tolerance (of the load norm).\n"
        "jacobian: 'analytic' or 'fd' (central differences). max_iterations: per load step.\n"
        "Returns a StaticsResult; a solve that does not converge says why in .message.");
}

}  // namespace tendril::python
