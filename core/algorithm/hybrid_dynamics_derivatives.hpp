#pragma once
// Analytical derivatives of the hybrid dynamics (articulated_body.hpp, hybridDynamics()) by the
// chain rule through its partitioned form. With u the free and k the prescribed coordinates, the
// hybrid dynamics maps (q, v, w) to y, where
//   w = [tau_u; qdd_k]  (the inputs: forces on the free coordinates, accelerations on the others),
//   y = [qdd_u; e_k]    (the outputs: free accelerations, efforts holding the prescribed ones),
// both in coordinate order (row i of y is qdd_i where i is free, e_i where it is prescribed), by
//   M_uu qdd_u = r_u,   e_k = -r_k + M_ku qdd_u,   r = tau - K q - D v - ID(q, v, [0; qdd_k]).
// With R(q, v, qdd) = tau - K q - D v - ID(q, v, qdd) at the whole qdd, both lines read
// R_u(q, v, qdd) = 0 and e_k = -R_k(q, v, qdd); dR/dqdd = -M. Differentiating at the solution,
// for x any of q, v, w, with X = dR/dx at fixed qdd:
//   dqdd_u/dx = M_uu^-1 X_u  (qdd_k does not move with q, v, tau; dqdd_k/dqdd_k = I enters X as
//                             -M_{:,k}),
//   de_k/dx   = M_ku dqdd_u/dx - X_k,
// which is exactly what the articulated solve after hybridDynamics() returns for the column X
// (articulatedBodySolveInPlace()): O(n) per column, no M_uu formed or factored. The columns:
//   dR/dq = d(B u)/dq - K - dID/dq,  dR/dv = -D - dID/dv  (dID at the hybrid qdd),
//   dR/dtau_i = e_i (i free),  dR/dqdd_k = -M e_k (k prescribed).

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief The Jacobians of the hybrid dynamics' outputs y = [qdd_u; e_k] (coordinate order).
struct HybridDynamicsDerivatives {
  HybridDynamicsDerivatives() = default;
  /// \brief Sizes everything for \p model (allocates).
  explicit HybridDynamicsDerivatives(const Model& model);
  Eigen::MatrixXd dy_dq;  ///< nv x nq
  Eigen::MatrixXd dy_dv;  ///< nv x nv
  Eigen::MatrixXd dy_dw;  ///< nv x nv: column i is d/dtau_i (i free) or d/dqdd_i (i prescribed)
  /// \brief Every entry NaN: the outputs when an articulated inertia is not positive definite.
  void setNaN();
};

/// \brief hybridDynamics() (data.qdd, data.articulated.efforts) and its derivatives into \p out.
///        Every output is NaN when an articulated inertia is not positive definite.
///        Allocation-free (it forms M into data.M for the prescribed columns of dy_dw).
/// \param[in] tau_actuation B u(t) at q (dim model.nv), without -K q - D v
/// \pre supportsArticulatedBody(model); arguments as for hybridDynamics()
void hybridDynamicsDerivatives(const Model& model, Data& data,
                               const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v,
                               const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                               const std::vector<char>& prescribed,
                               const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed, double t,
                               HybridDynamicsDerivatives& out);

}  // namespace tendril
