#pragma once
// Importing a URDF robot (read by urdfdom) as a RobotDescription of rigid links.
//
// A URDF link and the joint that holds it become one Tendril link: its origin is the joint's
// origin (in the parent link's frame, since imported bodies have an identity tip), its body the
// link's <inertial> (the tensor turned from the inertial frame into the link's axes) and its first
// <visual>. Joint types: revolute and continuous -> revolute, prismatic, fixed, floating -> free,
// planar -> planar (Tendril's plane is the joint frame's x-y: the frame is turned so that its z is
// the URDF normal, and the link's tip turns it back). Limits, damping and friction are kept as
// JointDesc::limits (metadata). Tendril needs a positive mass on every link, so a link without
// <inertial> is merged into its parent when a fixed joint holds it (the root: into the world) and
// is an error when its joint moves. Boxes, spheres and cylinders (URDF's along z, Tendril's along
// x) keep their pose; meshes (STL, OBJ) are referenced by absolute path with their scale and
// bounding box. Errors are ParseErrors whose pointer names the element (urdf_structure.hpp).

#include <filesystem>
#include <string>

#include "core/model/description.hpp"

namespace tendril {

struct UrdfImportOptions {
  /// attach the links that the world holds by a fixed joint (the root, or the children of a root
  /// without mass) by a free joint instead
  bool floating_base = false;
};

/// \brief Reads the URDF file \p urdf. Nothing else is read but its mesh files.
/// \throw ParseError naming the element and the reason (malformed XML, a cycle, an undefined
///        parent or child, an unknown joint type, a zero or non-physical inertia, a missing or
///        unreadable mesh, a link without inertial on a moving joint, ...)
RobotDescription importUrdf(const std::filesystem::path& urdf,
                            const UrdfImportOptions& options = {});

/// \brief importUrdf(), then saves the model as \p json (atomically, saveRobot) once it builds.
///        Nothing is written when the URDF is invalid.
/// \throw ParseError as importUrdf() or buildModel(); std::runtime_error when writing fails
void convertUrdf(const std::filesystem::path& urdf, const std::filesystem::path& json,
                 const UrdfImportOptions& options = {});

/// \brief Where a URDF mesh filename points: "package://name/rest" is rest inside the nearest
///        folder called name at or above \p urdf_folder (or inside a folder name beside one of
///        them); "file://" URIs and absolute paths are taken as they are; any other path is
///        relative to \p urdf_folder. \return the absolute, normalised path, or an empty path
///        when a package is not found
[[nodiscard]] std::filesystem::path resolveUrdfMeshFile(const std::string& filename,
                                                        const std::filesystem::path& urdf_folder);

}  // namespace tendril
