#include "app/cli_args.hpp"

#include <algorithm>
#include <charconv>
#include <iomanip>
#include <iostream>

#include "core/io/json_io.hpp"
#include "core/model/model.hpp"

namespace tendril::cli {

std::string Parsed::value(const std::string& name, const std::string& fallback) const {
  const auto it = values.find(name);
  return it == values.end() || it->second.empty() ? fallback : it->second.back();
}

double Parsed::number(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  const std::string text = value(name);
  double x = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw UsageError{"option '" + name + "' expects a number, got '" + text + "'"};
  }
  return x;
}

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
    const auto option = std::find_if(options.begin(), options.end(),
                                     [&](const Option& o) { return o.name == arg; });
    if (option == options.end()) throw UsageError{"unknown option '" + arg + "'"};
    if (parsed.has(arg) && !option->repeatable)
      throw UsageError{"option '" + arg + "' given twice"};
    if (!option->takes_value) {
      parsed.values[arg].push_back("");
    } else if (i + 1 < args.size()) {
      parsed.values[arg].push_back(args[++i]);
    } else {
      throw UsageError{"option '" + arg + "' needs a value"};
    }
  }
  return parsed;
}

void printHelp(const std::string& synopsis, const std::vector<Option>& options,
               const std::string& description) {
  std::cout << "usage: tendril-cli " << synopsis << "\n";
  if (!description.empty()) std::cout << "\n" << description << "\n";
  if (!options.empty()) std::cout << "\nOptions:\n";
  for (const Option& o : options) {
    std::cout << "  " << std::left << std::setw(24) << (o.name + (o.takes_value ? " VALUE" : ""))
              << o.help << "\n";
  }
}

std::string modelPath(const Parsed& parsed) {
  if (parsed.positional.size() != 1) throw UsageError{"expected exactly one MODEL.json argument"};
  return parsed.positional.front();
}

std::optional<RobotDescription> loadOrReport(const std::string& path) {
  try {
    RobotDescription robot = loadRobot(path);
    buildModel(robot);  // physical validity (e.g. inertias) is checked while compiling
    return robot;
  } catch (const ParseError& error) {
    std::cerr << "tendril-cli: " << path << ": " << error.what() << "\n";
    return std::nullopt;
  }
}

Option familyOption() {
  return {"--family", true,
          "auto (default: model-agnostic only for models the engine cannot run) | engine | "
          "model-agnostic"};
}

DynamicsFamily familyFor(const Parsed& parsed, const Model& model) {
  DynamicsFamily family = DynamicsFamily::Auto;
  if (!parseFamily(parsed.value("--family", "auto"), family)) {
    throw UsageError{"unknown --family '" + parsed.value("--family") +
                     "' (auto, engine, model-agnostic)"};
  }
  try {
    return resolveFamily(model, family);
  } catch (const std::invalid_argument& error) {
    throw UsageError{std::string("--family: ") + error.what()};
  }
}

std::string familyLine(DynamicsFamily family, DerivativeSource derivatives) {
  // on the engine, differences are a choice (--jacobian fd), not a lack
  const std::string source =
      family == DynamicsFamily::Engine && derivatives == DerivativeSource::CentralDifferences
          ? "central differences (--jacobian fd)"
          : derivativeSourceLabel(derivatives);
  return "family: " + familyName(family) + " (Jacobians: " + source + ")";
}

}  // namespace tendril::cli
