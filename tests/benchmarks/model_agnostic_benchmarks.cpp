// Per-call cost of the model-agnostic inverse dynamics (core/algorithm/model_agnostic_dynamics.hpp)
// on every bundled example, beside Tendril's GVS-specific recursions: BM_AgnosticID,
// BM_AgnosticIID and BM_AgnosticMID (ID and the mass matrix from one pass) against
// BM_InverseDynamics, BM_MassMatrix (algorithm_benchmarks.cpp) and their sum BM_InverseDynamics
// AndMassMatrix, so that MID / ID and MID / (inverseDynamics + massMatrix) can be read off.
// The agnostic ID includes no contact, fluid or point loads: on contact_cylinder, underwater_robot
// and parallel_robot it does less than inverseDynamics.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "tests/benchmarks/bench_support.hpp"

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

}  // namespace

void registerModelAgnosticBenchmarks() {
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
      benchmark::RegisterBenchmark((std::string(name) + "/" + stem).c_str(), bm, stem);
    }
  }
}

}  // namespace tendril::bench
