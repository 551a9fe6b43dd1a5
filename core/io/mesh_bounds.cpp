#include "core/io/mesh_bounds.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tendril {
namespace {

class BoundsAccumulator {
 public:
  void add(const Eigen::Vector3d& p) {
    bounds_.min = bounds_.min.cwiseMin(p);
    bounds_.max = bounds_.max.cwiseMax(p);
    ++count_;
  }
  MeshBounds result(const std::filesystem::path& file) const {
    if (count_ == 0) throw std::runtime_error(file.string() + ": no vertex in the mesh");
    if (!bounds_.min.allFinite() || !bounds_.max.allFinite())
      throw std::runtime_error(file.string() + ": a vertex is not a finite number");
    return bounds_;
  }

 private:
  MeshBounds bounds_{Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()),
                     Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity())};
  long count_ = 0;
};

std::string readAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// binary STL: 80-byte header, triangle count, then 50 bytes per triangle (normal, 3 vertices,
// attribute); an ASCII file can start with "solid" too, so the size decides
bool isBinaryStl(const std::string& bytes) {
  if (bytes.size() < 84) return false;
  std::uint32_t triangles = 0;
  std::memcpy(&triangles, bytes.data() + 80, sizeof(triangles));
  return bytes.size() == 84 + 50 * static_cast<std::size_t>(triangles);
}

MeshBounds binaryStlBounds(const std::string& bytes, const std::filesystem::path& file) {
  BoundsAccumulator bounds;
  for (std::size_t at = 84; at + 50 <= bytes.size(); at += 50) {
    for (int vertex = 0; vertex < 3; ++vertex) {
      float xyz[3];
      std::memcpy(xyz, bytes.data() + at + 12 + 12 * vertex, sizeof(xyz));
      bounds.add(Eigen::Vector3d(xyz[0], xyz[1], xyz[2]));
    }
  }
  return bounds.result(file);
}

// "vertex x y z" lines of an ASCII STL, "v x y z" lines of an OBJ
MeshBounds keywordBounds(const std::string& text, const std::string& keyword,
                         const std::filesystem::path& file) {
  BoundsAccumulator bounds;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first != keyword) continue;
    Eigen::Vector3d p;
    if (!(words >> p.x() >> p.y() >> p.z()))
      throw std::runtime_error(file.string() + ": unreadable vertex line '" + line + "'");
    bounds.add(p);
  }
  return bounds.result(file);
}

}  // namespace

MeshBounds meshBounds(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension != ".stl" && extension != ".obj") {
    throw std::runtime_error(file.string() + ": mesh format '" + extension +
                             "' is not supported (STL or OBJ)");
  }
  const std::string bytes = readAll(file);
  if (extension == ".obj") return keywordBounds(bytes, "v", file);
  return isBinaryStl(bytes) ? binaryStlBounds(bytes, file) : keywordBounds(bytes, "vertex", file);
}

}  // namespace tendril
