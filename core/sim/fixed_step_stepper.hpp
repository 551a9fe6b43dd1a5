#pragma once
// Common part of the fixed-step integrators: steps of at most options.step that land exactly on
// every output time, halving on a failed implicit step down to options.min_step (when 0:
// kAutomaticMinStepFraction x options.step).

#include <sstream>

#include "core/sim/simulation.hpp"

namespace tendril::detail {

class FixedStepStepper : public Stepper {
 public:
  FixedStepStepper(DynamicsSystem& system, const SimulationOptions& options)
      : system_(system),
        options_(options),
        min_step_(options.min_step > 0.0 ? options.min_step
                                         : kAutomaticMinStepFraction * options.step) {}

  void reset(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    t_ = t0;
    dissipated_ = 0.0;
    steps_ = 0;
    h_ = options_.step;
    start(t0, q0, v0);
  }

  bool advanceTo(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& v,
                 std::string& error) override {
    while (t_ < t_out - 1e-12 * std::max(1.0, std::abs(t_out))) {
      const double h = std::min(h_, t_out - t_);
      q_old_ = q;  // same size every step: no allocation after the first
      v_old_ = v;
      if (!step(t_, h, q, v, error)) {
        q = q_old_;
        v = v_old_;
        h_ = 0.5 * h;  // retry with a smaller step
        if (h_ < min_step_) {
          std::ostringstream reason;
          reason << "the step size fell below " << min_step_ << " s (" << error << ")";
          error = reason.str();
          return false;
        }
        continue;
      }
      // trapezoidal rule for the damping work over the step
      dissipated_ += 0.5 * h * (system_.dissipationRate(v_old_) + system_.dissipationRate(v));
      t_ += h;
      ++steps_;
      h_ = std::min(options_.step, 2.0 * h_);  // grow back after a cut
    }
    t_ = t_out;
    return true;
  }

  double dissipated() const override { return dissipated_; }
  long steps() const override { return steps_; }

 protected:
  /// \brief Called by reset: a method that carries extra state (Newmark's acceleration) starts it.
  virtual void start(double /*t0*/, const Eigen::VectorXd& /*q0*/, const Eigen::VectorXd& /*v0*/) {}
  /// \brief One step of size h from t; q, v updated in place. \return false (with error) to cut the
  /// step
  virtual bool step(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& v,
                    std::string& error) = 0;

  bool newtonConverged(const Eigen::VectorXd& correction, const Eigen::VectorXd& scale) const {
    return correction.lpNorm<Eigen::Infinity>() <=
           options_.absolute_tolerance +
               options_.relative_tolerance * scale.lpNorm<Eigen::Infinity>();
  }

  DynamicsSystem& system_;
  const SimulationOptions& options_;

 private:
  const double min_step_;  ///< where halving a failed step gives up [s]
  double t_ = 0.0, h_ = 0.0, dissipated_ = 0.0;
  Eigen::VectorXd q_old_, v_old_;  ///< state before the step being tried
  long steps_ = 0;
};

}  // namespace tendril::detail
