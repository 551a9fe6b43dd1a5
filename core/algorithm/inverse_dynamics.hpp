#pragma once
// Recursive Newton-Euler inverse dynamics of the hybrid linkage (theory-gvs.md section 4).

#include <Eigen/Core>

#include "core/model/data.hpp"
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

/// \brief Internal generalised forces tau = -K q - D v (actuation is added by the caller).
Eigen::VectorXd internalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief out += scale (-K q - D v) without allocating, over the diagonal blocks of K and D
///        (model.elastic_blocks) only: a dense product would cost nq^2 per call.
void addInternalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out,
                       double scale = 1.0);

}  // namespace tendril
