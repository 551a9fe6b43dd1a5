#include "core/algorithm/constraints.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <sstream>

#include "core/algorithm/kinematics.hpp"

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

}  // namespace

ConstraintData::ConstraintData(const Model& model)
    : e(Eigen::VectorXd::Zero(model.n_constraints)),
      A(Eigen::MatrixXd::Zero(model.n_constraints, model.nv)),
      de_dq(Eigen::MatrixXd::Zero(model.n_constraints, model.nq)),
      bias(Eigen::VectorXd::Zero(model.n_constraints)),
      g_BA(model.closed_chains.size()),
      J_a(Eigen::MatrixXd::Zero(6, model.nv)),
      J_b(Eigen::MatrixXd::Zero(6, model.nv)) {}

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
