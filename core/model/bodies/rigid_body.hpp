#pragma once
// Body kind "rigid": a rigid body with its mass properties, the frame where children attach and
// a shape to draw (docs/ARCHITECTURE.md, "How to add a body kind"). It compiles into one rigid
// virtual joint carrying the lumped inertia (core/model/build_model.cpp).

#include <string>

#include "core/model/placement.hpp"

namespace tendril {

enum class ShapeType { Box, Cylinder, Sphere, Mesh };

/// \brief Visual (and default inertial) shape of a rigid body, centred at its centre of mass unless
///        `origin` moves it. A mesh is drawn from its file; wherever a primitive is needed (the
///        contact sphere, the displaced volume) its bounding box stands for it.
struct ShapeDesc {
  ShapeType type = ShapeType::Box;
  Vec3 size{0.1, 0.05, 0.05};  ///< box: full extents x,y,z; cylinder: radius, length (along x), -;
                               ///< sphere: radius, -, -; mesh: extents of its bounding box [m]
  Vec3 color{0.75, 0.75, 0.78};
  Placement origin;  ///< the shape frame in the centre-of-mass frame (the link's axes at the com)
  std::string mesh;  ///< mesh: STL or OBJ file, absolute once loaded (relative to the model file
                     ///< in JSON)
  Vec3 scale{1.0, 1.0, 1.0};       ///< mesh: factors on the file's coordinates
  Vec3 box_centre{0.0, 0.0, 0.0};  ///< mesh: centre of its bounding box in the shape frame [m]
  bool operator==(const ShapeDesc&) const = default;
};

/// \brief Rigid body: mass properties in the body frame and the frame where children attach.
struct RigidBodyDesc {
  double mass = 1.0;         ///< [kg]
  Vec3 com{0.05, 0.0, 0.0};  ///< centre of mass in the link frame [m]
  std::array<double, 6> inertia{1e-3, 1e-3, 1e-3,
                                0.0,  0.0,  0.0};  ///< Ixx Iyy Izz Ixy Ixz Iyz about com [kg m^2]
  Placement tip{{0.1, 0.0, 0.0},
                {0.0, 0.0, 0.0}};  ///< frame where children attach, in the link frame
  ShapeDesc shape;
  bool operator==(const RigidBodyDesc&) const = default;
};

}  // namespace tendril
