// Tests for core/model/strain_basis.cpp.

#include "core/model/strain_basis.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "core/math/quadrature.hpp"

namespace tendril {
namespace {


Eigen::VectorXd evalFamily(BasisFamily family, int order, double s) {
  Eigen::VectorXd values(order + 1);
  evalBasisFunctions(family, order, s, values);
  return values;
}

// gram matrix integral_0^1 phi_i phi_j ds with an n-point Gauss rule
Eigen::MatrixXd gram(BasisFamily family, int order, int n) {
  const GaussRule rule = gaussLegendre(n, 1.0);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(order + 1, order + 1);
  for (int i = 0; i < n; ++i) {
    const Eigen::VectorXd phi = evalFamily(family, order, rule.nodes(i));
    G += rule.weights(i) * phi * phi.transpose();
  }
  return G;
}

TEST(StrainBasisTest, MonomialValues) {
  const Eigen::VectorXd v = evalFamily(BasisFamily::Monomial, 4, 0.3);
  for (int i = 0; i <= 4; ++i) {
    EXPECT_NEAR(v(i), std::pow(0.3, i), 1e-16);
  }
}

TEST(StrainBasisTest, LegendreMatchesExplicitPolynomials) {
  for (const double s : {0.0, 0.13, 0.5, 0.77, 1.0}) {
    const double x = 2.0 * s - 1.0;
    const Eigen::VectorXd v = evalFamily(BasisFamily::Legendre, 4, s);
    EXPECT_EQ(v(0), 1.0);
    EXPECT_NEAR(v(1), x, 1e-15);
    EXPECT_NEAR(v(2), 0.5 * (3 * x * x - 1), 1e-15);
    EXPECT_NEAR(v(3), 0.5 * (5 * x * x * x - 3 * x), 1e-15);
    EXPECT_NEAR(v(4), (35 * std::pow(x, 4) - 30 * x * x + 3) / 8, 1e-15);
  }
}

TEST(StrainBasisTest, LegendreIsOrthogonalOnTheUnitInterval) {
  // P_i P_j has degree <= 2k, integrated exactly by k + 1 Gauss points: norm 1/(2i + 1)
  const int k = 8;
  const Eigen::MatrixXd G = gram(BasisFamily::Legendre, k, k + 1);
  for (int i = 0; i <= k; ++i) {
    for (int j = 0; j <= k; ++j) {
      const double expected = (i == j) ? 1.0 / (2 * i + 1) : 0.0;
      EXPECT_NEAR(G(i, j), expected, 1e-14) << i << "," << j;
    }
  }
}

TEST(StrainBasisTest, ChebyshevIsOrthogonalWithItsWeight) {
  // with 2s - 1 = cos t: integral_0^pi T_i T_j dt = pi (i = j = 0), pi/2 (i = j > 0), 0 otherwise;
  // the integrand cos(i t) cos(j t) is entire, so 30 Gauss points on [0, pi] are exact to round-off
  const int k = 8;
  const GaussRule rule = gaussLegendre(30, std::numbers::pi);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(k + 1, k + 1);
  for (int n = 0; n < rule.nodes.size(); ++n) {
    const double t = rule.nodes(n);
    const Eigen::VectorXd phi = evalFamily(BasisFamily::Chebyshev, k, 0.5 * (1.0 + std::cos(t)));
    for (int i = 0; i <= k; ++i) {
      EXPECT_NEAR(phi(i), std::cos(i * t), 1e-13);
    }
    G += rule.weights(n) * phi * phi.transpose();
  }
  for (int i = 0; i <= k; ++i) {
    for (int j = 0; j <= k; ++j) {
      const double expected = (i != j) ? 0.0 : (i == 0 ? std::numbers::pi : 0.5 * std::numbers::pi);
      EXPECT_NEAR(G(i, j), expected, 1e-13) << i << "," << j;
    }
  }
}

TEST(StrainBasisTest, FourierOrderingAndOrthogonality) {
  const Eigen::VectorXd v = evalFamily(BasisFamily::Fourier, 4, 0.1);
  EXPECT_EQ(v(0), 1.0);
  EXPECT_NEAR(v(1), std::cos(2 * std::numbers::pi * 0.1), 1e-15);
  EXPECT_NEAR(v(2), std::sin(2 * std::numbers::pi * 0.1), 1e-15);
  EXPECT_NEAR(v(3), std::cos(4 * std::numbers::pi * 0.1), 1e-15);
  EXPECT_NEAR(v(4), std::sin(4 * std::numbers::pi * 0.1), 1e-15);

  // integral over one period: 1 for the constant, 1/2 for every cos/sin, 0 off the diagonal
  const int k = 6;
  const Eigen::MatrixXd G = gram(BasisFamily::Fourier, k, 30);
  for (int i = 0; i <= k; ++i) {
    for (int j = 0; j <= k; ++j) {
      const double expected = (i != j) ? 0.0 : (i == 0 ? 1.0 : 0.5);
      EXPECT_NEAR(G(i, j), expected, 1e-13) << i << "," << j;
    }
  }
}

TEST(StrainBasisTest, GaussianBumpsAreCentredUniformly) {
  const int k = 4;
  const double sigma = 1.0 / (2.0 * k);
  for (int i = 0; i <= k; ++i) {
    const double c = static_cast<double>(i) / k;
    const Eigen::VectorXd at_centre = evalFamily(BasisFamily::Gaussian, k, c);
    EXPECT_DOUBLE_EQ(at_centre(i), 1.0);
    // one sigma away the bump is exp(-1/2)
    const double s = (i < k) ? c + sigma : c - sigma;
    EXPECT_NEAR(evalFamily(BasisFamily::Gaussian, k, s)(i), std::exp(-0.5), 1e-15);
  }
  // single bump in the middle for order 0
  EXPECT_DOUBLE_EQ(evalFamily(BasisFamily::Gaussian, 0, 0.5)(0), 1.0);
  EXPECT_NEAR(evalFamily(BasisFamily::Gaussian, 0, 0.0)(0), std::exp(-0.5), 1e-15);
  // the bumps are linearly independent: the gram matrix is well conditioned
  const Eigen::MatrixXd G = gram(BasisFamily::Gaussian, k, 30);
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(G).eigenvalues();
  EXPECT_GT(ev.minCoeff(), 1e-3 * ev.maxCoeff());
}

TEST(StrainBasisTest, PiecewiseConstantIsAPartitionOfUnity) {
  const int k = 3;  // four pieces of width 1/4
  const struct {
    double s;
    int piece;
  } cases[] = {{0.0, 0}, {0.2, 0}, {0.25, 1}, {0.49, 1}, {0.5, 2},
               {0.8, 3}, {1.0, 3}, {-0.1, 0}, {1.2, 3}};
  for (const auto& c : cases) {
    const Eigen::VectorXd v = evalFamily(BasisFamily::PiecewiseConstant, k, c.s);
    EXPECT_EQ(v.sum(), 1.0) << c.s;
    EXPECT_EQ(v(c.piece), 1.0) << c.s;
  }
  // mass of each piece
  const Eigen::MatrixXd G = gram(BasisFamily::PiecewiseConstant, 1, 2);
  EXPECT_NEAR(G(0, 0), 0.5, 1e-15);
  EXPECT_NEAR(G(1, 1), 0.5, 1e-15);
  EXPECT_EQ(G(0, 1), 0.0);
}

TEST(StrainBasisTest, DofCountsAndOffsets) {
  StrainBasisDesc desc;
  desc.order = {-1, -1, -1, -1, -1, -1};
  EXPECT_EQ(strainBasisDof(desc), 0);
  desc.order = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(strainBasisDof(desc), 6);
  desc.order = {2, 2, 2, -1, -1, -1};  // default: kirchhoff rod, quadratic
  EXPECT_EQ(strainBasisDof(desc), 9);
  EXPECT_EQ(strainBasisDof(StrainBasisDesc{}), 9);

  desc.order = {2, -1, 0, 1, -1, 3};
  EXPECT_EQ(strainBasisDof(desc), 3 + 1 + 2 + 4);
  EXPECT_EQ(strainComponentOffset(desc, 0), 0);
  EXPECT_EQ(strainComponentOffset(desc, 1), -1);
  EXPECT_EQ(strainComponentOffset(desc, 2), 3);
  EXPECT_EQ(strainComponentOffset(desc, 3), 4);
  EXPECT_EQ(strainComponentOffset(desc, 4), -1);
  EXPECT_EQ(strainComponentOffset(desc, 5), 6);
}

TEST(StrainBasisTest, PhiHasTheBlockLayout) {
  StrainBasisDesc desc;
  desc.family = BasisFamily::Legendre;
  desc.order = {2, -1, 0, 1, -1, 3};
  const int n = strainBasisDof(desc);
  const double s = 0.3;

  // NaN-filled output: every entry must be written
  Eigen::MatrixXd Phi = Eigen::MatrixXd::Constant(6, n, std::nan(""));
  evalStrainBasis(desc, s, Phi);
  ASSERT_TRUE(Phi.allFinite());

  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, n);
  expected.block(0, 0, 1, 3) = evalFamily(BasisFamily::Legendre, 2, s).transpose();
  expected(2, 3) = 1.0;
  expected.block(3, 4, 1, 2) = evalFamily(BasisFamily::Legendre, 1, s).transpose();
  expected.block(5, 6, 1, 4) = evalFamily(BasisFamily::Legendre, 3, s).transpose();
  EXPECT_EQ(Phi, expected);

  // writes into a 6 x n block of a larger matrix as well
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(8, n + 3);
  evalStrainBasis(desc, s, big.block(1, 2, 6, n));
  EXPECT_EQ(big.block(1, 2, 6, n), expected);
  EXPECT_EQ(big.col(0).norm() + big.row(0).norm() + big.row(7).norm(), 0.0);
}

TEST(StrainBasisTest, EveryFamilyFillsEveryBlock) {
  for (const BasisFamily family :
       {BasisFamily::Monomial, BasisFamily::Legendre, BasisFamily::Chebyshev, BasisFamily::Fourier,
        BasisFamily::Gaussian, BasisFamily::PiecewiseConstant}) {
    StrainBasisDesc desc;
    desc.family = family;
    desc.order = {1, 2, 3, 0, 1, 2};
    const int n = strainBasisDof(desc);
    ASSERT_EQ(n, 15);
    Eigen::MatrixXd Phi(6, n);
    evalStrainBasis(desc, 0.61, Phi);
    int col = 0;
    for (int r = 0; r < 6; ++r) {
      const int count = desc.order[r] + 1;
      const Eigen::VectorXd values = evalFamily(family, desc.order[r], 0.61);
      EXPECT_EQ(Phi.block(r, col, 1, count), values.transpose());
      // zeros above and below the block
      EXPECT_EQ(Phi.block(0, col, 6, count).cwiseAbs().sum(),
                Phi.block(r, col, 1, count).cwiseAbs().sum());
      col += count;
    }
  }
}

}  // namespace
}  // namespace tendril
