// Tests for core/math/spatial_inertia.cpp: the compact transforms against the dense formulas.

#include "core/math/spatial_inertia.hpp"

#include <gtest/gtest.h>

#include <random>

namespace tendril {
namespace {

// exact algebra in double on O(1) entries
constexpr double kInertiaTolerance = 1e-12;

SE3 randomPoseByExp(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vector6d V;
  for (double& x : V) x = 2.0 * u(rng);
  return exp(V);
}

DiagonalInertia randomDiagonal(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  DiagonalInertia M;
  for (double& x : M.offset) x = u(rng);
  for (double& x : M.diagonal) x = 1.0 + u(rng);
  return M;
}

TEST(DiagonalInertia, MatrixIsTheDiagonalShiftedToTheOffset) {
  std::mt19937 rng(3);
  const DiagonalInertia D = randomDiagonal(rng);
  SE3 c;
  c.p = D.offset;
  const Matrix6d expected = coAd(c) * D.diagonal.asDiagonal() * coAd(c).transpose();
  EXPECT_LT((D.matrix() - expected).cwiseAbs().maxCoeff(), kInertiaTolerance);
}

// a rigid body's inertia with its centre of mass off the origin and a full rotational inertia
SpatialInertia randomRigidInertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  SpatialInertia body;
  body.m = 2.0 + u(rng);
  const Eigen::Vector3d c(u(rng), u(rng), u(rng));
  Eigen::Matrix3d A;
  for (double& x : A.reshaped()) x = u(rng);
  const Eigen::Matrix3d I_c = A * A.transpose() + Eigen::Matrix3d::Identity();
  body.h = body.m * c;
  body.I = I_c - body.m * skew(c) * skew(c);
  return body;
}

TEST(SpatialInertiaTransform, CompactFormEqualsTheDenseCoadjointProducts) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = randomPoseByExp(rng);
    const SpatialInertia body = randomRigidInertia(rng);
    const Matrix6d expected = coAd(g) * body.matrix() * coAd(g).transpose();
    const Matrix6d actual = body.transformed(g).matrix();
    EXPECT_LT((actual - expected).cwiseAbs().maxCoeff(), kInertiaTolerance);
  }
}

TEST(TransformedInertia, DiagonalFormMatchesTheDenseProducts) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = randomPoseByExp(rng);
    DiagonalInertia D = randomDiagonal(rng);
    if (trial % 2 == 0) D.diagonal.head<3>().setZero();  // a rod section's transverse added mass
    const Matrix6d M = D.matrix();
    const Matrix6d expected = coAd(g) * M * coAd(g).transpose();
    EXPECT_LT((transformedInertia(g, M, D) - expected).cwiseAbs().maxCoeff(), kInertiaTolerance);
    EXPECT_LT((transformedInertia(g, M, std::nullopt) - expected).cwiseAbs().maxCoeff(),
              kInertiaTolerance);
  }
}

TEST(TransformedInertia, DenseFallbackTakesAGeneralSymmetricMatrix) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix6d M;
  for (double& x : M.reshaped()) x = u(rng);
  M = (M + M.transpose()).eval();
  const SE3 g = randomPoseByExp(rng);
  const Matrix6d expected = coAd(g) * M * coAd(g).transpose();
  EXPECT_LT((transformedInertia(g, M, std::nullopt) - expected).cwiseAbs().maxCoeff(),
            kInertiaTolerance);
}

}  // namespace
}  // namespace tendril
