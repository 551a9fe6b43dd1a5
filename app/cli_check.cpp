// tendril-cli check-derivatives: the analytical derivatives against central finite differences.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>

#include "app/cli_args.hpp"
#include "core/algorithm/actuation.hpp"
#include "core/algorithm/derivative_check.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/io/results_io.hpp"

namespace tendril::cli {
namespace {

// a state file that cannot be used: main-style one-line reason, exit kExitBadModel
struct BadStateFile {
  std::string message;
};

struct CheckState {
  Eigen::VectorXd q, v, a;  ///< a is empty when the file gives none
  double t = 0.0;
  std::string description;
};

Eigen::VectorXd jsonVector(const nlohmann::json& file, const char* key, int size,
                           const std::string& path) {
  if (!file.contains(key)) throw BadStateFile{path + ": no \"" + key + "\" array"};
  const nlohmann::json& array = file.at(key);
  if (!array.is_array() || static_cast<int>(array.size()) != size)
    throw BadStateFile{path + ": \"" + key + "\" must be an array of " + std::to_string(size) +
                       " numbers"};
  Eigen::VectorXd x(size);
  for (int i = 0; i < size; ++i) {
    if (!array[i].is_number()) throw BadStateFile{path + ": \"" + key + "\" must hold numbers"};
    x(i) = array[i].get<double>();
  }
  return x;
}

// {"t": 0.5, "q": [...], "v": [...], "a": [...]} with t and a optional
CheckState stateFromJson(const Model& model, const std::string& path, double time,
                         bool time_given) {
  std::ifstream in(path);
  if (!in) throw BadStateFile{"cannot open " + path};
  nlohmann::json file;
  try {
    in >> file;
  } catch (const nlohmann::json::exception& error) {
    throw BadStateFile{path + ": not JSON (" + std::string(error.what()) + ")"};
  }
  if (!file.is_object()) throw BadStateFile{path + ": expected an object with q and v"};
  CheckState s;
  s.q = jsonVector(file, "q", model.nq, path);
  s.v = jsonVector(file, "v", model.nv, path);
  if (file.contains("a")) s.a = jsonVector(file, "a", model.nv, path);
  s.t = time;
  if (!time_given && file.contains("t")) {
    if (!file.at("t").is_number()) throw BadStateFile{path + ": \"t\" must be a number"};
    s.t = file.at("t").get<double>();
  }
  s.description = path;
  return s;
}

// a trajectory CSV (simulate --out, statics --out): the sample whose t is nearest to `time`
CheckState stateFromCsv(const Model& model, const std::string& path, double time) {
  std::vector<Sample> samples;
  try {
    samples = loadTrajectoryCsv(model, path);
  } catch (const std::exception& error) {
    throw BadStateFile{error.what()};
  }
  if (samples.empty()) throw BadStateFile{path + ": no rows"};
  std::size_t row = 0;
  for (std::size_t r = 1; r < samples.size(); ++r) {
    if (std::abs(samples[r].t - time) < std::abs(samples[row].t - time)) row = r;
  }
  CheckState s;
  s.q = samples[row].q;
  s.v = samples[row].v;
  s.t = samples[row].t;
  s.description = path + ", line " + std::to_string(row + 2);  // line 1 is the header
  return s;
}

CheckState makeState(const Model& model, const std::string& kind, unsigned seed, double time,
                     bool time_given) {
  CheckState s;
  s.t = time;
  if (kind == "zero") {
    s.q = Eigen::VectorXd::Zero(model.nq);
    s.v = s.a = Eigen::VectorXd::Zero(model.nv);
    s.description = "zero (q = v = a = 0, the straight rods' series branch)";
  } else if (kind == "random") {
    // the engine tests' test::randomState: q in [-0.5, 0.5], v and a in [-1, 1]
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    s.q = Eigen::VectorXd::NullaryExpr(model.nq, [&] { return 0.5 * unit(rng); });
    s.v = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return unit(rng); });
    s.a = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return unit(rng); });
    s.description = "random (seed " + std::to_string(seed) + ")";
  } else if (std::filesystem::path(kind).extension() == ".json") {
    s = stateFromJson(model, kind, time, time_given);
  } else {
    s = stateFromCsv(model, kind, time);
  }
  return s;
}

std::string scientific(double x) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(2) << x;
  return out.str();
}

}  // namespace

int runCheckDerivatives(const Args& args) {
  const std::vector<Option> options = {
      {"--state", true, "random (default) | zero | FILE (.json or trajectory .csv)"},
      {"--seed", true, "seed of the random state (default 1)"},
      {"--time", true,
       "time [s] of inputs and loads; with a CSV, the row nearest to it (default 0)"},
      {"--step", true, "central-difference step in q (default 1e-6)"},
      {"--v-step", true,
       "step in v and a (default: 1, exact for ID quadratic in v; 1e-4 with drag/contact damping)"},
      {"--tolerance", true, "largest relative mismatch accepted (default 1e-6)"},
      {"--abs-tolerance", true, "a block also passes when max abs err <= this (default 0)"},
      {"--no-forward", false, "skip dFD/dq and dFD/dv"},
      familyOption()};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp(
        "check-derivatives MODEL.json [options]", options,
        "Compares the analytical derivatives with central finite differences, block by block:\n"
        "dID/dq, dID/dv, dID/da (the mass matrix), dBu/dq (models with cables), dFD/dq, dFD/dv.\n"
        "relative = |J_an - J_fd|_F / |J_fd|_F; the dFD blocks are compared in force space,\n"
        "|M (J_an - J_fd)|_F / |M J_fd|_F, as M^-1 amplifies the round-off of J_fd by cond(M).\n"
        "\n"
        "State files: JSON {\"q\": [...], \"v\": [...], \"a\": [...], \"t\": T} (a, t optional),\n"
        "or a trajectory CSV written by 'simulate --out' or 'statics --out' (columns t, q:<name>,\n"
        "v:<name>; the row nearest to --time is used, at its own t). Without a, the check runs at\n"
        "the acceleration of the forward dynamics there.\n"
        "\n"
        "A block whose true derivative is zero (dID/dq at rest without gravity, dID/dv at rest\n"
        "with drag) has no scale: any round-off of the differences is a relative mismatch of 1;\n"
        "and at v = 0 drag |v| v is not twice differentiable, so the differences keep an error of\n"
        "the order of the step. Judge such blocks by max abs err (--abs-tolerance) or check at a\n"
        "random state.\n"
        "\n"
        "On the model-agnostic family (--family, or a model only it can run) there are no\n"
        "analytical derivatives to check: the command says so and exits 0.\n"
        "\n"
        "Exit codes: 0 every block passes (relative <= --tolerance or max abs err <=\n"
        "--abs-tolerance), 1 some block does not (or could not be computed: NaN),\n"
        "2 usage error, 3 invalid or unreadable model or state file.");
    return kExitOk;
  }
  const std::string path = modelPath(parsed);
  const double tolerance = parsed.number("--tolerance", 1e-6);
  const double abs_tolerance = parsed.number("--abs-tolerance", 0.0);
  const double seed = parsed.number("--seed", 1.0);
  if (seed < 0.0 || seed != std::floor(seed) ||
      seed > static_cast<double>(std::numeric_limits<unsigned>::max()))
    throw UsageError{"--seed expects a non-negative integer"};
  DerivativeCheckOptions check;
  check.q_step = parsed.number("--step", check.q_step);
  check.v_step = parsed.number("--v-step", check.v_step);
  check.forward_dynamics = !parsed.has("--no-forward");
  if (!(check.q_step > 0.0) || (parsed.has("--v-step") && !(check.v_step > 0.0)))
    throw UsageError{"--step and --v-step must be positive"};
  if (!(tolerance > 0.0) || !(abs_tolerance >= 0.0))
    throw UsageError{"--tolerance must be positive and --abs-tolerance not negative"};
  const std::string kind = parsed.value("--state", "random");
  if (kind.empty()) throw UsageError{"--state needs random, zero or a file"};

  const auto robot = loadOrReport(path);
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  const DynamicsFamily family = familyFor(parsed, model);
  if (family == DynamicsFamily::ModelAgnostic) {
    // its Jacobians ARE the differences: a mismatch of zero would claim a check that never ran
    std::cout << "model: " << robot->name << " (" << model.nq << " dof)\n"
              << familyLine(family, DerivativeSource::CentralDifferences) << "\n"
              << "nothing to check: the simulation and statics use these differences directly\n";
    return kExitOk;
  }
  CheckState state;
  try {
    state = makeState(model, kind, static_cast<unsigned>(seed), parsed.number("--time", 0.0),
                      parsed.has("--time"));
  } catch (const BadStateFile& error) {
    std::cerr << "tendril-cli: " << error.message << "\n";
    return kExitBadModel;
  }
  Data data(model);
  if (state.a.size() == 0) {
    Eigen::VectorXd tau(model.nv);
    actuationForces(model, state.q, state.t, tau);
    state.a = forwardDynamics(model, data, state.q, state.v, tau, state.t);
    if (!state.a.allFinite()) state.a.setZero();
  }
  const DerivativeCheck result =
      checkDerivatives(model, data, state.q, state.v, state.a, state.t, check);

  std::cout << "model: " << robot->name << " (" << model.nq << " dof)\n"
            << "state: " << state.description << ", t = " << state.t << " s\n"
            << "steps: q " << check.q_step << ", v and a "
            << (check.v_step > 0.0 ? check.v_step : automaticVelocityStep(model)) << "; tolerance "
            << tolerance;
  if (abs_tolerance > 0.0) std::cout << ", absolute " << abs_tolerance;
  std::cout << "\n\n";
  std::cout << std::left << std::setw(8) << "block" << std::right << std::setw(9) << "size"
            << std::setw(12) << "|J_fd|" << std::setw(12) << "max abs err" << std::setw(12)
            << "relative"
            << "\n";
  bool ok = true;
  for (const DerivativeBlockCheck& block : result.blocks) {
    const bool pass = block.relative_mismatch <= tolerance ||  // false for NaN
                      block.max_abs_error <= abs_tolerance;
    ok = ok && pass;
    std::cout << std::left << std::setw(8) << block.name << std::right << std::setw(9)
              << (std::to_string(block.rows) + "x" + std::to_string(block.cols)) << std::setw(12)
              << scientific(block.norm) << std::setw(12) << scientific(block.max_abs_error)
              << std::setw(12) << scientific(block.relative_mismatch) << "  "
              << (pass ? "ok" : "FAIL") << (block.force_space ? " (force space)" : "") << "\n";
  }
  std::cout << "\nworst relative mismatch: " << scientific(result.worst()) << " ("
            << (ok ? "every block passes" : "some block fails") << ")\n";
  return ok ? kExitOk : kExitFailure;
}

}  // namespace tendril::cli
