#include "core/algorithm/kinematics.hpp"

#include <stdexcept>
#include <string>

namespace tendril {
namespace {

void checkSize(Eigen::Index actual, int expected, const char* name) {
  if (actual != expected) {
    throw std::invalid_argument(std::string(name) + " has size " + std::to_string(actual) + ", expected " +
                                std::to_string(expected));
  }
}

// Omega, Z, T and S of one virtual joint from its coordinates (C1, C4, C15)
void jointPosition(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& q_j, Data& data, int j) {
  if (joint.kind == VirtualJointKind::Rigid) {
    data.Omega[j].noalias() = joint.Phi * q_j;
    data.Z[j] = joint.Phi;
  } else if (joint.magnus_order == 4) {
    data.xi_z1[j].noalias() = joint.Phi_z1 * q_j;
    data.xi_z1[j] += joint.xi_star;
    data.xi_z2[j].noalias() = joint.Phi_z2 * q_j;
    data.xi_z2[j] += joint.xi_star;
    data.Omega[j] = magnus4(data.xi_z1[j], data.xi_z2[j], joint.h);
    magnus4Jacobian(data.xi_z1[j], data.xi_z2[j], joint.Phi_z1, joint.Phi_z2, joint.h, data.Z[j]);
  } else {
    data.xi_z1[j].noalias() = joint.Phi_z1 * q_j;
    data.xi_z1[j] += joint.xi_star;
    data.Omega[j] = magnus2(data.xi_z1[j], joint.h);
    data.Z[j] = joint.h * joint.Phi_z1;
  }
  data.g_local[j] = exp(data.Omega[j]);
  if (joint.constant_subspace) {
    data.S[j] = joint.Phi;  // T(Phi q) Phi = Phi: no tangent operator needed
    return;
  }
  data.T[j] = dexp(data.Omega[j]);
  data.S[j].noalias() = data.T[j] * data.Z[j];
}

// S-dot = T-dot Z + T Z-dot (C21); Z-dot vanishes for rigid joints and 2nd-order Magnus
void jointVelocity(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& v_j, Data& data, int j) {
  if (joint.nq == 0 || joint.constant_subspace) return;  // S-dot stays 0
  const Vector6d Omega_dot = data.Z[j] * v_j;
  Matrix6d T, T_dot;
  dexpAndDot(data.Omega[j], Omega_dot, T, T_dot);
  data.S_dot[j].noalias() = T_dot * data.Z[j];
  if (joint.kind == VirtualJointKind::RodInterval && joint.magnus_order == 4) {
    const Vector6d xi_dot_z1 = joint.Phi_z1 * v_j;
    const Vector6d xi_dot_z2 = joint.Phi_z2 * v_j;
    auto Z_dot = data.scratch_6n.leftCols(joint.nq);
    magnus4JacobianRate(xi_dot_z1, xi_dot_z2, joint.Phi_z1, joint.Phi_z2, joint.h, Z_dot);
    data.S_dot[j].noalias() += T * Z_dot;
  }
}

}  // namespace

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q) {
  checkSize(q.size(), model.nq, "q");
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    jointPosition(joint, q.segment(joint.idx_q, joint.nq), data, j);
    // g_j = g_parent g_fixed exp(Omega_j)   (2a)
    const SE3 g_base = joint.parent < 0 ? joint.g_fixed : data.g[joint.parent] * joint.g_fixed;
    data.g[j] = g_base * data.g_local[j];
  }
}

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) {
  forwardKinematics(model, data, q);
  checkSize(v.size(), model.nv, "v");
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    jointVelocity(joint, v_j, data, j);
    // eta_j = Ad^-1_{exp Omega} (eta_base + S v_j)
    Vector6d eta_plus = joint.parent < 0 ? Vector6d::Zero() : applyAdInv(joint.g_fixed, data.eta[joint.parent]);
    eta_plus.noalias() += data.S[j] * v_j;
    data.eta[j] = applyAdInv(data.g_local[j], eta_plus);
  }
}

void frameJacobian(const Model& model, const Data& data, int j, Eigen::Ref<Eigen::MatrixXd> J) {
  J.setZero();
  // X: pose of frame j in the base frame of joint i, for i walking from j to the root
  SE3 X = data.g_local[j];
  for (int i = j;;) {
    const VirtualJoint& joint = model.joints[i];
    if (joint.nq > 0) J.middleCols(joint.idx_q, joint.nq).noalias() += AdInv(X) * data.S[i];
    if (joint.parent < 0) break;
    X = data.g_local[joint.parent] * (joint.g_fixed * X);
    i = joint.parent;
  }
}

SE3 jointBasePose(const Model& model, const Data& data, int j) {
  const VirtualJoint& joint = model.joints[j];
  return joint.parent < 0 ? joint.g_fixed : data.g[joint.parent] * joint.g_fixed;
}

SE3 linkTipPose(const Model& model, const Data& data, int link) {
  const LinkInfo& info = model.links[link];
  return data.g[info.tip] * info.g_tip;
}

}  // namespace tendril
