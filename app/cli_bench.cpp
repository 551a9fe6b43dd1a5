// tendril-cli bench: per-call times of the engine's algorithms on one model.

#include <algorithm>
#include <chrono>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include "app/cli_args.hpp"
#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_statics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/algorithm/statics.hpp"
#include "core/math/central_difference.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/simulation.hpp"

namespace tendril::cli {
namespace {

using Clock = std::chrono::steady_clock;

double secondsOf(const std::function<void()>& call, long calls) {
  const auto start = Clock::now();
  for (long i = 0; i < calls; ++i) call();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// calls per batch: doubled until a batch lasts min_batch_seconds, which dwarfs the clock's
// resolution
long callsPerBatch(const std::function<void()>& call, double min_batch_seconds) {
  long calls = 1;
  while (secondsOf(call, calls) < min_batch_seconds) calls *= 2;
  return calls;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// median time per call over 5 batches of `calls` calls
double secondsPerCall(const std::function<void()>& call, long calls) {
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) batches.push_back(secondsOf(call, calls) / calls);
  return median(batches);
}

// time(slow) / time(fast) from batches of the two taken in turn, so that a change of the machine's
// speed (a virtual machine's neighbours) weighs on both sides of every ratio: the median of the
// rounds' ratios and their range
struct PairedRatio {
  double median = 0.0, low = 0.0, high = 0.0;
  int rounds = 0;
};

PairedRatio pairedRatio(const std::function<void()>& slow, long slow_calls,
                        const std::function<void()>& fast, long fast_calls, int rounds) {
  std::vector<double> ratios;
  for (int r = 0; r < rounds; ++r) {
    const double fast_seconds = secondsOf(fast, fast_calls) / fast_calls;
    const double slow_seconds = secondsOf(slow, slow_calls) / slow_calls;
    ratios.push_back(slow_seconds / fast_seconds);
  }
  const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
  return {median(ratios), *low, *high, rounds};
}

// central differences of ID in q and v: 4 n evaluations of the cheapest ID (differences need no
// subspaces), the reference of the analytical pass
void idDifferences(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const Eigen::VectorXd& a, Eigen::VectorXd& x,
                   Eigen::VectorXd& plus, Eigen::VectorXd& minus, Eigen::MatrixXd& dq,
                   Eigen::MatrixXd& dv) {
  constexpr double h = 1e-6;
  x = q;
  centralDifferenceJacobian(
      x, h,
      [&](Eigen::VectorXd& out) { out = inverseDynamicsWithoutSubspaces(model, data, x, v, a); },
      plus, minus, dq);
  x = v;
  centralDifferenceJacobian(
      x, h,
      [&](Eigen::VectorXd& out) { out = inverseDynamicsWithoutSubspaces(model, data, q, x, a); },
      plus, minus, dv);
}

}  // namespace

int runBench(const Args& args) {
  const std::vector<Option> options = {
      {"--min-time", true, "seconds per measured batch (default 0.05)"},
      {"--rounds", true, "paired rounds behind each speed-up (default 11)"},
      {"--statics", false, "also time the static solve with either Jacobian (from q = 0)"},
      {"--time", true, "time [s] of the inputs for the Jacobians and statics (default 0)"},
      {"--inverse-statics", true,
       "LINK: also time a warm-started inverse statics for a 5 mm target move of LINK's tip"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp(
        "bench MODEL.json [--min-time S] [--rounds N] [--statics] [--time T] "
        "[--inverse-statics LINK]",
        options,
        "Median time per call (5 batches) of each algorithm at a random state, then the\n"
        "analytical derivatives against central finite differences: each speed-up is the\n"
        "median (and range) of N rounds that time a batch of either side in turn.");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  const double min_time = parsed.number("--min-time", 0.05);
  const int rounds = static_cast<int>(parsed.number("--rounds", 11));
  if (rounds < 1) {
    std::cerr << "tendril-cli bench: --rounds must be at least 1\n";
    return kExitUsage;
  }
  const double t = parsed.number("--time", 0.0);
  Data data(model);
  const Eigen::VectorXd q = 0.3 * Eigen::VectorXd::Random(model.nq);
  const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv),
                        a = Eigen::VectorXd::Random(model.nv);
  Eigen::VectorXd tau(model.nv);
  Eigen::MatrixXd dq(model.nv, model.nq), dv(model.nv, model.nv);
  Eigen::VectorXd x(model.nv), plus(model.nv), minus(model.nv);
  FiniteDifferenceJacobian fd_jacobian;
  AnalyticJacobian analytic_jacobian;
  std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"forward kinematics (q, v)", [&] { forwardKinematics(model, data, q, v); }},
      {"inverse dynamics", [&] { inverseDynamics(model, data, q, v, a); }},
      {"ID without subspaces", [&] { inverseDynamicsWithoutSubspaces(model, data, q, v, a); }},
      {"mass matrix", [&] { massMatrix(model, data, q); }},
      {"actuation B(q) u", [&] { actuationForces(model, q, 0.5, tau); }},
      {"forward dynamics", [&] { forwardDynamics(model, data, q, v, tau); }},
      // the articulated-body recursion, when every joint owns its coordinates
      {"forward dynamics (articulated body)",
       [&] { articulatedBodyForwardDynamics(model, data, q, v, tau); }},
      {"ID + mass matrix",
       [&] {
         inverseDynamics(model, data, q, v, a);
         massMatrixFromKinematics(model, data);
       }},
      // the model-agnostic recursion (docs/theory/model-agnostic.md), when every link has a body
      // kind for it
      {"model-agnostic ID", [&] { modelAgnosticID(model, data, q, v, a, t); }},
      {"model-agnostic MID (ID + M, one pass)", [&] { modelAgnosticMID(model, data, q, v, a, t); }},
      {"ID derivatives (analytic)", [&] { inverseDynamicsDerivatives(model, data, q, v, a); }},
      {"ID derivatives (central differences)",
       [&] { idDifferences(model, data, q, v, a, x, plus, minus, dq, dv); }},
      {"FD Jacobian (analytic)", [&] { analytic_jacobian.compute(model, data, t, q, v, dq, dv); }},
      {"FD Jacobian (central differences)",
       [&] { fd_jacobian.compute(model, data, t, q, v, dq, dv); }},
  };
  // the model-agnostic family as a simulation runs it (DynamicsSystem): its acceleration and its
  // only Jacobian, central differences of its inverse dynamics
  std::unique_ptr<DynamicsSystem> agnostic;
  ForceSpaceBlocks blocks;
  if (!agnosticFamilyUnsupported(model)) {
    agnostic = std::make_unique<DynamicsSystem>(model, makeJacobian(JacobianKind::Analytic),
                                                DynamicsFamily::ModelAgnostic);
    // with controllers, the closed loop: the laws, then a MID pass unless a PFBL formed M there
    cases.emplace_back(model.controllers.empty()
                           ? "model-agnostic forward dynamics (MID + Cholesky)"
                           : "model-agnostic forward dynamics, closed loop (controllers + FD)",
                       [&] { agnostic->acceleration(t, q, v); });
    cases.emplace_back("model-agnostic FD Jacobian (central differences)",
                       [&] { agnostic->jacobian(t, q, v, dq, dv); });
    // what BDF asks for: the force balance differenced at the forward dynamics' qdd
    cases.emplace_back("model-agnostic force-space Jacobian (BDF)",
                       [&] { agnostic->forceSpaceJacobian(t, q, v, blocks); });
  }
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
  // the studio's dragged target: the tip at the inputs of time t, then moves of 5 mm back and
  // forth, each solved from the last solution
  std::unique_ptr<InverseStaticsSolver> inverse;
  InverseStaticsTarget target;
  Eigen::Vector3d home = Eigen::Vector3d::Zero();
  if (parsed.has("--inverse-statics")) {
    target.link = parsed.value("--inverse-statics");
    const StaticsResult rest = solveStatics(model, data, q_rest, statics_analytic);
    int link = -1;
    for (std::size_t i = 0; i < model.links.size(); ++i) {
      if (model.links[i].name == target.link) link = static_cast<int>(i);
    }
    if (link < 0) throw UsageError{"--inverse-statics: unknown link '" + target.link + "'"};
    forwardKinematics(model, data, rest.q);
    home = linkTipPose(model, data, link).p;
    InverseStaticsOptions options;
    options.statics.time = t;
    inverse = std::make_unique<InverseStaticsSolver>(model, options);
    target.position = home;
    const InverseStaticsResult first = inverse->solve(target);
    if (!first.converged) throw std::runtime_error("inverse statics: " + first.message);
    cases.emplace_back("inverse statics, 5 mm move (warm)", [&] {
      target.position.x() = target.position.x() == home.x() ? home.x() + 0.005 : home.x();
      inverse->solve(target);
    });
  }
  if (data.agnostic.unsupported_link >= 0) {
    std::erase_if(cases, [](const auto& c) { return c.first.starts_with("model-agnostic"); });
  }
  if (model.agnostic_only) {  // the engine's algorithms refuse a body they cannot represent
    std::erase_if(cases, [](const auto& c) { return !c.first.starts_with("model-agnostic"); });
  }
  if (!data.articulated.supported) {
    std::erase_if(cases, [](const auto& c) { return c.first.ends_with("(articulated body)"); });
  }
  std::cout << "model: " << robot->name << " (" << model.nq << " dof, " << model.n_vjoints()
            << " virtual joints)\n";
  std::map<std::string, long> calls;  // per batch, measured once per case
  std::map<std::string, double> seconds;
  for (const auto& [name, call] : cases) {
    calls[name] = callsPerBatch(call, min_time);
    seconds[name] = secondsPerCall(call, calls[name]);
    std::cout << "  " << std::left << std::setw(50) << name << std::right << std::setw(12)
              << std::fixed << std::setprecision(2) << seconds[name] * 1e6 << " us\n";
  }
  const auto call_of = [&](const std::string& name) {
    return std::find_if(cases.begin(), cases.end(), [&](const auto& c) { return c.first == name; })
        ->second;
  };
  const auto ratio = [&](const std::string& label, const std::string& a, const std::string& b) {
    if (!calls.count(a) || !calls.count(b)) return;  // a case this model does not run
    const PairedRatio r = pairedRatio(call_of(a), calls.at(a), call_of(b), calls.at(b), rounds);
    std::cout << "  " << std::left << std::setw(50) << label << std::right << std::setw(12)
              << std::fixed << std::setprecision(r.median < 10.0 ? 2 : 1) << r.median << " x  ("
              << r.rounds << " rounds: " << r.low << "-" << r.high << ")\n";
  };
  std::cout << "ratios (paired rounds):\n";
  ratio("dID: central differences / analytic", "ID derivatives (central differences)",
        "ID derivatives (analytic)");
  ratio("dID analytic / (ID + M)", "ID derivatives (analytic)", "ID + mass matrix");
  ratio("model-agnostic MID / ID", "model-agnostic MID (ID + M, one pass)", "model-agnostic ID");
  ratio("FD: factorisation of M / articulated body", "forward dynamics",
        "forward dynamics (articulated body)");
  ratio("dFD: central differences / analytic", "FD Jacobian (central differences)",
        "FD Jacobian (analytic)");
  if (parsed.has("--statics")) {
    ratio("statics: central differences / analytic", "statics (central differences)",
          "statics (analytic Jacobian)");
  }
  return kExitOk;
}

}  // namespace tendril::cli
