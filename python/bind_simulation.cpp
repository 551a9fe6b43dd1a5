// Simulation: every integrator of core/sim, options as keyword arguments, the trajectory as
// arrays and as a table with the CSV's columns.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>

#include "core/io/results_io.hpp"
#include "core/sim/simulation.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

/// \brief A finished run and the model it ran on (for the table's tip columns).
struct Run {
  ModelPtr model;
  SimulationResult result;
};

IntegratorKind integratorOf(const py::object& integrator) {
  if (!py::isinstance<py::str>(integrator)) return integrator.cast<IntegratorKind>();
  IntegratorKind kind = IntegratorKind::Bdf;
  const std::string name = integrator.cast<std::string>();
  if (!parseIntegrator(name, kind)) {
    throw py::value_error("unknown integrator '" + name +
                          "' (bdf, ida, newmark, implicit-euler, rk4)");
  }
  return kind;
}

// sample rows stacked into a samples x n matrix
template <typename Get>
Eigen::MatrixXd stack(const std::vector<Sample>& samples, Eigen::Index n, Get get) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(samples.size()), n);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Eigen::VectorXd& x = get(samples[i]);
    if (x.size() == n) out.row(static_cast<Eigen::Index>(i)) = x.transpose();
  }
  return out;
}

py::dict table(const Run& run) {
  TrajectoryTable values;
  {
    py::gil_scoped_release release;
    values = trajectoryTable(*run.model, run.result.samples);
  }
  py::dict columns;
  for (std::size_t c = 0; c < values.columns.size(); ++c) {
    columns[py::str(values.columns[c])] =
        Eigen::VectorXd(values.values.col(static_cast<Eigen::Index>(c)));
  }
  return columns;
}

Run run(const std::shared_ptr<Model>& model, double t_end, const std::optional<Eigen::VectorXd>& q0,
        const std::optional<Eigen::VectorXd>& v0, double dt, const py::object& integrator,
        const std::optional<double>& step, double rtol, double atol, const std::string& jacobian,
        double t_start, double newmark_beta, double newmark_gamma, int max_newton_iterations,
        double min_step) {
  if (q0) checkSize(*q0, model->nq, "q0", "nq");
  if (v0) checkSize(*v0, model->nv, "v0", "nv");
  SimulationOptions options;
  options.t_start = t_start;
  options.t_end = t_end;
  options.output_interval = dt;
  options.integrator = integratorOf(integrator);
  options.step = step ? *step : (variableStep(options.integrator) ? 0.0 : 1e-3);
  options.relative_tolerance = rtol;
  options.absolute_tolerance = atol;
  if (!parseJacobian(jacobian, options.jacobian))
    throw py::value_error("jacobian must be 'analytic' or 'fd', got '" + jacobian + "'");
  options.newmark_beta = newmark_beta;
  options.newmark_gamma = newmark_gamma;
  options.max_newton_iterations = max_newton_iterations;
  options.min_step = min_step;
  if (!(dt > 0.0) || !(t_end > t_start))
    throw py::value_error("dt must be positive and t_end later than t_start");
  const Eigen::VectorXd q = q0 ? *q0 : Eigen::VectorXd::Zero(model->nq);
  const Eigen::VectorXd v = v0 ? *v0 : Eigen::VectorXd::Zero(model->nv);
  py::gil_scoped_release release;
  return Run{model, simulate(*model, q, v, options)};
}

void bindRun(py::module_& m) {
  py::class_<Run>(m, "SimulationResult",
                  "A trajectory: arrays of the recorded samples (copies), and how the run ended.")
      .def_property_readonly(
          "t",
          [](const Run& r) {
            Eigen::VectorXd t(static_cast<Eigen::Index>(r.result.samples.size()));
            for (std::size_t i = 0; i < r.result.samples.size(); ++i) t(i) = r.result.samples[i].t;
            return t;
          },
          "sample times [s] (n)")
      .def_property_readonly(
          "q",
          [](const Run& r) {
            return stack(
                r.result.samples, r.model->nq, [](const Sample& s) -> auto& { return s.q; });
          },
          "coordinates (n x nq; rad, m or strain)")
      .def_property_readonly(
          "v",
          [](const Run& r) {
            return stack(
                r.result.samples, r.model->nv, [](const Sample& s) -> auto& { return s.v; });
          },
          "velocities (n x nv; per s)")
      .def_property_readonly(
          "efforts",
          [](const Run& r) {
            return stack(
                r.result.samples, static_cast<Eigen::Index>(r.model->prescribed.size()),
                [](const Sample& s) -> auto& { return s.efforts; });
          },
          "generalised forces holding the prescribed coordinates (n x prescribed; N or N m)")
      .def_property_readonly("table", &table,
                             "{column: array}: the columns of `tendril-cli simulate --out`\n"
                             "(t, q:<coordinate>, v:<coordinate>, tip:<leaf link>:x|y|z [m] and\n"
                             "qw|qx|qy|qz, kinetic, gravitational, elastic, dissipated [J]);\n"
                             "pandas.DataFrame(result.table) reads it")
      .def_property_readonly(
          "completed", [](const Run& r) { return r.result.completed; },
          "whether the run reached t_end")
      .def_property_readonly(
          "message", [](const Run& r) { return r.result.message; },
          "why it stopped, naming the time reached")
      .def_property_readonly(
          "statistics",
          [](const Run& r) {
            const SimulationStatistics& s = r.result.statistics;
            py::dict d;
            d["steps"] = s.steps;
            d["rhs_evaluations"] = s.rhs_evaluations;
            d["jacobian_evaluations"] = s.jacobian_evaluations;
            d["restarts"] = s.restarts;
            d["wall_time"] = s.wall_time;
            return d;
          },
          "steps, rhs_evaluations, jacobian_evaluations, restarts, wall_time [s]")
      .def("__len__", [](const Run& r) { return r.result.samples.size(); })
      .def("__repr__", [](const Run& r) {
        return "<tendril.SimulationResult " + std::to_string(r.result.samples.size()) +
               " samples: " + r.result.message + ">";
      });
}

}  // namespace

void bindSimulation(py::module_& m) {
  py::enum_<IntegratorKind>(m, "Integrator", "The time integrators (or pass their names).")
      .value("BDF", IntegratorKind::Bdf, "'bdf': SUNDIALS CVODES on x' = [v; FD], variable step")
      .value("IDA", IntegratorKind::Ida,
             "'ida': SUNDIALS IDAS on ID(q, v, v') - tau = 0, variable step; no closed chains")
      .value("NEWMARK", IntegratorKind::Newmark, "'newmark': Newmark-beta, fixed step")
      .value("IMPLICIT_EULER", IntegratorKind::ImplicitEuler, "'implicit-euler': fixed step")
      .value("RK4", IntegratorKind::Rk4, "'rk4': explicit Runge-Kutta 4, fixed step");
  bindRun(m);
  m.def("simulate", &run, py::arg("model"), py::arg("t_end") = 1.0, py::kw_only(),
        py::arg("q0") = py::none(), py::arg("v0") = py::none(), py::arg("dt") = 0.01,
        py::arg("integrator") = "bdf", py::arg("step") = py::none(), py::arg("rtol") = 1e-6,
        py::arg("atol") = 1e-8, py::arg("jacobian") = "analytic", py::arg("t_start") = 0.0,
        py::arg("newmark_beta") = 0.25, py::arg("newmark_gamma") = 0.5,
        py::arg("max_newton_iterations") = 12, py::arg("min_step") = 0.0,
        "Integrates the dynamics from (q0, v0) (default: rest at q = 0, as `tendril-cli\n"
        "simulate`) and returns a SimulationResult. The GIL is released during the run.\n"
        "\n"
        "t_end: final time [s]. dt: output interval [s] between recorded samples.\n"
        "integrator: 'bdf' (default), 'ida', 'newmark', 'implicit-euler', 'rk4' or an Integrator.\n"
        "step: fixed step [s] of newmark, implicit-euler, rk4 (default 1e-3); the maximum step of\n"
        "bdf and ida (default None: no maximum).\n"
        "rtol, atol: error control of bdf and ida (relative; absolute in the state's units), and\n"
        "the Newton convergence of the implicit fixed-step methods.\n"
        "jacobian: 'analytic' (default) or 'fd' (central finite differences).\n"
        "t_start: initial time [s]. newmark_beta, newmark_gamma: Newmark's parameters (1/4, 1/2).\n"
        "max_newton_iterations: per step. min_step: a step-size collapse below this [s] is a\n"
        "divergence (0: automatic).\n"
        "A diverging run is not an exception: it returns the samples recorded before, with\n"
        "completed False and a message. Inconsistent options raise ValueError.");
}

}  // namespace tendril::python
