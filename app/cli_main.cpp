// tendril-cli: headless front end of the Tendril engine (no Qt, no VTK).

#include <iostream>
#include <map>
#include <string>

#include "app/cli_commands.hpp"
#include "tendril_version.hpp"

namespace {

constexpr const char* kUsage = R"(usage: tendril-cli [--version] [--help] <command> [<args>]

Commands:
  info MODEL.json        print a summary of a model (links, joints, degrees of freedom)
  validate MODEL.json    check a model; prints "ok" or "<json pointer>: <reason>"
  statics MODEL.json     solve the static equilibrium under gravity, loads and inputs
  inverse-statics MODEL.json --link L --target X Y Z
                         find the cable tensions and joint inputs that put a tip on a target
  simulate MODEL.json    integrate the dynamics, write the trajectory as CSV
  bench MODEL.json       time kinematics, inverse/forward dynamics and the mass matrix
  check-derivatives MODEL.json
                         compare the analytical derivatives with finite differences
  render MODEL.json --out shot.png [--width W] [--height H]
                         render the model at rest to a PNG (needs an X display: xvfb-run)
  import-urdf ROBOT.urdf --out MODEL.json [--floating-base]
                         convert a URDF robot into a model file
  recording MODEL.json RECORDING.csv [--out OUT.csv]
                         summarise a recorded run, or convert a time window of it
  sweep SPEC.json [--out results.csv] [--jobs N] [--dask tcp://host:port]
                         run a parameter sweep (statics or simulations) into one CSV

Run 'tendril-cli <command> --help' for the options of one command.

Exit codes: 0 success, 1 computation failed, 2 usage error, 3 invalid or unreadable model
            (or URDF, or sweep spec), 4 no display for render.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace tendril::cli;
  const Args all(argv + 1, argv + argc);
  if (all.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string& command = all.front();
  const Args args(all.begin() + 1, all.end());
  try {
    if (command == "--version") {
      std::cout << "tendril-cli " << TENDRIL_VERSION << "\n";
      return kExitOk;
    }
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return kExitOk;
    }
    if (command == "info") return runInfo(args);
    if (command == "validate") return runValidate(args);
    if (command == "render") return runRender(args, argv[0]);
    if (command == "statics") return runStatics(args);
    if (command == "inverse-statics") return runInverseStatics(args);
    if (command == "simulate") return runSimulate(args);
    if (command == "bench") return runBench(args);
    if (command == "check-derivatives") return runCheckDerivatives(args);
    if (command == "import-urdf") return runImportUrdf(args);
    if (command == "recording") return runRecording(args);
    if (command == "sweep") return runSweep(args, argv[0]);
    throw UsageError{command.rfind("-", 0) == 0
                         ? "unknown option '" + command + "' (see tendril-cli --help)"
                         : "unknown command '" + command + "' (see tendril-cli --help)"};
  } catch (const UsageError& error) {
    std::cerr << "tendril-cli: " << error.message << "\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "tendril-cli: " << error.what() << "\n";
    return kExitFailure;
  }
}
