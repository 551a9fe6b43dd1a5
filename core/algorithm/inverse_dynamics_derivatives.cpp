#include "core/algorithm/inverse_dynamics_derivatives.hpp"

#include <cmath>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

bool hasVaryingSubspace(const VirtualJoint& joint) {
  return joint.nq > 0 && !joint.constant_subspace;
}

bool isZanna(const VirtualJoint& joint) {
  return joint.kind == VirtualJointKind::RodInterval && joint.magnus_order == 4;
}

double zannaCoefficient(const VirtualJoint& joint) {
  return std::sqrt(3.0) * joint.h * joint.h / 12.0;
}

// S-dot = T' Z + T Z-dot (C21) as a matrix, which only the derivatives need (data.S_dot)
void subspaceRate(const VirtualJoint& joint, Data& data, int j,
                  const Eigen::Ref<const Eigen::VectorXd>& v_j) {
  if (!hasVaryingSubspace(joint)) return;  // S-dot stays 0
  const Vector6d Omega_dot = data.Z[j] * v_j;
  data.S_dot[j].noalias() = dexpDot(data.Omega[j], Omega_dot) * data.Z[j];
  if (isZanna(joint)) {
    auto Z_dot = data.scratch_6n.leftCols(joint.nq);
    magnus4JacobianRate(joint.Phi_z1 * v_j, joint.Phi_z2 * v_j, joint.Phi_z1, joint.Phi_z2, joint.h,
                        Z_dot);
    data.S_dot[j].noalias() += data.T[j] * Z_dot;
  }
}

// d(S v)/dq_j into data.dSv_dq and d(S a + S-dot v)/dq_j into data.dacc_dq (C19, C20, C24):
//   d(S w)/dq      = DT(Z w) Z + T W(w),      W(w) = d(Z w)/dq (0 unless 4th-order Magnus)
//   d(S-dot v)/dq  = DTdot(Omega', Omega') Z + (DT(Omega') + T') W(v) + DT(Z-dot v) Z
void localTerms(const VirtualJoint& joint, Data& data, int j,
                const Eigen::Ref<const Eigen::VectorXd>& v_j,
                const Eigen::Ref<const Eigen::VectorXd>& a_j) {
  auto dSv = data.dSv_dq.leftCols(joint.nq);
  auto dacc = data.dacc_dq.leftCols(joint.nq);
  if (!hasVaryingSubspace(joint)) {
    dSv.setZero();
    dacc.setZero();
    return;
  }
  TangentExpansion& x = data.tangent[j];
  expandTangent(data.Omega[j], x);
  const Matrix6d& T = x.P[0];
  const Matrix6Xd& Z = data.Z[j];
  const Vector6d Omega_dot = Z * v_j;
  Vector6d drive = Z * a_j;  // becomes Z a + Z-dot v
  const Matrix6d DT_v = dexpJacobian(x, Omega_dot);
  dSv.noalias() = DT_v * Z;
  dacc.noalias() = dexpDotJacobian(x, Omega_dot, Omega_dot) * Z;
  if (isZanna(joint)) {
    auto W_v = data.Z_rate_v.leftCols(joint.nq);
    auto W_a = data.Z_rate_a.leftCols(joint.nq);
    const Vector6d v_z1 = joint.Phi_z1 * v_j, v_z2 = joint.Phi_z2 * v_j;
    const Vector6d a_z1 = joint.Phi_z1 * a_j, a_z2 = joint.Phi_z2 * a_j;
    magnus4JacobianRate(v_z1, v_z2, joint.Phi_z1, joint.Phi_z2, joint.h, W_v);
    magnus4JacobianRate(a_z1, a_z2, joint.Phi_z1, joint.Phi_z2, joint.h, W_a);
    drive.noalias() += W_v * v_j;
    dSv.noalias() += T * W_v;
    dacc.noalias() += (DT_v + dexpDot(data.Omega[j], Omega_dot)) * W_v;
    dacc.noalias() += T * W_a;
  }
  dacc.noalias() += dexpJacobian(x, drive) * Z;
}

// d(S^T F)/dq_j = Z^T DTt(F) Z + d(Z^T)/dq (T^T F)   (C29), added to the joint's diagonal block
void addProjectionDerivative(const VirtualJoint& joint, Data& data, int j, const Vector6d& F) {
  if (!hasVaryingSubspace(joint)) return;
  const TangentExpansion& x = data.tangent[j];
  const Matrix6Xd& Z = data.Z[j];
  auto block = data.dtau_dq.block(joint.idx_q, joint.idx_q, joint.nq, joint.nq);
  auto scratch = data.Z_rate_v.leftCols(joint.nq);
  scratch.noalias() = dexpTransposeJacobian(x, F) * Z;
  block.noalias() += Z.transpose() * scratch;
  if (!isZanna(joint)) return;
  // Z^T F' = ... + c (Phi_z1^T adbar*_F' xi_z2 - Phi_z2^T adbar*_F' xi_z1), F' = T^T F
  const double c = zannaCoefficient(joint);
  const Matrix6d B = coadBar(x.P[0].transpose() * F);
  scratch.noalias() = c * (B * joint.Phi_z2);
  block.noalias() += joint.Phi_z1.transpose() * scratch;
  scratch.noalias() = c * (B * joint.Phi_z1);
  block.noalias() -= joint.Phi_z2.transpose() * scratch;
}

// base-frame derivative of the parent's quantity: Ad^{-1}_{g_fixed} (parent block), or 0 at a root
void baseBlock(const VirtualJoint& joint, const std::vector<Matrix6Xd>& of_frames, int cols,
               Eigen::Ref<Matrix6Xd> out) {
  if (joint.parent < 0) {
    out.setZero();
  } else if (joint.has_placement) {
    out.noalias() = AdInv(joint.g_fixed) * of_frames[joint.parent].leftCols(cols);
  } else {
    out = of_frames[joint.parent].leftCols(cols);
  }
}

// v = a = 0 (statics, a state at rest): every twist vanishes, and with it d eta/dq, d eta_dot/dv,
// N and all local terms (C19, C20, C24 are linear in v or a). What is left is d eta_dot/dq from
// the gravity acceleration, ad(eta_dot+) S, and the body Jacobians J; about a third of the work
void forwardPassAtRest(const Model& model, Data& data) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const int cols = data.ancestor_cols[j];
    const int subtree = data.subtree_cols[j];
    if (hasVaryingSubspace(joint)) expandTangent(data.Omega[j], data.tangent[j]);  // for C29
    const Matrix6Xd& S = data.S[j];
    const Matrix6d to_child = AdInv(data.g_local[j]);
    auto d_eta = data.work_6v[0].leftCols(cols);
    auto d_acc = data.work_6v[1].leftCols(cols);
    baseBlock(joint, data.deta_dot_dq, cols, d_acc);
    d_acc.middleCols(joint.idx_q, joint.nq).noalias() +=
        ad(applyAd(data.g_local[j], data.eta_dot[j])) * S;
    data.deta_dot_dq[j].leftCols(cols).noalias() = to_child * d_acc;
    baseBlock(joint, data.deta_dv, cols, d_eta);
    d_eta.middleCols(joint.idx_q, joint.nq) += S;
    data.deta_dv[j].leftCols(cols).noalias() = to_child * d_eta;
    data.deta_dq[j].leftCols(cols).setZero();
    data.deta_dot_dv[j].leftCols(cols).setZero();
    data.dF_dq[j].middleCols(cols, subtree - cols).setZero();
    data.dF_dv[j].leftCols(subtree).setZero();
    if (!joint.has_inertia && !joint.has_added_mass) {
      data.dF_dq[j].leftCols(cols).setZero();
      continue;
    }
    const Matrix6d M = joint.has_added_mass ? Matrix6d(joint.M + joint.added_mass) : joint.M;
    data.dF_dq[j].leftCols(cols).noalias() = M * data.deta_dot_dq[j].leftCols(cols);
  }
}

void forwardPass(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& v,
                 const Eigen::Ref<const Eigen::VectorXd>& a) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const int cols = data.ancestor_cols[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    const auto a_j = a.segment(joint.idx_q, joint.nq);
    const Matrix6Xd& S = data.S[j];
    const Vector6d Sv = S * v_j;
    const Vector6d eta_plus = applyAd(data.g_local[j], data.eta[j]);
    const Vector6d eta_base = eta_plus - Sv;
    const Vector6d acc_plus = applyAd(data.g_local[j], data.eta_dot[j]);
    localTerms(joint, data, j, v_j, a_j);
    subspaceRate(joint, data, j, v_j);
    const auto dSv = data.dSv_dq.leftCols(joint.nq);
    const Matrix6d to_child = AdInv(data.g_local[j]);
    const Matrix6d ad_Sv = ad(Sv);
    auto d_eta = data.work_6v[0].leftCols(cols);
    auto d_acc = data.work_6v[1].leftCols(cols);

    // with respect to q
    baseBlock(joint, data.deta_dq, cols, d_eta);
    baseBlock(joint, data.deta_dot_dq, cols, d_acc);
    d_acc.noalias() -= ad_Sv * d_eta;
    auto acc_j = d_acc.middleCols(joint.idx_q, joint.nq);
    acc_j += data.dacc_dq.leftCols(joint.nq);
    acc_j.noalias() += ad(eta_base) * dSv;
    acc_j.noalias() += ad(acc_plus) * S;
    auto eta_j = d_eta.middleCols(joint.idx_q, joint.nq);
    eta_j += dSv;
    eta_j.noalias() += ad(eta_plus) * S;
    data.deta_dot_dq[j].leftCols(cols).noalias() = to_child * d_acc;
    data.deta_dq[j].leftCols(cols).noalias() = to_child * d_eta;

    // with respect to v
    baseBlock(joint, data.deta_dv, cols, d_eta);
    baseBlock(joint, data.deta_dot_dv, cols, d_acc);
    d_acc.noalias() -= ad_Sv * d_eta;
    auto acc_v = d_acc.middleCols(joint.idx_q, joint.nq);
    acc_v += data.S_dot[j] + dSv;
    acc_v.noalias() += ad(eta_base) * S;
    d_eta.middleCols(joint.idx_q, joint.nq) += S;
    data.deta_dot_dv[j].leftCols(cols).noalias() = to_child * d_acc;
    data.deta_dv[j].leftCols(cols).noalias() = to_child * d_eta;

    // body wrench F = M eta_dot + ad*_eta M eta:  dF = M d eta_dot + N d eta
    const int subtree = data.subtree_cols[j];
    data.dF_dq[j].middleCols(cols, subtree - cols).setZero();
    data.dF_dv[j].middleCols(cols, subtree - cols).setZero();
    if (!joint.has_inertia && !joint.has_added_mass) {
      data.dF_dq[j].leftCols(cols).setZero();
      data.dF_dv[j].leftCols(cols).setZero();
      continue;
    }
    // the added mass of a fluid is inertia too (Kirchhoff: (M + M_A) eta_dot + ad*_eta (M + M_A)
    // eta); its cancelled weight is a pose-dependent load handled with the other loads
    const Matrix6d M = joint.has_added_mass ? Matrix6d(joint.M + joint.added_mass) : joint.M;
    const Matrix6d N = coad(data.eta[j]) * M + coadBar(M * data.eta[j]);
    auto dF_dq = data.dF_dq[j].leftCols(cols);
    auto dF_dv = data.dF_dv[j].leftCols(cols);
    dF_dq.noalias() = M * data.deta_dot_dq[j].leftCols(cols);
    dF_dq.noalias() += N * data.deta_dq[j].leftCols(cols);
    dF_dv.noalias() = M * data.deta_dot_dv[j].leftCols(cols);
    dF_dv.noalias() += N * data.deta_dv[j].leftCols(cols);
  }
}

// external wrenches enter F with a minus sign (ID = inertial - external, theory-gvs.md 6.1);
// returns whether some load depends on the twist (else, at rest, dF/dv and dID/dv vanish)
bool subtractLoadDerivatives(const Model& model, Data& data, double t, bool at_rest) {
  externalWrenchSensitivities(model, data, t);
  bool twist_dependent = false;
  for (const WrenchSensitivity& s : data.load_sensitivities) {
    const int cols = data.ancestor_cols[s.joint];
    const auto J = data.deta_dv[s.joint].leftCols(cols);
    data.dF_dq[s.joint].leftCols(cols).noalias() -= s.d_pose * J;
    if (!at_rest) {
      data.dF_dq[s.joint].leftCols(cols).noalias() -=
          s.d_twist * data.deta_dq[s.joint].leftCols(cols);
    }
    if (!s.d_twist.isZero(0.0)) {
      twist_dependent = true;
      data.dF_dv[s.joint].leftCols(cols).noalias() -= s.d_twist * J;
    }
  }
  return twist_dependent;
}

// with_velocity false: dF/dv is zero everywhere (at rest, no twist-dependent load), so is dID/dv
void backwardPass(const Model& model, Data& data, bool with_velocity) {
  data.dtau_dq.setZero();
  data.dtau_dv.setZero();
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    const int cols = data.subtree_cols[j];
    const Matrix6Xd& S = data.S[j];
    const Vector6d F_base = applyCoAd(data.g_local[j], data.F[j]);  // data.F: subtree wrench
    const Matrix6d to_base = coAd(data.g_local[j]);
    auto dFb_dq = data.work_6v[0].leftCols(cols);
    auto dFb_dv = data.work_6v[1].leftCols(cols);
    dFb_dq.noalias() = to_base * data.dF_dq[j].leftCols(cols);
    if (with_velocity) dFb_dv.noalias() = to_base * data.dF_dv[j].leftCols(cols);
    if (joint.nq > 0) {
      dFb_dq.middleCols(joint.idx_q, joint.nq).noalias() += coadBar(F_base) * S;
      auto rows_q = data.dtau_dq.middleRows(joint.idx_q, joint.nq).leftCols(cols);
      rows_q.noalias() += S.transpose() * dFb_dq;
      if (with_velocity) {
        auto rows_v = data.dtau_dv.middleRows(joint.idx_q, joint.nq).leftCols(cols);
        rows_v.noalias() += S.transpose() * dFb_dv;
      }
      addProjectionDerivative(joint, data, j, F_base);
    }
    if (joint.parent < 0) continue;
    if (joint.has_placement) {
      const Matrix6d to_parent = coAd(joint.g_fixed);
      data.dF_dq[joint.parent].leftCols(cols).noalias() += to_parent * dFb_dq;
      if (with_velocity) data.dF_dv[joint.parent].leftCols(cols).noalias() += to_parent * dFb_dv;
    } else {
      data.dF_dq[joint.parent].leftCols(cols) += dFb_dq;
      if (with_velocity) data.dF_dv[joint.parent].leftCols(cols) += dFb_dv;
    }
  }
}

}  // namespace

void inverseDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inverseDynamics(model, data, q, v, a, t);  // kinematics, eta, eta_dot, subtree wrenches, tau
  // at rest (exactly: statics, the first step of a simulation) most terms vanish
  const bool at_rest = v.isZero(0.0) && a.isZero(0.0);
  if (at_rest) {
    forwardPassAtRest(model, data);
  } else {
    forwardPass(model, data, v, a);
  }
  const bool twist_dependent_loads = subtractLoadDerivatives(model, data, t, at_rest);
  backwardPass(model, data, !at_rest || twist_dependent_loads);
}

}  // namespace tendril
