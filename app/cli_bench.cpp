// tendril-cli bench: per-call times of the engine's algorithms on one model.

#include <chrono>
#include <functional>
#include <iomanip>
#include <iostream>

#include "app/cli_args.hpp"
#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
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

}  // namespace

int runBench(const Args& args) {
  const std::vector<Option> options = {
      {"--min-time", true, "seconds per measured batch (default 0.05)"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("bench MODEL.json [--min-time S]", options,
              "Median time per call (5 batches) of each algorithm at a random state.");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  const double min_time = parsed.number("--min-time", 0.05);
  Data data(model);
  const Eigen::VectorXd q = 0.3 * Eigen::VectorXd::Random(model.nq);
  const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv),
                        a = Eigen::VectorXd::Random(model.nv);
  Eigen::VectorXd tau(model.nv);
  Eigen::MatrixXd dq, dv;
  FiniteDifferenceJacobian fd_jacobian;
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"forward kinematics (q, v)", [&] { forwardKinematics(model, data, q, v); }},
      {"inverse dynamics", [&] { inverseDynamics(model, data, q, v, a); }},
      {"mass matrix", [&] { massMatrix(model, data, q); }},
      {"actuation B(q) u", [&] { actuationForces(model, q, 0.5, tau); }},
      {"forward dynamics", [&] { forwardDynamics(model, data, q, v, tau); }},
      {"FD Jacobian (central differences)",
       [&] { fd_jacobian.compute(model, data, 0.0, q, v, dq, dv); }},
  };
  std::cout << "model: " << robot->name << " (" << model.nq << " dof, " << model.n_vjoints()
            << " virtual joints)\n";
  for (const auto& [name, call] : cases) {
    const double seconds = secondsPerCall(call, min_time);
    std::cout << "  " << std::left << std::setw(36) << name << std::right << std::setw(12)
              << std::fixed << std::setprecision(2) << seconds * 1e6 << " us\n";
  }
  return kExitOk;
}

}  // namespace tendril::cli
