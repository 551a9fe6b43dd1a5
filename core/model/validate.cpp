#include "core/model/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "core/math/quadrature.hpp"

namespace tendril {

int jointDof(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return 0;
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Helical:
      return 1;
    case JointType::Cylindrical:
    case JointType::Universal:
      return 2;
    case JointType::Planar:
    case JointType::Spherical:
      return 3;
    case JointType::Free:
      return 6;
  }
  return 0;
}

namespace {

std::string linkPointer(std::size_t i, const char* field) {
  return "/links/" + std::to_string(i) + "/" + field;
}

}  // namespace

std::optional<DescriptionProblem> findTopologyProblem(const RobotDescription& robot) {
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (!index_of.emplace(robot.links[i].name, i).second) {
      return DescriptionProblem{linkPointer(i, "name"),
                                "duplicate link name \"" + robot.links[i].name + "\""};
    }
  }
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const std::string& parent = robot.links[i].parent;
    if (parent != "world" && !index_of.count(parent)) {
      return DescriptionProblem{linkPointer(i, "parent"), "unknown parent link \"" + parent + "\""};
    }
  }
  // walk up from every link; a walk longer than the number of links is a cycle
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    std::string current = robot.links[i].name;
    for (std::size_t steps = 0; current != "world"; ++steps) {
      if (steps > robot.links.size()) {
        return DescriptionProblem{linkPointer(i, "parent"), "link \"" + robot.links[i].name +
                                                                "\" is part of a cycle of parents"};
      }
      current = robot.links[index_of.at(current)].parent;
    }
  }
  return std::nullopt;
}

double polynomial(const std::vector<double>& coefficients, double X, int derivative) {
  double value = 0.0;
  for (std::size_t k = coefficients.size(); k-- > static_cast<std::size_t>(derivative);)
    value = value * X + coefficients[k] * (derivative == 1 ? static_cast<double>(k) : 1.0);
  return value;
}

double centrelineLength(const LinkDesc& link) {
  switch (link.kind()) {
    case BodyKind::Rigid:
      return 0.0;
    case BodyKind::Soft: {
      double length = 0.0;
      for (const DivisionDesc& division : link.soft().divisions) length += division.length;
      return length;
    }
    case BodyKind::ConstantCurvature:
      return link.constantCurvature().length;
    case BodyKind::Lvp:  // no centreline (hasCentreline)
      return 0.0;
  }
  return 0.0;
}

namespace {

// a constant-curvature segment's tendon must run inside its section where it is sampled, at the
// segment's Gauss points; the pointer names the larger of the offset's two components there
std::optional<DescriptionProblem> findTendonOutsideSection(const LinkDesc& link,
                                                           const CableSegmentDesc& segment,
                                                           const std::string& at) {
  if (link.kind() != BodyKind::ConstantCurvature) return std::nullopt;
  const ConstantCurvatureBodyDesc& body = link.constantCurvature();
  if (!(body.length > 0.0) || body.gauss_points < 1) return std::nullopt;  // reported elsewhere
  const GaussRule rule = gaussLegendre(body.gauss_points, body.length);
  for (const double X : rule.nodes) {
    const double y = polynomial(segment.y, X), z = polynomial(segment.z, X);
    const double offset = std::hypot(y, z);
    if (!(offset < body.radius)) {
      return DescriptionProblem{at + (std::abs(y) >= std::abs(z) ? "/y" : "/z"),
                                "the tendon runs outside the section: its offset " +
                                    std::to_string(offset) + " m at X = " + std::to_string(X) +
                                    " m is not below the radius " + std::to_string(body.radius) +
                                    " m"};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<DescriptionProblem> findReferenceProblem(const RobotDescription& robot) {
  std::map<std::string, const LinkDesc*> by_name;
  for (const LinkDesc& link : robot.links) by_name[link.name] = &link;
  const auto find = [&](const std::string& name) {
    return by_name.count(name) ? by_name.at(name) : nullptr;
  };
  for (std::size_t i = 0; i < robot.joint_inputs.size(); ++i) {
    const JointInputDesc& input = robot.joint_inputs[i];
    const std::string at = "/joint_inputs/" + std::to_string(i);
    const LinkDesc* link = find(input.link);
    if (!link) return DescriptionProblem{at + "/link", "unknown link \"" + input.link + "\""};
    const int dof = jointDof(link->joint.type);
    if (input.dof < 0 || input.dof >= dof) {
      return DescriptionProblem{at + "/dof", "the joint of \"" + input.link + "\" has " +
                                                 std::to_string(dof) + " coordinate(s)"};
    }
  }
  for (std::size_t i = 0; i < robot.cables.size(); ++i) {
    const CableDesc& cable = robot.cables[i];
    const std::string at = "/cables/" + std::to_string(i);
    const LinkDesc* link = find(cable.link);
    if (!link) return DescriptionProblem{at + "/link", "unknown link \"" + cable.link + "\""};
    if (!hasCentreline(link->kind())) {
      return DescriptionProblem{
          at + "/link", "cables run through soft rods and constant-curvature segments only"};
    }
    for (std::size_t k = 0; k < cable.path.size(); ++k) {
      const int division = cable.path[k].division;
      for (std::size_t earlier = 0; earlier < k; ++earlier) {
        if (cable.path[earlier].division == division) {
          return DescriptionProblem{
              at + "/path/" + std::to_string(k) + "/division",
              "division " + std::to_string(division) + " appears twice in the path"};
        }
      }
      const int divisions = link->kind() == BodyKind::Soft
                                ? static_cast<int>(link->soft().divisions.size())
                                : 1;  // a constant-curvature segment is its one division
      if (division < 0 || division >= divisions) {
        return DescriptionProblem{
            at + "/path/" + std::to_string(k) + "/division",
            "link \"" + cable.link + "\" has no division " + std::to_string(division)};
      }
      if (auto problem =
              findTendonOutsideSection(*link, cable.path[k], at + "/path/" + std::to_string(k)))
        return problem;
    }
  }
  for (std::size_t i = 0; i < robot.lvp_tendons.size(); ++i) {
    const LvpTendonDesc& tendon = robot.lvp_tendons[i];
    const std::string at = "/lvp_tendons/" + std::to_string(i);
    if (tendon.anchors.size() < 2)
      return DescriptionProblem{at + "/anchors", "a tendon needs at least two anchors"};
    for (std::size_t k = 0; k < tendon.anchors.size(); ++k) {
      const LvpAnchorDesc& anchor = tendon.anchors[k];
      const std::string anchor_at = at + "/anchors/" + std::to_string(k) + "/link";
      const LinkDesc* link = find(anchor.link);
      if (!link) return DescriptionProblem{anchor_at, "unknown link \"" + anchor.link + "\""};
      if (link->kind() != BodyKind::Lvp)
        return DescriptionProblem{anchor_at, "LVP tendons are anchored on LVP bodies only"};
    }
  }
  for (std::size_t i = 0; i < robot.cavity_pressures.size(); ++i) {
    const CavityPressureDesc& pressure = robot.cavity_pressures[i];
    const std::string at = "/cavity_pressures/" + std::to_string(i) + "/link";
    const LinkDesc* link = find(pressure.link);
    if (!link) return DescriptionProblem{at, "unknown link \"" + pressure.link + "\""};
    if (link->kind() != BodyKind::Lvp || !(link->lvp().cavity_radius > 0.0))
      return DescriptionProblem{at,
                                "a cavity pressure acts in an LVP body with a cavity_radius > 0"};
  }
  for (std::size_t i = 0; i < robot.point_loads.size(); ++i) {
    const PointLoadDesc& load = robot.point_loads[i];
    const std::string at = "/point_loads/" + std::to_string(i);
    const LinkDesc* link = find(load.link);
    if (!link) return DescriptionProblem{at + "/link", "unknown link \"" + load.link + "\""};
    if (link->kind() == BodyKind::Lvp) {
      return DescriptionProblem{at + "/link",
                                "point loads on an LVP body are not supported (the "
                                "model-agnostic dynamics have no point loads)"};
    }
    if (hasCentreline(link->kind()) && load.abscissa != -1.0 &&
        (load.abscissa < 0.0 || load.abscissa > centrelineLength(*link) + 1e-12)) {
      return DescriptionProblem{at + "/abscissa", "must lie on the rod, in [0, " +
                                                      std::to_string(centrelineLength(*link)) +
                                                      "] m, or be -1 (tip)"};
    }
  }
  if (auto problem = findClosedChainProblem(robot)) return problem;
  if (auto problem = findEnvironmentProblem(robot)) return problem;
  if (auto problem = findControllerProblem(robot)) return problem;
  return std::nullopt;
}

std::optional<DescriptionProblem> findEnvironmentProblem(const RobotDescription& robot) {
  std::optional<DescriptionProblem> problem;
  const auto check = [&](bool ok, const std::string& at, const std::string& reason) {
    if (!ok && !problem) problem = DescriptionProblem{at, reason};
  };
  const auto nonZero = [](const Vec3& a) {
    return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) > 1e-12;
  };
  if (const auto& contact = robot.environment.contact) {
    const std::string at = "/environment/contact/";
    check(contact->stiffness >= 0.0, at + "stiffness", "must not be negative");
    check(contact->exponent >= 1.0, at + "exponent", "must be at least 1");
    check(contact->smoothing >= 0.0, at + "smoothing", "must not be negative");
    check(contact->damping >= 0.0, at + "damping", "must not be negative");
    check(contact->friction >= 0.0, at + "friction", "must not be negative");
    check(contact->slip_velocity > 0.0, at + "slip_velocity", "must be positive");
    for (std::size_t i = 0; i < contact->planes.size(); ++i) {
      check(nonZero(contact->planes[i].normal), at + "planes/" + std::to_string(i) + "/normal",
            "normal must not be zero");
    }
    for (std::size_t i = 0; i < contact->spheres.size(); ++i) {
      check(contact->spheres[i].radius > 0.0, at + "spheres/" + std::to_string(i) + "/radius",
            "must be positive");
    }
    for (std::size_t i = 0; i < contact->cylinders.size(); ++i) {
      const std::string c = at + "cylinders/" + std::to_string(i) + "/";
      check(contact->cylinders[i].radius > 0.0, c + "radius", "must be positive");
      check(nonZero(contact->cylinders[i].axis), c + "axis", "axis must not be zero");
    }
  }
  if (const auto& fluid = robot.environment.fluid) {
    const std::string at = "/environment/fluid/";
    check(fluid->density >= 0.0, at + "density", "must not be negative");
    check(fluid->drag_normal >= 0.0, at + "drag_normal", "must not be negative");
    check(fluid->drag_tangential >= 0.0, at + "drag_tangential", "must not be negative");
    check(fluid->added_mass_coefficient >= 0.0, at + "added_mass_coefficient",
          "must not be negative");
    for (std::size_t i = 0; i < fluid->bodies.size(); ++i) {
      const FluidBodyDesc& body = fluid->bodies[i];
      const std::string b = at + "bodies/" + std::to_string(i) + "/";
      const auto link = std::find_if(robot.links.begin(), robot.links.end(),
                                     [&](const LinkDesc& l) { return l.name == body.link; });
      check(link != robot.links.end(), b + "link", "unknown link \"" + body.link + "\"");
      check(link == robot.links.end() || link->kind() == BodyKind::Rigid, b + "link",
            "only rigid links are listed (rods use the fluid's coefficients)");
      for (std::size_t k = 0; k < i; ++k) {
        check(fluid->bodies[k].link != body.link, b + "link",
              "link \"" + body.link + "\" is listed twice");
      }
      check(!body.volume || *body.volume >= 0.0, b + "volume", "must not be negative");
      for (int k = 0; k < 6; ++k) {
        check(body.drag[k] >= 0.0, b + "drag/" + std::to_string(k), "must not be negative");
        check(body.added_mass[k] >= 0.0, b + "added_mass/" + std::to_string(k),
              "must not be negative");
      }
    }
  }
  return problem;
}

std::optional<DescriptionProblem> findClosedChainProblem(const RobotDescription& robot) {
  std::map<std::string, const LinkDesc*> by_name;
  for (const LinkDesc& link : robot.links) by_name[link.name] = &link;
  // two position inputs on one coordinate would prescribe it twice
  for (std::size_t i = 0; i < robot.joint_inputs.size(); ++i) {
    const JointInputDesc& input = robot.joint_inputs[i];
    if (input.mode != JointInputDesc::Mode::Position) continue;
    for (std::size_t k = 0; k < i; ++k) {
      const JointInputDesc& other = robot.joint_inputs[k];
      if (other.mode == JointInputDesc::Mode::Position && other.link == input.link &&
          other.dof == input.dof) {
        return DescriptionProblem{"/joint_inputs/" + std::to_string(i) + "/mode",
                                  "coordinate " + std::to_string(input.dof) + " of \"" +
                                      input.link + "\" is already prescribed by /joint_inputs/" +
                                      std::to_string(k)};
      }
    }
  }
  if (!(robot.constraint_time_constant > 0.0)) {
    return DescriptionProblem{"/constraint_time_constant", "must be positive"};
  }
  for (std::size_t i = 0; i < robot.closed_chains.size(); ++i) {
    const ClosedChainDesc& chain = robot.closed_chains[i];
    const std::string at = "/closed_chains/" + std::to_string(i);
    switch (chain.joint.type) {
      case JointType::Fixed:
      case JointType::Revolute:
      case JointType::Prismatic:
      case JointType::Universal:
      case JointType::Planar:
      case JointType::Spherical:
        break;
      default:
        return DescriptionProblem{at + "/joint/type",
                                  "a closed-chain joint is fixed, revolute, prismatic, universal, "
                                  "planar or spherical"};
    }
    for (const auto& [side, frame] : {std::pair{"a", &chain.a}, std::pair{"b", &chain.b}}) {
      const std::string side_at = at + "/" + side;
      if (frame->link == "world") {
        if (std::string(side) == "a")
          return DescriptionProblem{side_at + "/link", "frame A must be on a link, not the world"};
        if (frame->abscissa != 0.0)
          return DescriptionProblem{side_at + "/abscissa", "the world has no abscissa"};
        continue;
      }
      if (!by_name.count(frame->link))
        return DescriptionProblem{side_at + "/link", "unknown link \"" + frame->link + "\""};
      const LinkDesc& link = *by_name.at(frame->link);
      if (link.kind() == BodyKind::Lvp) {
        return DescriptionProblem{side_at + "/link",
                                  "closed chains on an LVP body are not supported"};
      }
      if (link.kind() == BodyKind::Rigid && frame->abscissa != 0.0) {
        return DescriptionProblem{side_at + "/abscissa",
                                  "a rigid link has no abscissa (place the frame with "
                                  "\"placement\")"};
      }
      if (hasCentreline(link.kind()) && frame->abscissa != -1.0 &&
          (frame->abscissa < 0.0 || frame->abscissa > centrelineLength(link) + 1e-12)) {
        return DescriptionProblem{side_at + "/abscissa",
                                  "must lie on the rod, in [0, " +
                                      std::to_string(centrelineLength(link)) +
                                      "] m, or be -1 (tip)"};
      }
    }
    if (chain.a.link == chain.b.link && chain.a.abscissa == chain.b.abscissa) {
      return DescriptionProblem{at + "/b/link",
                                "frames A and B move together: the joint constrains nothing"};
    }
  }
  return std::nullopt;
}

std::optional<DescriptionProblem> findDiscretisationProblem(const RobotDescription& robot) {
  // a constant-curvature segment built in code rather than read (the reader checks the same)
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].kind() != BodyKind::ConstantCurvature) continue;
    const ConstantCurvatureBodyDesc& body = robot.links[i].constantCurvature();
    const auto at = [&](const char* key) {
      return linkPointer(i, (std::string("constant_curvature/") + key).c_str());
    };
    if (!(body.length > 0.0)) return DescriptionProblem{at("length"), "must be positive"};
    if (!(body.radius > 0.0)) return DescriptionProblem{at("radius"), "must be positive"};
    if (body.gauss_points < 1 || body.gauss_points > 30)
      return DescriptionProblem{at("gauss_points"), "must lie in [1, 30]"};
  }
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].kind() != BodyKind::Soft) continue;
    const auto& divisions = robot.links[i].soft().divisions;
    for (std::size_t d = 0; d < divisions.size(); ++d) {
      const int modes =
          *std::max_element(divisions[d].basis.order.begin(), divisions[d].basis.order.end()) + 1;
      if (divisions[d].gauss_points < modes) {
        return DescriptionProblem{
            linkPointer(i, ("soft/divisions/" + std::to_string(d) + "/gauss_points").c_str()),
            "needs at least " + std::to_string(modes) +
                " Gauss points to resolve a strain of order " + std::to_string(modes - 1)};
      }
    }
  }
  return std::nullopt;
}

std::vector<int> parentIndices(const RobotDescription& robot) {
  std::map<std::string, int> index_of;
  for (std::size_t i = 0; i < robot.links.size(); ++i)
    index_of[robot.links[i].name] = static_cast<int>(i);
  std::vector<int> parent(robot.links.size(), -1);
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].parent != "world") parent[i] = index_of.at(robot.links[i].parent);
  }
  return parent;
}

std::vector<int> topologicalOrder(const RobotDescription& robot) {
  const std::vector<int> parent = parentIndices(robot);
  std::vector<int> order;
  std::vector<bool> placed(robot.links.size(), false);
  // repeated sweeps keep the file order among siblings; n is small
  for (bool progress = true; progress && order.size() < robot.links.size();) {
    progress = false;
    for (std::size_t i = 0; i < robot.links.size(); ++i) {
      if (!placed[i] && (parent[i] < 0 || placed[parent[i]])) {
        placed[i] = true;
        progress = true;
        order.push_back(static_cast<int>(i));
      }
    }
  }
  return order;
}

namespace {

// the problem of one controller's gain list: one entry, or one per controlled variable, finite
std::optional<DescriptionProblem> findGainProblem(const std::vector<double>& gains,
                                                  std::size_t variables, const std::string& at) {
  if (gains.size() != 1 && gains.size() != variables) {
    return DescriptionProblem{at, "has " + std::to_string(gains.size()) +
                                      " entries; expected 1 (for every variable) or " +
                                      std::to_string(variables) + " (one per controlled variable)"};
  }
  for (std::size_t k = 0; k < gains.size(); ++k) {
    if (!std::isfinite(gains[k])) {
      return DescriptionProblem{gains.size() == 1 ? at : at + "/" + std::to_string(k),
                                "must be finite"};
    }
  }
  return std::nullopt;
}

// a force-mode joint input or a cable of that name
bool isControllableInput(const RobotDescription& robot, const std::string& name,
                         std::string& why_not) {
  for (const JointInputDesc& input : robot.joint_inputs) {
    if (input.name != name) continue;
    if (input.mode == JointInputDesc::Mode::Force) return true;
    why_not = "input \"" + name + "\" prescribes a position; a controller writes forces";
    return false;
  }
  for (const CableDesc& cable : robot.cables) {
    if (cable.name == name) return true;
  }
  for (const LvpTendonDesc& tendon : robot.lvp_tendons) {
    if (tendon.name == name) return true;
  }
  for (const CavityPressureDesc& pressure : robot.cavity_pressures) {
    if (pressure.name == name) return true;
  }
  why_not = "unknown input \"" + name +
            "\" (name a joint input, a cable, an LVP tendon or a cavity pressure)";
  return false;
}

// the times a controller writes its inputs: [from, until), to +inf without an end or when held
struct ControllerSpan {
  double from = 0.0, until = std::numeric_limits<double>::infinity();
};

ControllerSpan controllerSpan(const ControllerDesc& controller) {
  ControllerSpan span;
  if (!controller.active) return span;
  span.from = controller.active->from;
  if (controller.active->until && controller.active->after == ControllerWindowDesc::After::Off)
    span.until = *controller.active->until;
  return span;
}

std::string describeSpan(const ControllerSpan& span) {
  std::ostringstream text;
  text << "[" << span.from << ", ";
  if (std::isfinite(span.until)) {
    text << span.until << ")";
  } else {
    text << "inf)";
  }
  return text.str();
}

// the problem of a controller's window: a start before 0, an end not after the start
std::optional<DescriptionProblem> findWindowProblem(const ControllerDesc& controller,
                                                    const std::string& at) {
  if (!controller.active) return std::nullopt;
  const ControllerWindowDesc& window = *controller.active;
  if (!(window.from >= 0.0) || !std::isfinite(window.from))
    return DescriptionProblem{at + "/active/from", "must be a finite time >= 0 s"};
  if (window.until && !(*window.until > window.from && std::isfinite(*window.until))) {
    std::ostringstream text;
    text << "must be a finite time after from (" << window.from << " s)";
    return DescriptionProblem{at + "/active/until", text.str()};
  }
  return std::nullopt;
}

}  // namespace

std::optional<DescriptionProblem> findControllerProblem(const RobotDescription& robot) {
  // a controller finds its inputs by name: no name may stand for two inputs
  std::map<std::string, std::string> named;  // input name -> pointer of its first holder
  for (std::size_t i = 0; i < robot.joint_inputs.size(); ++i) {
    const std::string& name = robot.joint_inputs[i].name;
    if (name.empty()) continue;
    const std::string at = "/joint_inputs/" + std::to_string(i) + "/name";
    if (!named.emplace(name, at).second)
      return DescriptionProblem{at, "duplicate input name \"" + name + "\""};
  }
  for (std::size_t i = 0; i < robot.cables.size(); ++i) {
    const std::string& name = robot.cables[i].name;
    if (const auto first = named.find(name); first != named.end()) {
      return DescriptionProblem{"/cables/" + std::to_string(i) + "/name",
                                "\"" + name + "\" also names " + first->second};
    }
  }
  for (std::size_t i = 0; i < robot.cables.size(); ++i)  // after: cables may share names today
    named.emplace(robot.cables[i].name, "/cables/" + std::to_string(i) + "/name");
  for (std::size_t i = 0; i < robot.lvp_tendons.size(); ++i) {
    const std::string& name = robot.lvp_tendons[i].name;
    if (const auto first = named.find(name); first != named.end()) {
      return DescriptionProblem{"/lvp_tendons/" + std::to_string(i) + "/name",
                                "\"" + name + "\" also names " + first->second};
    }
    named.emplace(name, "/lvp_tendons/" + std::to_string(i) + "/name");
  }
  for (std::size_t i = 0; i < robot.cavity_pressures.size(); ++i) {
    const std::string& name = robot.cavity_pressures[i].name;
    const std::string at = "/cavity_pressures/" + std::to_string(i) + "/name";
    if (const auto first = named.find(name); first != named.end())
      return DescriptionProblem{at, "\"" + name + "\" also names " + first->second};
    named.emplace(name, at);
  }
  struct Writer {
    std::string pointer;
    ControllerSpan span;
  };
  std::multimap<std::string, Writer> written_by;  // input name -> its earlier writers
  for (std::size_t i = 0; i < robot.controllers.size(); ++i) {
    const ControllerDesc& controller = robot.controllers[i];
    const std::string at = "/controllers/" + std::to_string(i);
    if (controller.name.empty()) return DescriptionProblem{at + "/name", "must be non-empty"};
    if (auto problem = findWindowProblem(controller, at)) return problem;
    const ControllerSpan span = controllerSpan(controller);
    const std::size_t n = controller.controlled.size();
    if (n == 0) return DescriptionProblem{at + "/controlled", "expected a non-empty array"};
    for (std::size_t k = 0; k < n; ++k) {
      const ControlledVariableDesc& variable = controller.controlled[k];
      const std::string variable_at = at + "/controlled/" + std::to_string(k);
      if (variable.kind == ControlledVariableDesc::Kind::Coordinate) continue;
      const bool cable = variable.kind == ControlledVariableDesc::Kind::CableLength;
      const bool tip = variable.kind == ControlledVariableDesc::Kind::TipPosition;
      const std::string key = cable ? "/cable_length" : tip ? "/tip_position" : "/tendon_length";
      if (controller.type != ControllerDesc::Type::CollocatedPfbl) {
        return DescriptionProblem{variable_at + key,
                                  "only a collocated_pfbl controller drives outputs; this "
                                  "controller type drives coordinates"};
      }
      if (tip) {
        const bool link = std::any_of(robot.links.begin(), robot.links.end(),
                                      [&](const LinkDesc& l) { return l.name == variable.name; });
        if (!link)
          return DescriptionProblem{variable_at + key, "unknown link \"" + variable.name + "\""};
        if (variable.axis < 0 || variable.axis > 2)
          return DescriptionProblem{variable_at + "/axis", "expected x, y or z"};
        continue;
      }
      const bool known =
          cable ? std::any_of(robot.cables.begin(), robot.cables.end(),
                              [&](const CableDesc& c) { return c.name == variable.name; })
                : std::any_of(robot.lvp_tendons.begin(), robot.lvp_tendons.end(),
                              [&](const LvpTendonDesc& c) { return c.name == variable.name; });
      if (!known) {
        return DescriptionProblem{
            variable_at + key,
            (cable ? "unknown cable \"" : "unknown LVP tendon \"") + variable.name + "\""};
      }
    }
    if (controller.inputs.size() != n) {
      return DescriptionProblem{at + "/inputs", "has " + std::to_string(controller.inputs.size()) +
                                                    " inputs for " + std::to_string(n) +
                                                    " controlled variables; expected as many"};
    }
    for (std::size_t k = 0; k < n; ++k) {
      const ControllerInputDesc& input = controller.inputs[k];
      const std::string input_at = at + "/inputs/" + std::to_string(k);
      std::string why_not;
      if (!isControllableInput(robot, input.name, why_not))
        return DescriptionProblem{input_at, why_not};
      // a schedule: one input, several controllers, windows that never overlap
      const auto [first, last] = written_by.equal_range(input.name);
      for (auto earlier = first; earlier != last; ++earlier) {
        const ControllerSpan& other = earlier->second.span;
        if (span.from < other.until && other.from < span.until) {
          return DescriptionProblem{input_at,
                                    "input \"" + input.name + "\" is already written by " +
                                        earlier->second.pointer + " over " + describeSpan(other) +
                                        ", which overlaps this controller's " + describeSpan(span) +
                                        " (a held controller writes until the end of the run)"};
        }
      }
      written_by.emplace(input.name, Writer{input_at, span});
      if (input.min && input.max && !(*input.min <= *input.max))
        return DescriptionProblem{input_at + "/max", "must not be below min"};
    }
    if (auto problem = findGainProblem(controller.kp, n, at + "/kp")) return problem;
    if (auto problem = findGainProblem(controller.kd, n, at + "/kd")) return problem;
    if (!(controller.sample_period >= 0.0) || !std::isfinite(controller.sample_period)) {
      return DescriptionProblem{at + "/sample_period",
                                "must not be negative (0: every evaluation)"};
    }
  }
  return std::nullopt;
}

}  // namespace tendril
