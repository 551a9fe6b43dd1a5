#pragma once
// The commands of tendril-cli. Each takes the arguments after the command name, writes its result
// to stdout and progress to stderr, and returns an exit code (see kExit* and `tendril-cli --help`).

#include <string>
#include <vector>

namespace tendril::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;    ///< the computation failed (diverged, did not converge)
inline constexpr int kExitUsage = 2;      ///< unknown command or flag, missing argument
inline constexpr int kExitBadModel = 3;   ///< model file missing, unreadable or invalid
inline constexpr int kExitNoDisplay = 4;  ///< render needs an X display (run under xvfb-run)

/// \brief Thrown for wrong command-line use; main prints "tendril-cli: <what>" and exits
/// kExitUsage.
struct UsageError {
  std::string message;
};

using Args = std::vector<std::string>;

int runInfo(const Args& args);
int runValidate(const Args& args);
int runRender(const Args& args, const std::string& argv0);
int runStatics(const Args& args);
int runInverseStatics(const Args& args);
int runSimulate(const Args& args);
int runBench(const Args& args);
int runCheckDerivatives(const Args& args);
int runImportUrdf(const Args& args);
int runRecording(const Args& args);
int runSweep(const Args& args, const std::string& argv0);

}  // namespace tendril::cli
