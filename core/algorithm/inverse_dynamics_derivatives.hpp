#pragma once
// Analytical derivatives of the inverse dynamics, dID/dq and dID/dv, by one forward and one
// backward recursion over the virtual joints (theory-gvs.md section 5).
//
// Forward (parents first), for joint j with base twist eta_b = Ad^{-1}_{g_fixed} eta_parent,
// eta+ = eta_b + S v_j, eta_dot+ = eta_dot_b + S a_j + S-dot v_j + ad_{eta_b} S v_j and
// E = exp(Omega_j):
//   d eta_j     = Ad_E^{-1} [ d eta_b + (d(S v)/dq_j + ad_{eta+} S) dq_j + S dv_j ]
//   d eta_dot_j = Ad_E^{-1} [ d eta_dot_b - ad_{S v_j} d eta_b
//                 + (d(S a + S-dot v)/dq_j + ad_{eta_b} d(S v)/dq_j + ad_{eta_dot+} S) dq_j
//                 + (S-dot + d(S v)/dq_j + ad_{eta_b} S) dv_j ]
// (d Ad_E^{-1} V = Ad_E^{-1} ad_V S dq_j, C32). Body wrench F = M eta_dot + ad*_eta M eta - F_ext:
//   dF = M d eta_dot + (ad*_eta M + adbar*_{M eta}) d eta - d_pose J - d_twist d eta.
// Backward (children first), with F the subtree wrench and F_b = Ad*_E F:
//   dF_b = Ad*_E dF + adbar*_{F_b} S dq_j (C31),  dID_j = S^T dF_b + d(S^T F_b)/dq_j (C29).
// The local terms d(S v)/dq (C19, C20), d(S-dot v)/dq (C24) and C29 come from
// core/math/dexp_derivatives.hpp. Gravity is the base acceleration -G, so it needs no term of its
// own (the digest's corrected D12 sign follows automatically).

#include <Eigen/Core>

#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief ID(q, v, a, t) and its derivatives: data.tau, data.dtau_dq (nv x nq), data.dtau_dv
/// (nv x nv); also the per-frame derivatives data.deta_dq, deta_dv (= body Jacobians),
/// deta_dot_dq, deta_dot_dv and dF_dq, dF_dv. dID/da is the mass matrix (massMatrix()).
/// Allocation-free.
void inverseDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

}  // namespace tendril
