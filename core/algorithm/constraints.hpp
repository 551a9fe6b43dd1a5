#pragma once
// Kinematics of the closed-chain joints (docs/theory/gvs.md §12, corrected forms): the error e,
// the constraint Jacobian A, the bias A qdd + A-dot qdot, and de/dq.
//
// Closed-chain joint k joins frame A (g_A = g_{jA} g_a) to frame B (g_B = g_{jB} g_b, or the
// constant g_b for the world), g_BA = g_B^-1 g_A:
//   e_k     = Phi_perp^T log(g_BA)^v                                               (47c)
//   A_k     = Phi_perp^T (Ad_{g_BA} J_A - J_B)                                     (47a)
//   A_k qdd + A-dot_k qdot = Phi_perp^T (Ad_{g_BA} etadot_A - ad_{eta_B} Ad_{g_BA} eta_A -
//   etadot_B)
//                                                                (corrected D72: middle term)
//   de_k/dq = Phi_perp^T T^-1(eps) (Ad_{g_BA} J_A - J_B),  eps = log(g_BA)^v        (D77-D80)
// The rows of all joints are stacked in model order (CompiledClosedChain::row).
//
// Derivatives for the Jacobians (50), (51), from the per-frame derivatives of the inverse-dynamics
// derivative pass (d eta/dq, d eta_dot/dq, d eta_dot/dv, J = d eta/dv). With J_rel = Ad_{g_BA} J_A
// - J_B, d(Ad_{g_BA} V)/dq = -ad_{Ad_{g_BA} V} J_rel + Ad_{g_BA} dV/dq (D75, D76):
//   d(A v)/dq            = Phi_perp^T (-ad_{Ad eta_A} J_rel + Ad d eta_A/dq - d eta_B/dq)
//   d(A a + A-dot v)/dq  = Phi_perp^T (d(Ad etadot_A)/dq - d(ad_{eta_B} Ad eta_A)/dq
//                          - d etadot_B/dq)                              (corrected D72)
//   d(A a + A-dot v)/dv  = Phi_perp^T (Ad d etadot_A/dv + ad_{Ad eta_A} J_B
//                          - ad_{eta_B} Ad J_A - d etadot_B/dv)                    (D81-D83)
//   d(A^T lambda)/dq     = d(J_A^T)/dq F_A + J_A^T dF_A/dq + d(J_B^T)/dq (-w),
//                          w = Phi_perp lambda_k, F_A = Ad_{g_BA}^T w,
//                          dF_A/dq = -Ad_{g_BA}^T adbar*_w J_rel                    (D68, D69)
// where d(J^T)/dq F (F fixed in the frame) is the backward recursion of the inverse-dynamics
// derivatives (C29, C31) run for that one wrench along the frame's path to the root.

#include <Eigen/Core>
#include <optional>
#include <string>

#include "core/algorithm/data.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Workspace and results of the constraint kinematics, sized once for a model.
struct ConstraintData {
  explicit ConstraintData(const Model& model);

  Eigen::VectorXd e;         ///< constraint error (m = model.n_constraints)
  Eigen::MatrixXd A;         ///< constraint Jacobian (m x nv)
  Eigen::MatrixXd de_dq;     ///< derivative of e (m x nq); equals A where e = 0
  Eigen::VectorXd bias;      ///< A qdd + A-dot qdot at the accelerations of data.eta_dot (m)
  std::vector<SE3> g_BA;     ///< frame A in frame B, per closed-chain joint
  Eigen::MatrixXd J_a, J_b;  ///< 6 x nv scratch: Jacobians of frames A and B

  // computed by constraintDerivatives()
  Eigen::MatrixXd dAv_dq;             ///< d(A v)/dq with v fixed (m x nq)
  Eigen::MatrixXd dbias_dq;           ///< d(A a + A-dot v)/dq with a, v fixed (m x nq)
  Eigen::MatrixXd dbias_dv;           ///< d(A a + A-dot v)/dv with a fixed (m x nv)
  Eigen::MatrixXd dAtlambda_dq;       ///< d(A^T lambda)/dq with lambda fixed (nv x nq)
  FrameDerivatives frame_a, frame_b;  ///< derivatives of the twists and accelerations of A and B
  // 6 x nv scratch: J_rel, the wrench derivative of the backward recursion; 6 x max nq_j
  Eigen::MatrixXd J_rel, dwrench;
  Matrix6Xd scratch_6n;
};

/// \brief Poses of frames A and B of closed-chain joint k in world. \pre data.g is current.
SE3 closedChainFrameA(const CompiledClosedChain& chain, const Data& data);
SE3 closedChainFrameB(const CompiledClosedChain& chain, const Data& data);

/// \brief e(q) (47c) into cd.e, and cd.g_BA. \pre forwardKinematics(model, data, q) ran.
void constraintError(const Model& model, const Data& data, ConstraintData& cd);

/// \brief A(q) (47a) into cd.A, e into cd.e. \pre forwardKinematics(model, data, q) ran.
void constraintJacobian(const Model& model, const Data& data, ConstraintData& cd);

/// \brief de/dq = Phi_perp^T T^-1(eps) (Ad J_A - J_B) (D79, D80 with Phi_perp^T) into cd.de_dq;
///        also fills cd.e. \pre forwardKinematics(model, data, q) ran.
void constraintErrorJacobian(const Model& model, const Data& data, ConstraintData& cd);

/// \brief A qdd + A-dot qdot (docs/theory/gvs.md (D72)) into cd.bias, from the twists and
///        accelerations in data (data.eta, data.eta_dot as left by inverseDynamics(q, v, qdd):
///        the gravity that it carries as a base acceleration cancels, and a world frame B gets
///        the same base acceleration). Also fills cd.e and cd.g_BA. With qdd = 0 this is
///        A-dot qdot. \pre inverseDynamics(model, data, q, v, qdd, t) ran.
void constraintBias(const Model& model, const Data& data, ConstraintData& cd);

/// \brief e, A, de/dq, the bias A a + A-dot v (as constraintBias()) and their derivatives
///        cd.dAv_dq, cd.dbias_dq, cd.dbias_dv, cd.dAtlambda_dq (docs/theory/gvs.md §12).
///        Allocation-free.
/// \param[in] lambda constraint forces (m), held fixed in d(A^T lambda)/dq
/// \pre inverseDynamicsDerivatives(model, data, q, v, a, t) ran (a enters the bias and its
///      derivatives only)
void constraintDerivatives(const Model& model, const Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& lambda, ConstraintData& cd);

/// \brief Adds d(J_j^T F)/dq with F held fixed in child frame j (the generalised force of a
///        follower wrench, differentiated) to out (nv x nq), by the backward recursion (C29, C31)
///        along j's path to the root. \pre inverseDynamicsDerivatives() ran at q.
/// \param[in,out] dwrench 6 x nv scratch
/// \param[in,out] scratch 6 x max nq_j scratch
void addWrenchProjectionDerivative(const Model& model, const Data& data, int j, const Vector6d& F,
                                   Eigen::Ref<Eigen::MatrixXd> out,
                                   Eigen::Ref<Eigen::MatrixXd> dwrench, Matrix6Xd& scratch);

/// \brief The first constrained direction that is a linear combination of the ones before it
///        (A does not have full row rank), restricted to the columns in `free_columns` (all when
///        empty), as a sentence naming the closed-chain joint; nothing when A has full row rank.
///        \pre cd.A is current.
std::optional<std::string> findRedundantConstraint(const Model& model, const ConstraintData& cd,
                                                   const std::vector<int>& free_columns = {});

}  // namespace tendril
