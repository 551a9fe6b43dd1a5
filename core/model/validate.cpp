#include "core/model/validate.hpp"

#include <algorithm>
#include <map>

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

double softLinkLength(const LinkDesc& link) {
  double length = 0.0;
  for (const DivisionDesc& division : link.soft.divisions) length += division.length;
  return length;
}

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
    if (link->kind != BodyKind::Soft)
      return DescriptionProblem{at + "/link", "cables run through soft links only"};
    for (std::size_t k = 0; k < cable.path.size(); ++k) {
      const int division = cable.path[k].division;
      for (std::size_t earlier = 0; earlier < k; ++earlier) {
        if (cable.path[earlier].division == division) {
          return DescriptionProblem{
              at + "/path/" + std::to_string(k) + "/division",
              "division " + std::to_string(division) + " appears twice in the path"};
        }
      }
      if (division < 0 || division >= static_cast<int>(link->soft.divisions.size())) {
        return DescriptionProblem{
            at + "/path/" + std::to_string(k) + "/division",
            "link \"" + cable.link + "\" has no division " + std::to_string(division)};
      }
    }
  }
  for (std::size_t i = 0; i < robot.point_loads.size(); ++i) {
    const PointLoadDesc& load = robot.point_loads[i];
    const std::string at = "/point_loads/" + std::to_string(i);
    const LinkDesc* link = find(load.link);
    if (!link) return DescriptionProblem{at + "/link", "unknown link \"" + load.link + "\""};
    if (link->kind == BodyKind::Soft && load.abscissa != -1.0 &&
        (load.abscissa < 0.0 || load.abscissa > softLinkLength(*link) + 1e-12)) {
      return DescriptionProblem{at + "/abscissa", "must lie on the rod, in [0, " +
                                                      std::to_string(softLinkLength(*link)) +
                                                      "] m, or be -1 (tip)"};
    }
  }
  return std::nullopt;
}

std::optional<DescriptionProblem> findDiscretisationProblem(const RobotDescription& robot) {
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].kind != BodyKind::Soft) continue;
    const auto& divisions = robot.links[i].soft.divisions;
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

}  // namespace tendril
