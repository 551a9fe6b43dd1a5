#include "ui/panels/field_help.hpp"

#include <QFile>
#include <QObject>
#include <QStringList>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "ui/compiled_resources.hpp"

namespace tendril {
namespace {

using Json = nlohmann::json;

std::vector<std::string> segmentsOf(const std::string& pointer) {
  std::vector<std::string> segments;
  std::size_t start = 1;
  while (start <= pointer.size() && !pointer.empty()) {
    const std::size_t end = pointer.find('/', start);
    segments.push_back(pointer.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return segments;
}

bool isIndex(const std::string& segment) {
  return !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
}

// names that are not the key with its underscores as spaces
const std::map<std::string, QString>& keyLabels() {
  static const std::map<std::string, QString> kLabels = {
      {"a", QObject::tr("Frame on link A")},
      {"b", QObject::tr("Frame on link B")},
      {"abscissa", QObject::tr("Arc length")},
      {"added_mass", QObject::tr("Added mass")},
      {"active", QObject::tr("Active window")},
      {"added_mass_coefficient", QObject::tr("Added-mass coefficient")},
      {"after", QObject::tr("After the window")},
      {"bend_y", QObject::tr("Bend about y")},
      {"bend_z", QObject::tr("Bend about z")},
      {"cable_length", QObject::tr("Cable length of")},
      {"tendon_length", QObject::tr("Tendon length of")},
      {"tip_position", QObject::tr("Tip position of")},
      {"box_centre", QObject::tr("Box centre")},
      {"com", QObject::tr("Centre of mass")},
      {"constant_curvature", QObject::tr("Constant-curvature segment")},
      {"constraint_time_constant", QObject::tr("Loop-closure time constant")},
      {"dof", QObject::tr("Coordinate")},
      {"drag_normal", QObject::tr("Normal drag coefficient")},
      {"drag_tangential", QObject::tr("Tangential drag coefficient")},
      {"effort", QObject::tr("Effort limit")},
      {"family", QObject::tr("Basis family")},
      {"from", QObject::tr("From")},
      {"gauss_points", QObject::tr("Gauss points")},
      {"joint_inputs", QObject::tr("Joint inputs")},
      {"kd", QObject::tr("Derivative gain K_D")},
      {"kp", QObject::tr("Proportional gain K_P")},
      {"lower", QObject::tr("Lower limit")},
      {"magnus_order", QObject::tr("Magnus expansion order")},
      {"model", QObject::tr("Segment model")},
      {"order", QObject::tr("Strain orders")},
      {"point_loads", QObject::tr("Point loads")},
      {"poisson_ratio", QObject::tr("Poisson's ratio")},
      {"reference_strain", QObject::tr("Reference (rest) strain")},
      {"rigid", QObject::tr("Rigid body")},
      {"rigid_bodies", QObject::tr("Rigid bodies collide")},
      {"rpy", QObject::tr("Roll, pitch, yaw")},
      {"sample_period", QObject::tr("Sample period (0: continuous)")},
      {"schema_version", QObject::tr("Schema version")},
      {"setpoint", QObject::tr("Set-point")},
      {"shear_y", QObject::tr("Shear y")},
      {"shear_z", QObject::tr("Shear z")},
      {"slip_velocity", QObject::tr("Slip speed")},
      {"soft", QObject::tr("Soft rod (GVS)")},
      {"stress_model", QObject::tr("Stress model")},
      {"tip", QObject::tr("Tip frame")},
      {"until", QObject::tr("Until")},
      {"upper", QObject::tr("Upper limit")},
      {"velocity", QObject::tr("Velocity limit")},
      {"wrench", QObject::tr("Wrench (moment, force)")},
      {"y", QObject::tr("Offset y(X) coefficients")},
      {"z", QObject::tr("Offset z(X) coefficients")},
      {"youngs_modulus", QObject::tr("Young's modulus")},
  };
  return kLabels;
}

// what one item of a list is called, by the list's key
QString itemNoun(const std::string& list) {
  static const std::map<std::string, QString> kNouns = {
      {"links", QObject::tr("Link")},
      {"cables", QObject::tr("Cable")},
      {"point_loads", QObject::tr("Load")},
      {"joint_inputs", QObject::tr("Input")},
      {"closed_chains", QObject::tr("Loop")},
      {"divisions", QObject::tr("Division")},
      {"path", QObject::tr("Segment")},
      {"points", QObject::tr("Point")},
      {"planes", QObject::tr("Plane")},
      {"spheres", QObject::tr("Sphere")},
      {"cylinders", QObject::tr("Cylinder")},
      {"bodies", QObject::tr("Body")},
      {"controllers", QObject::tr("Controller")},
      {"controlled", QObject::tr("Variable")},
      {"inputs", QObject::tr("Input")},
  };
  const auto noun = kNouns.find(list);
  return noun == kNouns.end() ? QObject::tr("Item") : noun->second;
}

QString keyLabel(const std::string& key) {
  const auto label = keyLabels().find(key);
  if (label != keyLabels().end()) return label->second;
  QString text = QString::fromStdString(key).replace('_', ' ');
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

QString segmentLabel(const std::vector<std::string>& segments, std::size_t i) {
  if (!isIndex(segments[i])) return keyLabel(segments[i]);
  const QString number = QString::number(std::stoul(segments[i]) + 1);
  return i == 0 ? number : itemNoun(segments[i - 1]) + ' ' + number;
}

const Json& schema() {
  static const Json kSchema = [] {
    ensureCompiledResources();
    QFile file(QStringLiteral(":/schemas/robot.schema.json"));
    if (!file.open(QIODevice::ReadOnly)) return Json::object();
    return Json::parse(file.readAll().toStdString(), nullptr, false);
  }();
  return kSchema;
}

const Json& resolved(const Json& node) {
  const Json* at = &node;
  while (at->is_object() && at->contains("$ref")) {
    const std::string ref = (*at)["$ref"].get<std::string>();  // "#/$defs/link"
    const Json::json_pointer where(ref.substr(1));
    if (!schema().contains(where)) break;
    at = &schema()[where];
  }
  return *at;
}

// a branch of oneOf/anyOf that fixes "type" to another value than the instance's does not apply
bool branchApplies(const Json& branch, const Json* instance) {
  if (instance == nullptr || !instance->is_object() || !instance->contains("type")) return true;
  const Json& fixed = branch.value("properties", Json::object()).value("type", Json::object());
  return !fixed.contains("const") || fixed["const"] == (*instance)["type"];
}

// the node itself and the branches that apply to the instance (oneOf, anyOf, allOf, then)
void alternatives(const Json& node, const Json* instance, std::vector<const Json*>& out) {
  const Json& at = resolved(node);
  if (!at.is_object()) return;
  out.push_back(&at);
  for (const char* key : {"oneOf", "anyOf", "allOf"}) {
    if (!at.contains(key)) continue;
    for (const Json& branch : at[key]) {
      if (branchApplies(resolved(branch), instance)) alternatives(branch, instance, out);
    }
  }
  if (at.contains("then")) alternatives(at["then"], instance, out);
}

std::vector<const Json*> children(const std::vector<const Json*>& nodes,
                                  const std::string& segment) {
  std::vector<const Json*> found;
  for (const Json* node : nodes) {
    if (isIndex(segment) && node->contains("items") && (*node)["items"].is_object()) {
      found.push_back(&(*node)["items"]);
    }
    if (node->contains("properties") && (*node)["properties"].contains(segment)) {
      found.push_back(&(*node)["properties"][segment]);
    }
    if (node->contains("additionalProperties") && (*node)["additionalProperties"].is_object()) {
      found.push_back(&(*node)["additionalProperties"]);
    }
  }
  return found;
}

QString descriptionAmong(const std::vector<const Json*>& nodes) {
  for (const Json* node : nodes) {
    if (node->contains("description") && (*node)["description"].is_string()) {
      return QString::fromStdString((*node)["description"].get<std::string>());
    }
  }
  return {};
}

// the name of list item \p index of \p list in \p robot, or empty
QString itemName(const Json* robot, const std::string& list, const std::string& index) {
  if (robot == nullptr || !robot->contains(list) || !(*robot)[list].is_array()) return {};
  const Json& items = (*robot)[list];
  const std::size_t i = std::stoul(index);
  if (i >= items.size() || !items[i].is_object()) return {};
  for (const char* key : {"name", "link"}) {
    if (items[i].contains(key) && items[i][key].is_string()) {
      return QString::fromStdString(items[i][key].get<std::string>());
    }
  }
  return {};
}

}  // namespace

QString fieldLabel(const std::string& pointer) {
  const std::vector<std::string> segments = segmentsOf(pointer);
  return segments.empty() ? QObject::tr("Robot") : segmentLabel(segments, segments.size() - 1);
}

QString fieldDescription(const Json& robot, const std::string& pointer) {
  std::vector<const Json*> nodes;
  alternatives(schema(), &robot, nodes);
  QString list;  // the enclosing field's explanation, for an item of a list
  QString own = descriptionAmong(nodes);
  bool item = false;
  const Json* instance = &robot;
  for (const std::string& segment : segmentsOf(pointer)) {
    const Json* next = nullptr;
    if (instance != nullptr && instance->is_object() && instance->contains(segment)) {
      next = &(*instance)[segment];
    } else if (instance != nullptr && instance->is_array() && isIndex(segment) &&
               std::stoul(segment) < instance->size()) {
      next = &(*instance)[std::stoul(segment)];
    }
    std::vector<const Json*> deeper;
    for (const Json* child : children(nodes, segment)) alternatives(*child, next, deeper);
    if (deeper.empty()) return {};  // not a field of the schema
    nodes = std::move(deeper);
    instance = next;
    list = own;
    own = descriptionAmong(nodes);
    item = isIndex(segment);
  }
  return own.isEmpty() && item ? list : own;
}

int shownIndexOffset(const std::string& pointer) {
  const std::vector<std::string> segments = segmentsOf(pointer);
  if (segments.size() == 5 && segments[0] == "cables" && segments[2] == "path" &&
      segments[4] == "division") {
    return 1;
  }
  return segments.size() == 3 && segments[0] == "joint_inputs" && segments[2] == "dof" ? 1 : 0;
}

QString humanPath(const std::string& pointer, const Json* robot) {
  const std::vector<std::string> segments = segmentsOf(pointer);
  QStringList parts;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const QString name =
        i == 1 && isIndex(segments[1]) ? itemName(robot, segments[0], segments[1]) : QString();
    // "Link 3", not "Links › Link 3"
    if (i + 1 < segments.size() && isIndex(segments[i + 1])) continue;
    parts << (name.isEmpty() ? segmentLabel(segments, i)
                             : QStringLiteral("%1 “%2”").arg(itemNoun(segments[0]), name));
  }
  return parts.isEmpty() ? QObject::tr("Robot") : parts.join(QStringLiteral(" › "));
}

QString humanMessage(const QString& message, const Json* robot, QString* pointer) {
  const qsizetype colon = message.indexOf(QStringLiteral(": "));
  if (!message.startsWith('/') || colon < 0 || message.left(colon).contains(' ')) {
    return message;
  }
  const QString where = message.left(colon);
  if (pointer != nullptr) *pointer = where;
  const std::string path = where == QStringLiteral("/") ? std::string() : where.toStdString();
  return humanPath(path, robot) + message.mid(colon);
}

}  // namespace tendril
