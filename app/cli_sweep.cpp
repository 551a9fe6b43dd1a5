// tendril-cli sweep: a parameter sweep on this machine's cores, or on a Dask cluster through the
// Python package (python/tendril/sweeps.py).

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <thread>

#include "app/cli_args.hpp"
#include "core/study/sweep_run.hpp"

namespace tendril::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int /*signal*/) {
  g_interrupted = true;
}

// "  37/1000 cases, 2 failed, 1.2 s elapsed, about 31 s left"
void printProgress(const SweepProgress& p) {
  std::cerr << "\r" << std::setw(6) << p.done << "/" << p.total << " cases, " << p.failed
            << " failed, " << std::fixed << std::setprecision(1) << p.elapsed << " s elapsed";
  if (p.done > 0 && p.done < p.total)
    std::cerr << ", about " << std::setprecision(0) << p.elapsed / p.done * (p.total - p.done)
              << " s left";
  std::cerr << "    " << std::defaultfloat << std::flush;
}

// the build tree keeps the Python package in <build>/python, tendril-cli in <build>/app
std::string pythonPathFor(const std::string& argv0) {
  const std::filesystem::path beside =
      std::filesystem::path(argv0).parent_path().parent_path() / "python";
  std::string path = std::filesystem::exists(beside / "tendril" / "__init__.py")
                         ? std::filesystem::absolute(beside).string()
                         : std::string();
  if (const char* given = std::getenv("PYTHONPATH"); given != nullptr && *given != '\0') {
    if (!path.empty()) path.push_back(':');
    path.append(given);
  }
  return path;
}

int runOnDask(const Parsed& parsed, const std::string& spec, const std::string& argv0) {
  // the interpreter the module was built for (TENDRIL_PYTHON overrides it)
  const char* python = std::getenv("TENDRIL_PYTHON");
  std::vector<std::string> call = {python != nullptr ? python : TENDRIL_PYTHON,
                                   "-m",
                                   "tendril.sweeps",
                                   spec,
                                   "--dask",
                                   parsed.value("--dask")};
  for (const char* option : {"--out", "--batch"}) {
    if (parsed.has(option)) {
      call.emplace_back(option);
      call.push_back(parsed.value(option));
    }
  }
  if (parsed.has("--quiet")) call.emplace_back("--quiet");
  std::vector<char*> argv;
  for (std::string& s : call) argv.push_back(s.data());
  argv.push_back(nullptr);
  const std::string python_path = pythonPathFor(argv0);
  std::cout.flush();
  const pid_t child = fork();
  if (child == 0) {
    if (!python_path.empty()) setenv("PYTHONPATH", python_path.c_str(), 1);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0) return kExitFailure;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    std::cerr << "tendril-cli: sweep --dask needs python3 with the tendril module and "
                 "python3-distributed (apt-get install python3-distributed)\n";
    return kExitFailure;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailure;
}

}  // namespace

int runSweep(const Args& args, const std::string& argv0) {
  const std::vector<Option> options = {
      {"--out", true, "results CSV (default: <spec name>.csv in the current folder)"},
      {"--jobs", true, "worker threads (default: one per core)"},
      {"--dask", true, "run on the Dask scheduler at this address (tcp://host:port)"},
      {"--batch", true, "with --dask: cases per task (default: about 4 tasks per worker)"},
      {"--quiet", false, "no progress on stderr"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp(
        "sweep SPEC.json [--out results.csv] [--jobs N] [--dask tcp://host:port] [--batch K]",
        options,
        "Runs a model for every case of a sweep spec (docs/SWEEPS.md) and writes one CSV row\n"
        "per case, in case order. A case that fails (invalid value, no convergence,\n"
        "divergence) is a row with success 0 and its message. Interrupted (Ctrl-C), the cases\n"
        "done are written to <out>.partial.csv, marked as partial in its first line.");
    return kExitOk;
  }
  if (parsed.positional.size() != 1) throw UsageError{"sweep needs one SPEC.json"};
  const std::string spec_path = parsed.positional.front();
  const std::filesystem::path out =
      parsed.has("--out")
          ? std::filesystem::path(parsed.value("--out"))
          : std::filesystem::path(std::filesystem::path(spec_path).stem().string() + ".csv");
  const int jobs = static_cast<int>(parsed.number("--jobs", 0.0));
  if (jobs < 0) throw UsageError{"--jobs must be positive"};
  if (parsed.has("--batch") && !parsed.has("--dask")) throw UsageError{"--batch needs --dask"};
  SweepSpec spec;
  try {
    spec = loadSweepSpec(spec_path);
  } catch (const ParseError& error) {
    std::cerr << "tendril-cli: " << spec_path << ": " << error.what() << "\n";
    return kExitBadModel;
  }
  if (parsed.has("--dask")) return runOnDask(parsed, spec_path, argv0);

  const bool quiet = parsed.has("--quiet");
  const int threads =
      jobs > 0 ? jobs : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  g_interrupted = false;
  const auto previous_int = std::signal(SIGINT, onInterrupt);
  const auto previous_term = std::signal(SIGTERM, onInterrupt);
  const auto started = std::chrono::steady_clock::now();
  const std::vector<SweepRow> rows = tendril::runSweep(
      spec, threads, quiet ? std::function<void(const SweepProgress&)>() : printProgress,
      &g_interrupted);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  if (!quiet) std::cerr << "\n";
  const std::filesystem::path written = saveSweepCsv(spec, rows, out);
  int failed = 0;
  for (const SweepRow& row : rows) failed += row.success ? 0 : 1;
  std::cout << "sweep: " << rows.size() << " of " << spec.caseCount() << " cases, " << failed
            << " failed, " << seconds << " s on " << threads << " thread(s) ("
            << static_cast<double>(rows.size()) / seconds << " cases/s)\n"
            << "wrote " << written.string() << "\n";
  if (static_cast<int>(rows.size()) < spec.caseCount()) {
    std::cerr << "tendril-cli: interrupted: " << written.string() << " holds " << rows.size()
              << " of " << spec.caseCount() << " cases\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace tendril::cli
