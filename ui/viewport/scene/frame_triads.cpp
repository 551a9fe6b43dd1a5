#include "ui/viewport/scene/frame_triads.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cstddef>

#include "ui/viewport/scene/link_poses.hpp"
#include "ui/viewport/scene/rod_actor.hpp"

namespace tendril {

vtkSmartPointer<vtkPolyData> makeFrameTriads(const RobotDescription& robot, const Frame& frame,
                                             int& count) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("colors");
  count = 0;
  auto add = [&](const Eigen::Vector3d& p, const Eigen::Matrix3d& R, double length) {
    static const unsigned char kAxisColors[3][3] = {{210, 40, 40}, {30, 160, 40}, {40, 70, 220}};
    const vtkIdType origin = points->InsertNextPoint(p.x(), p.y(), p.z());
    for (int axis = 0; axis < 3; ++axis) {
      const Eigen::Vector3d end = p + length * R.col(axis);
      const vtkIdType ids[2] = {origin, points->InsertNextPoint(end.x(), end.y(), end.z())};
      lines->InsertNextCell(2, ids);
      colors->InsertNextTypedTuple(kAxisColors[axis]);
    }
    ++count;
  };
  for (const RodShape& rod : frame.rods) {
    if (rod.orientations.size() != rod.points.size()) continue;
    for (std::size_t i = 0; i < rod.points.size(); i += kSamplesPerInterval) {
      add(rod.points[i], rod.orientations[i], std::max(4.0 * radiusAt(rod, i), 0.01));
    }
  }
  for (const BodyShape& body : frame.bodies) {
    const auto g = linkFramePose(robot, frame, body.link, -2.0, 0.0);
    if (!g) continue;
    const double size = std::max({body.shape.size[0], body.shape.size[1], body.shape.size[2]});
    add(g->translation(), g->linear(), std::max(0.5 * size, 0.02));
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  data->GetCellData()->SetScalars(colors);
  return data;
}

}  // namespace tendril
