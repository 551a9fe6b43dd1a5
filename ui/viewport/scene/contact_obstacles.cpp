#include "ui/viewport/scene/contact_obstacles.hpp"

#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPlaneSource.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>

#include <Eigen/Geometry>
#include <algorithm>

#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

constexpr int kResolution = 64;
constexpr double kPlaneOpacity = 0.25;
constexpr double kSolidOpacity = 0.35;
constexpr double kMinimumSize = 0.2;  // [m]: a patch still visible around a tiny robot

Eigen::Vector3d toEigen(const Vec3& v) {
  return {v[0], v[1], v[2]};
}

struct RobotBox {
  Eigen::Vector3d centre;
  double size;  // the largest side, at least kMinimumSize
};

RobotBox boxOf(const std::array<double, 6>& b) {
  const Eigen::Vector3d low(b[0], b[2], b[4]), high(b[1], b[3], b[5]);
  return {0.5 * (low + high), std::max((high - low).maxCoeff(), kMinimumSize)};
}

vtkSmartPointer<vtkActor> makeActor(vtkPolyDataAlgorithm* source, double opacity) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(kObstacleColor[0], kObstacleColor[1], kObstacleColor[2]);
  actor->GetProperty()->SetOpacity(opacity);
  actor->PickableOff();
  return actor;
}

// any two unit vectors completing the unit vector n to a right-handed basis
std::pair<Eigen::Vector3d, Eigen::Vector3d> tangentsOf(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.z()) < 0.9 ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d::UnitX();
  const Eigen::Vector3d u = n.cross(helper).normalized();
  return {u, n.cross(u)};
}

vtkSmartPointer<vtkActor> planeActor(const ContactPlaneDesc& plane, const RobotBox& robot) {
  const Eigen::Vector3d n = toEigen(plane.normal).normalized();
  const Eigen::Vector3d p = toEigen(plane.point);
  const Eigen::Vector3d centre = robot.centre - n.dot(robot.centre - p) * n;  // robot's foot
  const auto [u, w] = tangentsOf(n);
  const double half = 0.75 * robot.size;
  const Eigen::Vector3d origin = centre - half * (u + w);
  const Eigen::Vector3d point1 = origin + 2.0 * half * u, point2 = origin + 2.0 * half * w;
  vtkNew<vtkPlaneSource> source;
  source->SetOrigin(origin.x(), origin.y(), origin.z());
  source->SetPoint1(point1.x(), point1.y(), point1.z());
  source->SetPoint2(point2.x(), point2.y(), point2.z());
  return makeActor(source, kPlaneOpacity);
}

vtkSmartPointer<vtkActor> sphereActor(const ContactSphereDesc& sphere) {
  vtkNew<vtkSphereSource> source;
  source->SetCenter(sphere.centre[0], sphere.centre[1], sphere.centre[2]);
  source->SetRadius(sphere.radius);
  source->SetThetaResolution(kResolution);
  source->SetPhiResolution(kResolution / 2);
  return makeActor(source, kSolidOpacity);
}

// vtkCylinderSource stands along y about the origin: placed by a user matrix whose y column is
// the axis, centred where the robot's centre projects onto the axis
vtkSmartPointer<vtkActor> cylinderActor(const ContactCylinderDesc& cylinder,
                                        const RobotBox& robot) {
  const Eigen::Vector3d axis = toEigen(cylinder.axis).normalized();
  const Eigen::Vector3d p = toEigen(cylinder.point);
  const Eigen::Vector3d centre = p + axis.dot(robot.centre - p) * axis;
  vtkNew<vtkCylinderSource> source;
  source->SetRadius(cylinder.radius);
  source->SetHeight(1.5 * robot.size);
  source->SetResolution(kResolution);
  source->CappingOff();
  auto actor = makeActor(source, kSolidOpacity);
  actor->GetProperty()->FrontfaceCullingOn();  // the far wall only: the robot inside shows
  actor->GetProperty()->BackfaceCullingOff();
  const auto [u, w] = tangentsOf(axis);
  Eigen::Matrix4d pose = Eigen::Matrix4d::Identity();
  pose.block<3, 1>(0, 0) = w;
  pose.block<3, 1>(0, 1) = axis;
  pose.block<3, 1>(0, 2) = u;
  pose.block<3, 1>(0, 3) = centre;
  vtkNew<vtkMatrix4x4> matrix;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) matrix->SetElement(row, col, pose(row, col));
  }
  actor->SetUserMatrix(matrix);
  return actor;
}

}  // namespace

std::vector<vtkSmartPointer<vtkActor>> makeContactObstacleActors(
    const ContactDesc& contact, const std::array<double, 6>& robot_bounds) {
  const RobotBox robot = boxOf(robot_bounds);
  std::vector<vtkSmartPointer<vtkActor>> actors;
  for (const ContactPlaneDesc& plane : contact.planes) actors.push_back(planeActor(plane, robot));
  for (const ContactSphereDesc& sphere : contact.spheres) actors.push_back(sphereActor(sphere));
  for (const ContactCylinderDesc& cylinder : contact.cylinders)
    actors.push_back(cylinderActor(cylinder, robot));
  return actors;
}

}  // namespace tendril
