// Newmark-beta with Newton iterations on q_{n+1} (theory-gvs.md (10)-(12)), written on the
// acceleration: R(q) = a(q) - FD(t + h, q, v(q)), J = 1/(beta h^2) I - dFD/dq - gamma/(beta h)
// dFD/dv, which is M^-1 times the paper's (12).

#include <Eigen/LU>

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

}  // namespace

std::unique_ptr<Stepper> makeNewmark(DynamicsSystem& system, const SimulationOptions& options) {
  return std::make_unique<NewmarkStepper>(system, options);
}

}  // namespace tendril::detail
