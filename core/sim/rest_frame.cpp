#include "core/sim/rest_frame.hpp"

#include <algorithm>

#include "core/math/lie.hpp"
#include "core/model/validate.hpp"

namespace tendril {
namespace {

SE3 toSE3(const Placement& placement) {
  SE3 g;
  g.R = rpyToRotation(placement.rpy[0], placement.rpy[1], placement.rpy[2]);
  g.p = Eigen::Vector3d(placement.position.data());
  return g;
}

Eigen::Isometry3d toIsometry(const SE3& g) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  out.linear() = g.R;
  out.translation() = g.p;
  return out;
}

double sectionRadius(const CrossSectionDesc& section, double s) {
  if (section.shape == SectionShape::Circular) {
    return section.radius_start + s * (section.radius_end - section.radius_start);
  }
  const double width = section.width_start + s * (section.width_end - section.width_start);
  const double height = section.height_start + s * (section.height_end - section.height_start);
  return 0.5 * std::max(width, height);
}

// sweeps the rod along its reference strain; returns the tip frame
SE3 addRod(const SoftBodyDesc& soft, int link, const SE3& g_base, Frame& frame) {
  RodShape rod;
  rod.link = link;
  SE3 g = g_base;
  auto addSample = [&](const SE3& pose, double radius) {
    rod.points.push_back(pose.p);
    rod.orientations.push_back(pose.R);
    rod.radii.push_back(radius);
  };
  addSample(g, sectionRadius(soft.divisions.front().section, 0.0));
  for (const DivisionDesc& division : soft.divisions) {
    const Vector6d xi_star = Eigen::Map<const Vector6d>(division.reference_strain.data());
    const double step = division.length / kRodSamplesPerDivision;
    // xi* is constant along a division, so each step is an exact exponential
    const SE3 g_step = exp(step * xi_star);
    for (int k = 1; k <= kRodSamplesPerDivision; ++k) {
      g = g * g_step;
      addSample(g, sectionRadius(division.section, static_cast<double>(k) / kRodSamplesPerDivision));
    }
  }
  frame.rods.push_back(std::move(rod));
  return g;
}

}  // namespace

FramePtr restFrame(const RobotDescription& robot) {
  auto frame = std::make_shared<Frame>();
  const std::vector<int> parent = parentIndices(robot);
  std::vector<SE3> g_tip(robot.links.size(), SE3::Identity());
  std::vector<bool> has_child(robot.links.size(), false);
  for (int i : topologicalOrder(robot)) {
    const LinkDesc& link = robot.links[i];
    const SE3 g_parent = parent[i] < 0 ? SE3::Identity() : g_tip[parent[i]];
    if (parent[i] >= 0) has_child[parent[i]] = true;
    const SE3 g_joint = g_parent * toSE3(link.origin);
    if (link.kind == BodyKind::Soft) {
      g_tip[i] = addRod(link.soft, i, g_joint, *frame);
      continue;
    }
    SE3 g_com = g_joint;
    g_com.p = g_joint.act(Eigen::Vector3d(link.rigid.com.data()));
    frame->bodies.push_back(BodyShape{i, toIsometry(g_com), link.rigid.shape});
    g_tip[i] = g_joint * toSE3(link.rigid.tip);
  }
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (!has_child[i]) frame->tips_W.push_back(g_tip[i].p);
  }
  return frame;
}

}  // namespace tendril
