#pragma once
// Static equilibrium: tau(q, 0, u) + F(q, 0) = 0, i.e. B u - K q - ID(q, 0, 0) = 0
// (theory-gvs.md (5), (13)), by damped Newton with load stepping.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

struct StaticsOptions {
  double residual_tolerance = 1e-9;  ///< stop when |R| <= this * max(1, |load|), load = |ID(q0, 0, 0)| + |B u|
  double step_tolerance = 1e-13;     ///< or when the Newton step is below this * (1 + |q|)
  int max_iterations = 50;           ///< per load step
  double min_load_step = 1.0 / 1024; ///< give up when load stepping needs smaller increments
  double fd_step = 1e-7;             ///< central-difference step of the Jacobian [units of q]
  std::vector<int> prescribed;       ///< coordinates held at their value in q0 (joint-coordinate control)
};

struct StaticsResult {
  bool converged = false;
  Eigen::VectorXd q;                    ///< equilibrium (or the last iterate)
  Eigen::VectorXd reactions;            ///< generalised forces holding the prescribed coordinates
  double residual_norm = 0.0;
  int iterations = 0;                   ///< Newton iterations over all load steps
  int load_steps = 0;
  std::vector<double> residual_history; ///< |R| after every iteration
  std::string message;
};

/// \brief The static residual R(q) = B u - K q - ID(q, 0, 0) with gravity scaled by load_factor.
/// \param[out] R residual (dim model.nv)
void staticResidual(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double load_factor,
                    Eigen::Ref<Eigen::VectorXd> R);

/// \brief Solves for the static equilibrium nearest q0.
/// \param[in] q0 initial guess; prescribed coordinates keep their value (dim model.nq)
/// \param[in] tau_actuation generalised actuation B u (dim model.nv)
StaticsResult solveStatics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q0,
                           const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, const StaticsOptions& options = {});

}  // namespace tendril
