#pragma once
// The picture of a robot at q = 0 (reference strains only), straight from its description.
// Used to show a model before any simulation ran, and by `tendril-cli render`.

#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Frame of the robot at rest (q = 0): rods follow their reference strain xi*, rigid
///        bodies sit at their joint frames.
/// \throw ParseError when the description is physically invalid (see buildModel)
FramePtr restFrame(const RobotDescription& robot);

}  // namespace tendril
