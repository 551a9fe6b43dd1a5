#pragma once
// Shared set-up of the benchmarks: a compiled model, its workspace and one random state.

#include <benchmark/benchmark.h>

#include <memory>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::bench {

struct Workspace {
  explicit Workspace(const RobotDescription& robot)
      : model(std::make_unique<Model>(buildModel(robot))),
        data(std::make_unique<Data>(*model)),
        x(test::randomState(*model, /*seed=*/1)) {}

  // sizes, so that every row of the output says what was measured
  void label(benchmark::State& state) const {
    state.counters["nv"] = model->nv;
    state.counters["frames"] = model->n_vjoints();
  }

  std::unique_ptr<Model> model;  // Data keeps no reference, but keep both at stable addresses
  std::unique_ptr<Data> data;
  test::State x;
};

/// \brief One soft rod along x, fixed at the world, split into equal divisions.
RobotDescription dividedRod(int divisions, int gauss_points);

/// \brief Registers the per-call benchmarks for every resources/examples/*.json.
void registerExampleBenchmarks();

/// \brief Registers the model-agnostic ID, IID and MID on every example
///        (model_agnostic_benchmarks.cpp).
void registerModelAgnosticBenchmarks();

/// \brief A serial chain of n rigid revolute links with varied axes (test::rigidLink).
RobotDescription revoluteChain(int n);

}  // namespace tendril::bench
