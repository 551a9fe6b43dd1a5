#pragma once
// The picture of a robot at q = 0 (reference strains only), straight from its description.
// Used to show a model before any simulation ran, and by `tendril-cli render`.

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Number of centreline samples drawn per soft division.
inline constexpr int kRodSamplesPerDivision = 24;

/// \brief Frame of the robot at rest (q = 0): rods follow their reference strain xi*, rigid
///        bodies sit at their joint frames. \pre findTopologyProblem(robot) is empty.
FramePtr restFrame(const RobotDescription& robot);

}  // namespace tendril
