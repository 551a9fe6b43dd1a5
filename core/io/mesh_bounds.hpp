#pragma once
// Bounding boxes of mesh files, read without a graphics library: the URDF import needs a box for
// every mesh (contact sphere, displaced volume) and core/ links no VTK.

#include <Eigen/Core>
#include <filesystem>

namespace tendril {

/// \brief Axis-aligned bounds of a mesh's vertices, in the file's units.
struct MeshBounds {
  Eigen::Vector3d min;
  Eigen::Vector3d max;
};

/// \brief The bounds of the vertices of an STL (binary or ASCII) or Wavefront OBJ file, told apart
///        by the extension (any case).
/// \throw std::runtime_error when the file cannot be read, has another extension or no vertex
[[nodiscard]] MeshBounds meshBounds(const std::filesystem::path& file);

}  // namespace tendril
