#pragma once
// Forward dynamics by Cholesky factorisation of the mass matrix (theory-gvs.md (4)).

#include <Eigen/Core>

#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Solves M(q) qdd = tau_actuation - K q - D v - ID(q, v, 0).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in] tau_actuation generalised actuation forces B u (dim model.nv)
/// \param[in] t time [s] for time-varying point loads
/// \return qdd, stored in data.qdd (dim model.nv); data.M, data.M_factor and data.bias are filled
/// \throw std::runtime_error when M is not positive definite (a degenerate model)
const Eigen::VectorXd& forwardDynamics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t = 0.0);

}  // namespace tendril
