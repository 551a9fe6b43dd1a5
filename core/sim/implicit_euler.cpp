// Implicit (backward) Euler with Newton iterations on v_{n+1} (docs/theory/gvs.md (6-9)):
//   R(v) = v - v_n - h FD(t + h, q_n + h v, v) = 0,  J = I - h^2 dFD/dq - h dFD/dv.

#include <Eigen/LU>

#include "core/sim/fixed_step_stepper.hpp"

namespace tendril::detail {
namespace {

class ImplicitEulerStepper final : public FixedStepStepper {
 public:
  using FixedStepStepper::FixedStepStepper;

 protected:
  bool step(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& v,
            std::string& error) override {
    const Eigen::VectorXd q_n = q, v_n = v;
    const int n = static_cast<int>(v.size());
    Eigen::VectorXd v_next = v_n;
    // the Jacobian at the start of the step serves every iteration (modified Newton)
    system_.jacobian(t + h, q_n, v_n, dqdd_dq_, dqdd_dv_);
    const Eigen::MatrixXd J = Eigen::MatrixXd::Identity(n, n) - h * h * dqdd_dq_ - h * dqdd_dv_;
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J);
    for (int iteration = 0; iteration < options_.max_newton_iterations; ++iteration) {
      const Eigen::VectorXd q_next = q_n + h * v_next;
      const Eigen::VectorXd residual =
          v_next - v_n - h * system_.acceleration(t + h, q_next, v_next);
      if (!residual.allFinite()) break;
      const Eigen::VectorXd correction = lu.solve(residual);
      v_next -= correction;
      if (newtonConverged(correction, v_next)) {
        v = v_next;
        q = q_n + h * v_next;
        return true;
      }
    }
    error = "Newton iterations did not converge";
    return false;
  }

 private:
  Eigen::MatrixXd dqdd_dq_, dqdd_dv_;
};

}  // namespace

std::unique_ptr<Stepper> makeImplicitEuler(DynamicsSystem& system,
                                           const SimulationOptions& options) {
  return std::make_unique<ImplicitEulerStepper>(system, options);
}

}  // namespace tendril::detail
