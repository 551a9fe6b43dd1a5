#pragma once
// Structural checks of a description that need the whole tree: names, parents, cycles.

#include <optional>
#include <string>
#include <vector>

#include "core/model/description.hpp"

namespace tendril {

struct DescriptionProblem {
  std::string pointer;  ///< JSON pointer of the offending value, e.g. "/links/2/parent"
  std::string reason;
};

/// \brief First structural problem of the link tree (duplicate or unknown names, cycles), if any.
std::optional<DescriptionProblem> findTopologyProblem(const RobotDescription& robot);

/// \brief Link indices ordered parents before children. \pre findTopologyProblem(robot) is empty.
std::vector<int> topologicalOrder(const RobotDescription& robot);

/// \brief Index of the parent link of each link, -1 for the world. \pre no topology problem.
std::vector<int> parentIndices(const RobotDescription& robot);

}  // namespace tendril
