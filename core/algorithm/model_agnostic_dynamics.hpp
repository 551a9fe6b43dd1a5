#pragma once
// Model-agnostic recursive inverse dynamics (Pustina, Della Santina, De Luca, "Recursive
// Model-agnostic Inverse Dynamics of Serial Soft-Rigid Robots", arXiv 2402.07037;
// docs/theory/model-agnostic.md): IID, ID, and MIID / MID that also return the mass matrix
// from the same pass, over Tendril's bodies (model_agnostic_body.hpp). The recursion runs only
// BETWEEN bodies; each body is the black box of model_agnostic_body.hpp. Trees are handled
// (the paper treats serial chains; a branch only sums the children's wrenches at D).
//
// Notation (core/math/lie.hpp): twists [w; v], wrenches [m; f], Ad, ad, ad* = -ad^T. For body i:
// P its proximal frame, D its distal frame, g_fixed the pose of P in the parent's D (or world),
// elements k with pose G_k in P, body Jacobian J_k, J_k v_i and b_k = Jdot_k v_i; D likewise with
// G_D, J_D, b_D. Every twist, acceleration and wrench is expressed in its own frame.
//
// DERIVATION (the spatial form of the paper's point-quadrature form; docs/theory/model-agnostic.md
// §3).
//
// Velocity. The pose of element k in world is g_P G_k(q_i). Its body twist is
//   V_k = (G_k^-1 g_P^-1 d(g_P G_k))^v = Ad_{G_k^-1} V_P + J_k v_i.                        (V)
// Acceleration. d/dt Ad_{G_k^-1} Y = -ad_{J_k v_i} Ad_{G_k^-1} Y, and Ad_{G_k^-1} V_P = V_k - J_k
// v_i, so differentiating (V):
//   A_k = Ad_{G_k^-1} A_P - ad_{J_k v_i}(V_k - J_k v_i) + J_k a_i + Jdot_k v_i
//       = Ad_{G_k^-1} A_P + ad_{V_k}(J_k v_i) + J_k a_i + b_k.                              (A)
// The same two lines give D's twist and acceleration, and P of a child c is the parent's D moved
// by the constant g_fixed: V_Pc = Ad_{g_fixed^-1} V_D, A_Pc = Ad_{g_fixed^-1} A_D. Gravity enters
// as the base acceleration A_0 = -G (G = model.gravity, [0; a_g] in world), as in inverseDynamics.
// Inertial wrench of an element (Newton-Euler in its own frame; M_k constant there):
//   W_k = d/dt(M_k V_k) + ad*_{V_k} M_k V_k = M_k A_k + ad*_{V_k} M_k V_k.                 (W)
// For a point mass m at the element origin, M_k = m diag(0, 0, 0, 1, 1, 1) and W_k = [0; m (vdot
// + w x v)]: m times the point's absolute acceleration (the paper's -w_k A_k, up to the sign).
// Projection (Kane / virtual power). The generalised inertial force on q_i is the sum over every
// element e of the subtree of (dV_e/dv_i)^T W_e. For an element of body i, dV_k/dv_i = J_k; for an
// element e of a descendant, V_e = Ad_{Y_e^-1} V_D + (terms free of v_i), Y_e the pose of e in D,
// so dV_e/dv_i = Ad_{Y_e^-1} J_D and its term is J_D^T Ad_{Y_e^-1}^T W_e = J_D^T (Ad*_{Y_e} W_e):
// the descendants act on body i only through their resultant at D. Hence, backward over bodies,
//   F_D,i = sum_{children c} Ad*_{g_fixed,c} F_P,c                                          (B1)
//   F_P,i = sum_k Ad*_{G_k} W_k + Ad*_{G_D} F_D,i                                           (B2)
//   tau_i = sum_k J_k^T W_k + J_D^T F_D,i.                                                  (B3)
// (Ad*_g maps a wrench from a frame to the frame it is posed in: lie.hpp applyCoAd.)
//
// The paper's names. Its {S_i} is our D. Write J_k = Ad_{Y_k^-1} J_D + J_k^rel (Y_k the pose of
// k in D, J_k^rel the Jacobian of k relative to D). Then (B3) reads
//   tau_i = J_D^T (sum_k Ad*_{Y_k} W_k + F_D,i) + sum_k (J_k^rel)^T W_k,
// and with the paper's grad_{qdot_i} ^i v_i, grad_{qdot_i} ^i w_i = the transposed linear and
// angular rows of J_D (its eqs. 39-40):
//   -[T*_i + p_c x F*_i; F*_i] = sum_k Ad*_{Y_k} W_k         (the body's own inertial resultant
//                                at D; F*, T* its inertial force, and torque about the CoM)
//   -[T_i + T*_i; F_i + F*_i]  = sum_k Ad*_{Y_k} W_k + F_D,i (its (38) with no active forces)
//   -pi*_i                     = sum_k (J_k^rel)^T W_k       (its (35), the body-local term)
// so tau_i = -pi*_i - grad v^T (F_i + F*_i) - grad w^T (T_i + T*_i), its (43). We never split
// J_k: each element is projected with its whole Jacobian, which is the same sum, and no body needs
// its D except to carry its children.
//
// MASS MATRIX IN THE SAME PASS (docs/theory/model-agnostic.md §4). IID is affine in a with
// coefficient M, so M is the
// a-Jacobian of the recursion: J(A_k) = Ad_{G_k^-1} J(A_P) + E_i(J_k), J(W_k) = M_k J(A_k),
// J(F_P) = sum_k Ad*_{G_k} J(W_k) + Ad*_{G_D} J(F_D), M_i = sum_k J_k^T J(W_k) + J_D^T J(F_D),
// where J(.) is 6 x n and E_i places columns at q_i. Split the columns of J(.) by owner:
//  - ancestors j of i: every element of i's subtree follows A_P rigidly for them, so J(F_P) there
//    is I_P J(A_P), I_P = sum_k Ad*_{G_k} M_k Ad_{G_k^-1} + Ad*_{G_D} I_D Ad_{G_D^-1} the
//    composite inertia (I_D the children's composites at D), and rows i of M there are
//    U_i^T J(A_P) with
//      U_i = sum_k Ad*_{G_k} M_k J_k + Ad*_{G_D} I_D J_D   (6 x n_i: P's wrench per unit a_i);
//  - i itself: M_ii = sum_k J_k^T M_k J_k + J_D^T I_D J_D;
//  - descendants: M is symmetric, these are the transposes of the ancestor blocks of those bodies.
// The forward recursion would carry J(A_P) (6 x the ancestors' columns) down every body. We apply
// the transposed product instead: on the columns of an ancestor j, J(A_P,i) is J_D,j carried down
// by the constant-in-the-pass transforms Ad_{(g_fixed G_D)^-1} of the bodies between and
// Ad_{g_fixed,i^-1}, so
//   M_{i,j} = (... Ad*_{g_fixed G_D} ... Ad*_{g_fixed,i} U_i)^T J_D,j:
// U_i walks up the ancestors, one 6 x n_i transform and one n_i x n_j product per ancestor, i.e.
// O(N depth) 6-vector operations (per column of U_i), the entries of the dense M included, as in
// the composite-rigid-body algorithm. U_i, I_P and M_ii are sums over the same elements the
// backward pass visits for (B2)-(B3); nothing is evaluated twice. The cost of a body's own block
// is its elements times cols_k^2: a black box exposes no structure inside a body (a GVS rod of
// several divisions pays for every column of the earlier divisions at each later element).
//
// IMPLEMENTATION FRAME. The passes work in Q, the frame a body hangs from (the parent's D, or the
// world), with X_k = g_fixed G_k the element poses in Q: Ad_{G_k^-1} Ad_{g_fixed^-1} = Ad_{X_k^-1}
// and Ad*_{g_fixed} Ad*_{G_k} = Ad*_{X_k}, so (V)-(B3), I and U are the same sums with one
// transform per element instead of one per element plus the placement's, and F, I and U reach the
// parent's D as they are. P never appears.
//
// WORLD COORDINATES FOR THE MASS TERMS. Both factors of M_{i,j} = (Ad*_{W_Q} U_i)^T (Ad_{W_j}
// J_D,j) are taken to the world (W_Q, W_j the world poses of Q and of j's D) once per body, so that
// a pairing needs no transport up the chain. What moves with D (the element that is D, if any, and
// the children's composites) is summed in world coordinates too: its inertia I^w on D's world
// columns S = Ad_{W_D} J_D gives U's share I^w S and M_ii's S^T I^w S, and the composites add from
// child to parent with no transform (a rigid link costs one inertia transform, as in the
// world-frame composite-rigid-body algorithm). The other elements are summed in Q (one transform
// per element, none per column) and their U and I taken to the world once. A body's U is formed
// only when an ancestor has coordinates, its composite only when it has a parent. From 8 columns
// on, the lower triangle of J^T (M J) takes J's rows as contiguous columns, so that each column of
// the block adds six scaled columns in vector lanes.
//
// Not included anywhere here: point loads, contact and fluid loads (buoyancy, drag, added mass),
// and closed-chain constraint forces.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Inertial inverse dynamics IID(q, v, a) = M(q) a + c(q, v): no gravity, no internal or
///        external forces (the paper's Algorithm 1, problem 1).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in] a generalised accelerations (dim model.nv)
/// \return IID, stored in data.agnostic.tau (dim model.nv); the per-body state (element twists,
///         accelerations, wrenches, resultants) stays in data.agnostic
/// \throw std::invalid_argument on wrong sizes or when a link has no model-agnostic body kind
const Eigen::VectorXd& modelAgnosticIID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a);

/// \brief Inverse dynamics ID(q, v, a, t) = M a + c + g + K q + D v - B(q) u(t): the generalised
///        force that the equations of motion of Tendril (inverseDynamics() = B u - K q - D v)
///        leave unbalanced; zero along a motion. Gravity by the base acceleration -G, elasticity
///        and damping from model.K, model.D (addInternalForces()) and each body's own material
///        forces (BodyEvaluation::internal_forces: an LVP body's neo-Hookean and Kelvin-Voigt
///        forces), actuation (cables, joint inputs) from actuationForces() and the LVP tendons
///        and cavity pressures from addLvpActuationForces() at time t. Point loads, contact and
///        fluid loads are NOT included.
/// \param[in] t time [s] at which the actuation is evaluated
/// \return ID, stored in data.agnostic.tau (dim model.nv); B u in data.agnostic.Bu
const Eigen::VectorXd& modelAgnosticID(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

/// \brief modelAgnosticIID() and the mass matrix M(q) from the same pass (paper's Algorithm 3).
/// \return IID, stored in data.agnostic.tau (dim model.nv); M in data.agnostic.M (nv x nv,
///         symmetric; entries between coordinates on different branches stay zero)
const Eigen::VectorXd& modelAgnosticMIID(const Model& model, Data& data,
                                         const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& v,
                                         const Eigen::Ref<const Eigen::VectorXd>& a);

/// \brief modelAgnosticID() and the mass matrix M(q) from the same pass.
/// \return ID, stored in data.agnostic.tau (dim model.nv); M in data.agnostic.M (nv x nv); B u
///         in data.agnostic.Bu
const Eigen::VectorXd& modelAgnosticMID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

}  // namespace tendril
