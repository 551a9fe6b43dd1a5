#pragma once
// Command-line parsing shared by the tendril-cli commands.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/cli_commands.hpp"
#include "core/algorithm/dynamics_family.hpp"
#include "core/model/description.hpp"
#include "core/model/model.hpp"

namespace tendril::cli {

struct Option {
  std::string name;  ///< e.g. "--out"
  bool takes_value;
  std::string help;
  bool repeatable = false;
};

struct Parsed {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;
  bool help = false;
  bool has(const std::string& name) const { return values.count(name) > 0; }
  /// \brief The value of an option given once (the last one if repeated).
  std::string value(const std::string& name, const std::string& fallback = "") const;
  /// \brief A numeric option. \throw UsageError when it is not a number
  double number(const std::string& name, double fallback) const;
};

/// \brief Splits arguments into positional ones and known options. \throw UsageError
Parsed parse(const Args& args, const std::vector<Option>& options);

void printHelp(const std::string& synopsis, const std::vector<Option>& options,
               const std::string& description = "");

/// \brief The single MODEL.json argument. \throw UsageError
std::string modelPath(const Parsed& parsed);

/// \brief The --family option every command that runs a model takes.
Option familyOption();
/// \brief The --family value (auto when absent) resolved for \p model. \throw UsageError for an
/// unknown name, or (with the reason) when that family cannot run the model
DynamicsFamily familyFor(const Parsed& parsed, const Model& model);
/// \brief "family: model-agnostic (Jacobians: central differences (no analytical derivatives for
/// this body kind))": which family ran and where its derivatives came from.
std::string familyLine(DynamicsFamily family, DerivativeSource derivatives);

/// \brief Loads a model, printing "tendril-cli: <file>: <pointer>: <reason>" when it is invalid.
std::optional<RobotDescription> loadOrReport(const std::string& path);

}  // namespace tendril::cli
