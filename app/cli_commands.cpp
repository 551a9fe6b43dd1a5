#include "app/cli_commands.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>

#include "core/io/json_io.hpp"
#include "core/model/strain_basis.hpp"
#include "core/model/validate.hpp"

namespace tendril::cli {
namespace {

struct Option {
  std::string name;  ///< e.g. "--out"
  bool takes_value;
  std::string help;
};

struct Parsed {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  bool help = false;
  bool has(const std::string& name) const { return values.count(name) > 0; }
};

Parsed parse(const Args& args, const std::vector<Option>& options) {
  Parsed parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      parsed.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      parsed.positional.push_back(arg);
      continue;
    }
    const auto option = std::find_if(options.begin(), options.end(), [&](const Option& o) { return o.name == arg; });
    if (option == options.end()) throw UsageError{"unknown option '" + arg + "'"};
    if (!option->takes_value) {
      parsed.values[arg] = "";
    } else if (i + 1 < args.size()) {
      parsed.values[arg] = args[++i];
    } else {
      throw UsageError{"option '" + arg + "' needs a value"};
    }
  }
  return parsed;
}

void printHelp(const std::string& synopsis, const std::vector<Option>& options) {
  std::cout << "usage: tendril-cli " << synopsis << "\n";
  for (const Option& o : options) {
    std::cout << "  " << std::left << std::setw(22) << (o.name + (o.takes_value ? " VALUE" : "")) << o.help << "\n";
  }
}

std::string modelPath(const Parsed& parsed) {
  if (parsed.positional.size() != 1) throw UsageError{"expected exactly one MODEL.json argument"};
  return parsed.positional.front();
}

// loads a model, printing "<file>: <pointer>: <reason>" when it is invalid
std::optional<RobotDescription> loadOrReport(const std::string& path) {
  try {
    return loadRobot(path);
  } catch (const ParseError& error) {
    std::cerr << "tendril-cli: " << path << ": " << error.what() << "\n";
    return std::nullopt;
  }
}

int linkDof(const LinkDesc& link) {
  int dof = jointDof(link.joint.type);
  if (link.kind == BodyKind::Soft) {
    for (const DivisionDesc& division : link.soft.divisions) dof += strainBasisDof(division.basis);
  }
  return dof;
}

}  // namespace

int runInfo(const Args& args) {
  const Parsed parsed = parse(args, {});
  if (parsed.help) {
    printHelp("info MODEL.json", {});
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  int total_dof = 0;
  std::cout << "model: " << robot->name << "\n";
  std::cout << "gravity: [" << robot->gravity[0] << ", " << robot->gravity[1] << ", " << robot->gravity[2] << "] m/s^2\n";
  std::cout << "links: " << robot->links.size() << "\n";
  for (const LinkDesc& link : robot->links) {
    const int dof = linkDof(link);
    total_dof += dof;
    std::cout << "  " << std::left << std::setw(16) << link.name << " parent " << std::setw(12) << link.parent
              << (link.kind == BodyKind::Soft ? " soft, " + std::to_string(link.soft.divisions.size()) + " division(s)"
                                              : " rigid")
              << ", " << dof << " dof\n";
  }
  std::cout << "degrees of freedom: " << total_dof << "\n";
  return kExitOk;
}

int runValidate(const Args& args) {
  const Parsed parsed = parse(args, {});
  if (parsed.help) {
    printHelp("validate MODEL.json", {});
    return kExitOk;
  }
  if (!loadOrReport(modelPath(parsed))) return kExitBadModel;
  std::cout << "ok\n";
  return kExitOk;
}

int runRender(const Args& args, const std::string& argv0) {
  const std::vector<Option> options = {{"--out", true, "PNG file to write (required)"},
                                       {"--width", true, "image width in pixels (default 1280)"},
                                       {"--height", true, "image height in pixels (default 800)"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("render MODEL.json --out shot.png [--width W] [--height H]", options);
    return kExitOk;
  }
  const std::string model = modelPath(parsed);
  if (!parsed.has("--out")) throw UsageError{"render needs --out FILE.png"};
  if (!loadOrReport(model)) return kExitBadModel;
  // rendering lives in a sibling executable so that tendril-cli itself links no VTK
  const std::filesystem::path renderer = std::filesystem::path(argv0).parent_path() / "tendril-render";
  if (!std::filesystem::exists(renderer)) {
    std::cerr << "tendril-cli: render needs " << renderer.string() << ", which is not installed\n";
    return kExitFailure;
  }
  std::vector<std::string> call = {renderer.string(), model};
  for (const auto& [name, value] : parsed.values) {
    call.push_back(name);
    call.push_back(value);
  }
  std::vector<char*> argv;
  for (std::string& s : call) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t child = fork();
  if (child == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0) {
    std::cerr << "tendril-cli: could not start " << renderer.string() << "\n";
    return kExitFailure;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailure;
}

}  // namespace tendril::cli
