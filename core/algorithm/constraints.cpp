#include "core/algorithm/constraints.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <sstream>

#include "core/algorithm/kinematics.hpp"
#include "core/math/dexp_derivatives.hpp"

namespace tendril {
namespace {

const Eigen::IOFormat kRowFormat(4, Eigen::DontAlignCols, " ", " ");

// body twist (or acceleration) of a frame placed at g_offset in child frame `joint`; the world
// (joint < 0) has none
Vector6d frameTwist(int joint, const SE3& g_offset, const std::vector<Vector6d>& of_frames,
                    const Vector6d& world) {
  return applyAdInv(g_offset, joint < 0 ? world : of_frames[joint]);
}

// body Jacobian of a frame placed at g_offset in child frame `joint` (zero for the world)
void offsetFrameJacobian(const Model& model, const Data& data, int joint, const SE3& g_offset,
                         Eigen::MatrixXd& J) {
  if (joint < 0) {
    J.setZero();
    return;
  }
  frameJacobian(model, data, joint, J);
  // J_frame = Ad^-1_{g_offset} J_joint, column by column (no temporary)
  for (Eigen::Index c = 0; c < J.cols(); ++c) {
    const Vector6d column = J.col(c);
    if (!column.isZero(0.0)) J.col(c) = applyAdInv(g_offset, column);
  }
}

// Ad_{g_BA} J_A - J_B into cd.J_a
void relativeJacobian(const Model& model, const Data& data, const CompiledClosedChain& chain,
                      const SE3& g_BA, ConstraintData& cd) {
  offsetFrameJacobian(model, data, chain.joint_a, chain.g_a, cd.J_a);
  offsetFrameJacobian(model, data, chain.joint_b, chain.g_b, cd.J_b);
  for (Eigen::Index c = 0; c < cd.J_a.cols(); ++c) {
    const Vector6d column = cd.J_a.col(c);
    cd.J_a.col(c) = applyAd(g_BA, column) - cd.J_b.col(c);
  }
}

// X <- L X for a 6 x n block, column by column (no temporary)
void leftMultiplyInPlace(const Matrix6d& L, Eigen::Ref<Eigen::MatrixXd> X) {
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    const Vector6d column = X.col(c);
    X.col(c).noalias() = L * column;
  }
}

int largestJointDimension(const Model& model) {
  int n = 1;
  for (const VirtualJoint& joint : model.joints) n = std::max(n, joint.nq);
  return n;
}

}  // namespace

ConstraintData::ConstraintData(const Model& model)
    : e(Eigen::VectorXd::Zero(model.n_constraints)),
      A(Eigen::MatrixXd::Zero(model.n_constraints, model.nv)),
      de_dq(Eigen::MatrixXd::Zero(model.n_constraints, model.nq)),
      bias(Eigen::VectorXd::Zero(model.n_constraints)),
      g_BA(model.closed_chains.size()),
      J_a(Eigen::MatrixXd::Zero(6, model.nv)),
      J_b(Eigen::MatrixXd::Zero(6, model.nv)),
      dAv_dq(Eigen::MatrixXd::Zero(model.n_constraints, model.nq)),
      dbias_dq(Eigen::MatrixXd::Zero(model.n_constraints, model.nq)),
      dbias_dv(Eigen::MatrixXd::Zero(model.n_constraints, model.nv)),
      dAtlambda_dq(Eigen::MatrixXd::Zero(model.nv, model.nq)),
      frame_a(model),
      frame_b(model),
      J_rel(Eigen::MatrixXd::Zero(6, model.nv)),
      dwrench(Eigen::MatrixXd::Zero(6, model.nv)),
      scratch_6n(Matrix6Xd::Zero(6, largestJointDimension(model))) {}

SE3 closedChainFrameA(const CompiledClosedChain& chain, const Data& data) {
  return chain.joint_a < 0 ? chain.g_a : data.g[chain.joint_a] * chain.g_a;
}

SE3 closedChainFrameB(const CompiledClosedChain& chain, const Data& data) {
  return chain.joint_b < 0 ? chain.g_b : data.g[chain.joint_b] * chain.g_b;
}

void constraintError(const Model& model, const Data& data, ConstraintData& cd) {
  for (std::size_t k = 0; k < model.closed_chains.size(); ++k) {
    const CompiledClosedChain& chain = model.closed_chains[k];
    cd.g_BA[k] = closedChainFrameB(chain, data).inverse() * closedChainFrameA(chain, data);
    cd.e.segment(chain.row, chain.m()).noalias() = chain.Phi_perp.transpose() * log(cd.g_BA[k]);
  }
}

void constraintJacobian(const Model& model, const Data& data, ConstraintData& cd) {
  constraintError(model, data, cd);
  for (std::size_t k = 0; k < model.closed_chains.size(); ++k) {
    const CompiledClosedChain& chain = model.closed_chains[k];
    relativeJacobian(model, data, chain, cd.g_BA[k], cd);
    cd.A.middleRows(chain.row, chain.m()).noalias() = chain.Phi_perp.transpose() * cd.J_a;
  }
}

void constraintErrorJacobian(const Model& model, const Data& data, ConstraintData& cd) {
  constraintError(model, data, cd);
  for (std::size_t k = 0; k < model.closed_chains.size(); ++k) {
    const CompiledClosedChain& chain = model.closed_chains[k];
    relativeJacobian(model, data, chain, cd.g_BA[k], cd);
    // d eps = T^-1(eps) (Ad J_A - J_B) dq: T is the right-trivialised dexp, d(g) g^-1 = T d(eps)
    const Matrix6d T_inv = dexp(log(cd.g_BA[k])).inverse();
    const Eigen::Matrix<double, Eigen::Dynamic, 6> P = chain.Phi_perp.transpose() * T_inv;
    cd.de_dq.middleRows(chain.row, chain.m()).noalias() = P * cd.J_a;
  }
}

void constraintBias(const Model& model, const Data& data, ConstraintData& cd) {
  constraintError(model, data, cd);
  const Vector6d base_acceleration = -model.gravity;  // as inverseDynamics carries gravity
  for (std::size_t k = 0; k < model.closed_chains.size(); ++k) {
    const CompiledClosedChain& chain = model.closed_chains[k];
    const SE3& g_BA = cd.g_BA[k];
    const Vector6d eta_A = frameTwist(chain.joint_a, chain.g_a, data.eta, Vector6d::Zero());
    const Vector6d eta_B = frameTwist(chain.joint_b, chain.g_b, data.eta, Vector6d::Zero());
    const Vector6d etadot_A = frameTwist(chain.joint_a, chain.g_a, data.eta_dot, base_acceleration);
    const Vector6d etadot_B = frameTwist(chain.joint_b, chain.g_b, data.eta_dot, base_acceleration);
    const Vector6d Ad_eta_A = applyAd(g_BA, eta_A);
    const Vector6d relative = applyAd(g_BA, etadot_A) - ad(eta_B, Ad_eta_A) - etadot_B;
    cd.bias.segment(chain.row, chain.m()).noalias() = chain.Phi_perp.transpose() * relative;
  }
}

void addWrenchProjectionDerivative(const Model& model, const Data& data, int j, const Vector6d& F,
                                   Eigen::Ref<Eigen::MatrixXd> out,
                                   Eigen::Ref<Eigen::MatrixXd> dwrench, Matrix6Xd& scratch) {
  // the wrench and its derivative, carried from frame j towards the root: at joint i,
  // F_base = Ad*_E F and dF_base = Ad*_E dF + adbar*_{F_base} S dq_i (C31); the rows of joint i
  // get S^T dF_base + d(S^T F_base)/dq_i (C29)
  const int cols = model.topology.ancestor_cols[j];
  auto dF = dwrench.leftCols(cols);
  dF.setZero();
  Vector6d wrench = F;
  for (int i = j;;) {
    const VirtualJoint& joint = model.joints[i];
    const Vector6d F_base = applyCoAd(data.g_local[i], wrench);
    leftMultiplyInPlace(coAd(data.g_local[i]), dF);
    if (joint.nq > 0) {
      const Matrix6Xd& S = data.S[i];
      dF.middleCols(joint.idx_q, joint.nq).noalias() += coadBar(F_base) * S;
      out.middleRows(joint.idx_q, joint.nq).leftCols(cols).noalias() += S.transpose() * dF;
      if (!joint.constant_subspace) {
        // d(S^T F)/dq_i = Z^T DTt(F) Z + d(Z^T)/dq (T^T F), as the inverse-dynamics derivatives
        const TangentExpansion& x = data.tangent[i];
        const Matrix6Xd& Z = data.Z[i];
        auto block = out.block(joint.idx_q, joint.idx_q, joint.nq, joint.nq);
        auto work = scratch.leftCols(joint.nq);
        work.noalias() = dexpTransposeJacobian(x, F_base) * Z;
        block.noalias() += Z.transpose() * work;
        if (joint.kind == VirtualJointKind::RodInterval && joint.magnus_order == 4) {
          const double c = zannaCommutatorFactor(joint.h);
          const Matrix6d B = coadBar(x.T.transpose() * F_base);
          work.noalias() = c * (B * joint.Phi_z2);
          block.noalias() += joint.Phi_z1.transpose() * work;
          work.noalias() = c * (B * joint.Phi_z1);
          block.noalias() -= joint.Phi_z2.transpose() * work;
        }
      }
    }
    if (joint.parent < 0) break;
    if (joint.has_placement) {
      wrench = applyCoAd(joint.g_fixed, F_base);
      leftMultiplyInPlace(coAd(joint.g_fixed), dF);
    } else {
      wrench = F_base;
    }
    i = joint.parent;
  }
}

void constraintDerivatives(const Model& model, const Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& lambda, ConstraintData& cd) {
  constraintError(model, data, cd);
  cd.dAtlambda_dq.setZero();
  const Vector6d base_acceleration = -model.gravity;  // as inverseDynamics carries gravity
  for (std::size_t k = 0; k < model.closed_chains.size(); ++k) {
    const CompiledClosedChain& chain = model.closed_chains[k];
    const auto Phi_T = chain.Phi_perp.transpose();
    const int row = chain.row, m = chain.m();
    const SE3& g_BA = cd.g_BA[k];
    const Matrix6d Ad_BA = Ad(g_BA);

    // frame Jacobians and derivative blocks of A and B from the derivative pass
    frameDerivatives(model, data, chain.joint_a, chain.g_a, cd.frame_a);
    frameDerivatives(model, data, chain.joint_b, chain.g_b, cd.frame_b);
    const Eigen::MatrixXd &J_a = cd.frame_a.J, &J_b = cd.frame_b.J;
    Eigen::MatrixXd &deta_a = cd.frame_a.deta_dq, &deta_b = cd.frame_b.deta_dq;
    const Vector6d eta_A = frameTwist(chain.joint_a, chain.g_a, data.eta, Vector6d::Zero());
    const Vector6d eta_B = frameTwist(chain.joint_b, chain.g_b, data.eta, Vector6d::Zero());
    const Vector6d etadot_A = frameTwist(chain.joint_a, chain.g_a, data.eta_dot, base_acceleration);
    const Vector6d etadot_B = frameTwist(chain.joint_b, chain.g_b, data.eta_dot, base_acceleration);
    const Vector6d Ad_eta_A = Ad_BA * eta_A, Ad_etadot_A = Ad_BA * etadot_A;
    const Matrix6d ad_Ad_eta_A = ad(Ad_eta_A), ad_eta_B = ad(eta_B);

    // A (47a), de/dq (D79) and the bias (corrected D72)
    cd.J_rel.noalias() = Ad_BA * J_a;
    cd.J_rel -= J_b;
    cd.A.middleRows(row, m).noalias() = Phi_T * cd.J_rel;
    const Matrix6d T_inv = dexp(log(g_BA)).inverse();
    cd.dwrench.noalias() = T_inv * cd.J_rel;
    cd.de_dq.middleRows(row, m).noalias() = Phi_T * cd.dwrench;
    const Vector6d relative = Ad_etadot_A - ad(eta_B, Ad_eta_A) - etadot_B;
    cd.bias.segment(row, m).noalias() = Phi_T * relative;

    // d(A v)/dq = Phi^T (-ad_{Ad eta_A} J_rel + Ad d eta_A - d eta_B); deta_a becomes
    // d(Ad eta_A)/dq
    leftMultiplyInPlace(Ad_BA, deta_a);
    deta_a.noalias() -= ad_Ad_eta_A * cd.J_rel;
    cd.dwrench = deta_a - deta_b;
    cd.dAv_dq.middleRows(row, m).noalias() = Phi_T * cd.dwrench;

    // d(A a + A-dot v)/dq = Phi^T (d(Ad etadot_A) - ad_{eta_B} d(Ad eta_A)
    //                       + ad_{Ad eta_A} d eta_B - d etadot_B)
    cd.dwrench.noalias() = Ad_BA * cd.frame_a.deta_dot_dq;
    cd.dwrench.noalias() -= ad(Ad_etadot_A) * cd.J_rel;
    cd.dwrench.noalias() -= ad_eta_B * deta_a;
    cd.dwrench.noalias() += ad_Ad_eta_A * deta_b;
    cd.dwrench -= cd.frame_b.deta_dot_dq;
    cd.dbias_dq.middleRows(row, m).noalias() = Phi_T * cd.dwrench;

    // d(A a + A-dot v)/dv = Phi^T (Ad d etadot_A/dv - ad_{eta_B} Ad J_A + ad_{Ad eta_A} J_B
    //                       - d etadot_B/dv)
    cd.dwrench.noalias() = Ad_BA * cd.frame_a.deta_dot_dv;
    cd.J_rel += J_b;  // Ad J_A
    cd.dwrench.noalias() -= ad_eta_B * cd.J_rel;
    cd.J_rel -= J_b;
    cd.dwrench.noalias() += ad_Ad_eta_A * J_b;
    cd.dwrench -= cd.frame_b.deta_dot_dv;
    cd.dbias_dv.middleRows(row, m).noalias() = Phi_T * cd.dwrench;

    // d(A^T lambda)/dq: the wrench w = Phi lambda_k on B and F_A = Ad^T w on A (D68, D69)
    const Vector6d w = chain.Phi_perp * lambda.segment(row, m);
    if (w.isZero(0.0)) continue;
    const Vector6d F_A = Ad_BA.transpose() * w;
    deta_b.noalias() = coadBar(w) * cd.J_rel;  // reused as scratch
    cd.dwrench.noalias() = Ad_BA.transpose() * deta_b;
    cd.dAtlambda_dq.noalias() -= J_a.transpose() * cd.dwrench;
    if (chain.joint_a >= 0) {
      addWrenchProjectionDerivative(model, data, chain.joint_a, applyCoAd(chain.g_a, F_A),
                                    cd.dAtlambda_dq, cd.dwrench, cd.scratch_6n);
    }
    if (chain.joint_b >= 0) {
      addWrenchProjectionDerivative(model, data, chain.joint_b, applyCoAd(chain.g_b, -w),
                                    cd.dAtlambda_dq, cd.dwrench, cd.scratch_6n);
    }
  }
}

std::optional<std::string> findRedundantConstraint(const Model& model, const ConstraintData& cd,
                                                   const std::vector<int>& free_columns) {
  const int m = model.n_constraints;
  if (m == 0) return std::nullopt;
  Eigen::MatrixXd rows(m, free_columns.empty() ? model.nv : free_columns.size());
  if (free_columns.empty()) {
    rows = cd.A;
  } else {
    for (std::size_t c = 0; c < free_columns.size(); ++c)
      rows.col(static_cast<Eigen::Index>(c)) = cd.A.col(free_columns[c]);
  }
  // grow the set of rows one at a time: the first that does not raise the rank is redundant
  for (int r = 1; r <= m; ++r) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(rows.topRows(r).transpose());
    qr.setThreshold(1e-9);
    if (qr.rank() == r) continue;
    for (const CompiledClosedChain& chain : model.closed_chains) {
      if (r - 1 < chain.row || r - 1 >= chain.row + chain.m()) continue;
      const Eigen::VectorXd direction = chain.Phi_perp.col(r - 1 - chain.row);
      std::ostringstream text;
      text << "closed-chain joint \"" << chain.name << "\": constrained direction "
           << r - 1 - chain.row << " ([" << direction.transpose().format(kRowFormat)
           << "], [w; v] in the joint frame) is redundant with the constraints before it (the "
              "constraint Jacobian A has no full row rank: remove the joint, or set \"planar\" "
              "for a loop that moves in a plane)";
      return text.str();
    }
  }
  return std::nullopt;
}

}  // namespace tendril
