#include "ui/viewport/scene/floor_grid.hpp"

#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tendril {
namespace {

constexpr int kGridLinesPerSide = 10;

/// Grid spacing of 1, 2 or 5 times a power of ten, giving about kGridLinesPerSide lines per side.
double niceSpacing(double half_extent) {
  const double raw = half_extent / kGridLinesPerSide;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double step : {1.0, 2.0, 5.0}) {
    if (step * decade >= raw) {
      return step * decade;
    }
  }
  return 10.0 * decade;
}

}  // namespace

// the floor: z = 0, or lower when the robot reaches below it
double floorHeight(const std::optional<Bounds>& robot) {
  return robot ? std::min(0.0, (*robot)[4]) : 0.0;
}

// the lowest point of the rods' surfaces and of the bodies' centres (a cheap test per frame)
double lowestPoint(const Frame& frame) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const RodShape& rod : frame.rods) {
    for (std::size_t i = 0; i < rod.points.size(); ++i) {
      const double radius = i < rod.radii.size() ? rod.radii[i] : 0.0;
      lowest = std::min(lowest, rod.points[i].z() - radius);
    }
  }
  for (const BodyShape& body : frame.bodies)
    lowest = std::min(lowest, body.pose_W.translation().z());
  return lowest;
}

// a square grid on the floor under the robot, centred below it
vtkSmartPointer<vtkPolyData> makeGrid(const std::optional<Bounds>& robot, double z) {
  const Bounds b = robot.value_or(Bounds{-0.5, 0.5, -0.5, 0.5, 0.0, 0.0});
  const double size = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4], 0.2});
  const double spacing = niceSpacing(0.75 * size);
  const double half = spacing * kGridLinesPerSide;
  const double cx = spacing * std::round(0.5 * (b[0] + b[1]) / spacing);
  const double cy = spacing * std::round(0.5 * (b[2] + b[3]) / spacing);
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  for (int i = -kGridLinesPerSide; i <= kGridLinesPerSide; ++i) {
    const double offset = i * spacing;
    const vtkIdType a = points->InsertNextPoint(cx + offset, cy - half, z);
    const vtkIdType c = points->InsertNextPoint(cx + offset, cy + half, z);
    const vtkIdType d = points->InsertNextPoint(cx - half, cy + offset, z);
    const vtkIdType e = points->InsertNextPoint(cx + half, cy + offset, z);
    const vtkIdType line_x[2] = {a, c};
    const vtkIdType line_y[2] = {d, e};
    lines->InsertNextCell(2, line_x);
    lines->InsertNextCell(2, line_y);
  }
  auto grid = vtkSmartPointer<vtkPolyData>::New();
  grid->SetPoints(points);
  grid->SetLines(lines);
  return grid;
}

}  // namespace tendril
