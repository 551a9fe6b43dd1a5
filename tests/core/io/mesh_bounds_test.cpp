// Tests for core/io/mesh_bounds.cpp.

#include "core/io/mesh_bounds.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>

namespace tendril {
namespace {

namespace fs = std::filesystem;

const fs::path kMeshes = fs::path(TENDRIL_TEST_DATA_DIR) / "urdf" / "arm6" / "meshes";

TEST(MeshBoundsTest, AsciiStlAndObj) {
  const MeshBounds stl = meshBounds(kMeshes / "link_box.stl");
  EXPECT_EQ(stl.min, Eigen::Vector3d(-0.03, -0.03, 0.0));
  EXPECT_EQ(stl.max, Eigen::Vector3d(0.03, 0.03, 0.2));
  const MeshBounds obj = meshBounds(kMeshes / "link_shell.obj");
  EXPECT_EQ(obj.min, Eigen::Vector3d(-0.02, -0.025, -0.025));
  EXPECT_EQ(obj.max, Eigen::Vector3d(0.22, 0.025, 0.025));
}

TEST(MeshBoundsTest, BinaryStlEvenWhenItsHeaderSaysSolid) {
  const fs::path file = fs::temp_directory_path() / "tendril_mesh_bounds_test.STL";
  {
    std::ofstream out(file, std::ios::binary);
    char header[80] = "solid but binary";
    out.write(header, sizeof(header));
    const std::uint32_t count = 2;
    out.write(reinterpret_cast<const char*>(&count), sizeof(count));
    const float triangles[2][12] = {{0, 0, 1, 1, 2, 3, -1, 0, 0, 0.5f, 4, -2},
                                    {0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1}};
    for (const auto& triangle : triangles) {
      out.write(reinterpret_cast<const char*>(triangle), sizeof(triangle));
      const std::uint16_t attribute = 0;
      out.write(reinterpret_cast<const char*>(&attribute), sizeof(attribute));
    }
  }
  const MeshBounds bounds = meshBounds(file);
  fs::remove(file);
  EXPECT_EQ(bounds.min, Eigen::Vector3d(-1.0, 0.0, -2.0));
  EXPECT_EQ(bounds.max, Eigen::Vector3d(1.0, 4.0, 3.0));
}

TEST(MeshBoundsTest, RejectsOtherFormatsMissingFilesAndEmptyMeshes) {
  EXPECT_THROW((void)meshBounds(kMeshes / "link_box.dae"), std::runtime_error);
  EXPECT_THROW((void)meshBounds(kMeshes / "missing.stl"), std::runtime_error);
  const fs::path empty = fs::temp_directory_path() / "tendril_mesh_bounds_empty.obj";
  std::ofstream(empty) << "# no vertices\n";
  EXPECT_THROW((void)meshBounds(empty), std::runtime_error);
  fs::remove(empty);
}

}  // namespace
}  // namespace tendril
