#pragma once
// Immutable record of everything the UI shows for one instant. Built once on the simulation
// thread (or by makeFrame for a static pose) and only ever handed around as FramePtr.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model/description.hpp"

namespace tendril {

/// \brief A sampled soft-rod centreline with its cross-section, in world coordinates.
struct RodShape {
  int link = -1;                              ///< index into RobotDescription::links
  std::vector<Eigen::Vector3d> points;        ///< centreline samples, base to tip
  std::vector<Eigen::Matrix3d> orientations;  ///< section frames (columns: x tangent, y, z)
  std::vector<double> radii;                  ///< circular radius, or half the larger side
  std::vector<double> scalar;                 ///< optional per-sample value for a colour map
};

/// \brief A rigid body's visual shape placed in the world.
struct BodyShape {
  int link = -1;
  Eigen::Isometry3d pose_W = Eigen::Isometry3d::Identity();  ///< shape frame (at the CoM) in world
  ShapeDesc shape;
};

struct Energies {
  double kinetic = 0.0, gravitational = 0.0, elastic = 0.0, dissipated = 0.0;
};

struct Frame {
  std::uint64_t index = 0;           ///< monotonically increasing publish counter
  std::uint64_t model_revision = 0;  ///< changes when a new Model is loaded
  double t = 0.0;                    ///< simulation time [s]
  Eigen::VectorXd q, v;              ///< enough to restore the state (nq, nv)
  std::vector<RodShape> rods;
  std::vector<BodyShape> bodies;
  std::vector<Eigen::Vector3d> tips_W;  ///< tip position of every leaf link
  Energies energy;
};
using FramePtr = std::shared_ptr<const Frame>;

}  // namespace tendril
