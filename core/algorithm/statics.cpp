#include "core/algorithm/statics.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/math/central_difference.hpp"

namespace tendril {
namespace {

// the free coordinates: all but the prescribed ones
std::vector<int> freeCoordinates(int n, const std::vector<int>& prescribed) {
  std::vector<bool> fixed(n, false);
  for (int k : prescribed) fixed.at(k) = true;
  std::vector<int> free;
  for (int k = 0; k < n; ++k) {
    if (!fixed[k]) free.push_back(k);
  }
  return free;
}

// reciprocal condition number below which the Newton matrix is treated as singular
constexpr double kSingular = 1e-15;

class NewtonSolver {
 public:
  NewtonSolver(const Model& model, Data& data, const StaticsOptions& options, DynamicsFamily family)
      : model_(model),
        data_(data),
        family_(family),
        zero_(Eigen::VectorXd::Zero(model.nv)),
        options_(options),
        free_(freeCoordinates(model.nv, options.prescribed)),
        R_(model.nv),
        R_trial_(model.nv) {}

  // Newton iterations at one load factor; q is updated in place
  bool solve(Eigen::VectorXd& q, double load, double tolerance, StaticsResult& result) {
    const int n = static_cast<int>(free_.size());
    staticResidual(model_, data_, q, options_.time, zero_, load, R_, family_);
    for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
      const double norm = freeNorm(R_);
      if (norm <= tolerance) return true;
      if (options_.cancelled()) return false;
      const Eigen::MatrixXd J = jacobian(q, load);
      Eigen::VectorXd rhs(n);
      for (int i = 0; i < n; ++i) rhs(i) = -R_(free_[i]);
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J);
      const Eigen::VectorXd step = lu.solve(rhs);
      if (!step.allFinite() || lu.rcond() < kSingular) {
        failure_ = singularReason(J);
        return false;
      }
      // backtracking line search on |R|
      double alpha = 1.0;
      Eigen::VectorXd q_trial = q;
      for (; alpha > 1e-4; alpha *= 0.5) {
        for (int i = 0; i < n; ++i) q_trial(free_[i]) = q(free_[i]) + alpha * step(i);
        staticResidual(model_, data_, q_trial, options_.time, zero_, load, R_trial_, family_);
        if (R_trial_.allFinite() && freeNorm(R_trial_) < (1.0 - 1e-4 * alpha) * norm) break;
      }
      if (alpha <= 1e-4) {
        failure_ = "no Newton step reduces the residual";
        return false;
      }
      q = q_trial;
      R_ = R_trial_;
      ++result.iterations;
      result.residual_history.push_back(freeNorm(R_));
      if (alpha * step.norm() <= options_.step_tolerance * (1.0 + q.norm()) &&
          freeNorm(R_) <= 1e3 * tolerance) {
        return true;
      }
    }
    return freeNorm(R_) <= tolerance;
  }

  // why the last solve() failed, for the message
  const std::string& failure() const { return failure_; }

  // the free coordinate whose Jacobian column is (nearly) zero: nothing holds it in place
  std::string singularReason(const Eigen::MatrixXd& J) const {
    Eigen::Index weakest = 0;
    J.colwise().norm().minCoeff(&weakest);
    return "the statics Jacobian is singular: nothing restores coordinate " +
           model_.coordinate_names[free_[weakest]] +
           " (no stiffness, load or constraint; a free or unactuated joint?)";
  }

  // the engine's analytical derivatives; the model-agnostic family has none
  bool analytic() const { return options_.analytic_jacobian && family_ == DynamicsFamily::Engine; }

  double freeNorm(const Eigen::VectorXd& R) const {
    double sum = 0.0;
    for (int k : free_) sum += R(k) * R(k);
    return std::sqrt(sum);
  }
  const Eigen::VectorXd& residual() const { return R_; }

 private:
  // dR/dq_free = load (d(B u)/dq - dID(q, 0, 0)/dq) - K   (13b), or by central differences
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& q, double load) {
    const int n = static_cast<int>(free_.size());
    Eigen::MatrixXd J(n, n);
    if (analytic()) {
      inverseDynamicsDerivatives(model_, data_, q, zero_, zero_, options_.time);
      actuationJacobian(model_, data_, q, options_.time);
      for (int c = 0; c < n; ++c) {
        for (int r = 0; r < n; ++r) {
          const int i = free_[r], k = free_[c];
          J(r, c) = load * (data_.dtau_applied_dq(i, k) - data_.dtau_dq(i, k)) - model_.K(i, k);
        }
      }
      return J;
    }
    Eigen::VectorXd qp = q, Rp(model_.nv), Rm(model_.nv);
    centralDifferences(
        qp, n, [this](Eigen::Index c) { return free_[c]; }, DifferenceStep{options_.fd_step},
        [&](Eigen::VectorXd& R) {
          staticResidual(model_, data_, qp, options_.time, zero_, load, R, family_);
        },
        Rp, Rm,
        [&](Eigen::Index c, const auto& quotient) {
          for (int r = 0; r < n; ++r) J(r, c) = quotient(free_[r]);
        });
    return J;
  }

  const Model& model_;
  Data& data_;
  DynamicsFamily family_;
  const Eigen::VectorXd zero_;
  const StaticsOptions& options_;
  std::vector<int> free_;
  Eigen::VectorXd R_, R_trial_;
  std::string failure_;
};

}  // namespace

std::string cancelledMessage(double load_fraction) {
  return "statics cancelled (load fraction reached " + std::to_string(load_fraction) + ")";
}

void staticResidual(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    double t, const Eigen::Ref<const Eigen::VectorXd>& tau_extra,
                    double load_factor, Eigen::Ref<Eigen::VectorXd> R, DynamicsFamily family) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  if (family == DynamicsFamily::ModelAgnostic) {
    // its ID(q, 0, 0) = g + K q - B u: the loads, less K q, are -(ID - K q)
    R = tau_extra - modelAgnosticID(model, data, q, zero, zero, t);
    R.noalias() += model.K * q;
    R *= load_factor;
    R.noalias() -= model.K * q;
    return;
  }
  actuationForces(model, q, t, R);
  R += tau_extra;
  // ID(q, 0, 0) is linear in gravity and point loads, so scaling it scales the load
  R -= inverseDynamics(model, data, q, zero, zero, t);
  R *= load_factor;
  R.noalias() -= model.K * q;
}

StaticsResult solveStatics(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q0,
                           const StaticsOptions& options) {
  const DynamicsFamily family = resolveFamily(model, options.family);
  if (model.n_constraints > 0 || !model.prescribed.empty())    // closed chains, position inputs
    return solveConstrainedStatics(model, data, q0, options);  // never agnostic (refused above)
  StaticsResult result;
  result.q = q0;
  result.family = family;
  result.derivatives =
      options.analytic_jacobian ? derivativeSource(family) : DerivativeSource::CentralDifferences;
  NewtonSolver newton(model, data, options, family);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  Eigen::VectorXd R(model.nv);
  staticResidual(model, data, q0, options.time, zero, 1.0, R, family);
  // relative to the applied load: soft-robot residuals are tiny in SI units
  const double load = (R + model.K * q0).norm();
  const double tolerance = options.residual_tolerance * load + std::numeric_limits<double>::min();

  // load stepping: grow the load fraction, halving the increment whenever Newton fails
  double reached = 0.0, increment = 1.0;
  while (reached < 1.0) {
    const double target = std::min(1.0, reached + increment);
    Eigen::VectorXd q = result.q;
    if (newton.solve(q, target, tolerance, result)) {
      result.q = q;
      reached = target;
      ++result.load_steps;
      increment = std::min(1.0, 2.0 * increment);
    } else if (options.cancelled()) {
      result.message = cancelledMessage(reached);
      break;
    } else if ((increment *= 0.5) < options.min_load_step) {
      result.message = "statics did not converge (load fraction reached " +
                       std::to_string(reached) + "): " + newton.failure();
      break;
    }
  }
  staticResidual(model, data, result.q, options.time, zero, 1.0, R, family);
  result.converged = reached >= 1.0;
  result.residual_norm = newton.freeNorm(R);
  result.reactions.resize(static_cast<Eigen::Index>(options.prescribed.size()));
  for (std::size_t i = 0; i < options.prescribed.size(); ++i)
    result.reactions(i) = -R(options.prescribed[i]);
  if (result.converged) result.message = "converged";
  return result;
}

}  // namespace tendril
