// tendril-cli inverse-statics: the actuator values whose equilibrium puts a link's tip on a target.

#include <Eigen/Geometry>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "app/cli_args.hpp"
#include "core/algorithm/inverse_statics.hpp"
#include "core/io/json_io.hpp"

namespace tendril::cli {
namespace {

double parseNumber(const std::string& text, const std::string& option) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw UsageError{option + ": '" + text + "' is not a number"};
  return value;
}

bool isNumber(const std::string& text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

// the values following `option` in the raw arguments (x y z, qw qx qy qz ...): the option parser
// takes one value per option, so the rest are collected here
std::vector<double> numbersAfter(const Args& args, const std::string& option) {
  std::vector<double> numbers;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] != option) continue;
    // up to the next option or the first word that is no number (the model path)
    for (std::size_t k = i + 1; k < args.size() && isNumber(args[k]); ++k)
      numbers.push_back(parseNumber(args[k], option));
  }
  return numbers;
}

// removes the extra values of the multi-value options so that parse() sees one value each
Args withoutExtraValues(const Args& args, const std::vector<std::string>& multi) {
  Args kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    kept.push_back(args[i]);
    if (std::find(multi.begin(), multi.end(), args[i]) == multi.end()) continue;
    std::size_t k = i + 1;
    if (k < args.size() && isNumber(args[k])) kept.push_back(args[k++]);
    while (k < args.size() && isNumber(args[k])) ++k;
    i = k - 1;
  }
  return kept;
}

std::vector<std::string> splitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

// "lo:hi" per actuator, comma separated; "inf" for no bound
std::vector<std::pair<double, double>> parseBounds(const std::string& text) {
  std::vector<std::pair<double, double>> bounds;
  const auto bound = [](const std::string& part) {
    if (part == "inf" || part == "+inf") return std::numeric_limits<double>::infinity();
    if (part == "-inf") return -std::numeric_limits<double>::infinity();
    return parseNumber(part, "--bounds");
  };
  for (const std::string& pair : splitCommas(text)) {
    const auto colon = pair.find(':');
    if (colon == std::string::npos)
      throw UsageError{"--bounds expects LO:HI per actuator, comma separated, got '" + pair + "'"};
    bounds.emplace_back(bound(pair.substr(0, colon)), bound(pair.substr(colon + 1)));
  }
  return bounds;
}

// qw qx qy qz (a quaternion) or rx ry rz (a rotation vector [rad])
Eigen::Matrix3d parseOrientation(const std::vector<double>& values) {
  for (double value : values) {
    if (!std::isfinite(value)) throw UsageError{"--orientation: the values must be finite"};
  }
  if (values.size() == 4) {
    const Eigen::Quaterniond quaternion(values[0], values[1], values[2], values[3]);
    if (quaternion.norm() < 1e-12) throw UsageError{"--orientation: a zero quaternion"};
    return quaternion.normalized().toRotationMatrix();
  }
  if (values.size() == 3) {
    const Eigen::Vector3d rotation(values[0], values[1], values[2]);
    const double angle = rotation.norm();
    return angle == 0.0 ? Eigen::Matrix3d::Identity()
                        : Eigen::AngleAxisd(angle, rotation / angle).toRotationMatrix();
  }
  throw UsageError{"--orientation expects qw qx qy qz or rx ry rz, got " +
                   std::to_string(values.size()) + " numbers"};
}

void printResult(const std::vector<Actuator>& actuators, const InverseStaticsResult& result,
                 const InverseStaticsTarget& target, double seconds) {
  std::cout << std::setprecision(10) << "inverse-statics: " << result.message << "\n"
            << result.iterations << " iteration(s), " << result.statics_iterations
            << " Newton iterations of the statics, " << std::setprecision(4) << seconds * 1e3
            << " ms\n"
            << std::setprecision(10);
  for (std::size_t i = 0; i < actuators.size(); ++i) {
    std::cout << actuators[i].name << ": " << result.u(static_cast<Eigen::Index>(i)) << " "
              << actuators[i].unit << "\n";
  }
  const Eigen::Vector3d& p = result.point;
  std::cout << "tip " << target.link << ": [" << p.x() << ", " << p.y() << ", " << p.z() << "] m\n"
            << "error: " << std::setprecision(3) << result.position_error << " m";
  if (target.orientation) std::cout << ", " << result.orientation_error << " rad";
  std::cout << "\n";
}

}  // namespace

int runInverseStatics(const Args& raw_args) {
  const std::vector<Option> options = {
      {"--link", true, "the link whose tip is placed"},
      {"--target", true, "X Y Z: where the tip should be [m], world"},
      {"--offset", true, "X Y Z: place this point of the tip frame instead of its origin [m]"},
      {"--orientation", true, "QW QX QY QZ (quaternion) or RX RY RZ (rotation vector, rad)"},
      {"--orientation-weight", true, "metres one radian of orientation error weighs (0.1)"},
      {"--actuators", true, "A,B,C: cables or joint-input coordinates (default: all inputs)"},
      {"--bounds", true, "LO:HI,LO:HI,...: one per actuator (default: cables 0:inf)"},
      {"--time", true, "time at which the other inputs and loads are evaluated [s] (0)"},
      {"--tolerance", true, "tip distance that counts as on target [m] (1e-10)"},
      {"--max-iterations", true, "outer iterations (100)"},
      {"--out", true, "write the model with these actuator values as constant inputs"}};
  const std::vector<std::string> multi = {"--target", "--offset", "--orientation"};
  const Parsed parsed = parse(withoutExtraValues(raw_args, multi), options);
  if (parsed.help) {
    printHelp("inverse-statics MODEL.json --link L --target X Y Z [options]", options,
              "Finds cable tensions and joint inputs (within bounds) whose static equilibrium puts "
              "the tip on the\ntarget: Levenberg-Marquardt on the actuator values with the "
              "implicit-function gradient\ndq*/du = -(dR/dq)^-1 dR/du from the analytical "
              "Jacobians. Exit 1 when the target is unreachable.");
    return kExitOk;
  }
  if (!parsed.has("--link")) throw UsageError{"inverse-statics needs --link LINK"};
  const std::vector<double> position = numbersAfter(raw_args, "--target");
  if (position.size() != 3) throw UsageError{"inverse-statics needs --target X Y Z"};
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);

  InverseStaticsTarget target;
  target.link = parsed.value("--link");
  target.position = Eigen::Vector3d(position[0], position[1], position[2]);
  if (parsed.has("--offset")) {
    const std::vector<double> offset = numbersAfter(raw_args, "--offset");
    if (offset.size() != 3) throw UsageError{"--offset expects X Y Z"};
    target.offset = Eigen::Vector3d(offset[0], offset[1], offset[2]);
  }
  if (parsed.has("--orientation"))
    target.orientation = parseOrientation(numbersAfter(raw_args, "--orientation"));
  target.orientation_weight = parsed.number("--orientation-weight", target.orientation_weight);

  InverseStaticsOptions inverse;
  if (parsed.has("--actuators")) inverse.actuators = splitCommas(parsed.value("--actuators"));
  if (parsed.has("--bounds")) inverse.bounds = parseBounds(parsed.value("--bounds"));
  inverse.statics.time = parsed.number("--time", 0.0);
  inverse.position_tolerance = parsed.number("--tolerance", inverse.position_tolerance);
  inverse.max_iterations =
      static_cast<int>(parsed.number("--max-iterations", inverse.max_iterations));

  std::unique_ptr<InverseStaticsSolver> solver;
  InverseStaticsResult result;
  const auto started = std::chrono::steady_clock::now();
  try {
    solver = std::make_unique<InverseStaticsSolver>(model, inverse);
    result = solver->solve(target);
  } catch (const std::invalid_argument& error) {
    throw UsageError{error.what()};
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  printResult(solver->actuators(), result, target, seconds);
  if (parsed.has("--out")) {
    RobotDescription with_values = *robot;
    setActuatorValues(with_values, solver->actuators(), result.u);
    saveRobot(with_values, parsed.value("--out"));
    std::cout << "wrote " << parsed.value("--out") << "\n";
  }
  return result.converged ? kExitOk : kExitFailure;
}

}  // namespace tendril::cli
