#include "ui/viewport/scene/link_poses.hpp"

#include <algorithm>
#include <cstddef>

#include "core/model/validate.hpp"

namespace tendril {

int linkIndex(const RobotDescription& robot, const std::string& name) {
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

const RodShape* rodOf(const Frame& frame, int link) {
  for (const RodShape& rod : frame.rods) {
    if (rod.link == link && rod.points.size() >= 2 && rod.orientations.size() == rod.points.size())
      return &rod;
  }
  return nullptr;
}

double rodLength(const RobotDescription& robot, int link) {
  return centrelineLength(robot.links[static_cast<std::size_t>(link)]);
}

std::optional<Eigen::Vector3d> rigidCom(const RobotDescription& robot, int link) {
  if (link < 0 || link >= static_cast<int>(robot.links.size())) return std::nullopt;
  const LinkDesc& desc = robot.links[static_cast<std::size_t>(link)];
  if (desc.kind() != BodyKind::Rigid) return std::nullopt;
  return Eigen::Vector3d(desc.rigid().com.data());
}

void rodPoseAt(const RodShape& rod, double length, double x, Eigen::Vector3d& p,
               Eigen::Matrix3d& R) {
  double arc = 0.0;
  for (std::size_t i = 1; i < rod.points.size(); ++i) {
    arc += (rod.points[i] - rod.points[i - 1]).norm();
  }
  const double scale = arc > 0.0 ? length / arc : 0.0;
  // the first sample at or beyond x (or the last), as abscissae X_before < X_i
  std::size_t i = 1;
  double X_before = 0.0;
  double X_i = (rod.points[1] - rod.points[0]).norm() * scale;
  while (i + 1 < rod.points.size() && X_i < x) {
    ++i;
    X_before = X_i;
    X_i += (rod.points[i] - rod.points[i - 1]).norm() * scale;
  }
  const double span = X_i - X_before;
  const double s = span > 0.0 ? std::clamp((x - X_before) / span, 0.0, 1.0) : 0.0;
  p = (1.0 - s) * rod.points[i - 1] + s * rod.points[i];
  R = s < 0.5 ? rod.orientations[i - 1] : rod.orientations[i];
}

std::optional<Eigen::Isometry3d> linkFramePose(const RobotDescription& robot, const Frame& frame,
                                               int link, double abscissa, double rod_length) {
  if (link < 0 || link >= static_cast<int>(robot.links.size())) return std::nullopt;
  Eigen::Isometry3d g = Eigen::Isometry3d::Identity();
  if (const RodShape* rod = rodOf(frame, link)) {
    if (abscissa <= -2.0) {
      g.linear() = rod->orientations.front();
      g.translation() = rod->points.front();
      return g;
    }
    Eigen::Vector3d p;
    Eigen::Matrix3d R;
    rodPoseAt(*rod, rod_length, abscissa < 0.0 ? rod_length : abscissa, p, R);
    g.linear() = R;
    g.translation() = p;
    return g;
  }
  const std::optional<Eigen::Vector3d> com = rigidCom(robot, link);
  for (const BodyShape& body : frame.bodies) {
    if (body.link != link || !com) continue;
    g.linear() = body.pose_W.linear();
    g.translation() = body.pose_W.translation() - g.linear() * *com;
    return g;
  }
  return std::nullopt;
}

}  // namespace tendril
