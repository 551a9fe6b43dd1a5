#include "core/model/validate.hpp"

#include <map>

namespace tendril {
namespace {

std::string linkPointer(std::size_t i, const char* field) {
  return "/links/" + std::to_string(i) + "/" + field;
}

}  // namespace

std::optional<DescriptionProblem> findTopologyProblem(const RobotDescription& robot) {
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (!index_of.emplace(robot.links[i].name, i).second) {
      return DescriptionProblem{linkPointer(i, "name"), "duplicate link name \"" + robot.links[i].name + "\""};
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
        return DescriptionProblem{linkPointer(i, "parent"),
                                  "link \"" + robot.links[i].name + "\" is part of a cycle of parents"};
      }
      current = robot.links[index_of.at(current)].parent;
    }
  }
  return std::nullopt;
}

std::vector<int> parentIndices(const RobotDescription& robot) {
  std::map<std::string, int> index_of;
  for (std::size_t i = 0; i < robot.links.size(); ++i) index_of[robot.links[i].name] = static_cast<int>(i);
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
