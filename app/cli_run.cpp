// tendril-cli statics and simulate.

#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>

#include "app/cli_args.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/algorithm/statics.hpp"
#include "core/io/results_io.hpp"
#include "core/sim/simulation.hpp"

namespace tendril::cli {
namespace {

// "NAME=VALUE" where NAME is a coordinate name (see `info`) or index
std::pair<int, double> parsePrescription(const Model& model, const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos)
    throw UsageError{"--prescribe expects COORDINATE=VALUE, got '" + text + "'"};
  const std::string name = text.substr(0, equals);
  int index = -1;
  for (int i = 0; i < model.nq; ++i) {
    if (model.coordinate_names[i] == name || std::to_string(i) == name) index = i;
  }
  if (index < 0)
    throw UsageError{"--prescribe: no coordinate '" + name +
                     "' (list them with: tendril-cli info MODEL.json --coordinates)"};
  const std::string number = text.substr(equals + 1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size()) {
    throw UsageError{"--prescribe: '" + number + "' is not a number"};
  }
  return {index, value};
}

// the leaf links' tips; on the model-agnostic family, of a model the engine cannot run, the leaf
// bodies' distal frames D (the tip up to the link's fixed g_tip) from the bodies' own reports
void printTips(const Model& model, const Eigen::VectorXd& q,
               DynamicsFamily family = DynamicsFamily::Engine) {
  Data data(model);
  if (family == DynamicsFamily::ModelAgnostic && model.agnostic_only) {
    ModelAgnosticPoses poses(model, data);
    modelAgnosticPoses(model, data, q, poses);
    for (std::size_t b = 0; b < poses.distal.size(); ++b) {
      const int link = data.agnostic.link[b];
      if (!model.links[link].is_leaf) continue;
      const Eigen::Vector3d& p = poses.distal[b].p;
      std::cout << "distal frame " << model.links[link].name << ": [" << p.x() << ", " << p.y()
                << ", " << p.z() << "] m\n";
    }
    return;
  }
  forwardKinematics(model, data, q);
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    if (!model.links[i].is_leaf) continue;
    const Eigen::Vector3d p = linkTipPose(model, data, static_cast<int>(i)).p;
    std::cout << "tip " << model.links[i].name << ": [" << p.x() << ", " << p.y() << ", " << p.z()
              << "] m\n";
  }
}

SimulationResult runWithProgress(const Model& model, const SimulationOptions& sim, bool quiet) {
  auto last_report = std::chrono::steady_clock::now();
  const SimulationResult result = simulate(
      model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), sim, nullptr,
      [&](const Sample& sample) {
        const auto now = std::chrono::steady_clock::now();
        if (!quiet && now - last_report > std::chrono::milliseconds(500)) {
          std::cerr << "\rt = " << std::fixed << std::setprecision(3) << sample.t << " s ("
                    << std::setprecision(0) << 100.0 * sample.t / sim.t_end << " %)" << std::flush;
          last_report = now;
        }
        return true;
      });
  if (!quiet) std::cerr << "\r" << std::string(40, ' ') << "\r";
  return result;
}

const char* jacobianName(JacobianKind kind) {
  return kind == JacobianKind::Analytic ? "analytic" : "finite differences";
}

// the controllers' last tracking errors; their laws have no analytical derivatives, so the
// Jacobian of a controlled model is central differences of the closed loop
void printControllers(const Model& model, const SimulationResult& result) {
  if (model.controllers.empty() || result.samples.empty()) return;
  const ControlRecord& last = result.samples.back().control;
  const std::vector<std::string> labels = controlledVariableLabels(model);
  std::cout << "controllers: " << model.controllers.size() << " in the loop\n";
  for (std::size_t k = 0; k < labels.size() && static_cast<Eigen::Index>(k) < last.values.size();
       ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    std::cout << "  " << labels[k] << ": set-point " << last.setpoints(i) << ", value "
              << last.values(i) << " at t = " << result.samples.back().t << " s\n";
  }
}

void printRun(const SimulationOptions& sim, const SimulationResult& result,
              bool controlled = false) {
  std::cout << std::defaultfloat << std::setprecision(6) << "simulate: " << result.message << "\n"
            << "integrator: " << integratorName(sim.integrator) << ", " << result.statistics.steps
            << " steps, " << result.statistics.rhs_evaluations
            << (sim.integrator == IntegratorKind::Ida ? " residual evaluations (inverse dynamics), "
                                                      : " dynamics evaluations, ")
            << result.statistics.jacobian_evaluations << " Jacobians ("
            << (controlled                                  ? "finite differences: controllers in the loop"
                : result.family == DynamicsFamily::Engine ? jacobianName(sim.jacobian)
                                                          : "central differences")
            << ")"
            << (result.statistics.restarts > 0
                    ? ", " + std::to_string(result.statistics.restarts) +
                          " restart(s) from the last accepted step after a step-size collapse"
                    : std::string())
            << "\n"
            << "wall time: " << result.statistics.wall_time << " s for " << result.samples.back().t
            << " s simulated (" << result.samples.back().t / result.statistics.wall_time
            << "x real time)\n"
            << familyLine(result.family, result.derivatives) << "\n";
}

// the paper's validation: the same run with the analytical and the finite-difference Jacobian
int compareJacobians(const Model& model, SimulationOptions sim, bool quiet) {
  sim.jacobian = JacobianKind::Analytic;
  const SimulationResult analytic = runWithProgress(model, sim, quiet);
  printRun(sim, analytic);
  sim.jacobian = JacobianKind::FiniteDifference;
  const SimulationResult fd = runWithProgress(model, sim, quiet);
  printRun(sim, fd);
  const std::size_t common = std::min(analytic.samples.size(), fd.samples.size());
  std::cout << "speed-up of the analytical Jacobian: "
            << fd.statistics.wall_time / analytic.statistics.wall_time << "x\n"
            << "tip error between the runs (largest over " << common
            << " samples): " << maxTipDistance(model, analytic.samples, fd.samples) << " m\n";
  printTips(model, analytic.samples.back().q);
  return analytic.completed && fd.completed ? kExitOk : kExitFailure;
}
}  // namespace

int runStatics(const Args& args) {
  const std::vector<Option> options = {
      {"--time", true, "time at which inputs and loads are evaluated [s] (default 0)"},
      {"--prescribe", true, "hold COORDINATE=VALUE (name or index; repeatable)", true},
      {"--tolerance", true, "relative residual tolerance (default 1e-12)"},
      {"--jacobian", true, "analytic (default) | fd (central finite differences)"},
      {"--out", true, "write the equilibrium as CSV (same columns as simulate)"},
      familyOption()};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp(
        "statics MODEL.json [options]", options,
        "Solves B u - K q - ID(q, 0, 0) = 0 by damped Newton with load stepping, from q = 0.");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  StaticsOptions statics;
  statics.time = parsed.number("--time", 0.0);
  statics.residual_tolerance = parsed.number("--tolerance", statics.residual_tolerance);
  const std::string jacobian = parsed.value("--jacobian", "analytic");
  if (jacobian != "analytic" && jacobian != "fd")
    throw UsageError{"unknown --jacobian '" + jacobian + "' (analytic, fd)"};
  statics.analytic_jacobian = jacobian == "analytic";
  statics.family = familyFor(parsed, model);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  if (parsed.has("--prescribe")) {
    for (const std::string& text : parsed.values.at("--prescribe")) {
      const auto [index, value] = parsePrescription(model, text);
      statics.prescribed.push_back(index);
      q0(index) = value;
    }
  }
  Data data(model);
  const auto started = std::chrono::steady_clock::now();
  const StaticsResult result = solveStatics(model, data, q0, statics);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << std::setprecision(8) << "statics: " << result.message << " in " << result.iterations
            << " Newton iterations, " << result.load_steps << " load step(s), " << seconds * 1e3
            << " ms\n"
            << "residual norm: " << result.residual_norm << "\n"
            << familyLine(result.family, result.derivatives) << "\n";
  printTips(model, result.q, result.family);
  for (std::size_t i = 0; i < statics.prescribed.size(); ++i) {
    std::cout << "reaction on " << model.coordinate_names[statics.prescribed[i]] << ": "
              << result.reactions(i) << "\n";
  }
  if (parsed.has("--out")) {
    saveTrajectoryCsv(model, {Sample{statics.time, result.q, Eigen::VectorXd::Zero(model.nv), {}}},
                      parsed.value("--out"));
  }
  return result.converged ? kExitOk : kExitFailure;
}

int runSimulate(const Args& args) {
  const std::vector<Option> options = {
      {"--t-end", true, "final time [s] (default 1)"},
      {"--dt", true, "output interval [s] (default 0.01)"},
      {"--integrator", true,
       "bdf | ida | newmark | implicit-euler | rk4 (default bdf); ida: BDF on the residual form "
       "ID - tau = 0 (one inverse dynamics per residual; no closed chains)"},
      {"--step", true,
       "fixed step [s] (newmark, implicit-euler, rk4; default 1e-3); bdf, ida: maximum step"},
      {"--rtol", true, "relative tolerance (default 1e-6)"},
      {"--atol", true, "absolute tolerance (default 1e-8)"},
      {"--jacobian", true,
       "analytic (recursive derivatives, default) | fd (central finite differences)"},
      {"--out", true, "trajectory CSV to write (also when the run stops early)"},
      {"--compare-jacobians", false,
       "run twice, analytic then fd: wall times, speed-up and the largest tip distance"},
      {"--quiet", false, "no progress on stderr"},
      familyOption()};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp(
        "simulate MODEL.json [options]", options,
        "Integrates the dynamics from rest (q = 0, v = 0). Exit 1 when the run diverges; the\n"
        "samples computed until then are still written.");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  SimulationOptions sim;
  sim.t_end = parsed.number("--t-end", sim.t_end);
  sim.output_interval = parsed.number("--dt", sim.output_interval);
  if (!parseIntegrator(parsed.value("--integrator", "bdf"), sim.integrator)) {
    throw UsageError{"unknown integrator '" + parsed.value("--integrator") +
                     "' (bdf, ida, newmark, implicit-euler, rk4)"};
  }
  if (const auto reason = unsupportedModel(model, sim.integrator)) throw UsageError{*reason};
  sim.step = parsed.number("--step", variableStep(sim.integrator) ? 0.0 : sim.step);
  sim.relative_tolerance = parsed.number("--rtol", sim.relative_tolerance);
  sim.absolute_tolerance = parsed.number("--atol", sim.absolute_tolerance);
  if (!parseJacobian(parsed.value("--jacobian", "analytic"), sim.jacobian))
    throw UsageError{"unknown --jacobian '" + parsed.value("--jacobian") + "' (analytic, fd)"};
  if (!(sim.output_interval > 0.0) || !(sim.t_end > 0.0))
    throw UsageError{"--t-end and --dt must be positive"};
  sim.family = familyFor(parsed, model);
  const bool quiet = parsed.has("--quiet");
  if (parsed.has("--compare-jacobians")) return compareJacobians(model, sim, quiet);
  const SimulationResult result = runWithProgress(model, sim, quiet);
  printRun(sim, result, !model.controllers.empty());
  printControllers(model, result);
  printTips(model, result.samples.back().q, result.family);
  if (parsed.has("--out")) {
    saveTrajectoryCsv(model, result.samples, parsed.value("--out"));
    std::cout << "wrote " << result.samples.size() << " samples to " << parsed.value("--out")
              << "\n";
  }
  return result.completed ? kExitOk : kExitFailure;
}

}  // namespace tendril::cli
