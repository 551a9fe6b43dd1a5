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

/// \brief Degrees of freedom of a rigid joint type.
int jointDof(JointType type);

/// \brief First structural problem of the link tree (duplicate or unknown names, cycles), if any.
std::optional<DescriptionProblem> findTopologyProblem(const RobotDescription& robot);

/// \brief First problem of the inputs and loads: unknown link names, a cable on a rigid link or an
///        absent division, a load beyond the rod, a joint input on a missing coordinate.
std::optional<DescriptionProblem> findReferenceProblem(const RobotDescription& robot);

/// \brief First problem of the closed-chain joints and prescribed coordinates: an unsupported joint
///        type, an unknown link, a frame beyond its rod, frames that cannot move apart, a
///        coordinate prescribed twice. Called by findReferenceProblem().
std::optional<DescriptionProblem> findClosedChainProblem(const RobotDescription& robot);

/// \brief First problem of the environment: a negative stiffness or coefficient, an exponent
///        below 1, a zero normal or axis, a non-positive radius, a fluid body that is unknown, soft
///        or listed twice. Called by findReferenceProblem().
std::optional<DescriptionProblem> findEnvironmentProblem(const RobotDescription& robot);

/// \brief First problem of the controllers: an unknown cable or input, an input that is not a
///        force (a position-mode joint input) or that two controllers write, inputs not as many as
///        the controlled variables, gains of the wrong size, a negative sample period, a cable
///        length under a controller that drives coordinates. Coordinate names are resolved by
///        buildModel(), which knows them. Called by findReferenceProblem().
std::optional<DescriptionProblem> findControllerProblem(const RobotDescription& robot);

/// \brief First division whose Gauss points cannot resolve its basis: fewer points than modes of
///        a strain component makes the stiffness matrix singular.
std::optional<DescriptionProblem> findDiscretisationProblem(const RobotDescription& robot);

/// \brief c0 + c1 X + c2 X^2 + ... (derivative = 0) or its first derivative (derivative = 1): a
///        cable's offset in its section (CableSegmentDesc).
double polynomial(const std::vector<double>& coefficients, double X, int derivative = 0);

/// \brief Length of a link's centreline [m]: the sum of a rod's divisions, a constant-curvature
///        segment's length, 0 for a rigid body.
double centrelineLength(const LinkDesc& link);

/// \brief Link indices ordered parents before children. \pre findTopologyProblem(robot) is empty.
std::vector<int> topologicalOrder(const RobotDescription& robot);

/// \brief Index of the parent link of each link, -1 for the world. \pre no topology problem.
std::vector<int> parentIndices(const RobotDescription& robot);

}  // namespace tendril
