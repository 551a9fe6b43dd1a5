// Entry point of tendril_benchmarks: records the build type and the MuJoCo version with the
// results.

#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include "tests/benchmarks/bench_support.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 1;
  }
  tendril::bench::registerExampleBenchmarks();
  tendril::bench::registerModelAgnosticBenchmarks();
  benchmark::AddCustomContext("tendril_build_type", TENDRIL_BENCH_BUILD_TYPE);
  benchmark::AddCustomContext("mujoco_version", mj_versionString());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
