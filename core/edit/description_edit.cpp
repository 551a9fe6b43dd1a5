#include "core/edit/description_edit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "core/algorithm/constraints.hpp"
#include "core/algorithm/data.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"
#include "core/model/validate.hpp"

namespace tendril {
namespace {

using Json = nlohmann::json;

// the key of a pointer's last named component: "/links/0/rigid/mass" -> "mass",
// "/links/0/soft/divisions/1/section/radius" -> "radius"
std::vector<std::string> components(const std::string& pointer) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(pointer);
  while (std::getline(in, part, '/')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

bool isIndex(const std::string& part) {
  return !part.empty() &&
         std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string lastKey(const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!isIndex(*it)) return *it;
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Json::json_pointer toPointer(const std::string& pointer) {
  try {
    return Json::json_pointer(pointer);
  } catch (const Json::exception&) {
    throw ParseError(pointer, "not a valid JSON pointer");
  }
}

// whether any "link" value at any depth of \p item names one of \p links
bool refersTo(const Json& item, const std::set<std::string>& links) {
  if (item.is_object()) {
    for (const auto& [key, value] : item.items()) {
      if (key == "link" && value.is_string() && links.count(value.get<std::string>())) return true;
      if (refersTo(value, links)) return true;
    }
  } else if (item.is_array()) {
    return std::any_of(item.begin(), item.end(),
                       [&links](const Json& element) { return refersTo(element, links); });
  }
  return false;
}

std::set<std::string> usedNames(const Json& json) {
  std::set<std::string> names;
  for (const auto& [key, value] : json.items()) {
    if (!value.is_array()) continue;
    for (const Json& item : value) {
      if (item.is_object() && item.contains("name") && item["name"].is_string()) {
        names.insert(item["name"].get<std::string>());
      }
    }
  }
  return names;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\n\r");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\n\r");
  return text.substr(first, last - first + 1);
}

std::optional<double> finiteNumber(const std::string& text) {
  const std::string trimmed = trim(text);
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(trimmed, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (trimmed.empty() || used != trimmed.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

double parseNumber(const std::string& text, const std::string& pointer) {
  const std::optional<double> value = finiteNumber(text);
  if (!value) throw ParseError(pointer, "expected a number, got \"" + trim(text) + "\"");
  return *value;
}

// "/cables/i/tension/type", "/point_loads/i/scale/type", "/joint_inputs/i/value/type"
bool isTimeFunctionKind(const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  // a controller's set-point: /controllers/i/controlled/j/setpoint/type
  if (parts.size() == 6 && parts[0] == "controllers" && isIndex(parts[1]) &&
      parts[2] == "controlled" && isIndex(parts[3]) && parts[4] == "setpoint" &&
      parts[5] == "type") {
    return true;
  }
  if (parts.size() != 4 || !isIndex(parts[1]) || parts[3] != "type") return false;
  return (parts[0] == "cables" && parts[2] == "tension") ||
         (parts[0] == "point_loads" && parts[2] == "scale") ||
         (parts[0] == "joint_inputs" && parts[2] == "value");
}

// the time function a pointer accepted by isTimeFunctionKind addresses
TimeFunction* timeFunctionAt(RobotDescription& robot, const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  const std::size_t i = std::stoul(parts[1]);
  if (parts[0] == "controllers" && i < robot.controllers.size()) {
    const std::size_t j = std::stoul(parts[3]);
    if (j < robot.controllers[i].controlled.size())
      return &robot.controllers[i].controlled[j].setpoint;
  }
  if (parts[0] == "cables" && i < robot.cables.size()) return &robot.cables[i].tension;
  if (parts[0] == "point_loads" && i < robot.point_loads.size()) return &robot.point_loads[i].scale;
  if (parts[0] == "joint_inputs" && i < robot.joint_inputs.size()) {
    return &robot.joint_inputs[i].value;
  }
  throw ParseError(pointer, "no such field");
}

// a list of [t, value] pairs: the points of a time-function table
bool isTable(const Json& value) {
  return value.is_array() && !value.empty() &&
         std::all_of(value.begin(), value.end(), [](const Json& p) {
           return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
         });
}

// "t0, v0; t1, v1; ..." (a final ";" is allowed): at least 2 points, finite, times increasing
Json parseTable(const std::string& text, const std::string& pointer) {
  std::vector<std::string> rows;
  std::string row;
  std::istringstream in(text);
  while (std::getline(in, row, ';')) rows.push_back(trim(row));
  if (!rows.empty() && rows.back().empty()) rows.pop_back();
  Json points = Json::array();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::string which = "point " + std::to_string(k + 1) + ": ";
    std::vector<std::string> items;
    std::string item;
    std::istringstream pair(rows[k]);
    while (std::getline(pair, item, ',')) items.push_back(item);
    if (rows[k].empty() || items.size() != 2) {
      throw ParseError(pointer, which + "expected \"t, value\", got \"" + rows[k] +
                                    "\" (points are separated by \";\")");
    }
    const std::optional<double> t = finiteNumber(items[0]);
    const std::optional<double> v = finiteNumber(items[1]);
    if (!t || !v) {
      throw ParseError(pointer,
                       which + "expected two finite numbers \"t, value\", got \"" + rows[k] + "\"");
    }
    if (k > 0 && !(*t > points.back()[0].get<double>())) {
      throw ParseError(pointer, which + "its time " + textFromValue(*t) +
                                    " s must be later than the previous point's (" +
                                    textFromValue(points.back()[0]) +
                                    " s): times increase strictly");
    }
    points.push_back(Json::array({*t, *v}));
  }
  if (points.size() < 2) {
    throw ParseError(pointer, "a table needs at least 2 points, written \"t0, v0; t1, v1; ...\"");
  }
  return points;
}

// the time function holding the table whose points are at \p pointer (".../points")
Json& tableAt(Json& json, const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  if (parts.empty() || parts.back() != "points") throw ParseError(pointer, "not a table's points");
  const Json::json_pointer where = toPointer(pointer);
  if (!json.contains(where) || !json.contains(where.parent_pointer()) ||
      json[where.parent_pointer()].value("type", std::string()) != "table" ||
      !json[where].is_array()) {
    throw ParseError(pointer, "no such table");
  }
  return json[where];
}

SE3 toSE3(const Placement& placement) {
  SE3 g;
  g.R = rpyToRotation(placement.rpy[0], placement.rpy[1], placement.rpy[2]);
  g.p = Eigen::Vector3d(placement.position[0], placement.position[1], placement.position[2]);
  return g;
}

Placement toPlacement(const SE3& g) {
  // rounding noise of the kinematics would show as 1e-17 in the file
  auto clean = [](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; };
  const Eigen::Vector3d rpy = rotationToRpy(g.R);
  return Placement{{clean(g.p.x()), clean(g.p.y()), clean(g.p.z())},
                   {clean(rpy.x()), clean(rpy.y()), clean(rpy.z())}};
}

}  // namespace

Json descriptionToJson(const RobotDescription& robot) {
  return Json::parse(serializeRobot(robot));
}

RobotDescription descriptionFromJson(const Json& json) {
  RobotDescription robot = parseRobot(json.dump());
  checkDescription(robot);
  return robot;
}

void checkDescription(const RobotDescription& robot) {
  try {
    (void)buildModel(robot);
  } catch (const ParseError&) {
    throw;
  } catch (const std::exception& error) {
    throw ParseError("", error.what());
  }
}

RobotDescription withValue(const RobotDescription& robot, const std::string& pointer,
                           const Json& value) {
  if (isTimeFunctionKind(pointer)) {
    static const std::map<std::string, TimeFunction::Kind> kKinds = {
        {"constant", TimeFunction::Kind::Constant},
        {"ramp", TimeFunction::Kind::Ramp},
        {"sine", TimeFunction::Kind::Sine},
        {"table", TimeFunction::Kind::Table},
        {"cubic", TimeFunction::Kind::Cubic}};
    const auto kind = value.is_string() ? kKinds.find(value.get<std::string>()) : kKinds.end();
    if (kind == kKinds.end()) {
      throw ParseError(pointer, "expected one of constant, ramp, sine, table, cubic");
    }
    RobotDescription edited = robot;
    TimeFunction* f = timeFunctionAt(edited, pointer);
    *f = convertTimeFunction(*f, kind->second);
    return descriptionFromJson(descriptionToJson(edited));
  }
  Json json = descriptionToJson(robot);
  const Json::json_pointer where = toPointer(pointer);
  if (!json.contains(where)) throw ParseError(pointer, "no such field");
  json[where] = value;
  return descriptionFromJson(json);
}

Json valueAt(const RobotDescription& robot, const std::string& pointer) {
  const Json json = descriptionToJson(robot);
  const Json::json_pointer where = toPointer(pointer);
  if (!json.contains(where)) throw ParseError(pointer, "no such field");
  return json[where];
}

Json valueFromText(const std::string& text, const Json& like, const std::string& pointer) {
  const std::string trimmed = trim(text);
  if (like.is_boolean()) {
    if (trimmed == "true" || trimmed == "1") return true;
    if (trimmed == "false" || trimmed == "0") return false;
    throw ParseError(pointer, "expected true or false, got \"" + trimmed + "\"");
  }
  if (like.is_number_integer()) {
    const double value = parseNumber(trimmed, pointer);
    if (value != std::floor(value) || std::abs(value) > 1e9) {
      throw ParseError(pointer, "expected an integer, got \"" + trimmed + "\"");
    }
    return static_cast<long>(value);
  }
  if (like.is_number()) return parseNumber(trimmed, pointer);
  if (isTable(like)) return parseTable(trimmed, pointer);
  if (like.is_array()) {
    const bool numeric =
        std::all_of(like.begin(), like.end(), [](const Json& v) { return v.is_number(); });
    if (!numeric) throw ParseError(pointer, "this list is edited item by item");
    Json list = Json::array();
    std::string item;
    std::istringstream in(trimmed);
    while (std::getline(in, item, ',')) list.push_back(parseNumber(item, pointer));
    return list;
  }
  if (like.is_string()) return trimmed;
  throw ParseError(pointer, "this group is edited field by field");
}

std::string textFromValue(const Json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<long>());
  if (value.is_number()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value.get<double>());
    return buffer;
  }
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    // the points of a table, "t0, v0; t1, v1", else "x, y, z"
    const char* separator = isTable(value) ? "; " : ", ";
    std::string text;
    for (const Json& element : value) {
      text += (text.empty() ? "" : separator) + textFromValue(element);
    }
    return text;
  }
  return {};
}

namespace {

// the unit of what a time function at \p pointer drives (its value, amplitude, offset); robot-less
// for joint inputs ("N or N m")
std::string drivenUnit(const std::string& pointer) {
  if (contains(pointer, "/tension/")) return "N";
  if (contains(pointer, "/pressure/")) return "Pa";
  if (contains(pointer, "/joint_inputs/")) return "N or N m";
  if (contains(pointer, "/setpoint/")) return "rad or m";
  return "";  // a load's scale multiplies the wrench
}

// whether \p pointer lies inside a time function (a cable tension, a load scale, an input value)
bool inTimeFunction(const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  if (parts.size() >= 6 && parts[0] == "controllers" && parts[4] == "setpoint") return true;
  return parts.size() >= 4 && isIndex(parts[1]) &&
         ((parts[0] == "cables" && parts[2] == "tension") ||
          (parts[0] == "lvp_tendons" && parts[2] == "tension") ||
          (parts[0] == "cavity_pressures" && parts[2] == "pressure") ||
          (parts[0] == "point_loads" && parts[2] == "scale") ||
          (parts[0] == "joint_inputs" && parts[2] == "value"));
}

std::string timeFunctionUnit(const std::string& key, const std::string& driven) {
  if (key == "start" || key == "duration") return "s";
  if (key == "frequency") return "Hz";
  if (key == "phase") return "rad";
  if (key == "points") return "s, " + (driven.empty() ? std::string("-") : driven);
  if (key == "value" || key == "amplitude" || key == "offset" || key == "from" || key == "to")
    return driven;
  return "";
}

// a joint limit in the units of the joint's coordinate; both when the joint is not known
std::string limitUnit(const std::string& key, std::optional<bool> linear) {
  static const std::map<std::string, std::array<std::string, 2>> kUnits = {
      {"lower", {"rad", "m"}},
      {"upper", {"rad", "m"}},
      {"velocity", {"rad/s", "m/s"}},
      {"effort", {"N m", "N"}},
      {"damping", {"N m s/rad", "N s/m"}},
      {"friction", {"N m", "N"}}};
  const auto unit = kUnits.find(key);
  if (unit == kUnits.end()) return "";
  if (!linear) return unit->second[0] + " or " + unit->second[1];
  return unit->second[*linear ? 1 : 0];
}

}  // namespace

std::string fieldUnit(const std::string& pointer) {
  static const std::map<std::string, std::string> kUnits = {
      {"gravity", "m/s^2"},
      {"mass", "kg"},
      {"com", "m"},
      {"inertia", "kg m^2"},
      {"position", "m"},
      {"rpy", "rad"},
      {"size", "m"},
      {"length", "m"},
      {"radius", "m"},
      {"width", "m"},
      {"height", "m"},
      {"youngs_modulus", "Pa"},
      {"shear_modulus", "Pa"},
      {"density", "kg/m^3"},
      {"reference_strain", "1/m, 1/m, 1/m, -, -, -"},
      {"pitch", "m/rad"},
      {"abscissa", "m"},
      {"offset", "m"},
      {"wrench", "N m, N m, N m, N, N, N"},
      {"y", "m"},
      {"z", "m"},
      {"constraint_time_constant", "s"},
      // contact (core/algorithm/external_loads.cpp): f_n = k delta^p s(delta) (1 + c delta-dot)
      {"stiffness", "N/m^p"},
      {"smoothing", "m"},
      {"slip_velocity", "m/s"},
      {"point", "m"},
      {"centre", "m"},
      {"box_centre", "m"},
      // fluid bodies: F = -D |v| eta, [moment; force] as the twist [angular; linear]
      {"volume", "m^3"},
      {"drag", "N s^2, N s^2, N s^2, N s^2/m^2, N s^2/m^2, N s^2/m^2"},
      {"added_mass", "kg m^2, kg m^2, kg m^2, kg, kg, kg"},
      // LVP bodies (core/model/bodies/lvp_body.hpp): W = C (I1 - 3), stress rate time eta; their
      // primitives' mode coefficients and quadrature sizes are dimensionless
      {"cavity_radius", "m"},
      {"C", "Pa"},
      {"eta", "s"},
      {"angle", "rad"},
  };
  const std::string key = lastKey(pointer);
  if (inTimeFunction(pointer)) return timeFunctionUnit(key, drivenUnit(pointer));
  if (contains(pointer, "/limits/")) return limitUnit(key, std::nullopt);
  if (contains(pointer, "/controllers/")) {
    // PD gains are a stiffness and a damping; the others set e'' + K_D e' + K_P e = 0
    if (key == "kp") return "N m/rad or N/m; 1/s^2";
    if (key == "kd") return "N m s/rad or N s/m; 1/s";
    if (key == "min" || key == "max") return "N m or N";
    if (key == "sample_period" || key == "from" || key == "until") return "s";
  }
  // Hunt-Crossley c multiplies the penetration rate; a rod's material damping is a viscosity
  if (key == "damping") return contains(pointer, "/contact/") ? "s/m" : "Pa s";
  const auto unit = kUnits.find(key);
  return unit == kUnits.end() ? std::string() : unit->second;
}

std::string fieldUnit(const RobotDescription& robot, const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  // a joint input: a generalised force, or the prescribed coordinate itself
  if (parts.size() >= 4 && parts[0] == "joint_inputs" && isIndex(parts[1]) && parts[2] == "value") {
    const std::size_t i = std::stoul(parts[1]);
    if (i < robot.joint_inputs.size()) {
      const JointInputDesc& input = robot.joint_inputs[i];
      const int link = findLink(robot, input.link);
      const bool position = input.mode == JointInputDesc::Mode::Position;
      std::string driven = position ? "rad or m" : "N or N m";
      if (link >= 0) {
        const JointType type = robot.links[static_cast<std::size_t>(link)].joint.type;
        const bool angular = type == JointType::Revolute || type == JointType::Helical ||
                             (type == JointType::Cylindrical && input.dof == 0);
        const bool linear =
            type == JointType::Prismatic || (type == JointType::Cylindrical && input.dof == 1);
        if (angular) driven = position ? "rad" : "N m";
        if (linear) driven = position ? "m" : "N";
      }
      return timeFunctionUnit(lastKey(pointer), driven);
    }
  }
  // a controlled length or tip coordinate's set-point is in metres
  if (parts.size() >= 6 && parts[0] == "controllers" && isIndex(parts[1]) &&
      parts[2] == "controlled" && isIndex(parts[3]) && parts[4] == "setpoint") {
    const std::size_t c = std::stoul(parts[1]), k = std::stoul(parts[3]);
    if (c < robot.controllers.size() && k < robot.controllers[c].controlled.size() &&
        robot.controllers[c].controlled[k].kind != ControlledVariableDesc::Kind::Coordinate)
      return timeFunctionUnit(lastKey(pointer), "m");
  }
  // a tree joint's limits: angular or linear with its coordinate
  if (parts.size() == 5 && parts[0] == "links" && isIndex(parts[1]) && parts[2] == "joint" &&
      parts[3] == "limits") {
    const std::size_t i = std::stoul(parts[1]);
    if (i < robot.links.size()) {
      const JointType type = robot.links[i].joint.type;
      if (type == JointType::Revolute || type == JointType::Prismatic)
        return limitUnit(parts[4], type == JointType::Prismatic);
    }
  }
  // a cable offset c0 + c1 X + c2 X^2 ...: coefficient k in m^(1-k)
  if (parts.size() == 5 && parts[0] == "cables" && parts[2] == "path" &&
      (parts[4] == "y" || parts[4] == "z") && isIndex(parts[1]) && isIndex(parts[3])) {
    const std::size_t c = std::stoul(parts[1]), d = std::stoul(parts[3]);
    if (c < robot.cables.size() && d < robot.cables[c].path.size()) {
      const CableSegmentDesc& segment = robot.cables[c].path[d];
      const std::size_t n = (parts[4] == "y" ? segment.y : segment.z).size();
      std::string units;
      for (std::size_t k = 0; k < n; ++k) {
        const std::string unit = k == 0   ? "m"
                                 : k == 1 ? "-"
                                 : k == 2 ? "1/m"
                                          : "1/m^" + std::to_string(k - 1);
        units += (units.empty() ? "" : ", ") + unit;
      }
      return units.empty() ? "m" : units;
    }
  }
  return fieldUnit(pointer);
}

std::vector<std::string> fieldChoices(const std::string& pointer) {
  const std::string key = lastKey(pointer);
  if (key == "type" && contains(pointer, "/joint/")) {
    return {"fixed",     "revolute", "prismatic", "helical", "cylindrical",
            "universal", "planar",   "spherical", "free"};
  }
  if (key == "type" && contains(pointer, "/shape/")) return {"box", "cylinder", "sphere", "mesh"};
  if (key == "shape" && contains(pointer, "/section/")) return {"circular", "rectangular"};
  if (key == "family") {
    return {"monomial", "legendre", "chebyshev", "fourier", "gaussian", "piecewise_constant"};
  }
  if (key == "frame") return {"local", "global"};
  if (key == "type" && (contains(pointer, "/tension/") || contains(pointer, "/scale/") ||
                        contains(pointer, "/value/") || contains(pointer, "/setpoint/"))) {
    return {"constant", "ramp", "sine", "table", "cubic"};
  }
  if (key == "type" && contains(pointer, "/controllers/")) {
    return {"pd_gravity_compensation", "computed_torque", "collocated_pfbl"};
  }
  if (key == "after" && contains(pointer, "/active")) return {"off", "hold"};
  if (key == "axis" && contains(pointer, "/controlled/")) return {"x", "y", "z"};
  if (key == "mode") return {"force", "position"};
  if (key == "model" && contains(pointer, "/constant_curvature/")) return {"planar", "spatial"};
  if (key == "stress_model") return {"linear_elastic"};
  return {};
}

std::string uniqueName(const RobotDescription& robot, const std::string& base) {
  const std::set<std::string> used = usedNames(descriptionToJson(robot));
  for (int i = 1;; ++i) {
    std::string name = base + std::to_string(i);
    if (!used.count(name)) return name;
  }
}

double typicalLinkLength(const RobotDescription& robot) {
  std::vector<double> lengths;
  for (const LinkDesc& link : robot.links) {
    const double length =
        link.kind() == BodyKind::Rigid
            ? Eigen::Map<const Eigen::Vector3d>(link.rigid().tip.position.data()).norm()
            : 0.5 * centrelineLength(link);
    if (length > 0.0) lengths.push_back(length);
  }
  if (lengths.empty()) return kDefaultLinkLength;
  const auto middle = lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2);
  std::nth_element(lengths.begin(), middle, lengths.end());
  return *middle;
}

LinkDesc makeRigidLink(const std::string& name, JointType joint, double length) {
  LinkDesc link;
  link.name = name;
  link.joint.type = joint;
  link.joint.axis = {0.0, 1.0, 0.0};
  link.body = RigidBodyDesc{};
  // a length x length/5 x length/5 box, 0.5 kg at 0.2 m
  const double scale = length / kDefaultLinkLength;
  link.rigid().mass = 0.5 * scale * scale * scale;
  link.rigid().com = {0.5 * length, 0.0, 0.0};
  const double m = link.rigid().mass, a = length, b = 0.2 * length, c = 0.2 * length;
  link.rigid().inertia = {m * (b * b + c * c) / 12.0,
                          m * (a * a + c * c) / 12.0,
                          m * (a * a + b * b) / 12.0,
                          0.0,
                          0.0,
                          0.0};
  link.rigid().tip.position = {length, 0.0, 0.0};
  link.rigid().shape.type = ShapeType::Box;
  link.rigid().shape.size = {a, b, c};
  link.rigid().shape.color = {0.85, 0.33, 0.25};
  return link;
}

LinkDesc makeSoftLink(const std::string& name, int divisions, double length) {
  LinkDesc link;
  link.name = name;
  link.joint.type = JointType::Fixed;
  link.body = SoftBodyDesc{};
  DivisionDesc division;
  division.length = length / std::max(divisions, 1);
  division.section.radius_start = division.section.radius_end = length / 40.0;
  division.material.youngs_modulus = 1e6;
  division.material.density = 1000.0;
  division.material.damping = 1e4;
  division.basis.family = BasisFamily::Legendre;
  division.basis.order = {2, 2, 2, -1, -1, -1};
  link.soft().divisions.assign(static_cast<std::size_t>(std::max(divisions, 1)), division);
  return link;
}

LinkDesc makeConstantCurvatureLink(const std::string& name, CurvatureModel model, double length) {
  LinkDesc link;
  link.name = name;
  link.joint.type = JointType::Fixed;
  ConstantCurvatureBodyDesc segment;
  segment.model = model;
  segment.length = length;
  segment.radius = 0.1 * length;  // the slenderness of the model-agnostic paper's PCC robots
  segment.material.youngs_modulus = 1e6;
  segment.material.density = 1000.0;
  segment.material.damping = 1e4;
  link.body = segment;
  return link;
}

LinkDesc makeLvpLink(const std::string& name, LvpPreset preset) {
  LinkDesc link;
  link.name = name;
  link.joint.type = JointType::Fixed;
  LvpBodyDesc body;  // the helicoid body's defaults (lvp_body.hpp)
  if (preset == LvpPreset::Inflatable) {
    body.primitives = lvpTable5Primitives();
    body.cavity_radius = 0.5 * body.radius;
  }
  link.body = body;
  return link;
}

int addLvpLink(RobotDescription& robot, LinkDesc link, const std::string& parent) {
  RobotDescription edited = robot;
  const bool cavity = link.lvp().cavity_radius > 0.0;
  const std::string name = link.name;
  const int index = addLink(edited, std::move(link), parent);
  if (cavity) {
    edited.cavity_pressures.push_back(
        {uniqueName(edited, name + "_chamber"), name, TimeFunction::constant(0.0)});
  }
  RobotDescription checked = descriptionFromJson(descriptionToJson(edited));
  (void)buildModel(checked);
  robot = std::move(checked);
  return index;
}

TimeFunction convertTimeFunction(const TimeFunction& f, TimeFunction::Kind kind) {
  if (f.kind == kind) return f;
  double level = f.value;
  if (f.kind == TimeFunction::Kind::Sine) level = f.offset;
  if (f.kind == TimeFunction::Kind::Table && !f.table.empty()) level = f.table.front()[1];
  TimeFunction converted;
  converted.kind = kind;
  switch (kind) {
    case TimeFunction::Kind::Constant:
      converted.value = level;
      break;
    case TimeFunction::Kind::Ramp:
      converted.value = level;
      converted.start = 0.0;
      converted.duration = 1.0;
      break;
    case TimeFunction::Kind::Sine:
      // oscillates about the old level, by as much (or by 1 about 0)
      converted.offset = level;
      converted.amplitude = level != 0.0 ? std::abs(level) : 1.0;
      converted.frequency = 1.0;
      converted.phase = 0.0;
      break;
    case TimeFunction::Kind::Table:
      converted.table = {{0.0, level}, {1.0, level}};
      break;
    case TimeFunction::Kind::Cubic:
      // from the old level to the same level: the user sets the end value
      converted.initial = level;
      converted.value = level;
      converted.start = 0.0;
      converted.duration = 1.0;
      break;
  }
  return converted;
}

int addJointInput(RobotDescription& robot, const std::string& link) {
  const int index = findLink(robot, link);
  if (index < 0 || robot.links[static_cast<std::size_t>(index)].joint.type == JointType::Fixed) {
    throw ParseError("/joint_inputs", "a joint input drives a link's joint; select a jointed link");
  }
  RobotDescription edited = robot;
  JointInputDesc input;
  input.link = link;
  input.dof = 0;
  input.mode = JointInputDesc::Mode::Force;
  input.value = TimeFunction::constant(0.0);
  edited.joint_inputs.push_back(input);
  const int input_index = static_cast<int>(edited.joint_inputs.size()) - 1;
  robot = descriptionFromJson(descriptionToJson(edited));
  return input_index;
}

int addClosedChain(RobotDescription& robot, const std::string& link_a, const std::string& link_b,
                   JointType type, bool planar) {
  const int a = findLink(robot, link_a);
  const int b = link_b == "world" ? -1 : findLink(robot, link_b);
  if (a < 0) throw ParseError("/closed_chains", "frame A sits on a link; select one first");
  if (link_b != "world" && b < 0) {
    throw ParseError("/closed_chains", "unknown link \"" + link_b + "\"");
  }
  if (a == b) throw ParseError("/closed_chains", "a closed-loop joint joins two different bodies");
  const LinkDesc& body_a = robot.links[static_cast<std::size_t>(a)];
  ClosedChainDesc chain;
  chain.name = uniqueName(robot, "loop");
  chain.joint.type = type;
  chain.joint.axis = {0.0, 1.0, 0.0};  // as the links the studio adds
  chain.planar = planar;
  chain.a.link = link_a;
  if (hasCentreline(body_a.kind())) {
    chain.a.abscissa = -1.0;
  } else if (body_a.kind() == BodyKind::Rigid) {
    chain.a.placement = body_a.rigid().tip;
  }
  chain.b.link = link_b;
  if (b >= 0 && hasCentreline(robot.links[static_cast<std::size_t>(b)].kind())) {
    chain.b.abscissa = -1.0;
  }
  RobotDescription edited = robot;
  edited.closed_chains.push_back(chain);
  // place frame B on frame A in the reference configuration: g_B' = g_B g_b^-1 g_b' = g_A
  try {
    const Model model = buildModel(edited);
    Data data(model);
    forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq));
    const auto compiled =
        std::find_if(model.closed_chains.begin(), model.closed_chains.end(),
                     [&chain](const CompiledClosedChain& c) { return c.name == chain.name; });
    if (compiled == model.closed_chains.end()) throw std::logic_error("closed chain not compiled");
    const SE3 g_A = closedChainFrameA(*compiled, data);
    const SE3 g_B = closedChainFrameB(*compiled, data);
    edited.closed_chains.back().b.placement =
        toPlacement(toSE3(chain.b.placement) * g_B.inverse() * g_A);
  } catch (const ParseError&) {
    throw;
  } catch (const std::exception& error) {
    throw ParseError("/closed_chains", error.what());
  }
  const int index = static_cast<int>(edited.closed_chains.size()) - 1;
  robot = descriptionFromJson(descriptionToJson(edited));
  return index;
}

int splitSoftLink(RobotDescription& robot, int link, double abscissa) {
  const std::string pointer = "/links/" + std::to_string(link);
  if (link < 0 || link >= static_cast<int>(robot.links.size())) {
    throw ParseError(pointer, "no such link");
  }
  const LinkDesc& rod = robot.links[static_cast<std::size_t>(link)];
  if (rod.kind() != BodyKind::Soft) throw ParseError(pointer, "only a soft rod can be split");
  constexpr double kTiny = 1e-9;
  const double length = centrelineLength(rod);
  if (!(abscissa > kTiny && abscissa < length - kTiny)) {
    throw ParseError(pointer, "the point must lie strictly inside the rod (0 < X < " +
                                  textFromValue(length) + " m)");
  }
  for (const CableDesc& cable : robot.cables) {
    if (cable.link == rod.name) {
      throw ParseError(pointer, "cable \"" + cable.name +
                                    "\" runs through this rod and cannot span two links; remove "
                                    "it first, or attach at the tip");
    }
  }
  for (const ClosedChainDesc& chain : robot.closed_chains) {
    if (chain.a.link == rod.name || chain.b.link == rod.name) {
      throw ParseError(pointer, "closed-loop joint \"" + chain.name +
                                    "\" holds this rod; remove it first, or attach at the tip");
    }
  }
  RobotDescription edited = robot;
  LinkDesc head = rod;
  LinkDesc tail = rod;
  tail.name = uniqueName(robot, rod.name + "_");
  tail.parent = rod.name;
  tail.origin = Placement{};
  tail.joint = JointDesc{};
  head.soft().divisions.clear();
  tail.soft().divisions.clear();
  // the division holding the cut: split it with its taper interpolated there
  double start = 0.0;
  for (const DivisionDesc& division : rod.soft().divisions) {
    const double end = start + division.length;
    if (end <= abscissa + kTiny) {
      head.soft().divisions.push_back(division);
    } else if (start >= abscissa - kTiny) {
      tail.soft().divisions.push_back(division);
    } else {
      const double s = (abscissa - start) / division.length;
      auto at = [s](double first, double last) { return first + s * (last - first); };
      DivisionDesc before = division, after = division;
      before.length = abscissa - start;
      after.length = end - abscissa;
      after.origin = Placement{};
      CrossSectionDesc& b = before.section;
      CrossSectionDesc& a = after.section;
      b.radius_end = a.radius_start =
          at(division.section.radius_start, division.section.radius_end);
      b.width_end = a.width_start = at(division.section.width_start, division.section.width_end);
      b.height_end = a.height_start =
          at(division.section.height_start, division.section.height_end);
      head.soft().divisions.push_back(before);
      tail.soft().divisions.push_back(after);
    }
    start = end;
  }
  edited.links[static_cast<std::size_t>(link)] = head;
  // what hung at the tip now hangs at the continuation's tip
  for (LinkDesc& child : edited.links) {
    if (child.parent == rod.name) child.parent = tail.name;
  }
  for (PointLoadDesc& load : edited.point_loads) {
    if (load.link != rod.name) continue;
    if (load.abscissa < 0.0) {
      load.link = tail.name;
    } else if (load.abscissa > abscissa) {
      load.link = tail.name;
      load.abscissa -= abscissa;
    }
  }
  edited.links.push_back(tail);
  const int index = static_cast<int>(edited.links.size()) - 1;
  robot = descriptionFromJson(descriptionToJson(edited));
  return index;
}

int addLinkAlongRod(RobotDescription& robot, LinkDesc new_link, int rod, double abscissa) {
  const std::string pointer = "/links/" + std::to_string(rod);
  if (rod < 0 || rod >= static_cast<int>(robot.links.size()) ||
      robot.links[static_cast<std::size_t>(rod)].kind() != BodyKind::Soft) {
    throw ParseError(pointer, "select a soft rod to attach along");
  }
  RobotDescription edited = robot;
  const std::string parent = robot.links[static_cast<std::size_t>(rod)].name;
  if (abscissa < centrelineLength(robot.links[static_cast<std::size_t>(rod)]) - 1e-9) {
    (void)splitSoftLink(edited, rod, abscissa);
  }
  const int index = addLink(edited, std::move(new_link), parent);
  robot = std::move(edited);
  return index;
}

int addTablePoint(RobotDescription& robot, const std::string& points_pointer, int after) {
  Json json = descriptionToJson(robot);
  Json& points = tableAt(json, points_pointer);
  const int n = static_cast<int>(points.size());
  if (after < 0 || after >= n) {
    throw ParseError(points_pointer, "no point " + std::to_string(after + 1) + " in the table");
  }
  const double t = points[after][0].get<double>(), v = points[after][1].get<double>();
  Json point;
  if (after + 1 < n) {
    // halfway to the next point
    const double t_next = points[after + 1][0].get<double>();
    const double v_next = points[after + 1][1].get<double>();
    point = Json::array({0.5 * (t + t_next), 0.5 * (v + v_next)});
  } else {
    // one more interval past the end, holding the last value
    const double step = n >= 2 ? t - points[n - 2][0].get<double>() : 1.0;
    point = Json::array({t + step, v});
  }
  points.insert(points.begin() + after + 1, point);
  robot = descriptionFromJson(json);
  return after + 1;
}

void removeTablePoint(RobotDescription& robot, const std::string& points_pointer, int index) {
  Json json = descriptionToJson(robot);
  Json& points = tableAt(json, points_pointer);
  if (index < 0 || index >= static_cast<int>(points.size())) {
    throw ParseError(points_pointer, "no point " + std::to_string(index + 1) + " in the table");
  }
  if (points.size() <= 2) {
    throw ParseError(points_pointer,
                     "a table keeps at least 2 points (switch the type to constant instead)");
  }
  points.erase(static_cast<std::size_t>(index));
  robot = descriptionFromJson(json);
}

int findFluidBody(const RobotDescription& robot, const std::string& link) {
  if (!robot.environment.fluid) return -1;
  const std::vector<FluidBodyDesc>& bodies = robot.environment.fluid->bodies;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].link == link) return static_cast<int>(i);
  }
  return -1;
}

int addFluidBody(RobotDescription& robot, const std::string& link) {
  const std::string pointer = "/environment/fluid/bodies";
  if (!robot.environment.fluid) {
    throw ParseError(pointer, "there is no fluid: switch it on first (Model > Environment)");
  }
  const int index = findLink(robot, link);
  if (index < 0) throw ParseError(pointer, "select a rigid link first");
  const LinkDesc& body = robot.links[static_cast<std::size_t>(index)];
  if (body.kind() != BodyKind::Rigid) {
    throw ParseError(pointer, "\"" + link +
                                  "\" is a soft rod: rods take the fluid's drag and added-mass "
                                  "coefficients; only rigid links are listed");
  }
  if (findFluidBody(robot, link) >= 0) {
    throw ParseError(pointer, "\"" + link + "\" is already in the fluid's list");
  }
  RobotDescription edited = robot;
  FluidBodyDesc entry;
  entry.link = link;
  entry.volume = shapeVolume(body.rigid().shape);  // what it displaces anyway, now shown
  edited.environment.fluid->bodies.push_back(entry);
  const int entry_index = static_cast<int>(edited.environment.fluid->bodies.size()) - 1;
  robot = descriptionFromJson(descriptionToJson(edited));
  return entry_index;
}

int findLink(const RobotDescription& robot, const std::string& name) {
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int addLink(RobotDescription& robot, LinkDesc link, const std::string& parent) {
  RobotDescription edited = robot;
  link.parent = parent;
  edited.links.push_back(std::move(link));
  const int index = static_cast<int>(edited.links.size()) - 1;
  // through JSON so that the parser's checks (names, parents) apply as well
  robot = descriptionFromJson(descriptionToJson(edited));
  return index;
}

int addLvpTendon(RobotDescription& robot, const std::string& link) {
  const int index = findLink(robot, link);
  if (index < 0 || robot.links[static_cast<std::size_t>(index)].kind() != BodyKind::Lvp)
    throw ParseError("/lvp_tendons", "a tendon runs on a volume-preserving body; select one first");
  const auto on_body = std::count_if(
      robot.lvp_tendons.begin(), robot.lvp_tendons.end(), [&](const LvpTendonDesc& tendon) {
        return !tendon.anchors.empty() && tendon.anchors.front().link == link;
      });
  const double angle = 2.0 * std::numbers::pi * static_cast<double>(on_body % 3) / 3.0;
  RobotDescription edited = robot;
  edited.lvp_tendons.push_back(
      {uniqueName(robot, link + "_tendon"),
       {{link, LvpAnchorDesc::End::Base, angle}, {link, LvpAnchorDesc::End::Tip, angle}},
       TimeFunction::constant(1.0)});
  RobotDescription checked = descriptionFromJson(descriptionToJson(edited));
  (void)buildModel(checked);
  robot = std::move(checked);
  return static_cast<int>(robot.lvp_tendons.size()) - 1;
}

int addCable(RobotDescription& robot, const std::string& link) {
  const int index = findLink(robot, link);
  if (index < 0 || !hasCentreline(robot.links[static_cast<std::size_t>(index)].kind())) {
    throw ParseError("/cables",
                     "a cable runs through a soft rod or a constant-curvature segment; select one "
                     "first");
  }
  const LinkDesc& rod = robot.links[static_cast<std::size_t>(index)];
  Json cable{{"name", uniqueName(robot, "cable")},
             {"link", link},
             {"tension", Json{{"type", "constant"}, {"value", 1.0}}}};
  Json path = Json::array();
  if (rod.kind() == BodyKind::ConstantCurvature) {
    // halfway out along local z for a planar segment (it bends about y only), along y for a
    // spatial one (it bends it about z)
    const ConstantCurvatureBodyDesc& segment = rod.constantCurvature();
    const double offset = 0.5 * segment.radius;
    const bool planar = segment.model == CurvatureModel::Planar;
    path.push_back(
        Json{{"division", 0}, {"y", {planar ? 0.0 : offset}}, {"z", {planar ? offset : 0.0}}});
  }
  for (std::size_t d = 0; rod.kind() == BodyKind::Soft && d < rod.soft().divisions.size(); ++d) {
    const CrossSectionDesc& section = rod.soft().divisions[d].section;
    const double r = section.shape == SectionShape::Circular
                         ? section.radius_end
                         : 0.5 * std::min(section.width_end, section.height_end);
    path.push_back(Json{{"division", d}, {"y", {0.5 * r}}, {"z", {0.0}}});
  }
  cable["path"] = path;
  Json json = descriptionToJson(robot);
  if (!json.contains("cables")) json["cables"] = Json::array();
  json["cables"].push_back(cable);
  const int cable_index = static_cast<int>(json["cables"].size()) - 1;
  robot = descriptionFromJson(json);
  return cable_index;
}

int addPointLoad(RobotDescription& robot, const std::string& link) {
  const int index = findLink(robot, link);
  if (index < 0) throw ParseError("/point_loads", "a point load acts on a link; select one first");
  const LinkDesc& target = robot.links[static_cast<std::size_t>(index)];
  const bool soft = hasCentreline(target.kind());
  Json load{{"name", uniqueName(robot, "load")},
            {"link", link},
            {"abscissa", soft ? -1.0 : 0.0},
            {"offset",
             target.kind() == BodyKind::Rigid ? target.rigid().tip.position : Vec3{0.0, 0.0, 0.0}},
            {"frame", "global"},
            {"wrench", {0.0, 0.0, 0.0, 0.0, 0.0, -1.0}},
            {"scale", Json{{"type", "constant"}, {"value", 1.0}}}};
  Json json = descriptionToJson(robot);
  if (!json.contains("point_loads")) json["point_loads"] = Json::array();
  json["point_loads"].push_back(load);
  const int load_index = static_cast<int>(json["point_loads"].size()) - 1;
  robot = descriptionFromJson(json);
  return load_index;
}

namespace {

// the controllers whose inputs, cables or links are gone go with them (a controller of a removed
// joint has nothing left to drive)
void dropOrphanControllers(Json& json) {
  if (!json.contains("controllers")) return;
  std::set<std::string> inputs, links;
  for (const char* key : {"joint_inputs", "cables", "lvp_tendons", "cavity_pressures"}) {
    if (!json.contains(key)) continue;
    for (const Json& item : json[key]) {
      if (item.contains("name")) inputs.insert(item["name"].get<std::string>());
    }
  }
  for (const Json& link : json["links"]) links.insert(link["name"].get<std::string>());
  const auto kept_variable = [&](const Json& variable) {
    if (variable.contains("cable_length"))
      return inputs.count(variable["cable_length"].get<std::string>()) > 0;
    if (variable.contains("tendon_length"))
      return inputs.count(variable["tendon_length"].get<std::string>()) > 0;
    if (variable.contains("tip_position"))
      return links.count(variable["tip_position"].get<std::string>()) > 0;
    const std::string name = variable.contains("coordinate")
                                 ? variable["coordinate"].get<std::string>()
                                 : variable.value("link", std::string());
    return links.count(name.substr(0, name.find('/'))) > 0;
  };
  Json kept = Json::array();
  for (const Json& controller : json["controllers"]) {
    bool whole = true;
    for (const Json& input : controller["inputs"]) {
      const std::string name =
          input.is_string() ? input.get<std::string>() : input["name"].get<std::string>();
      whole = whole && inputs.count(name) > 0;
    }
    for (const Json& variable : controller["controlled"]) whole = whole && kept_variable(variable);
    if (whole) kept.push_back(controller);
  }
  json["controllers"] = kept;
}

}  // namespace

int addController(RobotDescription& robot, const std::string& link) {
  const int index = findLink(robot, link);
  if (index < 0 || robot.links[static_cast<std::size_t>(index)].joint.type == JointType::Fixed) {
    throw ParseError("/controllers",
                     "a controller drives a link's joint; select a link with a moving joint");
  }
  RobotDescription edited = robot;
  // the force input on the joint's first coordinate, named if it has no name, or a new one
  auto input = std::find_if(
      edited.joint_inputs.begin(), edited.joint_inputs.end(), [&](const JointInputDesc& in) {
        return in.link == link && in.dof == 0 && in.mode == JointInputDesc::Mode::Force;
      });
  if (input == edited.joint_inputs.end()) {
    JointInputDesc added;
    added.link = link;
    added.value = TimeFunction::constant(0.0);
    edited.joint_inputs.push_back(added);
    input = edited.joint_inputs.end() - 1;
  }
  if (input->name.empty()) input->name = uniqueName(edited, link + "_motor");
  ControllerDesc controller;
  controller.name = uniqueName(edited, "controller");
  controller.type = ControllerDesc::Type::PdGravityCompensation;
  TimeFunction setpoint;
  setpoint.kind = TimeFunction::Kind::Cubic;  // to half a radian (or metre) in a second
  setpoint.value = 0.5;
  setpoint.duration = 1.0;
  controller.controlled = {{ControlledVariableDesc::Kind::Coordinate, link + "/joint/0", setpoint}};
  controller.inputs = {{input->name, std::nullopt, std::nullopt}};
  controller.kp = {10.0};
  controller.kd = {1.0};
  edited.controllers.push_back(controller);
  RobotDescription checked = descriptionFromJson(descriptionToJson(edited));
  (void)buildModel(checked);  // the coordinate names are known only to the model
  robot = std::move(checked);
  return static_cast<int>(robot.controllers.size()) - 1;
}

namespace {

ControllerDesc& controllerAt(RobotDescription& robot, int controller) {
  if (controller < 0 || controller >= static_cast<int>(robot.controllers.size()))
    throw ParseError("/controllers", "no controller " + std::to_string(controller));
  return robot.controllers[static_cast<std::size_t>(controller)];
}

}  // namespace

void setControlledVariableKind(RobotDescription& robot, int controller, int variable,
                               ControlledVariableDesc::Kind kind) {
  using Kind = ControlledVariableDesc::Kind;
  RobotDescription edited = robot;
  ControllerDesc& desc = controllerAt(edited, controller);
  const std::string at =
      "/controllers/" + std::to_string(controller) + "/controlled/" + std::to_string(variable);
  if (variable < 0 || variable >= static_cast<int>(desc.controlled.size()))
    throw ParseError(at, "no such controlled variable");
  ControlledVariableDesc& target = desc.controlled[static_cast<std::size_t>(variable)];
  if (target.kind == kind) return;
  const auto none = [&](const std::string& what) {
    return ParseError(at, "the robot has no " + what + " to control");
  };
  switch (kind) {
    case Kind::Coordinate: {
      if (robot.joint_inputs.empty()) throw none("joint input");
      // the first joint input's coordinate that the controller does not drive already
      const auto driven = [&](const std::string& name) {
        return std::any_of(desc.controlled.begin(), desc.controlled.end(),
                           [&](const ControlledVariableDesc& c) {
                             return c.kind == Kind::Coordinate && c.name == name;
                           });
      };
      target.name.clear();
      for (const JointInputDesc& input : robot.joint_inputs) {
        const std::string name = input.link + "/joint/" + std::to_string(input.dof);
        if (!driven(name)) {
          target.name = name;
          break;
        }
      }
      if (target.name.empty()) throw none("joint input left");
      break;
    }
    case Kind::CableLength:
      if (robot.cables.empty()) throw none("cable");
      target.name = robot.cables[0].name;
      break;
    case Kind::TendonLength:
      if (robot.lvp_tendons.empty()) throw none("LVP tendon");
      target.name = robot.lvp_tendons[0].name;
      break;
    case Kind::TipPosition:
      if (robot.links.empty()) throw none("link");
      target.name = robot.links.back().name;
      target.axis = 2;
      break;
  }
  target.kind = kind;
  if (kind != Kind::Coordinate) desc.type = ControllerDesc::Type::CollocatedPfbl;
  RobotDescription checked = descriptionFromJson(descriptionToJson(edited));
  (void)buildModel(checked);
  robot = std::move(checked);
}

void addControllerWindow(RobotDescription& robot, int controller) {
  RobotDescription edited = robot;
  ControllerDesc& desc = controllerAt(edited, controller);
  const std::string pointer = "/controllers/" + std::to_string(controller) + "/active";
  if (desc.active) throw ParseError(pointer, "the controller has a window already");
  desc.active = ControllerWindowDesc{0.0, 1.0, ControllerWindowDesc::After::Off};
  RobotDescription checked = descriptionFromJson(descriptionToJson(edited));
  (void)buildModel(checked);  // two controllers writing one input must not overlap
  robot = std::move(checked);
}

void removeControllerWindow(RobotDescription& robot, int controller) {
  RobotDescription edited = robot;
  ControllerDesc& desc = controllerAt(edited, controller);
  if (!desc.active) {
    throw ParseError("/controllers/" + std::to_string(controller) + "/active",
                     "the controller has no window");
  }
  desc.active.reset();
  (void)buildModel(edited);  // acting throughout, it may overlap another writer of its inputs
  robot = std::move(edited);
}

void removeItem(RobotDescription& robot, const std::string& pointer) {
  const std::vector<std::string> parts = components(pointer);
  Json json = descriptionToJson(robot);
  // a rigid link's entry in the fluid: it then displaces its shape's volume, without drag
  if (parts.size() == 4 && parts[0] == "environment" && parts[1] == "fluid" &&
      parts[2] == "bodies" && isIndex(parts[3])) {
    const Json::json_pointer bodies("/environment/fluid/bodies");
    const std::size_t index = std::stoul(parts[3]);
    if (!json.contains(bodies) || index >= json[bodies].size()) {
      throw ParseError(pointer, "no such item");
    }
    json[bodies].erase(index);
    robot = descriptionFromJson(json);
    return;
  }
  if (parts.size() != 2 || !isIndex(parts[1]) || !json.contains(parts[0]) ||
      !json[parts[0]].is_array()) {
    throw ParseError(pointer, "not an item that can be removed");
  }
  Json& array = json[parts[0]];
  const std::size_t index = std::stoul(parts[1]);
  if (index >= array.size()) throw ParseError(pointer, "no such item");
  if (parts[0] != "links") {
    array.erase(index);
    dropOrphanControllers(json);
    robot = descriptionFromJson(json);
    return;
  }
  // the link, its descendants, then everything that refers to one of them
  std::set<std::string> removed{array[index]["name"].get<std::string>()};
  for (bool grew = true; grew;) {
    grew = false;
    for (const Json& link : array) {
      if (removed.count(link["parent"].get<std::string>()) &&
          removed.insert(link["name"].get<std::string>()).second) {
        grew = true;
      }
    }
  }
  for (auto& [key, value] : json.items()) {
    if (!value.is_array()) continue;
    Json kept = Json::array();
    for (const Json& item : value) {
      const bool is_removed_link =
          key == "links" && removed.count(item["name"].get<std::string>()) > 0;
      if (!is_removed_link && !(key != "links" && refersTo(item, removed))) kept.push_back(item);
    }
    value = kept;
  }
  const Json::json_pointer fluid_bodies("/environment/fluid/bodies");
  if (json.contains(fluid_bodies)) {
    Json kept = Json::array();
    for (const Json& item : json[fluid_bodies]) {
      if (!refersTo(item, removed)) kept.push_back(item);
    }
    json[fluid_bodies] = kept;
  }
  dropOrphanControllers(json);
  robot = descriptionFromJson(json);
}

void reparentLink(RobotDescription& robot, int link, const std::string& parent) {
  const std::string pointer = "/links/" + std::to_string(link) + "/parent";
  if (link < 0 || link >= static_cast<int>(robot.links.size())) {
    throw ParseError(pointer, "no such link");
  }
  if (parent != "world" && findLink(robot, parent) < 0) {
    throw ParseError(pointer, "unknown link \"" + parent + "\"");
  }
  // walking up from the new parent must not meet the link itself
  for (std::string name = parent; name != "world";) {
    if (name == robot.links[static_cast<std::size_t>(link)].name) {
      throw ParseError(pointer, "a link cannot hang below itself or one of its descendants");
    }
    const int up = findLink(robot, name);
    if (up < 0) break;
    name = robot.links[static_cast<std::size_t>(up)].parent;
  }
  robot = withValue(robot, pointer, parent);
}

}  // namespace tendril
