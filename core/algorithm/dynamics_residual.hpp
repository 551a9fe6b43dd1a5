#pragma once
// The equations of motion as a residual (docs/theory/gvs.md (11), sign flipped): zero on every
// trajectory, one inverse-dynamics pass per evaluation (no mass matrix, no factorisation). The
// implicit integrator on the residual form (IDA, core/sim/ida.cpp) solves r(q, v, qdd) = 0 for
// qdd together with the state.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief r = ID(q, v, a, t) - (B u(t) - K q - D v), the applied forces being those of
///        forwardDynamics() (actuationForces(), stiffness, damping).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in] a generalised accelerations (dim model.nv)
/// \param[in] t time [s] of the inputs and loads
/// \param[out] r residual (dim model.nv), overwritten; also data.tau = ID(q, v, a, t), from
///             inverseDynamicsWithoutSubspaces(): data's subspaces (Z, T, S) are not formed
void dynamicsResidual(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& a, double t,
                      Eigen::Ref<Eigen::VectorXd> r);

/// \brief The derivatives of dynamicsResidual(): dr/dq = dID/dq - d(B u)/dq + K and
///        dr/dv = dID/dv + D, from inverseDynamicsDerivatives() and actuationJacobian(); dr/da is
///        the mass matrix, left in data.M (massMatrix()). Allocation-free.
/// \param[out] dr_dq nv x nq
/// \param[out] dr_dv nv x nv
void dynamicsResidualDerivatives(const Model& model, Data& data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& a, double t,
                                 Eigen::Ref<Eigen::MatrixXd> dr_dq,
                                 Eigen::Ref<Eigen::MatrixXd> dr_dv);

}  // namespace tendril
