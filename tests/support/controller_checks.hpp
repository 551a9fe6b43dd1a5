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
