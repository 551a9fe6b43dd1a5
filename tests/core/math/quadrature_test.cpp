// Tests for core/math/quadrature.cpp.

#include "core/math/quadrature.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

namespace tendril {
namespace {

// golub-welsch reference on [-1, 1]: eigenvalues of the legendre jacobi matrix, weights 2 v_0^2
void golubWelsch(int n, Eigen::VectorXd& nodes, Eigen::VectorXd& weights) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  for (int k = 1; k < n; ++k) {
    const double beta = k / std::sqrt(4.0 * k * k - 1.0);
    J(k, k - 1) = beta;
    J(k - 1, k) = beta;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(J);
  nodes = solver.eigenvalues();
  weights = 2.0 * solver.eigenvectors().row(0).transpose().array().square();
}

TEST(QuadratureTest, MatchesTabulatedFivePointRule) {
  // abramowitz & stegun table 25.4, mapped to [0, 1]
  const GaussRule rule = gaussLegendre(5, 1.0);
  const double x[5] = {-0.906179845938664, -0.538469310105683, 0.0, 0.538469310105683,
                       0.906179845938664};
  const double w[5] = {0.236926885056189, 0.478628670499366, 0.568888888888889, 0.478628670499366,
                       0.236926885056189};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(rule.nodes(i), 0.5 * (1.0 + x[i]), 1e-15);
    EXPECT_NEAR(rule.weights(i), 0.5 * w[i], 1e-15);
  }
  EXPECT_EQ(rule.nodes(2), 0.5);  // middle node of an odd rule is exact
}

TEST(QuadratureTest, MatchesGolubWelsch) {
  for (int n = 1; n <= kMaxGaussPoints; ++n) {
    const GaussRule rule = gaussLegendre(n, 2.0);  // [0, 2] = [-1, 1] shifted by one
    Eigen::VectorXd x, w;
    golubWelsch(n, x, w);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(rule.nodes(i) - 1.0, x(i), 1e-14) << "n = " << n << ", i = " << i;
      // golub-welsch weights come from eigenvector entries and are the less accurate of the two
      // (they are not even symmetric to better than ~3e-13 relative at n = 29)
      EXPECT_NEAR(rule.weights(i), w(i), 1e-12 * w(i)) << "n = " << n << ", i = " << i;
    }
  }
}

TEST(QuadratureTest, RuleIsSymmetricAscendingAndPositive) {
  for (int n = 1; n <= kMaxGaussPoints; ++n) {
    const double length = 0.37;
    const GaussRule rule = gaussLegendre(n, length);
    ASSERT_EQ(rule.nodes.size(), n);
    ASSERT_EQ(rule.weights.size(), n);
    EXPECT_NEAR(rule.weights.sum(), length, 1e-15) << n;
    for (int i = 0; i < n; ++i) {
      EXPECT_GT(rule.nodes(i), 0.0);
      EXPECT_LT(rule.nodes(i), length);
      EXPECT_GT(rule.weights(i), 0.0);
      EXPECT_NEAR(rule.nodes(i) + rule.nodes(n - 1 - i), length, 1e-16);
      EXPECT_EQ(rule.weights(i), rule.weights(n - 1 - i));
      if (i > 0) {
        EXPECT_GT(rule.nodes(i), rule.nodes(i - 1));
      }
    }
  }
}

TEST(QuadratureTest, IntegratesPolynomialsOfDegree2nMinus1Exactly) {
  const double length = 1.3;
  for (int n = 1; n <= kMaxGaussPoints; ++n) {
    const GaussRule rule = gaussLegendre(n, length);
    // shifted monomials (X - L/2)^d keep the integrands well scaled: exact value is 0 (odd d) or
    // 2 (L/2)^(d+1)/(d+1) (even d)
    for (int d = 0; d <= 2 * n; ++d) {
      double sum = 0.0;
      for (int i = 0; i < n; ++i) {
        sum += rule.weights(i) * std::pow(rule.nodes(i) - 0.5 * length, d);
      }
      const double exact = (d % 2 == 1) ? 0.0 : 2.0 * std::pow(0.5 * length, d + 1) / (d + 1);
      const double scale = std::pow(0.5 * length, d + 1);
      if (d <= 2 * n - 1) {
        EXPECT_NEAR(sum, exact, 1e-14 * scale) << "n = " << n << ", degree " << d;
      } else if (n <= 8) {
        // degree 2n is not integrated exactly (the rule has exactly degree 2n - 1); the error,
        // ~pi 4^-n relative, drops below round-off for larger n
        EXPECT_GT(std::abs(sum - exact), 1e-6 * scale) << "n = " << n;
      }
    }
  }
}

TEST(QuadratureTest, IntegratesSmoothFunctionsSpectrally) {
  // integral_0^2 exp(X) dX = e^2 - 1
  const GaussRule rule = gaussLegendre(10, 2.0);
  const double sum = rule.weights.dot(rule.nodes.array().exp().matrix());
  EXPECT_NEAR(sum, std::exp(2.0) - 1.0, 1e-13);
}

TEST(QuadratureTest, RejectsInvalidArguments) {
  EXPECT_THROW(static_cast<void>(gaussLegendre(0, 1.0)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(gaussLegendre(kMaxGaussPoints + 1, 1.0)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(gaussLegendre(3, 0.0)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(gaussLegendre(3, -1.0)), std::invalid_argument);
}

TEST(QuadratureTest, ZannaPointsAreTheTwoPointGaussRule) {
  const ZannaPoints z = zannaPoints(0.4, 0.2);
  const GaussRule rule = gaussLegendre(2, 0.2);
  EXPECT_NEAR(z.z1, 0.4 + rule.nodes(0), 1e-16);
  EXPECT_NEAR(z.z2, 0.4 + rule.nodes(1), 1e-16);
  EXPECT_NEAR(kZannaLow, 0.5 - std::sqrt(3.0) / 6.0, 1e-16);
  EXPECT_NEAR(kZannaHigh, 0.5 + std::sqrt(3.0) / 6.0, 1e-16);
}

}  // namespace
}  // namespace tendril
