#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

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

// the index i of the table piece [t_i, t_{i+1}] holding t (the later piece at a point);
// t inside (t_0, t_n)
std::size_t tablePiece(const TimeFunction& f, double t) {
  const auto upper =
      std::upper_bound(f.table.begin(), f.table.end(), t,
                       [](double time, const std::array<double, 2>& row) { return time < row[0]; });
  return static_cast<std::size_t>(upper - f.table.begin()) - 1;
}

// d^order/dt^order of the cubic spline on the piece holding t (inside the table), from the
// moments M_i = f''(t_i): with h = t_{i+1} - t_i, a = (t_{i+1} - t)/h, b = (t - t_i)/h,
//   f = a y_i + b y_{i+1} + h^2/6 ((a^3 - a) M_i + (b^3 - b) M_{i+1}),
// which is linear in f'' (f'' = a M_i + b M_{i+1}) and matches y at both ends.
double splineDerivative(const TimeFunction& f, double t, int order) {
  if (f.spline_moments.size() != f.table.size()) {
    throw std::logic_error("spline table used before TimeFunction::prepareSpline()");
  }
  const std::size_t i = tablePiece(f, t);
  const auto& [t0, y0] = f.table[i];
  const auto& [t1, y1] = f.table[i + 1];
  const double m0 = f.spline_moments[i], m1 = f.spline_moments[i + 1];
  const double h = t1 - t0, a = (t1 - t) / h, b = (t - t0) / h;
  switch (order) {
    case 0:
      return a * y0 + b * y1 + h * h / 6.0 * ((a * a * a - a) * m0 + (b * b * b - b) * m1);
    case 1:
      return (y1 - y0) / h + h / 6.0 * (-(3.0 * a * a - 1.0) * m0 + (3.0 * b * b - 1.0) * m1);
    default:
      return a * m0 + b * m1;
  }
}

bool isSpline(const TimeFunction& f) {
  return f.interpolation == TimeFunction::Interpolation::Spline && f.table.size() >= 2;
}

}  // namespace

void TimeFunction::prepareSpline() {
  const std::size_t n = table.size();
  spline_moments.assign(n, 0.0);
  if (n < 2) return;
  // Continuity of f' at the interior points gives, for the moments M (f'' at the points),
  //   h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} = 6 (s_i - s_{i-1}),
  // s_i the slope of the chord of piece i. Natural ends: M_0 = M_n = 0; clamped ends: the end
  // slopes d_0, d_n give 2 h_0 M_0 + h_0 M_1 = 6 (s_0 - d_0) and its mirror. Thomas algorithm
  // (the matrix is diagonally dominant).
  std::vector<double> lower(n, 0.0), diagonal(n, 1.0), upper(n, 0.0), rhs(n, 0.0);
  auto h = [&](std::size_t i) { return table[i + 1][0] - table[i][0]; };
  auto chord = [&](std::size_t i) { return (table[i + 1][1] - table[i][1]) / h(i); };
  for (std::size_t i = 1; i + 1 < n; ++i) {
    lower[i] = h(i - 1);
    diagonal[i] = 2.0 * (h(i - 1) + h(i));
    upper[i] = h(i);
    rhs[i] = 6.0 * (chord(i) - chord(i - 1));
  }
  if (end_slopes) {
    diagonal[0] = 2.0 * h(0);
    upper[0] = h(0);
    rhs[0] = 6.0 * (chord(0) - (*end_slopes)[0]);
    lower[n - 1] = h(n - 2);
    diagonal[n - 1] = 2.0 * h(n - 2);
    rhs[n - 1] = 6.0 * ((*end_slopes)[1] - chord(n - 2));
  }
  for (std::size_t i = 1; i < n; ++i) {
    const double factor = lower[i] / diagonal[i - 1];
    diagonal[i] -= factor * upper[i - 1];
    rhs[i] -= factor * rhs[i - 1];
  }
  spline_moments[n - 1] = rhs[n - 1] / diagonal[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) {
    spline_moments[i] = (rhs[i] - upper[i] * spline_moments[i + 1]) / diagonal[i];
  }
}

TimeFunction TimeFunction::spline(std::vector<std::array<double, 2>> points,
                                  std::optional<std::array<double, 2>> end_slopes) {
  TimeFunction f;
  f.kind = Kind::Table;
  f.interpolation = Interpolation::Spline;
  f.table = std::move(points);
  f.end_slopes = end_slopes;
  f.prepareSpline();
  return f;
}

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
      if (isSpline(*this)) return splineDerivative(*this, t, 0);
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
      if (table.size() < 2 || t < table.front()[0] || t >= table.back()[0]) return 0.0;
      if (isSpline(*this)) return splineDerivative(*this, t, order);
      if (order == 2) return 0.0;
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
