#include "core/algorithm/inverse_dynamics.hpp"

#include <Eigen/Geometry>
#include <stdexcept>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {

const Eigen::VectorXd& inverseDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  if (a.size() != model.nv) throw std::invalid_argument("a has the wrong size");
  if (v.size() != model.nv) throw std::invalid_argument("v has the wrong size");
  forwardKinematics(model, data, q);

  // forward pass: accelerations (gravity as base acceleration) and body wrenches
  const Vector6d base_acceleration = -model.gravity;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    const bool root = joint.parent < 0;
    jointVelocityStage(joint, v_j, data, j);
    data.eta[j] = childTwist(joint, data, j, v_j);
    if (joint.single_screw) {
      // in the child frame, where the screw is the same: eta_dot = Ad^-1 eta_dot_parent + s a +
      // ad_eta (s v)
      data.eta_dot[j] =
          applyAdInv(data.g_pc[j], root ? base_acceleration : data.eta_dot[joint.parent]);
      data.eta_dot[j] +=
          a(joint.idx_q) * joint.screw + ad(data.eta[j], v(joint.idx_q) * joint.screw);
    } else {
      const Vector6d eta_base = baseTwist(joint, data.eta);
      Vector6d acc = baseTwist(joint, data.eta_dot, base_acceleration);
      if (joint.nq > 0) {
        const Vector6d S_v = data.S[j] * v_j;
        acc.noalias() += data.S[j] * a.segment(joint.idx_q, joint.nq);
        acc += data.S_dot_v[j];
        acc += ad(eta_base, S_v);
      }
      data.eta_dot[j] = applyAdInv(data.g_local[j], acc);
    }
    if (joint.has_inertia) {
      data.F[j] = joint.inertia * data.eta_dot[j] + coad(data.eta[j], joint.inertia * data.eta[j]);
    } else {
      data.F[j].setZero();
    }
    if (joint.has_added_mass) {
      // Kirchhoff: M_A eta_dot + ad*_eta M_A eta (its weight is cancelled in external_loads.cpp)
      const Vector6d momentum = joint.added_mass * data.eta[j];
      data.F[j].noalias() += joint.added_mass * data.eta_dot[j];
      data.F[j] += coad(data.eta[j], momentum);
    }
  }

  subtractExternalWrenches(model, data, t);  // ID = inertial - external

  // backward pass: transport subtree wrenches to joint bases, project, pass to parents
  data.tau.setZero();
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.single_screw) {
      // the screw is the same in the child frame: project there, transport once
      data.tau(joint.idx_q) += joint.screw.dot(data.F[j]);
      if (joint.parent >= 0) data.F[joint.parent] += applyCoAd(data.g_pc[j], data.F[j]);
      continue;
    }
    const Vector6d F_base = applyCoAd(data.g_local[j], data.F[j]);
    if (joint.nq > 0)
      data.tau.segment(joint.idx_q, joint.nq).noalias() += data.S[j].transpose() * F_base;
    if (joint.parent >= 0)
      data.F[joint.parent] += joint.has_placement ? applyCoAd(joint.g_fixed, F_base) : F_base;
  }
  return data.tau;
}

Eigen::VectorXd internalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  addInternalForces(model, q, v, tau);
  return tau;
}

void addInternalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out,
                       double scale) {
  for (const CoordinateBlock& b : model.elastic_blocks) {
    auto out_b = out.segment(b.idx, b.n);
    out_b.noalias() -= scale * (model.K.block(b.idx, b.idx, b.n, b.n) * q.segment(b.idx, b.n));
    out_b.noalias() -= scale * (model.D.block(b.idx, b.idx, b.n, b.n) * v.segment(b.idx, b.n));
  }
}

}  // namespace tendril
