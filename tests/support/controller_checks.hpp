#pragma once
// What the controller tests of both dynamics families share: the gains of a critically damped
// closed loop, its exact error, set-point functions, and a tight BDF run.

#include <cmath>

#include "core/model/description.hpp"
#include "core/sim/simulation.hpp"

namespace tendril::test {

// e'' + 20 e' + 100 e = 0: critically damped at 10 rad/s
inline constexpr double kKp = 100.0, kKd = 20.0;

// e(t) of e'' + 2 w e' + w^2 e = 0 from (e0, e0')
inline double criticallyDampedError(double e0, double e0_rate, double w, double t) {
  return (e0 + (e0_rate + w * e0) * t) * std::exp(-w * t);
}

// e(t) of e'' + kd e' + kp e = 0 from (e0, e0'), for any damping (kp > 0, kd >= 0): the
// closed loop a PD law with gains (kp, kd) imposes on an exactly linearised output
inline double linearClosedLoopError(double e0, double e0_rate, double kp, double kd, double t) {
  const double decay = 0.5 * kd, discriminant = decay * decay - kp;
  if (discriminant < 0.0) {  // under-damped: oscillates at the damped frequency
    const double wd = std::sqrt(-discriminant);
    return std::exp(-decay * t) *
           (e0 * std::cos(wd * t) + (e0_rate + decay * e0) / wd * std::sin(wd * t));
  }
  if (discriminant == 0.0) return (e0 + (e0_rate + decay * e0) * t) * std::exp(-decay * t);
  // over-damped: two real rates r1, r2 < 0
  const double root = std::sqrt(discriminant), r1 = -decay + root, r2 = -decay - root;
  const double c1 = (e0_rate - r2 * e0) / (r1 - r2), c2 = e0 - c1;
  return c1 * std::exp(r1 * t) + c2 * std::exp(r2 * t);
}

inline TimeFunction cubic(double from, double to, double start, double duration) {
  TimeFunction f;
  f.kind = TimeFunction::Kind::Cubic;
  f.initial = from;
  f.value = to;
  f.start = start;
  f.duration = duration;
  return f;
}

inline TimeFunction sine(double amplitude, double frequency, double offset) {
  TimeFunction f;
  f.kind = TimeFunction::Kind::Sine;
  f.amplitude = amplitude;
  f.frequency = frequency;
  f.offset = offset;
  return f;
}

// BDF at tolerances far below the tests' bounds, on the given family
inline SimulationOptions tightBdf(double t_end, DynamicsFamily family = DynamicsFamily::Auto) {
  SimulationOptions options;
  options.integrator = IntegratorKind::Bdf;
  options.family = family;
  options.t_end = t_end;
  options.output_interval = 0.01;
  options.step = 0.0;
  options.relative_tolerance = 1e-10;
  options.absolute_tolerance = 1e-12;
  return options;
}

}  // namespace tendril::test
