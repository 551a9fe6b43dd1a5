#pragma once
// Analytical derivatives of the forward dynamics (docs/theory/gvs.md (7, 9)):
//   dFD/dq = M^{-1} (d(B u)/dq - K - dID/dq),  dFD/dv = M^{-1} (-D - dID/dv),
// with ID differentiated at a = FD(q, v), which is what makes them the derivatives of FD.
//
// Two routes apply M^-1 to the 2 nv columns (docs/theory/rigid.md §4):
//   DenseFactor      (DMM): form M, factor it (dense or tree-sparse Cholesky), solve the columns;
//   ArticulatedBody  (AZA): the articulated-body recursion's inertia sweep once, then per column
//                    only its bias and acceleration sweeps (articulatedBodySolveInPlace()).
// A third differentiates the articulated recursion itself instead of applying M^-1 to dID:
//   ArticulatedChainRule (Kim's Table 6): articulated_body_derivatives.hpp, rigid joints only.
// Automatic picks by model; the rule and the measurement behind it are at
// preferredForwardDerivativeRoute().

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

enum class ForwardDerivativeRoute { Automatic, DenseFactor, ArticulatedBody, ArticulatedChainRule };

/// \brief The route Automatic takes for \p model: the faster by measurement (see the .cpp).
[[nodiscard]] ForwardDerivativeRoute preferredForwardDerivativeRoute(const Model& model);

/// \brief data.qdd = FD(q, v, t) and data.dqdd_dq (nv x nq), data.dqdd_dv (nv x nv).
/// \param[in] tau_actuation B u(t) at q (actuationForces()), without -K q - D v
/// \param[in] route ArticulatedBody needs supportsArticulatedBody(model); it leaves data.M and
///            the factor of M unset. ArticulatedChainRule needs supportsArticulatedDerivatives()
///            and leaves data.M, its factor and dID (data.dtau_dq, dtau_dv) unset
/// If M is not positive definite every output is NaN. Allocation-free.
void forwardDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
                                ForwardDerivativeRoute route = ForwardDerivativeRoute::Automatic);

/// \brief The same derivatives before the solve with M, in force space: data.qdd = FD(q, v, t),
///        data.M, and the derivatives of the force balance r(q, v) = B u - K q - D v -
///        ID(q, v, qdd) at the fixed qdd = FD(q, v): dr_dq = M dFD/dq, dr_dv = M dFD/dv. An
///        integrator's Newton matrix formed from these stays accurate when M is ill-conditioned
///        (second_order_linear_solver.hpp). False, with the outputs unset, when the forward
///        dynamics is not finite (M not positive definite). Allocation-free.
/// \param[out] dr_dq, dr_dv nv x nv
bool forceBalanceDerivatives(const Model& model, Data& data,
                             const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& v,
                             const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
                             Eigen::Ref<Eigen::MatrixXd> dr_dq, Eigen::Ref<Eigen::MatrixXd> dr_dv);

}  // namespace tendril
