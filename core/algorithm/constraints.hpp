#pragma once
// Kinematics of the closed-chain joints (theory-gvs.md 3.5 and 7, with its errata): the error e,
// the constraint Jacobian A, the bias A qdd + A-dot qdot, and de/dq.
//
// Closed-chain joint k joins frame A (g_A = g_{jA} g_a) to frame B (g_B = g_{jB} g_b, or the
// constant g_b for the world), g_BA = g_B^-1 g_A:
//   e_k     = Phi_perp^T log(g_BA)^v                                               (47c)
//   A_k     = Phi_perp^T (Ad_{g_BA} J_A - J_B)                                     (47a)
//   A_k qdd + A-dot_k qdot = Phi_perp^T (Ad_{g_BA} etadot_A - ad_{eta_B} Ad_{g_BA} eta_A -
//   etadot_B)
//                                                                (7, erratum of D72: middle term)
//   de_k/dq = Phi_perp^T T^-1(eps) (Ad_{g_BA} J_A - J_B),  eps = log(g_BA)^v        (D77-D80)
// The rows of all joints are stacked in model order (CompiledClosedChain::row).

#include <Eigen/Core>
#include <optional>
#include <string>

#include "core/model/data.hpp"
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

/// \brief A qdd + A-dot qdot (theory-gvs.md 7, corrected D72) into cd.bias, from the twists and
///        accelerations in data (data.eta, data.eta_dot as left by inverseDynamics(q, v, qdd):
///        the gravity that it carries as a base acceleration cancels, and a world frame B gets
///        the same base acceleration). Also fills cd.e and cd.g_BA. With qdd = 0 this is
///        A-dot qdot. \pre inverseDynamics(model, data, q, v, qdd, t) ran.
void constraintBias(const Model& model, const Data& data, ConstraintData& cd);

/// \brief The first constrained direction that is a linear combination of the ones before it
///        (A does not have full row rank), restricted to the columns in `free_columns` (all when
///        empty), as a sentence naming the closed-chain joint; nothing when A has full row rank.
///        \pre cd.A is current.
std::optional<std::string> findRedundantConstraint(const Model& model, const ConstraintData& cd,
                                                   const std::vector<int>& free_columns = {});

}  // namespace tendril
