// tendril-cli bench: per-call times of the engine's algorithms on one model.

#include <chrono>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>

#include "app/cli_args.hpp"
#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/statics.hpp"
#include "core/sim/dynamics_system.hpp"

namespace tendril::cli {
namespace {

// median of several batches, each long enough to dwarf the clock's resolution
double secondsPerCall(const std::function<void()>& call, double min_batch_seconds) {
  using Clock = std::chrono::steady_clock;
  long calls = 1;
  for (;;) {
    const auto start = Clock::now();
    for (long i = 0; i < calls; ++i) call();
    if (std::chrono::duration<double>(Clock::now() - start).count() >= min_batch_seconds) break;
    calls *= 2;
  }
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) {
    const auto start = Clock::now();
    for (long i = 0; i < calls; ++i) call();
    batches.push_back(std::chrono::duration<double>(Clock::now() - start).count() / calls);
  }
  std::sort(batches.begin(), batches.end());
  return batches[2];
}

// central differences of ID in q and v: 4 n evaluations of the cheapest ID (differences need no
// subspaces), the reference of the analytical pass
void idDifferences(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const Eigen::VectorXd& a, Eigen::VectorXd& x,
                   Eigen::VectorXd& plus, Eigen::MatrixXd& dq, Eigen::MatrixXd& dv) {
  constexpr double h = 1e-6;
  x = q;
  for (int i = 0; i < model.nq; ++i) {
    x(i) = q(i) + h;
    plus = inverseDynamicsWithoutSubspaces(model, data, x, v, a);
    x(i) = q(i) - h;
    dq.col(i) = (plus - inverseDynamicsWithoutSubspaces(model, data, x, v, a)) / (2.0 * h);
    x(i) = q(i);
  }
  x = v;
  for (int i = 0; i < model.nv; ++i) {
    x(i) = v(i) + h;
    plus = inverseDynamicsWithoutSubspaces(model, data, q, x, a);
    x(i) = v(i) - h;
    dv.col(i) = (plus - inverseDynamicsWithoutSubspaces(model, data, q, x, a)) / (2.0 * h);
    x(i) = v(i);
  }
}

}  // namespace

int runBench(const Args& args) {
  const std::vector<Option> options = {
      {"--min-time", true, "seconds per measured batch (default 0.05)"},
      {"--statics", false, "also time the static solve with either Jacobian (from q = 0)"},
      {"--time", true, "time [s] of the inputs for the Jacobians and statics (default 0)"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("bench MODEL.json [--min-time S] [--statics] [--time T]", options,
              "Median time per call (5 batches) of each algorithm at a random state, then the\n"
              "analytical derivatives against central finite differences (speed-ups).");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  const double min_time = parsed.number("--min-time", 0.05);
  const double t = parsed.number("--time", 0.0);
  Data data(model);
  const Eigen::VectorXd q = 0.3 * Eigen::VectorXd::Random(model.nq);
  const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv),
                        a = Eigen::VectorXd::Random(model.nv);
  Eigen::VectorXd tau(model.nv);
  Eigen::MatrixXd dq(model.nv, model.nq), dv(model.nv, model.nv);
  Eigen::VectorXd x(model.nv), plus(model.nv);
  FiniteDifferenceJacobian fd_jacobian;
  AnalyticJacobian analytic_jacobian;
  std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"forward kinematics (q, v)", [&] { forwardKinematics(model, data, q, v); }},
      {"inverse dynamics", [&] { inverseDynamics(model, data, q, v, a); }},
      {"ID without subspaces", [&] { inverseDynamicsWithoutSubspaces(model, data, q, v, a); }},
      {"mass matrix", [&] { massMatrix(model, data, q); }},
      {"actuation B(q) u", [&] { actuationForces(model, q, 0.5, tau); }},
      {"forward dynamics", [&] { forwardDynamics(model, data, q, v, tau); }},
      {"ID + mass matrix",
       [&] {
         inverseDynamics(model, data, q, v, a);
         massMatrixFromKinematics(model, data);
       }},
      {"ID derivatives (analytic)", [&] { inverseDynamicsDerivatives(model, data, q, v, a); }},
      {"ID derivatives (central differences)",
       [&] { idDifferences(model, data, q, v, a, x, plus, dq, dv); }},
      {"FD Jacobian (analytic)", [&] { analytic_jacobian.compute(model, data, t, q, v, dq, dv); }},
      {"FD Jacobian (central differences)",
       [&] { fd_jacobian.compute(model, data, t, q, v, dq, dv); }},
  };
  const Eigen::VectorXd q_rest = Eigen::VectorXd::Zero(model.nq);
  StaticsOptions statics_analytic, statics_fd;
  statics_analytic.time = statics_fd.time = t;
  statics_fd.analytic_jacobian = false;
  if (parsed.has("--statics")) {
    cases.emplace_back("statics (analytic Jacobian)",
                       [&] { solveStatics(model, data, q_rest, statics_analytic); });
    cases.emplace_back("statics (central differences)",
                       [&] { solveStatics(model, data, q_rest, statics_fd); });
  }
  std::cout << "model: " << robot->name << " (" << model.nq << " dof, " << model.n_vjoints()
            << " virtual joints)\n";
  std::map<std::string, double> seconds;
  for (const auto& [name, call] : cases) {
    seconds[name] = secondsPerCall(call, min_time);
    std::cout << "  " << std::left << std::setw(38) << name << std::right << std::setw(12)
              << std::fixed << std::setprecision(2) << seconds[name] * 1e6 << " us\n";
  }
  const auto ratio = [&](const std::string& label, const std::string& a, const std::string& b) {
    std::cout << "  " << std::left << std::setw(38) << label << std::right << std::setw(12)
              << std::fixed << std::setprecision(1) << seconds.at(a) / seconds.at(b) << " x\n";
  };
  std::cout << "ratios:\n";
  ratio("dID: central differences / analytic", "ID derivatives (central differences)",
        "ID derivatives (analytic)");
  ratio("dID analytic / (ID + M)", "ID derivatives (analytic)", "ID + mass matrix");
  ratio("dFD: central differences / analytic", "FD Jacobian (central differences)",
        "FD Jacobian (analytic)");
  if (parsed.has("--statics")) {
    ratio("statics: central differences / analytic", "statics (central differences)",
          "statics (analytic Jacobian)");
  }
  return kExitOk;
}

}  // namespace tendril::cli
