// Per-call cost of the engine's algorithms on every bundled example, and how inverse dynamics and
// the mass matrix scale with the number of computational points of a rod.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/io/json_io.hpp"
#include "tests/benchmarks/bench_support.hpp"

namespace tendril::bench {

RobotDescription dividedRod(int divisions, int gauss_points) {
  StrainBasisDesc basis;  // Legendre, order 2 in torsion and both bendings: 9 modes per division
  RobotDescription robot = test::uniformRod(1.0, 0.01, basis, gauss_points);
  DivisionDesc division = robot.links[0].soft().divisions[0];
  division.length = 1.0 / divisions;
  robot.links[0].soft().divisions.assign(divisions, division);
  return robot;
}

RobotDescription revoluteChain(int n) {
  RobotDescription robot;
  robot.name = "chain";
  const Vec3 axes[] = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
  for (int i = 0; i < n; ++i) {
    robot.links.push_back(test::rigidLink("link" + std::to_string(i),
                                          i == 0 ? "world" : "link" + std::to_string(i - 1),
                                          JointType::Revolute, axes[i % 3]));
  }
  return robot;
}

namespace {

//-------------------- every bundled example, per call

void BM_ForwardKinematics(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    forwardKinematics(*w.model, *w.data, w.x.q);
    benchmark::DoNotOptimize(w.data->g.back());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_ForwardKinematicsVelocity(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    forwardKinematics(*w.model, *w.data, w.x.q, w.x.v);
    benchmark::DoNotOptimize(w.data->eta.back());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_InverseDynamics(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_InverseDynamicsWithoutSubspaces(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        inverseDynamicsWithoutSubspaces(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_MassMatrix(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(massMatrix(*w.model, *w.data, w.x.q).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_ForwardDynamics(benchmark::State& state, const std::string& stem) {
  Workspace w(test::example(stem));
  for (auto _ : state) {
    benchmark::DoNotOptimize(forwardDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

//-------------------- scaling with the computational points of one rod
// arguments: Gauss points per division, divisions; N = virtual joints = divisions (gauss + 1)

void BM_RodInverseDynamics(benchmark::State& state) {
  Workspace w(dividedRod(static_cast<int>(state.range(1)), static_cast<int>(state.range(0))));
  for (auto _ : state) {
    benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  state.SetComplexityN(w.model->n_vjoints());
  w.label(state);
}

void BM_RodMassMatrix(benchmark::State& state) {
  Workspace w(dividedRod(static_cast<int>(state.range(1)), static_cast<int>(state.range(0))));
  for (auto _ : state) {
    benchmark::DoNotOptimize(massMatrix(*w.model, *w.data, w.x.q).data());
    benchmark::ClobberMemory();
  }
  state.SetComplexityN(w.model->n_vjoints());
  w.label(state);
}

// one division, more Gauss points: nv fixed (9), N grows; from 3, the fewest that resolve a
// strain of order 2 (buildModel rejects fewer)
BENCHMARK(BM_RodInverseDynamics)
    ->Name("BM_RodInverseDynamics/gauss_points")
    ->ArgsProduct({{3, 5, 8, 12, 16, 20, 25, 30}, {1}})
    ->Complexity(benchmark::oN);
BENCHMARK(BM_RodMassMatrix)
    ->Name("BM_RodMassMatrix/gauss_points")
    ->ArgsProduct({{3, 5, 8, 12, 16, 20, 25, 30}, {1}})
    ->Complexity(benchmark::oAuto);
// five Gauss points, more divisions: nv = 9 per division grows with N
BENCHMARK(BM_RodInverseDynamics)
    ->Name("BM_RodInverseDynamics/divisions")
    ->ArgsProduct({{5}, {1, 2, 3, 4, 5, 6, 7, 8}})
    ->Complexity(benchmark::oN);
BENCHMARK(BM_RodMassMatrix)
    ->Name("BM_RodMassMatrix/divisions")
    ->ArgsProduct({{5}, {1, 2, 3, 4, 5, 6, 7, 8}})
    ->Complexity(benchmark::oAuto);

}  // namespace

void registerExampleBenchmarks() {
  // every bundled example, so a new one is timed without editing this file
  std::vector<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    // the GVS engine's algorithms: not on models with LVP bodies (Model::agnostic_only)
    if (entry.path().extension() == ".json" && !buildModel(loadRobot(entry.path())).agnostic_only) {
      stems.push_back(entry.path().stem().string());
    }
  }
  std::sort(stems.begin(), stems.end());
  const std::pair<const char*, void (*)(benchmark::State&, const std::string&)> algorithms[] = {
      {"BM_ForwardKinematics", BM_ForwardKinematics},
      {"BM_ForwardKinematicsVelocity", BM_ForwardKinematicsVelocity},
      {"BM_InverseDynamics", BM_InverseDynamics},
      {"BM_InverseDynamicsWithoutSubspaces", BM_InverseDynamicsWithoutSubspaces},
      {"BM_MassMatrix", BM_MassMatrix},
      {"BM_ForwardDynamics", BM_ForwardDynamics}};
  for (const auto& [name, bm] : algorithms) {
    for (const std::string& stem : stems) {
      benchmark::RegisterBenchmark((std::string(name) + "/" + stem).c_str(), bm, stem);
    }
  }
}

}  // namespace tendril::bench
