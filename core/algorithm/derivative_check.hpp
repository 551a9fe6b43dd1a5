#pragma once
// Checks the analytical derivatives against central finite differences, block by block: the
// figure of merit of docs/theory/gvs.md (O1, O2, O3, O5) and of the GUI's
// Jacobian-mismatch plot. A diagnostic: it allocates and costs about 4 n inverse dynamics and
// 4 n forward dynamics.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief One derivative block and how far the analytical one is from finite differences.
struct DerivativeBlockCheck {
  std::string name;  ///< "dID/dq", "dID/dv", "dID/da", "dBu/dq", "dFD/dq", "dFD/dv"
  /// ||J_analytic - J_fd||_F / ||J_fd||_F (0 when both are exactly zero, 1 when only J_fd is);
  /// for the dFD blocks in force space, ||M (J_analytic - J_fd)||_F / ||M J_fd||_F, because
  /// M^{-1} amplifies the round-off of J_fd by cond(M) (1e11 on slender rods); NaN when the
  /// block could not be computed (M not positive definite)
  double relative_mismatch = 0;
  double max_abs_error = 0;  ///< max |J_analytic - J_fd| entry (acceleration space for dFD)
  double norm = 0;           ///< ||J_fd||_F
  int rows = 0, cols = 0;
  bool force_space = false;  ///< relative_mismatch measured as M (J_analytic - J_fd)
};

struct DerivativeCheckOptions {
  double q_step = 1e-6;  ///< central-difference step in q (q is a plain vector, nq == nv)
  /// central-difference step in v and a; 0: automatic (automaticVelocityStep)
  double v_step = 0.0;
  bool forward_dynamics = true;  ///< also check dFD/dq, dFD/dv (needs M positive definite)
};

struct DerivativeCheck {
  std::vector<DerivativeBlockCheck> blocks;
  double worst() const;  ///< largest relative mismatch over the blocks (NaN if any is NaN)
};

/// \brief The step in v (and a) that suits the model. Without velocity-dependent loads ID, and
/// FD = M^-1 (tau - ID(q, v, 0)), are quadratic in v, so a central difference is exact at any
/// step and its only error is round-off, which falls as 1/h: the step is 1 (on the fin-ray
/// finger, cond(M) ~ 1e15, dFD/dv's reference is off by 6.9e-6 at h = 1e-2 and 6.8e-8 at h = 1).
/// Drag, contact damping and regularised friction are not polynomial in v, and 1e-4 balances
/// their truncation against round-off.
double automaticVelocityStep(const Model& model);

/// \brief Analytical derivatives at (q, v, a, t) against central finite differences, in the
/// order dID/dq, dID/dv, dID/da (the mass matrix), dBu/dq (models with cables only), then, with
/// options.forward_dynamics, dFD/dq and dFD/dv at FD(q, v, t) with the actuation B u(t) of the
/// model recomputed at every perturbed q.
/// Uses `data` as workspace; allocates (a diagnostic, not an inner loop).
/// \throw std::invalid_argument for a state of the wrong size or a non-positive step
DerivativeCheck checkDerivatives(const Model& model, Data& data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0,
                                 const DerivativeCheckOptions& options = {});

}  // namespace tendril
