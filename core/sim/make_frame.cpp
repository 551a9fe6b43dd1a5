#include "core/sim/make_frame.hpp"

#include <cmath>

#include "core/algorithm/kinematics.hpp"
#include "core/sim/make_agnostic_frame.hpp"

namespace tendril {
namespace {

Eigen::Isometry3d toIsometry(const SE3& g) {
  Eigen::Isometry3d out = Eigen::Isometry3d::Identity();
  out.linear() = g.R;
  out.translation() = g.p;
  return out;
}

// the RodQuantity values of an interval from its mean strain and strain rate (Omega / h and
// Omega' / h, Omega' = Z v) and the section at its middle
std::array<double, kRodQuantityCount> intervalValues(const VirtualJoint& joint,
                                                     const Vector6d& Omega,
                                                     const Vector6d& Omega_dot) {
  const Vector6d xi = Omega / joint.h;
  const Vector6d strain = xi - joint.xi_star;
  const Vector6d wrench = joint.section_stiffness.cwiseProduct(strain) +
                          joint.section_damping.cwiseProduct(Omega_dot / joint.h);
  std::array<double, kRodQuantityCount> values{};
  values[static_cast<int>(RodQuantity::Curvature)] = xi.head<3>().norm();
  values[static_cast<int>(RodQuantity::AxialStrain)] = strain(3);
  values[static_cast<int>(RodQuantity::BendingMoment)] = std::hypot(wrench(1), wrench(2));
  values[static_cast<int>(RodQuantity::AxialForce)] = wrench(3);
  return values;
}

RodShape rodShape(const Model& model, const Data& data, int link, const Eigen::VectorXd& v) {
  const LinkInfo& info = model.links[link];
  RodShape rod;
  rod.link = link;
  const auto add = [&](const SE3& g, double radius) {
    rod.points.push_back(g.p);
    rod.orientations.push_back(g.R);
    rod.radii.push_back(radius);
  };
  const SE3& g_base = data.g[info.joint];
  double radius = info.base_radius;
  add(g_base, radius);
  for (int j = info.first_interval; j <= info.last_interval; ++j) {
    const VirtualJoint& joint = model.joints[j];
    const SE3 g_start = data.g[joint.parent] * joint.g_fixed;
    // sub-samples along the interval's one-parameter subgroup g_start exp(s Omega)
    for (int k = 1; k <= kSamplesPerInterval; ++k) {
      const double s = static_cast<double>(k) / kSamplesPerInterval;
      add(k == kSamplesPerInterval ? data.g[j] : g_start * exp(s * data.Omega[j]),
          radius + s * (joint.radius - radius));
    }
    const Vector6d Omega_dot = data.Z[j] * v.segment(joint.idx_q, joint.nq);
    rod.interval_values.push_back(intervalValues(joint, data.Omega[j], Omega_dot));
    radius = joint.radius;
  }
  return rod;
}

}  // namespace

std::shared_ptr<Frame> frameWithoutShapes(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                          double t, std::uint64_t index, const Energies& energy,
                                          const ControlRecord& control) {
  auto frame = std::make_shared<Frame>();
  frame->index = index;
  frame->t = t;
  frame->q = q;
  frame->v = v;
  frame->energy = energy;
  frame->control = control;
  return frame;
}

FramePtr makeFrame(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, double t, std::uint64_t index, const Energies& energy,
                   const ControlRecord& control) {
  if (model.agnostic_only) {  // no engine kinematics: the bodies report their own poses
    ModelAgnosticPoses poses(model, data);
    return makeModelAgnosticFrame(model, data, poses, q, v, t, index, energy, control);
  }
  forwardKinematics(model, data, q);
  const std::shared_ptr<Frame> frame = frameWithoutShapes(q, v, t, index, energy, control);
  const RobotDescription& robot = model.description;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    const LinkInfo& info = model.links[i];
    if (hasCentreline(info.kind)) {
      frame->rods.push_back(rodShape(model, data, i, v));
    } else if (info.kind == BodyKind::Rigid) {
      SE3 g_com = data.g[info.joint];
      g_com.p = g_com.act(Eigen::Vector3d(robot.links[i].rigid().com.data()));
      frame->bodies.push_back(BodyShape{i, toIsometry(g_com), robot.links[i].rigid().shape});
    }
    if (info.is_leaf) frame->tips_W.push_back(linkTipPose(model, data, i).p);
  }
  return frame;
}

}  // namespace tendril
