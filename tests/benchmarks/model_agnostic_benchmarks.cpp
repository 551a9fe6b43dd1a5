// Per-call cost of the model-agnostic inverse dynamics (core/algorithm/model_agnostic_dynamics.hpp)
// on every bundled example, beside Tendril's GVS-specific recursions: BM_AgnosticID,
// BM_AgnosticIID and BM_AgnosticMID (ID and the mass matrix from one pass) against
// BM_InverseDynamics, BM_MassMatrix (algorithm_benchmarks.cpp) and their sum BM_InverseDynamics
// AndMassMatrix, so that MID / ID and MID / (inverseDynamics + massMatrix) can be read off.
// BM_LvpChainID / BM_LvpChainMID: the 3-body, 24-coordinate LVP chain against its quadrature.
// The agnostic ID includes no contact, fluid or point loads: on contact_cylinder, underwater_robot
// and parallel_robot it does less than inverseDynamics.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "tests/benchmarks/bench_support.hpp"
#include "tests/support/pcc_lagrangian.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::bench {
namespace {

void BM_AgnosticID(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(modelAgnosticID(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_AgnosticIID(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(modelAgnosticIID(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_AgnosticMID(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(modelAgnosticMID(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::DoNotOptimize(w.data->agnostic.M.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// what MID replaces: Tendril's inverse dynamics, then its mass matrix at the same q
void BM_InverseDynamicsAndMassMatrix(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::DoNotOptimize(massMatrixFromKinematics(*w.model, *w.data).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// Simulation 3 (b) of the model-agnostic paper: planar PCC robots of N bodies (radius 0.03 m,
// rest length 0.3 m, 1000 kg/m^3, 8 Gauss points each), M q-ddot = IID(q, 0, q-ddot) and
// c = IID(q, q-dot, 0) at the paper's "unitary values" (q = q-dot = q-ddot = 1), beside ID and
// MID at the same state and the GVS engine's inverse dynamics
enum class PccCall { MassTimesAcceleration, Bias, ID, MID, GvsInverseDynamics, BodiesOnly };

void BM_PlanarPcc(benchmark::State& state, PccCall call) {
  test::PlanarPccChain chain;
  chain.bodies = static_cast<int>(state.range(0));
  const Model model = buildModel(test::planarPccDescription(chain));
  Data data(model);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(model.nv);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  for (auto _ : state) {
    switch (call) {
      case PccCall::MassTimesAcceleration:
        benchmark::DoNotOptimize(modelAgnosticIID(model, data, ones, zero, ones).data());
        break;
      case PccCall::Bias:
        benchmark::DoNotOptimize(modelAgnosticIID(model, data, ones, ones, zero).data());
        break;
      case PccCall::ID:
        benchmark::DoNotOptimize(modelAgnosticID(model, data, ones, ones, ones).data());
        break;
      case PccCall::MID:
        benchmark::DoNotOptimize(modelAgnosticMID(model, data, ones, ones, ones).data());
        benchmark::DoNotOptimize(data.agnostic.M.data());
        break;
      case PccCall::GvsInverseDynamics:
        benchmark::DoNotOptimize(inverseDynamics(model, data, ones, ones, ones).data());
        break;
      case PccCall::BodiesOnly:  // the black boxes alone: what the recursion adds is the rest
        for (std::size_t b = 0; b < data.agnostic.bodies.size(); ++b) {
          const auto coordinates = ones.segment(data.agnostic.idx_q[b], data.agnostic.nq[b]);
          evaluateAgnosticBody(model, data.agnostic.bodies[b], coordinates, coordinates,
                               data.agnostic.evaluations[b]);
        }
        benchmark::DoNotOptimize(data.agnostic.evaluations.data());
        break;
    }
    benchmark::ClobberMemory();
  }
  state.counters["bodies"] = chain.bodies;
}

// Issue 25's LVP chain (test::lvpTable4Chain: the helicoid's three bodies, 24 coordinates). The
// argument picks the quadrature per body (axial x radial x angular): 3x2x4, 6x3x8 (the default),
// 10x4x12, 4x2x6 (the coarse rule of docs/theory/lvp.md §4). The ID includes the neo-Hookean and
// Kelvin-Voigt forces, which need the deformation gradient at every point (the MID adds the mass
// matrix); with tendons, their lengths' gradients enter too.
void BM_LvpChain(benchmark::State& state, bool mass, bool tendons) {
  static const int sizes[][3] = {{3, 2, 4}, {6, 3, 8}, {10, 4, 12}, {4, 2, 6}};
  const int* size = sizes[state.range(0)];
  const RobotDescription robot = test::lvpTable4Chain({size[0], size[1], size[2]}, tendons);
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.1, 0.1);
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.5);
  const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.0);
  for (auto _ : state) {
    if (mass) {
      benchmark::DoNotOptimize(modelAgnosticMID(model, data, q, v, a).data());
      benchmark::DoNotOptimize(data.agnostic.M.data());
    } else {
      benchmark::DoNotOptimize(modelAgnosticID(model, data, q, v, a).data());
    }
    benchmark::ClobberMemory();
  }
  state.counters["dof"] = model.nv;
  state.counters["points_per_body"] = size[0] * size[1] * size[2];
}

}  // namespace

void registerModelAgnosticBenchmarks() {
  for (const auto& [name, mass, tendons] : {std::tuple{"BM_LvpChainID", false, false},
                                            {"BM_LvpChainMID", true, false},
                                            {"BM_LvpChainTendonsMID", true, true}}) {
    benchmark::RegisterBenchmark(name, BM_LvpChain, mass, tendons)
        ->DenseRange(0, 3, 1)
        ->Unit(benchmark::kMicrosecond);
  }
  for (const auto& [name, call] :
       {std::pair{"MassTimesAcceleration", PccCall::MassTimesAcceleration},
        {"Bias", PccCall::Bias},
        {"ID", PccCall::ID},
        {"MID", PccCall::MID},
        {"GvsInverseDynamics", PccCall::GvsInverseDynamics},
        {"BodiesOnly", PccCall::BodiesOnly}}) {
    benchmark::RegisterBenchmark((std::string("BM_PlanarPcc") + name).c_str(), BM_PlanarPcc, call)
        ->DenseRange(1, 20, 1)
        ->Unit(benchmark::kMicrosecond);
  }
  std::vector<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    if (entry.path().extension() == ".json") stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  const std::pair<const char*, void (*)(benchmark::State&, const std::string&)> algorithms[] = {
      {"BM_AgnosticID", BM_AgnosticID},
      {"BM_AgnosticIID", BM_AgnosticIID},
      {"BM_AgnosticMID", BM_AgnosticMID},
      {"BM_InverseDynamicsAndMassMatrix", BM_InverseDynamicsAndMassMatrix}};
  for (const auto& [name, bm] : algorithms) {
    for (const std::string& stem : stems) {
      const bool engine = bm == BM_InverseDynamicsAndMassMatrix;
      if (engine && buildModel(test::example(stem)).agnostic_only) continue;  // LVP bodies
      benchmark::RegisterBenchmark((std::string(name) + "/" + stem).c_str(), bm, stem);
    }
  }
}

}  // namespace tendril::bench
