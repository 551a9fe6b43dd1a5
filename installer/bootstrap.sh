#!/usr/bin/env bash
# Set up, build and run Tendril on Debian 12.
#
#   installer/bootstrap.sh run    install what is missing, build, start the GUI on the default example
#                                 (headless summary through tendril-cli when there is no display)
#   installer/bootstrap.sh test   install what is missing, build, run the whole test suite (what CI runs)
#   installer/bootstrap.sh build  install what is missing and build
#   installer/bootstrap.sh sanitize
#                                 install what is missing, build the engine and its tests with
#                                 AddressSanitizer + UBSan in build-asan/, run them (one shard per core)
#
# Idempotent: packages already present are not reinstalled, builds are incremental.
# Environment: TENDRIL_BUILD_DIR (default: build), TENDRIL_JOBS (default: nproc),
# TENDRIL_NATIVE_ARCH (default: ON: this build is for this machine, so it uses its CPU's
# instructions; OFF for binaries that run on any x86-64), TENDRIL_UNITY (default: ON: sources compiled in
# batches, a third less time for a build from scratch; OFF when you edit and rebuild one file at a time).
set -euo pipefail

readonly ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly BUILD_DIR="${TENDRIL_BUILD_DIR:-$ROOT/build}"
readonly ASAN_BUILD_DIR="${BUILD_DIR}-asan"
readonly JOBS="${TENDRIL_JOBS:-$(nproc)}"
readonly NATIVE_ARCH="${TENDRIL_NATIVE_ARCH:-ON}"
readonly UNITY="${TENDRIL_UNITY:-ON}"
readonly DEFAULT_EXAMPLE="$ROOT/resources/examples/hybrid_serial_robot.json"

readonly PACKAGES=(
  g++ cmake make ninja-build ccache pkg-config dpkg-dev file
  libeigen3-dev nlohmann-json3-dev libsundials-dev liburdfdom-dev
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev libvtk9-dev
  libgtest-dev libgmock-dev libbenchmark-dev libmujoco-dev
  pybind11-dev python3-dev python3-numpy python3-pytest  # the tendril Python module and its tests
  python3-pandas  # tendril.sweep's DataFrame; pandas.DataFrame(result.table) in the README
  python3-distributed  # sweeps on a Dask cluster (tendril-cli sweep --dask) and their test
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core
  ffmpeg  # optional at run time (File > Export Replay as Video); here so that its test runs
)

# Ninja for a new build directory: it compiles a target's sources while the libraries it links are
# still building (make waits for each library), which keeps both cores busy on the few large batches
# of a unity build; a directory configured before keeps its generator
generator_for() {
  [ -f "$1/CMakeCache.txt" ] || echo "-GNinja"
}

# each message says how long the command has run, so a CI log shows where its time went
say() { printf '\033[1m[tendril %4ds]\033[0m %s\n' "$SECONDS" "$*" >&2; }

install_missing_packages() {
  local missing=()
  for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "all ${#PACKAGES[@]} Debian packages present"
    return
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "need root or sudo to install: ${missing[*]}"; exit 1; }
    sudo="sudo"
  fi
  say "installing ${#missing[@]} missing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  say "configuring and building in $BUILD_DIR ($JOBS jobs)"
  cmake -S "$ROOT" -B "$BUILD_DIR" $(generator_for "$BUILD_DIR") -DCMAKE_BUILD_TYPE=Release -DTENDRIL_NATIVE_ARCH="$NATIVE_ARCH" \
    -DTENDRIL_UNITY_BUILD="$UNITY" >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

# an X display we can actually talk to: $DISPLAY set and, for a local display, its socket present
have_display() {
  [ -n "${DISPLAY:-}" ] || return 1
  case "$DISPLAY" in
    :*) local number="${DISPLAY#:}"; [ -S "/tmp/.X11-unix/X${number%%.*}" ] ;;
    *) return 0 ;;
  esac
}

run_app() {
  if have_display; then
    say "starting Tendril on $(basename "$DEFAULT_EXAMPLE")"
    exec "$BUILD_DIR/app/tendril" "$DEFAULT_EXAMPLE"
  fi
  say "no display available (DISPLAY is '${DISPLAY:-}'): running the example headless with tendril-cli"
  "$BUILD_DIR/app/tendril-cli" info "$DEFAULT_EXAMPLE"
  "$BUILD_DIR/app/tendril-cli" simulate "$DEFAULT_EXAMPLE" --t-end 1 --quiet
}

# the long fixed-step integrations and the long tight-tolerance BDF/IDA runs are ~40x slower under
# the sanitizers and repeat code that shorter tests cover: they run in the Release suite; every other
# engine test (BDF/CVODE and IDA included) runs here too
readonly SANITIZED_EXCLUSIONS="SimulationTest.IntegratorsAgreeOnTheHybridRobot:*UndampedEnergyTest.*:\
*DampedEnergyTest.*/newmark:*DampedEnergyTest.*/rk4:*DampedEnergyTest.*/impliciteuler:\
*FamilyAgreement.FixedStepRunsAgree/*:SimulationTest.TighterTolerancesGiveMoreAccurateTipsOnADampedCable:\
SimulationTest.EveryExampleHoldsATightTolerance:\
IdaTest.AgreesWithBdfWithinTheTolerance:IdaTest.AnalyticAndFiniteDifferenceJacobiansGiveTheSameRun:\
ConstrainedSimulationTest.FinRayBdfRestartsAfterAStepSizeCollapseAndCompletes:\
ConstrainedSimulationTest.FinRayBdfAtThePaperTolerancesGetsPastTheOldFailure"

# one shard of the engine tests per core (gtest's own sharding); a failing shard prints its log
run_sanitized_engine_tests() {
  local shards="$JOBS" status=0 i
  local pids=()
  for ((i = 0; i < shards; i++)); do
    ASAN_OPTIONS=detect_leaks=1 GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$i" \
      "$ASAN_BUILD_DIR/tests/tendril_core_tests" --gtest_brief=1 --gtest_filter="-$SANITIZED_EXCLUSIONS" \
      >"$ASAN_BUILD_DIR/engine-tests-shard-$i.log" 2>&1 &
    pids+=("$!")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      tail -n 2 "$ASAN_BUILD_DIR/engine-tests-shard-$i.log"
    else
      status=1
      cat "$ASAN_BUILD_DIR/engine-tests-shard-$i.log"
    fi
  done
  return $status
}

run_sanitized() {
  # the engine and its tests once more under AddressSanitizer + UBSan (the broken-model corpus above
  # all); not part of `test`: it doubles the suite's time, beyond what CI can spend on every change
  say "building the engine tests with AddressSanitizer in $ASAN_BUILD_DIR"
  # -O1 without debug info: a quarter of the compile time of RelWithDebInfo, same findings
  cmake -S "$ROOT" -B "$ASAN_BUILD_DIR" $(generator_for "$ASAN_BUILD_DIR") -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g0" -DTENDRIL_SANITIZE=ON \
    -DTENDRIL_UNITY_BUILD="$UNITY" -DTENDRIL_BUILD_GUI=OFF -DTENDRIL_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$ASAN_BUILD_DIR" -j "$JOBS" --target tendril_core_tests
  say "running the engine tests under the sanitizers"
  run_sanitized_engine_tests
  say "sanitized engine tests passed"
}

run_tests() {
  say "running the test suite (GUI tests under Xvfb)"
  local status=0
  xvfb-run -a -s "-screen 0 1280x800x24" \
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --timeout 600 || status=$?
  say "test suite finished with status $status"
  return $status
}

main() {
  local command="${1:-run}"
  case "$command" in
    run | test | build | sanitize) ;;
    *) echo "usage: $0 run|test|build|sanitize" >&2; exit 2 ;;
  esac
  install_missing_packages
  case "$command" in
    sanitize) run_sanitized; return ;;
  esac
  build
  case "$command" in
    run) run_app ;;
    test) run_tests ;;
  esac
}

main "$@"
