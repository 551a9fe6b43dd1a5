// Newmark-beta with Newton iterations on q_{n+1} (docs/theory/gvs.md (10-12)), written on the
// acceleration: R(q) = a(q) - FD(t + h, q, v(q)), J = 1/(beta h^2) I - dFD/dq - gamma/(beta h)
// dFD/dv, which is M^-1 times the paper's (12).

#include <Eigen/LU>
#include <cmath>

#include "core/math/central_difference.hpp"
#include "core/sim/fixed_step_stepper.hpp"

namespace tendril::detail {
namespace {

class NewmarkStepper final : public FixedStepStepper {
 public:
  using FixedStepStepper::FixedStepStepper;

 protected:
  void start(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    a_ = system_.acceleration(t0, q0, v0);  // the initial acceleration from the dynamics
  }

  bool step(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& v,
            std::string& error) override {
    const double beta = options_.newmark_beta, gamma = options_.newmark_gamma;
    const Eigen::VectorXd q_n = q, v_n = v, a_n = a_;
    const auto velocity = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
      return gamma / (beta * h) * (x - q_n) + (1.0 - gamma / beta) * v_n +
             h * (1.0 - gamma / (2.0 * beta)) * a_n;
    };
    const auto acceleration = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
      return (x - q_n) / (beta * h * h) - v_n / (beta * h) + (1.0 - 1.0 / (2.0 * beta)) * a_n;
    };
    Eigen::VectorXd q_next = q_n + h * v_n + 0.5 * h * h * a_n;  // predictor
    const int n = static_cast<int>(q.size());
    system_.jacobian(t + h, q_next, velocity(q_next), dqdd_dq_, dqdd_dv_);
    const Eigen::MatrixXd J =
        Eigen::MatrixXd::Identity(n, n) / (beta * h * h) - dqdd_dq_ - gamma / (beta * h) * dqdd_dv_;
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J);
    for (int iteration = 0; iteration < options_.max_newton_iterations; ++iteration) {
      const Eigen::VectorXd residual =
          acceleration(q_next) - system_.acceleration(t + h, q_next, velocity(q_next));
      if (!residual.allFinite()) break;
      const Eigen::VectorXd correction = lu.solve(residual);
      q_next -= correction;
      if (newtonConverged(correction, q_next)) {
        q = q_next;
        v = velocity(q_next);
        a_ = acceleration(q_next);
        return true;
      }
    }
    error = "Newton iterations did not converge";
    return false;
  }

 private:
  Eigen::VectorXd a_;
  Eigen::MatrixXd dqdd_dq_, dqdd_dv_;
};

// Index-3 Newmark for closed chains and prescribed coordinates (docs/theory/gvs.md (52a, 52b, 45)):
// unknowns z = (q_u, lambda) at t + h, with q_k = f(t + h), v_k = f', a_k = f'' and the free
// velocities and accelerations from the Newmark formulas (10);
//   R(z) = [ (tau - ID(q, v, a) + A^T lambda)_u ; e(q) ].
// dR/dq_u is the total derivative through (10), once per step at the predictor (modified
// Newton): analytical (indexThreeJacobian) when the system's Jacobian is, else by central
// differences; dR/dlambda = [A_u^T; 0]. A step is accepted when the correction
// is within the Newton tolerance and |e| <= the absolute tolerance.
class ConstrainedNewmarkStepper final : public FixedStepStepper {
 public:
  ConstrainedNewmarkStepper(DynamicsSystem& system, const SimulationOptions& options)
      : FixedStepStepper(system, options), cdd_(system.model()) {}

 protected:
  void start(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    a_ = system_.acceleration(t0, q0, v0);  // Baumgarte accelerations: consistent at e = 0
    lambda_ = system_.constrained()->lambda;
  }

  bool step(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& v,
            std::string& error) override {
    const Model& model = system_.model();
    Data& data = system_.data();
    const std::vector<int>& free = cdd_.free_coordinates;
    const int nu = static_cast<int>(free.size()), m = model.n_constraints;
    const double beta = options_.newmark_beta, gamma = options_.newmark_gamma;
    const double t1 = t + h;
    q_n_ = q;
    v_n_ = v;
    a_n_ = a_;
    long residuals = 0;  // residual evaluations outside the Jacobian, for the statistics
    // the state at t + h for given free coordinates
    const auto state = [&](const Eigen::VectorXd& x) {
      q_ = x;
      v_ = gamma / (beta * h) * (x - q_n_) + (1.0 - gamma / beta) * v_n_ +
           h * (1.0 - gamma / (2.0 * beta)) * a_n_;
      acc_ = (x - q_n_) / (beta * h * h) - v_n_ / (beta * h) + (1.0 - 1.0 / (2.0 * beta)) * a_n_;
      applyPrescribed(model, t1, q_, v_);
      for (const CompiledPrescribedCoordinate& p : model.prescribed)
        acc_(p.coordinate) = p.position.derivative(t1, 2);
    };
    const auto residual = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& lambda,
                              Eigen::VectorXd& R) {
      state(x);
      R.resize(nu + m);
      indexThreeResidual(model, data, cdd_, q_, v_, acc_, lambda, t1, R);
      ++residuals;
    };

    Eigen::VectorXd x = q_n_ + h * v_n_ + 0.5 * h * h * a_n_;  // predictor
    Eigen::VectorXd lambda = lambda_;
    // Jacobian at the predictor
    J_.resize(nu + m, nu + m);
    if (system_.analyticJacobian()) {
      state(x);
      indexThreeJacobian(model, data, cdd_, q_, v_, acc_, lambda, t1, gamma / (beta * h),
                         1.0 / (beta * h * h), J_);
    } else {
      J_.setZero();
      centralDifferences(
          x, nu, [&free](Eigen::Index c) { return free[c]; }, DifferenceStep{1e-7, true},
          [&](Eigen::VectorXd& R) { residual(x, lambda, R); }, R_plus_, R_minus_,
          [this](Eigen::Index c, const auto& quotient) { J_.col(c) = quotient; });
    }
    system_.countEvaluations(0, 1);
    residuals = 0;
    Eigen::VectorXd R;
    residual(x, lambda, R);
    if (m > 0 && !system_.analyticJacobian()) {
      for (int r = 0; r < nu; ++r)
        J_.block(r, nu, 1, m) = cdd_.constraints.A.col(free[r]).transpose();
    }
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J_);
    for (int iteration = 0; iteration < options_.max_newton_iterations; ++iteration) {
      if (!R.allFinite()) break;
      const Eigen::VectorXd correction = lu.solve(R);
      for (int c = 0; c < nu; ++c) x(free[c]) -= correction(c);
      if (m > 0) lambda -= correction.tail(m);
      residual(x, lambda, R);
      const bool assembled =
          m == 0 || R.tail(m).lpNorm<Eigen::Infinity>() <= options_.absolute_tolerance;
      if (newtonConverged(correction.head(nu), x) && assembled) {
        system_.countEvaluations(residuals, 0);
        state(x);
        q = q_;
        v = v_;
        a_ = acc_;
        lambda_ = lambda;
        return true;
      }
    }
    system_.countEvaluations(residuals, 0);
    error = "Newton iterations did not converge (index-3 Newmark)";
    return false;
  }

 private:
  ConstrainedDynamicsData cdd_;
  Eigen::VectorXd a_, lambda_, q_n_, v_n_, a_n_, q_, v_, acc_, R_plus_, R_minus_;
  Eigen::MatrixXd J_;
};

}  // namespace

std::unique_ptr<Stepper> makeNewmark(DynamicsSystem& system, const SimulationOptions& options) {
  if (system.constrained()) return std::make_unique<ConstrainedNewmarkStepper>(system, options);
  return std::make_unique<NewmarkStepper>(system, options);
}

}  // namespace tendril::detail
