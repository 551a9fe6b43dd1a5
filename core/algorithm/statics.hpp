#pragma once
// Static equilibrium: tau(q, 0, u) + F(q, 0) = 0, i.e. B u - K q - ID(q, 0, 0) = 0
// (docs/theory/gvs.md (5, 13a, 13b)), by damped Newton with load stepping.

#include <Eigen/Core>
#include <atomic>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/dynamics_family.hpp"
#include "core/model/model.hpp"

namespace tendril {

struct StaticsOptions {
  double residual_tolerance =
      1e-12;                      ///< stop when |R| <= this * |load|, load = |B u - ID(q0, 0, 0)|
  double step_tolerance = 1e-13;  ///< or when the Newton step is below this * (1 + |q|)
  int max_iterations = 50;        ///< per load step
  double min_load_step = 1.0 / 1024;  ///< give up when load stepping needs smaller increments
  bool analytic_jacobian = true;      ///< (13b) from the analytical derivatives; false: differences
  double fd_step = 1e-7;              ///< central-difference step of the Jacobian [units of q]
  std::vector<int>
      prescribed;     ///< coordinates held at their value in q0 (joint-coordinate control)
  double time = 0.0;  ///< time at which inputs and loads are evaluated [s]
  /// when set and true (another thread's Cancel), the solve stops before its next Newton
  /// iteration and returns the last iterate, not converged, with a message saying so
  const std::atomic<bool>* cancel = nullptr;
  /// which inverse dynamics the residual uses (dynamics_family.hpp); the model-agnostic family's
  /// Jacobian is always central differences (fd_step), whatever analytic_jacobian says
  DynamicsFamily family = DynamicsFamily::Auto;

  [[nodiscard]] bool cancelled() const { return cancel != nullptr && cancel->load(); }
};

struct StaticsResult {
  bool converged = false;
  Eigen::VectorXd q;              ///< equilibrium (or the last iterate)
  Eigen::VectorXd reactions;      ///< generalised forces holding the prescribed coordinates
                                  ///< (options.prescribed, then the model's position inputs)
  Eigen::VectorXd lambda;         ///< closed-chain constraint forces (model.n_constraints)
  double constraint_error = 0.0;  ///< |e(q)| at the solution (closed chains)
  double residual_norm = 0.0;
  int iterations = 0;  ///< Newton iterations over all load steps
  int load_steps = 0;
  std::vector<double> residual_history;  ///< |R| after every iteration
  std::string message;
  DynamicsFamily family = DynamicsFamily::Engine;               ///< the family that ran
  DerivativeSource derivatives = DerivativeSource::Analytical;  ///< of the Newton Jacobian
};

/// \brief The static residual R(q) = lambda (B(q) u(t) + tau_extra - ID(q, 0, 0, t)) - K q: every
///        load (gravity, point loads, cables, joint inputs) scaled by the load factor lambda.
///        On the model-agnostic family (\p family, resolved) R = lambda (tau_extra - ID_a + K q)
///        - K q with ID_a = modelAgnosticID(q, 0, 0, t): the same R for the loads it supports.
/// \param[in] tau_extra additional generalised forces (dim model.nv), e.g. prescribed-joint
/// reactions \param[out] R residual (dim model.nv)
void staticResidual(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    double t, const Eigen::Ref<const Eigen::VectorXd>& tau_extra,
                    double load_factor, Eigen::Ref<Eigen::VectorXd> R,
                    DynamicsFamily family = DynamicsFamily::Engine);

/// \brief Statics with closed chains and the model's prescribed coordinates
///        (docs/theory/gvs.md (52a) with qdot = qdd = 0, §11): unknowns (q_free, lambda),
///        R = [ (lambda_load (B u - ID(q, 0, 0)) - K q + A^T lambda)_free ; e(q) ].
///        Position inputs hold their coordinate at f(options.time). Called by solveStatics() for
///        such models; converged when |R_free| meets the residual tolerance and |e| <= 1e-10.
StaticsResult solveConstrainedStatics(const Model& model, Data& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q0,
                                      const StaticsOptions& options);

/// \brief The message of a solve cancelled through StaticsOptions::cancel.
std::string cancelledMessage(double load_fraction);

/// \brief Solves for the static equilibrium nearest q0 under the model's loads and inputs.
/// \param[in] q0 initial guess; prescribed coordinates keep their value (dim model.nq)
StaticsResult solveStatics(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q0,
                           const StaticsOptions& options = {});

}  // namespace tendril
