// Statics with closed chains and prescribed coordinates (docs/theory/gvs.md (52a), §11): damped
// Newton on (q_free, lambda) with load stepping, like solveStatics(); the Jacobian is (52b) at rest
// from the analytical derivatives, or central differences (StaticsOptions::analytic_jacobian).

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/statics.hpp"
#include "core/math/central_difference.hpp"

namespace tendril {
namespace {

constexpr double kAssemblyTolerance = 1e-10;  // |e| at a solution [rad, m]

class ConstrainedStaticsSolver {
 public:
  ConstrainedStaticsSolver(const Model& model, Data& data, const StaticsOptions& options)
      : model_(model),
        data_(data),
        options_(options),
        cdd_(model),
        zero_(Eigen::VectorXd::Zero(model.nv)) {
    std::vector<bool> held(model.nv, false);
    for (int k : options.prescribed) held.at(k) = true;
    for (const CompiledPrescribedCoordinate& p : model.prescribed) held[p.coordinate] = true;
    for (int k = 0; k < model.nv; ++k) {
      if (!held[k]) free_.push_back(k);
    }
    // the residual rows are those of the free coordinates: the solver's own split
    cdd_.free_coordinates = free_;
  }

  int unknowns() const { return static_cast<int>(free_.size()) + model_.n_constraints; }

  // R = [ (load (B u - ID) - K q + A^T lambda)_free ; e ]; also the full generalised force
  void residual(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, double load,
                Eigen::VectorXd& R, Eigen::VectorXd* full = nullptr) {
    const int m = model_.n_constraints, nf = static_cast<int>(free_.size());
    Eigen::VectorXd force(model_.nv);
    // load (B u - ID(q, 0, 0)) - K q: indexThreeResidual with lambda = 0 at full load, rescaled
    Eigen::VectorXd R_full(static_cast<Eigen::Index>(model_.nv) + m);
    std::vector<int> all(model_.nv);
    for (int k = 0; k < model_.nv; ++k) all[k] = k;
    cdd_.free_coordinates = all;
    indexThreeResidual(model_, data_, cdd_, q, zero_, zero_, Eigen::VectorXd::Zero(m),
                       options_.time, R_full);
    force = R_full.head(model_.nv);
    addInternalForces(model_, q, zero_, force, -1.0);  // B u - ID(q, 0, 0)
    force *= load;
    addInternalForces(model_, q, zero_, force);
    if (m > 0) force.noalias() += cdd_.constraints.A.transpose() * lambda;
    R.resize(nf + m);
    for (int r = 0; r < nf; ++r) R(r) = force(free_[r]);
    if (m > 0) R.tail(m) = cdd_.constraints.e;
    if (full) *full = force;
    cdd_.free_coordinates = free_;
  }

  double forceNorm(const Eigen::VectorXd& R) const { return R.head(free_.size()).norm(); }
  double errorNorm(const Eigen::VectorXd& R) const {
    return model_.n_constraints > 0 ? R.tail(model_.n_constraints).lpNorm<Eigen::Infinity>() : 0.0;
  }

  // Newton iterations at one load factor on (q_free, lambda)
  bool solve(Eigen::VectorXd& q, Eigen::VectorXd& lambda, double load, double tolerance,
             double force_scale, StaticsResult& result) {
    const int nf = static_cast<int>(free_.size()), m = model_.n_constraints;
    Eigen::VectorXd R, R_trial;
    residual(q, lambda, load, R);
    const auto merit = [&](const Eigen::VectorXd& r) {
      return forceNorm(r) / force_scale + errorNorm(r);
    };
    for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
      if (forceNorm(R) <= tolerance && errorNorm(R) <= kAssemblyTolerance) return true;
      if (options_.cancelled()) return false;
      Eigen::MatrixXd J(nf + m, nf + m);
      if (options_.analytic_jacobian) {
        analyticJacobian(q, lambda, load, J);
      } else {
        differenceJacobian(q, lambda, load, J);
      }
      const Eigen::VectorXd step = J.partialPivLu().solve(-R);
      if (!step.allFinite()) return false;
      // backtracking line search on the merit
      const double current = merit(R);
      double alpha = 1.0;
      Eigen::VectorXd q_trial = q, lambda_trial = lambda;
      for (; alpha > 1e-4; alpha *= 0.5) {
        for (int c = 0; c < nf; ++c) q_trial(free_[c]) = q(free_[c]) + alpha * step(c);
        if (m > 0) lambda_trial = lambda + alpha * step.tail(m);
        residual(q_trial, lambda_trial, load, R_trial);
        if (R_trial.allFinite() && merit(R_trial) < (1.0 - 1e-4 * alpha) * current) break;
      }
      if (alpha <= 1e-4) return false;
      q = q_trial;
      lambda = lambda_trial;
      R = R_trial;
      ++result.iterations;
      result.residual_history.push_back(forceNorm(R));
    }
    return forceNorm(R) <= tolerance && errorNorm(R) <= kAssemblyTolerance;
  }

  // (52b) at v = a = 0: [[(load (dBu/dq - dID/dq) - K + d(A^T lambda)/dq)_ff, A_f^T],
  // [(de/dq)_f, 0]]; indexThreeJacobian() gives it at full load
  void analyticJacobian(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, double load,
                        Eigen::MatrixXd& J) {
    cdd_.free_coordinates = free_;
    indexThreeJacobian(model_, data_, cdd_, q, zero_, zero_, lambda, options_.time, 0.0, 0.0, J);
    if (load == 1.0) return;
    const int nf = static_cast<int>(free_.size());
    for (int c = 0; c < nf; ++c) {
      for (int r = 0; r < nf; ++r) {
        J(r, c) += (load - 1.0) *
                   (data_.dtau_applied_dq(free_[r], free_[c]) - data_.dtau_dq(free_[r], free_[c]));
      }
    }
  }

  // central differences over q_free, [A_free^T; 0] for lambda
  void differenceJacobian(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, double load,
                          Eigen::MatrixXd& J) {
    const int nf = static_cast<int>(free_.size()), m = model_.n_constraints;
    Eigen::VectorXd Rp, Rm, R;
    J.setZero();
    Eigen::VectorXd qp = q;
    centralDifferences(
        qp, nf, [this](Eigen::Index c) { return free_[c]; }, DifferenceStep{options_.fd_step},
        [&](Eigen::VectorXd& R) { residual(qp, lambda, load, R); }, Rp, Rm,
        [&J](Eigen::Index c, const auto& quotient) { J.col(c) = quotient; });
    residual(q, lambda, load, R);  // leaves A of q in the workspace
    for (int r = 0; r < nf && m > 0; ++r)
      J.block(r, nf, 1, m) = cdd_.constraints.A.col(free_[r]).transpose();
  }

 private:
  const Model& model_;
  Data& data_;
  const StaticsOptions& options_;
  ConstrainedDynamicsData cdd_;
  const Eigen::VectorXd zero_;
  std::vector<int> free_;
};

}  // namespace

StaticsResult solveConstrainedStatics(const Model& model, Data& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q0,
                                      const StaticsOptions& options) {
  StaticsResult result;
  result.q = q0;
  for (const CompiledPrescribedCoordinate& p : model.prescribed)
    result.q(p.coordinate) = p.position(options.time);
  result.lambda = Eigen::VectorXd::Zero(model.n_constraints);
  ConstrainedStaticsSolver solver(model, data, options);

  // the applied load sets the force scale (soft-robot residuals are tiny in SI units)
  Eigen::VectorXd R, full;
  solver.residual(result.q, result.lambda, 1.0, R, &full);
  const double load = (full + model.K * result.q).norm();
  const double tolerance = options.residual_tolerance * load + std::numeric_limits<double>::min();
  const double force_scale = std::max(load, 1e-300);

  double reached = 0.0, increment = 1.0;
  while (reached < 1.0) {
    const double target = std::min(1.0, reached + increment);
    Eigen::VectorXd q = result.q, lambda = result.lambda;
    if (solver.solve(q, lambda, target, tolerance, force_scale, result)) {
      result.q = q;
      result.lambda = lambda;
      reached = target;
      ++result.load_steps;
      increment = std::min(1.0, 2.0 * increment);
    } else if (options.cancelled()) {
      result.message = cancelledMessage(reached);
      break;
    } else if ((increment *= 0.5) < options.min_load_step) {
      result.message =
          "statics did not converge (load fraction reached " + std::to_string(reached) + ")";
      break;
    }
  }
  solver.residual(result.q, result.lambda, 1.0, R, &full);
  result.converged = reached >= 1.0;
  result.residual_norm = solver.forceNorm(R);
  result.constraint_error = solver.errorNorm(R);
  // reactions: minus the unbalanced force on each held coordinate
  result.reactions.resize(
      static_cast<Eigen::Index>(options.prescribed.size() + model.prescribed.size()));
  Eigen::Index i = 0;
  for (int k : options.prescribed) result.reactions(i++) = -full(k);
  for (const CompiledPrescribedCoordinate& p : model.prescribed)
    result.reactions(i++) = -full(p.coordinate);
  if (result.converged) result.message = "converged";
  return result;
}

}  // namespace tendril
