#include "core/math/quadrature.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace tendril {

namespace {

// P_n(x) and P_n'(x) by the three-term recurrence
struct LegendreValue {
  double p;
  double dp;
};

LegendreValue legendreWithDerivative(int n, double x) {
  double p_prev = 1.0;
  double p = x;
  for (int k = 2; k <= n; ++k) {
    const double p_next = ((2.0 * k - 1.0) * x * p - (k - 1.0) * p_prev) / k;
    p_prev = p;
    p = p_next;
  }
  // n P_{n-1} = (1 - x^2) P_n' + n x P_n, valid inside (-1, 1)
  const double dp = n * (x * p - p_prev) / (x * x - 1.0);
  return {p, dp};
}

}  // namespace

GaussRule gaussLegendre(int n, double length) {
  if (n < 1 || n > kMaxGaussPoints) {
    throw std::invalid_argument("gaussLegendre: n must be in [1, " +
                                std::to_string(kMaxGaussPoints) + "], got " + std::to_string(n));
  }
  if (!(length > 0.0) || !std::isfinite(length)) {
    throw std::invalid_argument("gaussLegendre: length must be positive and finite");
  }

  GaussRule rule{Eigen::VectorXd(n), Eigen::VectorXd(n)};
  const int half = (n + 1) / 2;
  for (int i = 0; i < half; ++i) {
    // newton on P_n from the asymptotic guess of the i-th largest root
    double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    LegendreValue value{};
    for (int iter = 0; iter < 100; ++iter) {
      value = legendreWithDerivative(n, x);
      const double dx = value.p / value.dp;
      x -= dx;
      if (std::abs(dx) <= 1e-15) {
        break;
      }
    }
    // derivative at the converged root for the weight
    value = legendreWithDerivative(n, x);
    const double w = 2.0 / ((1.0 - x * x) * value.dp * value.dp);

    // middle node of an odd rule is exactly 0
    if (2 * i + 1 == n) {
      x = 0.0;
    }

    // map the symmetric pair (-x, x) from [-1, 1] to [0, L], ascending
    rule.nodes(i) = 0.5 * length * (1.0 - x);
    rule.nodes(n - 1 - i) = 0.5 * length * (1.0 + x);
    rule.weights(i) = 0.5 * length * w;
    rule.weights(n - 1 - i) = 0.5 * length * w;
  }
  return rule;
}

ZannaPoints zannaPoints(double x0, double h) {
  return {x0 + kZannaLow * h, x0 + kZannaHigh * h};
}

}  // namespace tendril
