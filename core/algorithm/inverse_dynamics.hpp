#pragma once
// Recursive Newton-Euler inverse dynamics of the hybrid linkage (docs/theory/gvs.md §8).

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief ID(q, v, a) = M(q) a - F(q, v): inertial, Coriolis/centrifugal, gravity and external
///        point-load forces projected on the generalised coordinates. Internal elastic and damping
///        forces and actuation are not included: the equations of motion read
///        ID(q, v, a) = tau(q, v, u) = B u - K q - D v.
///
/// Forward pass: kinematics, twists, accelerations with gravity as the base acceleration -G.
/// Backward pass: wrenches F_j = M_j eta_dot_j + ad*_{eta_j} M_j eta_j, accumulated into parents,
/// projected on S_j^T (14)-(16).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in] a generalised accelerations (dim model.nv)
/// \param[in] t time [s] at which time-varying point loads are evaluated
/// \return ID, stored in data.tau (dim model.nv)
const Eigen::VectorXd& inverseDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

/// \brief inverseDynamics() on the position stage already in data (Omega, g_local, g_pc, g, Z, T,
///        S): what follows forwardKinematics(model, data, q), for callers that have just formed
///        it at the same q (the derivatives after a forward dynamics). Same arithmetic.
/// \pre forwardKinematics() (or an inverseDynamics()) at the q of interest was the last to write
///      the position stage of data
const Eigen::VectorXd& inverseDynamicsAtKinematics(const Model& model, Data& data,
                                                   const Eigen::Ref<const Eigen::VectorXd>& v,
                                                   const Eigen::Ref<const Eigen::VectorXd>& a,
                                                   double t = 0.0);

/// \brief inverseDynamics() from vector operations only: the tangent operator and the subspaces
///        are applied to vectors (T Omega', T'(Omega, Omega') Omega', T^T F, Z^T y through the
///        basis), never formed. Equal to inverseDynamics() to rounding, and cheaper on rods, where
///        forming T, Z and S = T Z costs more than the whole recursion. Leaves the poses (Omega,
///        g_local, g_pc, g), twists, accelerations and wrenches in data; Z, T, S and S_dot_v are
///        left as they were (stale), so what needs them (massMatrixFromKinematics(), the
///        derivatives) calls inverseDynamics() or the kinematics instead.
/// \return ID, stored in data.tau (dim model.nv)
const Eigen::VectorXd& inverseDynamicsWithoutSubspaces(const Model& model, Data& data,
                                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                                       const Eigen::Ref<const Eigen::VectorXd>& a,
                                                       double t = 0.0);

/// \brief Internal generalised forces tau = -K q - D v (actuation is added by the caller).
Eigen::VectorXd internalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief out += scale (-K q - D v) without allocating, over the diagonal blocks of K and D
///        (model.elastic_blocks) only: a dense product would cost nq^2 per call.
void addInternalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out,
                       double scale = 1.0);

}  // namespace tendril
