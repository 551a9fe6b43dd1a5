#pragma once
// Derivatives of the articulated-body forward dynamics and hybrid dynamics (articulated_body.hpp)
// by differentiating their recursion: Kim's chain-rule tables (docs/theory/rigid.md §6, (R16)-
// (R20); Kim's paper, Tables 6 and 7). One direction (dq, dv, dtau, dqdd_prescribed) costs three O(n) sweeps
// that reuse the recursion's own quantities; the Jacobians are nv such directions per input, so
// O(n^2) in all. The equations are at the top of the .cpp file.
//
// The third route for dFD beside the dense factor (DMM) and the articulated solve (AZA) of
// forward_dynamics_derivatives.hpp, and the second for the hybrid dynamics beside the partitioned
// chain rule of hybrid_dynamics_derivatives.hpp: the tests hold each pair to agree.

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/hybrid_dynamics_derivatives.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Whether the chain rule applies: supportsArticulatedBody(model) and every virtual joint
///        rigid (rod intervals are refused: their subspaces' derivatives are not written here).
[[nodiscard]] bool supportsArticulatedDerivatives(const Model& model);

/// \brief Table 6: data.qdd = FD(q, v, t) by the articulated recursion and data.dqdd_dq (nv x nq),
///        data.dqdd_dv (nv x nv) by its chain rule; dqdd_dtau = M^-1 (nv x nv) too unless it has no
///        columns. Every output is NaN when an articulated inertia is not positive definite.
///        Allocation-free.
/// \param[in] tau_actuation B u(t) at q (actuationForces()), without -K q - D v
/// \throw std::invalid_argument unless supportsArticulatedDerivatives(model)
void articulatedBodyForwardDynamicsDerivatives(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
    Eigen::Ref<Eigen::MatrixXd> dqdd_dtau);

/// \brief The same without M^-1: what ForwardDerivativeRoute::ArticulatedChainRule runs.
void articulatedBodyForwardDynamicsDerivatives(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t);

/// \brief Table 7: hybridDynamics() and the Jacobians of its outputs y = [qdd_free; efforts_k]
///        (the layout of HybridDynamicsDerivatives) by the chain rule through its recursion.
///        Every output is NaN when an articulated inertia is not positive definite.
///        Allocation-free.
/// \throw std::invalid_argument unless supportsArticulatedDerivatives(model)
void articulatedHybridDynamicsDerivatives(const Model& model, Data& data,
                                          const Eigen::Ref<const Eigen::VectorXd>& q,
                                          const Eigen::Ref<const Eigen::VectorXd>& v,
                                          const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                          const std::vector<char>& prescribed,
                                          const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed,
                                          double t, HybridDynamicsDerivatives& out);

/// \brief One directional derivative dy = J_q dq + J_v dv + J_w dw of the outputs of the last
///        articulatedBodyForwardDynamicsDerivatives() or articulatedHybridDynamicsDerivatives()
///        (y = qdd, or [qdd_free; efforts_k]), at its state. dw holds d tau_actuation on the free
///        coordinates and d qdd on the prescribed ones. O(n) besides the products with K, D and
///        d(B u)/dq. Allocation-free.
/// \param[out] dy nv
void articulatedBodyDirectionalDerivative(const Model& model, Data& data,
                                          const Eigen::Ref<const Eigen::VectorXd>& dq,
                                          const Eigen::Ref<const Eigen::VectorXd>& dv,
                                          const Eigen::Ref<const Eigen::VectorXd>& dw,
                                          Eigen::Ref<Eigen::VectorXd> dy);

}  // namespace tendril
