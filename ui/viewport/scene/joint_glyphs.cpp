#include "ui/viewport/scene/joint_glyphs.hpp"

#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <algorithm>
#include <cstddef>

#include "ui/viewport/scene/body_actors.hpp"
#include "ui/viewport/scene/link_poses.hpp"
#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

constexpr Rgb kJointColor{0.45, 0.25, 0.70};
constexpr Rgb kLoopJointColor{0.75, 0.20, 0.55};

Eigen::Matrix3d rotationOf(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

// the parts of a place that no frame changes
void completePlace(const RobotDescription& robot, JointGlyphPlace& place) {
  Eigen::Vector3d axis(place.axis[0], place.axis[1], place.axis[2]);
  axis = axis.norm() > 0.0 ? axis.normalized() : Eigen::Vector3d::UnitX();
  const Eigen::Matrix3d R_axis =
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), axis).toRotationMatrix();
  place.g_LG = Eigen::Isometry3d::Identity();
  place.g_LG.translation() = Eigen::Vector3d(place.placement.position.data());
  place.g_LG.linear() = rotationOf(place.placement.rpy) * R_axis;
  const LinkDesc& link = robot.links[static_cast<std::size_t>(place.link)];
  place.rod_length = hasCentreline(link.kind()) ? rodLength(robot, place.link) : 0.0;
}

// glyph size from the body it sits on: a little wider than its thinnest dimension, so that it
// shows on a bar without swallowing a plate
double glyphSize(const LinkDesc& link) {
  constexpr double kMinimum = 0.01;  // [m]
  if (link.kind() == BodyKind::ConstantCurvature) {
    return std::max(3.0 * link.constantCurvature().radius, kMinimum);
  }
  if (link.kind() == BodyKind::Lvp) return std::max(3.0 * link.lvp().radius, kMinimum);
  if (link.kind() == BodyKind::Soft) {
    const CrossSectionDesc& section = link.soft().divisions.front().section;
    const double r = section.shape == SectionShape::Circular
                         ? section.radius_start
                         : 0.5 * std::max(section.width_start, section.height_start);
    return std::max(3.0 * r, kMinimum);
  }
  const ShapeDesc& shape = link.rigid().shape;
  switch (shape.type) {
    case ShapeType::Box:
    case ShapeType::Mesh:  // its bounding box
      return std::max(1.3 * std::min(shape.size[1], shape.size[2]), kMinimum);
    case ShapeType::Cylinder:
      return std::max(1.3 * std::min(2.0 * shape.size[0], shape.size[1]), kMinimum);
    case ShapeType::Sphere:
      return std::max(0.8 * shape.size[0], kMinimum);
  }
  return 2.0 * kMinimum;
}

// glyph geometry with its axis along x, centred at the origin
vtkSmartPointer<vtkPolyData> makeJointGlyph(JointType type, double size) {
  vtkSmartPointer<vtkPolyDataAlgorithm> source;
  vtkNew<vtkTransform> along_x;
  switch (type) {
    case JointType::Revolute:
    case JointType::Helical:
    case JointType::Cylindrical: {
      // a disc on the axis, VTK's cylinder runs along y
      auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();
      cylinder->SetRadius(0.5 * size);
      cylinder->SetHeight(1.2 * size);
      cylinder->SetResolution(kShapeResolution / 2);
      along_x->RotateZ(-90.0);
      source = cylinder;
      break;
    }
    case JointType::Prismatic: {
      auto bar = vtkSmartPointer<vtkCubeSource>::New();
      bar->SetXLength(2.0 * size);
      bar->SetYLength(0.3 * size);
      bar->SetZLength(0.3 * size);
      source = bar;
      break;
    }
    default: {
      auto ball = vtkSmartPointer<vtkSphereSource>::New();
      ball->SetRadius(0.5 * size);
      ball->SetThetaResolution(kShapeResolution / 2);
      ball->SetPhiResolution(kShapeResolution / 4);
      source = ball;
      break;
    }
  }
  vtkNew<vtkTransformPolyDataFilter> placed;
  placed->SetInputConnection(source->GetOutputPort());
  placed->SetTransform(along_x);
  placed->Update();
  auto glyph = vtkSmartPointer<vtkPolyData>::New();
  glyph->ShallowCopy(placed->GetOutput());
  return glyph;
}

}  // namespace

std::vector<JointGlyphPlace> jointGlyphPlaces(const RobotDescription& robot) {
  std::vector<JointGlyphPlace> places;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const LinkDesc& link = robot.links[i];
    if (link.joint.type == JointType::Fixed) continue;
    JointGlyphPlace place;
    place.link = static_cast<int>(i);
    place.axis = link.joint.axis;
    place.type = link.joint.type;
    place.size = glyphSize(link);
    completePlace(robot, place);
    places.push_back(place);
  }
  for (const ClosedChainDesc& chain : robot.closed_chains) {
    JointGlyphPlace place;
    place.link = linkIndex(robot, chain.a.link);
    if (place.link < 0) continue;
    const LinkDesc& link = robot.links[static_cast<std::size_t>(place.link)];
    place.abscissa = hasCentreline(link.kind()) ? chain.a.abscissa : -2.0;
    place.placement = chain.a.placement;
    place.axis = chain.joint.axis;
    place.type = chain.joint.type == JointType::Fixed ? JointType::Spherical : chain.joint.type;
    place.size = glyphSize(link);
    place.loop = true;
    completePlace(robot, place);
    places.push_back(place);
  }
  return places;
}

vtkSmartPointer<vtkActor> makeJointGlyphActor(const JointGlyphPlace& place) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(makeJointGlyph(place.type, place.size));
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  const Rgb& color = place.loop ? kLoopJointColor : kJointColor;
  actor->GetProperty()->SetColor(color[0], color[1], color[2]);
  actor->GetProperty()->SetSpecular(0.3);
  actor->PickableOff();
  actor->SetUserMatrix(vtkSmartPointer<vtkMatrix4x4>::New());
  actor->VisibilityOff();
  return actor;
}

}  // namespace tendril
