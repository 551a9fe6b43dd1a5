#pragma once
// Plain value types shared by every part of a description: 3-vectors and frame placements.

#include <array>

namespace tendril {

using Vec3 = std::array<double, 3>;

/// \brief Placement of a frame in its parent: translation [m] then roll-pitch-yaw [rad]
///        (R = Rz(yaw) Ry(pitch) Rx(roll)).
struct Placement {
  Vec3 position{0.0, 0.0, 0.0};
  Vec3 rpy{0.0, 0.0, 0.0};
  bool operator==(const Placement&) const = default;
};

}  // namespace tendril
