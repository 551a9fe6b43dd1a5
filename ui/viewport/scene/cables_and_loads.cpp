#include "ui/viewport/scene/cables_and_loads.hpp"

#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "ui/viewport/scene/link_poses.hpp"

namespace tendril {
namespace {

constexpr double kArrowLength = 0.08;  // [m]: arrows show where and which way, not how much

// a cable's offset in the section, its coefficients from the constant term up (Horner's rule)
double polynomial(const std::vector<double>& coefficients, double x) {
  double value = 0.0;
  for (auto c = coefficients.rbegin(); c != coefficients.rend(); ++c) {
    value = value * x + *c;
  }
  return value;
}

/// Abscissa X [m] of each centreline sample: arc length scaled to the rod's reference length
/// (exact for an inextensible rod, close enough to place a preview otherwise).
std::vector<double> sampleAbscissae(const RodShape& rod, double length) {
  std::vector<double> X(rod.points.size(), 0.0);
  for (std::size_t i = 1; i < X.size(); ++i) {
    X[i] = X[i - 1] + (rod.points[i] - rod.points[i - 1]).norm();
  }
  const double arc = X.empty() ? 0.0 : X.back();
  for (double& x : X) {
    x = arc > 0.0 ? x * length / arc : 0.0;
  }
  return X;
}

/// Abscissae where the divisions of a link with a centreline start, and its length last: a GVS
/// rod's divisions, a constant-curvature segment's one (cables address them by index); empty for
/// a rigid body.
std::vector<double> divisionStarts(const LinkDesc& link) {
  std::vector<double> start{0.0};
  switch (link.kind()) {
    case BodyKind::Rigid:
    case BodyKind::Lvp:  // tendons on its surface, no divisions
      return {};
    case BodyKind::Soft:
      for (const DivisionDesc& d : link.soft().divisions) start.push_back(start.back() + d.length);
      return start;
    case BodyKind::ConstantCurvature:
      start.push_back(link.constantCurvature().length);
      return start;
  }
  return {};
}

}  // namespace

vtkSmartPointer<vtkPolyData> makeCableLines(const RobotDescription& robot, const Frame& frame,
                                            int& count) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  count = 0;
  for (const CableDesc& cable : robot.cables) {
    const int link = linkIndex(robot, cable.link);
    const RodShape* rod = link >= 0 ? rodOf(frame, link) : nullptr;
    if (rod == nullptr) continue;
    const std::vector<double> start = divisionStarts(robot.links[static_cast<std::size_t>(link)]);
    if (start.size() < 2) continue;
    const int divisions = static_cast<int>(start.size()) - 1;
    const std::vector<double> X = sampleAbscissae(*rod, start.back());
    std::vector<vtkIdType> ids;
    for (const CableSegmentDesc& segment : cable.path) {
      if (segment.division < 0 || segment.division >= divisions) continue;
      const auto d = static_cast<std::size_t>(segment.division);
      for (std::size_t i = 0; i < X.size(); ++i) {
        if (X[i] < start[d] - 1e-9 || X[i] > start[d + 1] + 1e-9) continue;
        const double local = X[i] - start[d];
        const Eigen::Vector3d offset(0.0, polynomial(segment.y, local),
                                     polynomial(segment.z, local));
        const Eigen::Vector3d p = rod->points[i] + rod->orientations[i] * offset;
        ids.push_back(points->InsertNextPoint(p.x(), p.y(), p.z()));
      }
    }
    if (ids.size() >= 2) {
      lines->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
      ++count;
    }
  }
  // an LVP tendon: straight between its anchors on the bodies' outer surfaces, each drawn at the
  // tube's end station (x tangent, y the material x1 direction, z = x2) and the anchor's angle
  for (const LvpTendonDesc& tendon : robot.lvp_tendons) {
    std::vector<vtkIdType> ids;
    for (const LvpAnchorDesc& anchor : tendon.anchors) {
      const int link = linkIndex(robot, anchor.link);
      const RodShape* tube = link >= 0 ? rodOf(frame, link) : nullptr;
      if (tube == nullptr || tube->points.empty()) continue;
      const std::size_t i = anchor.end == LvpAnchorDesc::End::Base ? 0 : tube->points.size() - 1;
      const double r = i < tube->radii.size() ? tube->radii[i] : 0.0;
      const Eigen::Vector3d p =
          tube->points[i] + tube->orientations[i] * Eigen::Vector3d(0.0, r * std::cos(anchor.angle),
                                                                    r * std::sin(anchor.angle));
      ids.push_back(points->InsertNextPoint(p.x(), p.y(), p.z()));
    }
    if (ids.size() >= 2) {
      lines->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
      ++count;
    }
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

vtkSmartPointer<vtkPolyData> makeLoadArrows(const RobotDescription& robot, const Frame& frame,
                                            int& count) {
  vtkNew<vtkAppendPolyData> arrows;
  count = 0;
  for (const PointLoadDesc& load : robot.point_loads) {
    const int link = linkIndex(robot, load.link);
    if (link < 0) continue;
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    bool placed = false;
    if (const RodShape* rod = rodOf(frame, link)) {
      const double length = rodLength(robot, link);
      rodPoseAt(*rod, length, load.abscissa < 0.0 ? length : load.abscissa, p, R);
      placed = true;
    }
    const std::optional<Eigen::Vector3d> com = rigidCom(robot, link);
    for (const BodyShape& body : frame.bodies) {
      if (body.link != link || !com) continue;
      R = body.pose_W.linear();
      p = body.pose_W.translation() - R * *com;
      placed = true;
    }
    if (!placed) continue;
    const Eigen::Vector3d at =
        p + R * Eigen::Vector3d(load.offset[0], load.offset[1], load.offset[2]);
    Eigen::Vector3d direction(load.wrench[3], load.wrench[4], load.wrench[5]);
    if (direction.norm() == 0.0)
      direction = Eigen::Vector3d(load.wrench[0], load.wrench[1], load.wrench[2]);
    if (direction.norm() == 0.0) continue;
    if (load.frame == LoadFrame::Local) direction = R * direction;
    direction.normalize();
    // vtkArrowSource points along +x from 0 to 1: scale, turn x onto the direction, end at the
    // point
    const Eigen::Vector3d axis = Eigen::Vector3d::UnitX().cross(direction);
    const double angle = std::atan2(axis.norm(), direction.x());
    vtkNew<vtkTransform> place;
    const Eigen::Vector3d base = at - kArrowLength * direction;
    place->Translate(base.x(), base.y(), base.z());
    if (axis.norm() > 1e-12) {
      place->RotateWXYZ(angle * 180.0 / 3.14159265358979323846, axis.x(), axis.y(), axis.z());
    } else if (direction.x() < 0.0) {
      place->RotateWXYZ(180.0, 0.0, 0.0, 1.0);
    }
    place->Scale(kArrowLength, kArrowLength, kArrowLength);
    vtkNew<vtkArrowSource> arrow;
    arrow->SetShaftRadius(0.04);
    arrow->SetTipRadius(0.12);
    vtkNew<vtkTransformPolyDataFilter> placed_arrow;
    placed_arrow->SetInputConnection(arrow->GetOutputPort());
    placed_arrow->SetTransform(place);
    placed_arrow->Update();
    arrows->AddInputData(placed_arrow->GetOutput());
    ++count;
  }
  if (count == 0) return vtkSmartPointer<vtkPolyData>::New();
  arrows->Update();
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->ShallowCopy(arrows->GetOutput());
  return data;
}

}  // namespace tendril
