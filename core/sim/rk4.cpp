// Classical explicit Runge-Kutta of order 4: the non-stiff reference integrator.

#include "core/sim/fixed_step_stepper.hpp"

namespace tendril::detail {
namespace {

class Rk4Stepper final : public FixedStepStepper {
 public:
  using FixedStepStepper::FixedStepStepper;

 protected:
  bool step(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& v,
            std::string& error) override {
    const Eigen::VectorXd a1 = system_.acceleration(t, q, v);
    const Eigen::VectorXd v1 = v;
    const Eigen::VectorXd v2 = v + 0.5 * h * a1;
    const Eigen::VectorXd a2 = system_.acceleration(t + 0.5 * h, q + 0.5 * h * v1, v2);
    const Eigen::VectorXd v3 = v + 0.5 * h * a2;
    const Eigen::VectorXd a3 = system_.acceleration(t + 0.5 * h, q + 0.5 * h * v2, v3);
    const Eigen::VectorXd v4 = v + h * a3;
    const Eigen::VectorXd a4 = system_.acceleration(t + h, q + h * v3, v4);
    q += h / 6.0 * (v1 + 2.0 * v2 + 2.0 * v3 + v4);
    v += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    if (!q.allFinite() || !v.allFinite()) {
      error = "the explicit step produced a non-finite state (step too large for a stiff model?)";
      return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Stepper> makeRk4(DynamicsSystem& system, const SimulationOptions& options) {
  return std::make_unique<Rk4Stepper>(system, options);
}

}  // namespace tendril::detail
