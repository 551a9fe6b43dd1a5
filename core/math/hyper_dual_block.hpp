#pragma once
// A block of N hyper-dual numbers that share their value and their second direction: a function
// evaluated on it carries its value a, its derivative v along one direction w (the velocity), its
// derivatives d(j) along N directions e_j (unit coordinate directions) and the mixed second
// derivatives dv(j) along e_j and w, exactly. One pass on a block gives what N passes on
// HyperDual with directions (e_j, w) give, with the value and the w-derivative computed once and
// the N lanes in fixed-size Eigen arrays (vectorised). The LVP bodies
// (core/model/bodies/lvp_body.hpp) use it for the point Jacobian, J w, the bias
// sum_j dv(j) w_j = (d^2 f / dq^2 w) w, and the rates of the deformation gradient. Its arithmetic
// is always inlined: a call per operation on 18 doubles costs more than the operation.

#include <Eigen/Core>
#include <cmath>

namespace tendril {

template <int N>
struct HyperDualBlock {
  using Lanes = Eigen::Array<double, N, 1>;
  double a = 0.0;            ///< value
  double v = 0.0;            ///< derivative along w
  Lanes d = Lanes::Zero();   ///< derivatives along e_j
  Lanes dv = Lanes::Zero();  ///< mixed second derivatives along e_j and w

  HyperDualBlock() = default;
  HyperDualBlock(double value) : a(value) {}  // NOLINT: constants mix freely
  HyperDualBlock(double value, double w_rate, const Lanes& lanes, const Lanes& mixed)
      : a(value), v(w_rate), d(lanes), dv(mixed) {}
};

/// \brief g(x) for a scalar function with value f, first derivative f1 and second f2 at x.a.
template <int N>
inline HyperDualBlock<N> chain(const HyperDualBlock<N>& x, double f,
                                                      double f1, double f2) {
  return {f, f1 * x.v, f1 * x.d, f1 * x.dv + (f2 * x.v) * x.d};
}

template <int N>
inline HyperDualBlock<N> operator+(const HyperDualBlock<N>& x,
                                                          const HyperDualBlock<N>& y) {
  return {x.a + y.a, x.v + y.v, x.d + y.d, x.dv + y.dv};
}
template <int N>
inline HyperDualBlock<N> operator-(const HyperDualBlock<N>& x,
                                                          const HyperDualBlock<N>& y) {
  return {x.a - y.a, x.v - y.v, x.d - y.d, x.dv - y.dv};
}
template <int N>
inline HyperDualBlock<N> operator-(const HyperDualBlock<N>& x) {
  return {-x.a, -x.v, -x.d, -x.dv};
}
template <int N>
inline HyperDualBlock<N> operator*(const HyperDualBlock<N>& x,
                                                          const HyperDualBlock<N>& y) {
  return {x.a * y.a, x.a * y.v + x.v * y.a, x.a * y.d + y.a * x.d,
          x.a * y.dv + y.v * x.d + x.v * y.d + y.a * x.dv};
}
template <int N>
inline HyperDualBlock<N> operator*(double s, const HyperDualBlock<N>& x) {
  return {s * x.a, s * x.v, s * x.d, s * x.dv};
}
template <int N>
inline HyperDualBlock<N> operator*(const HyperDualBlock<N>& x, double s) {
  return s * x;
}
template <int N>
inline HyperDualBlock<N> operator+(double s, const HyperDualBlock<N>& x) {
  return {s + x.a, x.v, x.d, x.dv};
}
template <int N>
inline HyperDualBlock<N> operator+(const HyperDualBlock<N>& x, double s) {
  return s + x;
}
template <int N>
inline HyperDualBlock<N> operator-(double s, const HyperDualBlock<N>& x) {
  return {s - x.a, -x.v, -x.d, -x.dv};
}
template <int N>
inline HyperDualBlock<N> operator-(const HyperDualBlock<N>& x, double s) {
  return {x.a - s, x.v, x.d, x.dv};
}
template <int N>
HyperDualBlock<N> inverse(const HyperDualBlock<N>& x) {
  const double f = 1.0 / x.a;
  return chain(x, f, -f * f, 2.0 * f * f * f);
}
template <int N>
inline HyperDualBlock<N> operator/(const HyperDualBlock<N>& x,
                                                          const HyperDualBlock<N>& y) {
  return x * inverse(y);
}
template <int N>
inline HyperDualBlock<N> operator/(const HyperDualBlock<N>& x, double s) {
  return (1.0 / s) * x;
}
template <int N>
inline HyperDualBlock<N> operator/(double s, const HyperDualBlock<N>& y) {
  return s * inverse(y);
}
template <int N>
inline HyperDualBlock<N>& operator+=(HyperDualBlock<N>& x,
                                                            const HyperDualBlock<N>& y) {
  return x = x + y;
}
template <int N>
inline HyperDualBlock<N>& operator-=(HyperDualBlock<N>& x,
                                                            const HyperDualBlock<N>& y) {
  return x = x - y;
}
template <int N>
inline HyperDualBlock<N>& operator*=(HyperDualBlock<N>& x,
                                                            const HyperDualBlock<N>& y) {
  return x = x * y;
}

template <int N>
HyperDualBlock<N> sqrt(const HyperDualBlock<N>& x) {
  const double f = std::sqrt(x.a);
  return chain(x, f, 0.5 / f, -0.25 / (f * x.a));
}
template <int N>
HyperDualBlock<N> sin(const HyperDualBlock<N>& x) {
  const double s = std::sin(x.a), c = std::cos(x.a);
  return chain(x, s, c, -s);
}
template <int N>
HyperDualBlock<N> cos(const HyperDualBlock<N>& x) {
  const double s = std::sin(x.a), c = std::cos(x.a);
  return chain(x, c, -s, -c);
}

template <int N>
double valueOf(const HyperDualBlock<N>& x) {
  return x.a;
}

}  // namespace tendril
