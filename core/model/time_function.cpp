#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/model/description.hpp"

namespace tendril {

namespace {

// the normalised time of a cubic on [start, start + duration], clamped to [0, 1]
double cubicPhase(const TimeFunction& f, double t) {
  if (f.duration <= 0.0) return t < f.start ? 0.0 : 1.0;
  return std::clamp((t - f.start) / f.duration, 0.0, 1.0);
}

bool insideCubic(const TimeFunction& f, double t) {
  return f.duration > 0.0 && t >= f.start && t < f.start + f.duration;
}

}  // namespace

double TimeFunction::operator()(double t) const {
  switch (kind) {
    case Kind::Constant:
      return value;
    case Kind::Ramp:
      if (t <= start) return 0.0;
      if (duration <= 0.0 || t >= start + duration) return value;
      return value * (t - start) / duration;
    case Kind::Sine:
      return offset + amplitude * std::sin(2.0 * std::numbers::pi * frequency * t + phase);
    case Kind::Table: {
      if (table.empty()) return 0.0;
      if (t <= table.front()[0]) return table.front()[1];
      if (t >= table.back()[0]) return table.back()[1];
      const auto upper = std::upper_bound(
          table.begin(), table.end(), t,
          [](double time, const std::array<double, 2>& row) { return time < row[0]; });
      const auto& [t1, v1] = *upper;
      const auto& [t0, v0] = *(upper - 1);
      return v0 + (v1 - v0) * (t - t0) / (t1 - t0);
    }
    case Kind::Cubic: {
      const double s = cubicPhase(*this, t);
      return initial + (value - initial) * s * s * (3.0 - 2.0 * s);
    }
  }
  return 0.0;
}

double TimeFunction::derivative(double t, int order) const {
  if (order <= 0) return (*this)(t);
  if (order > 2) return 0.0;
  switch (kind) {
    case Kind::Constant:
      return 0.0;
    case Kind::Ramp:
      if (order == 2 || t < start || duration <= 0.0 || t >= start + duration) return 0.0;
      return value / duration;
    case Kind::Sine: {
      const double w = 2.0 * std::numbers::pi * frequency;
      const double angle = w * t + phase;
      return order == 1 ? amplitude * w * std::cos(angle) : -amplitude * w * w * std::sin(angle);
    }
    case Kind::Table: {
      if (order == 2 || table.size() < 2 || t < table.front()[0] || t >= table.back()[0]) {
        return 0.0;
      }
      const auto upper = std::upper_bound(
          table.begin(), table.end(), t,
          [](double time, const std::array<double, 2>& row) { return time < row[0]; });
      const auto& [t1, v1] = *upper;
      const auto& [t0, v0] = *(upper - 1);
      return (v1 - v0) / (t1 - t0);
    }
    case Kind::Cubic: {
      if (!insideCubic(*this, t)) return 0.0;
      const double s = cubicPhase(*this, t), rise = value - initial;
      return order == 1 ? rise * 6.0 * s * (1.0 - s) / duration
                        : rise * (6.0 - 12.0 * s) / (duration * duration);
    }
  }
  return 0.0;
}

}  // namespace tendril
