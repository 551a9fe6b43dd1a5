#include "core/sim/make_frame.hpp"

#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

Eigen::Isometry3d toIsometry(const SE3& g) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  out.linear() = g.R;
  out.translation() = g.p;
  return out;
}

RodShape rodShape(const Model& model, const Data& data, int link) {
  const LinkInfo& info = model.links[link];
  RodShape rod;
  rod.link = link;
  const auto add = [&](const SE3& g, double radius, double curvature) {
    rod.points.push_back(g.p);
    rod.orientations.push_back(g.R);
    rod.radii.push_back(radius);
    rod.scalar.push_back(curvature);
  };
  const SE3& g_base = data.g[info.joint];
  double radius = info.base_radius;
  add(g_base, radius, 0.0);
  for (int j = info.first_interval; j <= info.last_interval; ++j) {
    const VirtualJoint& joint = model.joints[j];
    const SE3 g_start = data.g[joint.parent] * joint.g_fixed;
    const double curvature = data.Omega[j].head<3>().norm() / joint.h;
    // sub-samples along the interval's one-parameter subgroup g_start exp(s Omega)
    for (int k = 1; k <= kSamplesPerInterval; ++k) {
      const double s = static_cast<double>(k) / kSamplesPerInterval;
      add(k == kSamplesPerInterval ? data.g[j] : g_start * exp(s * data.Omega[j]),
          radius + s * (joint.radius - radius), curvature);
    }
    radius = joint.radius;
  }
  if (rod.scalar.size() > 1) rod.scalar.front() = rod.scalar[1];
  return rod;
}

}  // namespace

FramePtr makeFrame(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, double t, std::uint64_t index,
                   const Energies& energy) {
  forwardKinematics(model, data, q);
  auto frame = std::make_shared<Frame>();
  frame->index = index;
  frame->t = t;
  frame->q = q;
  frame->v = v;
  frame->energy = energy;
  const RobotDescription& robot = model.description;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    const LinkInfo& info = model.links[i];
    if (info.kind == BodyKind::Soft) {
      frame->rods.push_back(rodShape(model, data, i));
    } else {
      SE3 g_com = data.g[info.joint];
      g_com.p = g_com.act(Eigen::Vector3d(robot.links[i].rigid.com.data()));
      frame->bodies.push_back(BodyShape{i, toIsometry(g_com), robot.links[i].rigid.shape});
    }
    if (info.is_leaf) frame->tips_W.push_back(linkTipPose(model, data, i).p);
  }
  return frame;
}

}  // namespace tendril
