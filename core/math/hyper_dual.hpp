#pragma once
// Hyper-dual numbers a + b1 e1 + b2 e2 + c e1 e2 (e1^2 = e2^2 = 0): a function evaluated on them
// carries its value, two directional derivatives and the mixed second derivative along both
// directions, exactly (no truncation error). The locally volume-preserving bodies
// (core/model/bodies/lvp_body.hpp) evaluate their composed primitives on them to get, in one pass
// per coordinate, the point Jacobian, the velocity product and the acceleration bias (both
// directions along v), and the rates of the deformation gradient that the neo-Hookean forces need.

#include <cmath>

namespace tendril {

struct HyperDual {
  double a = 0.0;   ///< value
  double b1 = 0.0;  ///< derivative along the first direction
  double b2 = 0.0;  ///< derivative along the second direction
  double c = 0.0;   ///< mixed second derivative

  constexpr HyperDual() = default;
  constexpr HyperDual(double value) : a(value) {}  // NOLINT: constants mix freely
  constexpr HyperDual(double value, double d1, double d2, double d12)
      : a(value), b1(d1), b2(d2), c(d12) {}
};

/// \brief g(x) for a scalar function with value f, first derivative f1 and second f2 at x.a.
constexpr HyperDual chain(const HyperDual& x, double f, double f1, double f2) {
  return {f, f1 * x.b1, f1 * x.b2, f1 * x.c + f2 * x.b1 * x.b2};
}

constexpr HyperDual operator+(const HyperDual& x, const HyperDual& y) {
  return {x.a + y.a, x.b1 + y.b1, x.b2 + y.b2, x.c + y.c};
}
constexpr HyperDual operator-(const HyperDual& x, const HyperDual& y) {
  return {x.a - y.a, x.b1 - y.b1, x.b2 - y.b2, x.c - y.c};
}
constexpr HyperDual operator-(const HyperDual& x) {
  return {-x.a, -x.b1, -x.b2, -x.c};
}
constexpr HyperDual operator*(const HyperDual& x, const HyperDual& y) {
  return {x.a * y.a, x.a * y.b1 + x.b1 * y.a, x.a * y.b2 + x.b2 * y.a,
          x.a * y.c + x.b1 * y.b2 + x.b2 * y.b1 + x.c * y.a};
}
constexpr HyperDual operator*(double s, const HyperDual& x) {
  return {s * x.a, s * x.b1, s * x.b2, s * x.c};
}
constexpr HyperDual operator*(const HyperDual& x, double s) {
  return s * x;
}
inline HyperDual inverse(const HyperDual& x) {
  const double f = 1.0 / x.a;
  return chain(x, f, -f * f, 2.0 * f * f * f);
}
inline HyperDual operator/(const HyperDual& x, const HyperDual& y) {
  return x * inverse(y);
}
inline HyperDual operator/(const HyperDual& x, double s) {
  return (1.0 / s) * x;
}
inline HyperDual operator/(double s, const HyperDual& y) {
  return s * inverse(y);
}
inline HyperDual& operator+=(HyperDual& x, const HyperDual& y) {
  return x = x + y;
}
inline HyperDual& operator-=(HyperDual& x, const HyperDual& y) {
  return x = x - y;
}
inline HyperDual& operator*=(HyperDual& x, const HyperDual& y) {
  return x = x * y;
}

inline HyperDual sqrt(const HyperDual& x) {
  const double f = std::sqrt(x.a);
  return chain(x, f, 0.5 / f, -0.25 / (f * x.a));
}
inline HyperDual sin(const HyperDual& x) {
  const double s = std::sin(x.a), c = std::cos(x.a);
  return chain(x, s, c, -s);
}
inline HyperDual cos(const HyperDual& x) {
  const double s = std::sin(x.a), c = std::cos(x.a);
  return chain(x, c, -s, -c);
}

/// \brief The value of a double or of a hyper-dual number.
inline double valueOf(double x) {
  return x;
}
inline double valueOf(const HyperDual& x) {
  return x.a;
}

}  // namespace tendril
