#pragma once
// Mutable workspace of one Model, laid out by stage. Everything is allocated in the constructor;
// the algorithms never allocate afterwards. One Data per thread.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "core/algorithm/articulated_body_derivatives_workspace.hpp"
#include "core/algorithm/articulated_body_workspace.hpp"
#include "core/algorithm/model_agnostic_workspace.hpp"
#include "core/algorithm/rigid_tree_workspace.hpp"
#include "core/math/cholesky_columns.hpp"
#include "core/math/dexp_derivatives.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief How the external wrench F on child frame `joint` (in that frame) varies with the frame's
/// pose and twist: dF = d_pose (g^{-1} dg)^v + d_twist d(eta). Filled by
/// externalWrenchSensitivities() (core/algorithm/external_loads.hpp).
struct WrenchSensitivity {
  int joint = -1;
  Matrix6d d_pose = Matrix6d::Zero();
  Matrix6d d_twist = Matrix6d::Zero();
};

struct Data {
  explicit Data(const Model& model);

  //-------------------- position stage
  // computed by forwardKinematics(model, data, q)
  std::vector<Vector6d> Omega;  ///< joint twist Omega_j                          (n_vjoints)
  /// the angles of the rotating single screws, their sines and cosines (screwAngles())
  ///                                               (Model::screw_angle_coordinates)
  Eigen::VectorXd screw_angle, screw_sin, screw_cos;
  std::vector<SE3> g_local;  ///< exp(Omega_j): child frame in the joint base   (n_vjoints)
  std::vector<SE3>
      g_pc;  ///< child frame j in its parent's child frame: g_fixed exp(Omega_j) (n_vjoints)
  std::vector<SE3> g;  ///< child frame j in world                       (n_vjoints)
  std::vector<Matrix6Xd>
      Z;                    ///< dOmega_j/dq_j                                 (n_vjoints; 6 x nq_j)
  std::vector<Matrix6d> T;  ///< T(Omega_j); not computed for constant-subspace joints (n_vjoints)
  std::vector<Matrix6Xd>
      S;  ///< motion subspace T Z, in the joint base frame  (n_vjoints; 6 x nq_j)
  std::vector<Vector6d> xi_z1, xi_z2;  ///< strains at the collocation points (rod intervals)

  //-------------------- velocity stage
  // computed by forwardKinematics(model, data, q, v)
  std::vector<Vector6d> eta;      ///< twist of child frame j, expressed in it        (n_vjoints)
  std::vector<Vector6d> S_dot_v;  ///< S-dot_j v_j, in the joint base frame           (n_vjoints)

  //-------------------- dynamics stage
  // computed by inverseDynamics(model, data, q, v, a)
  std::vector<Vector6d>
      eta_dot;  ///< acceleration of child frame j, gravity included as base acceleration -G
  std::vector<Vector6d>
      F;                ///< wrench transmitted to child frame j by its joint (subtree), in frame j
  Eigen::VectorXd tau;  ///< ID(q, v, a) (nv)

  //-------------------- mass matrix
  // computed by massMatrix(model, data, q), in world coordinates (mass_matrix.cpp)
  std::vector<SpatialInertia> I_composite;  ///< composite inertia of the subtree of j, in world
  std::vector<Matrix6d>
      A_composite;  ///< composite added mass of j's subtree (model.has_added_mass)
  /// the composite of j minus that of the next joint of its group: j's own body and the subtrees
  /// of its other children, accumulated as such (no difference of two large composites)
  std::vector<SpatialInertia> I_own;
  std::vector<Matrix6d> A_own;
  std::vector<Matrix6Xd> M_subspace_sum;  ///< S_world summed along j's group down to j
  std::vector<Matrix6Xd> M_carry;         ///< sum of I^own S^P from j down its group (6 x nq_j)
  Eigen::MatrixXd M;                      ///< generalised mass matrix (nv x nv), symmetric

  //-------------------- forward dynamics
  // computed by forwardDynamics(model, data, q, v, tau_applied)
  Eigen::VectorXd qdd;   ///< generalised acceleration (nv)
  Eigen::VectorXd bias;  ///< ID(q, v, 0) (nv)
  /// the dense Cholesky factor of M (factorMassMatrix()) and its solves, one column or many (up
  /// to 2 max(nq, nv): dFD's dq and dv columns together, solveMassMatrixPair())
  CholeskyColumnSolver M_columns;

  //-------------------- derivatives of the inverse dynamics
  // computed by inverseDynamicsDerivatives(model, data, q, v, a) (docs/theory/gvs.md §9), in
  // world coordinates (see inverse_dynamics_derivatives.cpp for the formulas)
  Eigen::MatrixXd dtau_dq;                            ///< d ID / dq (nv x nq)
  Eigen::MatrixXd dtau_dv;                            ///< d ID / dv (nv x nv)
  std::vector<WrenchSensitivity> load_sensitivities;  ///< state-dependent external wrenches
  std::vector<Vector6d> V_world, A_world;  ///< twist and acceleration (gravity: base acceleration)
  std::vector<Vector6d> f_world;           ///< subtree wrench data.F, in world
  /// subtree composites in world: inertia (added mass included), B2 = 2B - D (Coriolis matrix
  /// minus the twist sensitivity of the loads) and K (pose sensitivity of the loads)
  std::vector<Matrix6d> I_sub, B_sub, K_sub;
  /// the same minus the composite of the next joint of j's group: j's own frame and its side
  /// branches, accumulated as such (a difference of two composites would cancel digits)
  std::vector<Matrix6d> I_sub_own, B_sub_own, K_sub_own;
  /// 6 x 4 nq_j, [Psi_dot | S | Psi_ddot | Psi_ddot_v] in world, summed over the joints of j's
  /// coordinate group (a division's intervals) from its first joint down to j
  std::vector<Matrix6Xd> columns;
  std::vector<Matrix6Xd> S_world;  ///< S_j in world (6 x nq_j), written by massMatrix too
  /// rod intervals: S_world = sum_a core_a Phi_a, the cores [core_1 | core_2] (2nd-order Magnus:
  /// core_1)
  std::vector<Eigen::Matrix<double, 6, 12>> rod_S_cores;
  std::vector<SE3> g_base;               ///< base frame of joint j (where S_j lives) in world
  std::vector<Matrix6Xd> subtree_terms;  ///< [Y_q | Y_v] carried up a group (6 x 2 nq_j)
  std::vector<Matrix6Xd> row_terms;      ///< [T4 | T1 | T5] summed over a group, at its first joint
  Matrix6Xd local_columns;               ///< 6 x 4 max nq_j scratch
  /// at the first interval of a rod division (sparse route): the division's diagonal blocks of
  /// dtau_dq and dtau_dv summed over its intervals, transposed (2 nq x nq); empty elsewhere
  std::vector<Eigen::MatrixXd> rod_rows;
  Eigen::MatrixXd rod_rows_scratch;       ///< 2 max nq_j x 12: one interval's rows, transposed
  std::vector<TangentExpansion> tangent;  ///< T(Omega_j) expanded (joints with varying S)
  std::vector<Matrix6Xd> S_dot;           ///< time derivative of S_j (6 x nq_j)
  Matrix6Xd dSv_dq;                       ///< d(S v_j)/dq_j of the current joint (6 x max nq_j)
  Matrix6Xd dacc_dq;                      ///< d(S a_j + S-dot v_j)/dq_j of the current joint
  Matrix6Xd Z_rate_v;          ///< d(Z v_j)/dq_j = Z-dot of the current joint (4th-order Magnus)
  Matrix6Xd Z_rate_a;          ///< d(Z a_j)/dq_j
  Eigen::MatrixXd scratch_3n;  ///< 6 x max nq_j: two 3 x nq_j blocks

  //-------------------- derivatives of the forward dynamics
  // computed by forwardDynamicsDerivatives(model, data, q, v, t)
  Eigen::MatrixXd dqdd_dq;          ///< d FD / dq (nv x nq)
  Eigen::MatrixXd dqdd_dv;          ///< d FD / dv (nv x nv)
  Eigen::MatrixXd dtau_applied_dq;  ///< d(B u - K q)/dq (nv x nq)

  //-------------------- model-agnostic inverse dynamics
  // computed by modelAgnosticIID/ID/MIID/MID(model, data, ...) (model_agnostic_dynamics.hpp):
  // the body plan, what the bodies report, the between-body recursion, tau and M
  ModelAgnosticWorkspace agnostic;

  //-------------------- articulated-body forward and hybrid dynamics
  // computed by articulatedBodyForwardDynamics() and hybridDynamics() (articulated_body.hpp);
  // empty for models the recursion does not apply to
  ArticulatedBodyWorkspace articulated;

  //-------------------- Kim's chain rule on the articulated-body recursion
  // computed by articulatedBodyForwardDynamicsDerivatives() and
  // articulatedHybridDynamicsDerivatives() (articulated_body_derivatives.hpp); empty for models
  // it does not apply to
  ArticulatedDerivativeWorkspace articulated_derivatives;

  //-------------------- rigid-tree routes of the mass matrix and the ID derivatives
  // written by massMatrix() and inverseDynamicsDerivatives() (rigid_tree_workspace.hpp); empty for
  // models whose rod divisions share coordinates among intervals
  RigidTreeWorkspace rigid;

  //-------------------- scratch (sized once)
  Matrix6Xd scratch_6n;  ///< 6 x max nq_j

  //-------------------- tree-sparse factor of M (forward_dynamics.cpp)
  // branched models: M = L^T L with L as sparse as M (no fill-in below the coordinate tree)
  int mass_factor_kind = 0;            ///< 0 not chosen yet, 1 dense M_factor, 2 the tree factor
  std::vector<int> coordinate_parent;  ///< nearest ancestor coordinate of each (-1: none)
  /// row k of L packed: its strict ancestors, root first, at tree_row_start[k] ..
  /// tree_row_start[k + 1] - 2 of tree_ancestors and tree_factor; the diagonal L(k, k) last
  std::vector<int> tree_row_start;
  std::vector<int> tree_ancestors;  ///< column of each packed entry (k itself for the diagonal)
  Eigen::VectorXd tree_factor;      ///< the packed entries of L
  /// right-hand sides of a many-column tree solve, row-major so that row operations are contiguous
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> tree_rhs;
};

}  // namespace tendril
