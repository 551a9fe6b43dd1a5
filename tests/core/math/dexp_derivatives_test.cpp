// Tests for core/math/dexp_derivatives.cpp: every derivative of T(Omega) against central finite
// differences of the function it differentiates, on both sides of the series switch.

#include "core/math/dexp_derivatives.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// central differences with step 1e-5 on O(1) smooth functions: truncation ~h^2 |f'''| ~ 1e-10,
// round-off ~eps/h ~ 2e-11 (the same budget as lie_test.cpp)
constexpr double kDexpStep = 1e-5;
constexpr double kDexpTolerance = 1e-8;

// a twist of rotation angle theta, with a random axis and translation
Vector6d twistWithAngle(double theta, std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vector6d Omega;
  for (int i = 0; i < 6; ++i) Omega(i) = n(rng);
  if (theta == 0.0) {
    Omega.head<3>().setZero();
  } else {
    Omega.head<3>() *= theta / Omega.head<3>().norm();
  }
  return Omega;
}

Vector6d randomVector(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vector6d v;
  for (int i = 0; i < 6; ++i) v(i) = n(rng);
  return v;
}

Matrix6d differenceInOmega(const std::function<Vector6d(const Vector6d&)>& f,
                           const Vector6d& Omega) {
  const Eigen::MatrixXd J = test::centralDifference(
      [&](const Eigen::VectorXd& x) -> Eigen::VectorXd { return f(x); }, Omega, kDexpStep);
  return J;
}

class DexpDerivatives : public ::testing::TestWithParam<double> {};

TEST_P(DexpDerivatives, JacobianOfTwMatchesFiniteDifferences) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    const Vector6d Omega = twistWithAngle(GetParam(), rng);
    const Vector6d w = randomVector(rng);
    TangentExpansion x;
    expandTangent(Omega, x);
    Matrix6d DT_w, DDT;
    dexpJacobians(x, w, randomVector(rng), DT_w, DDT);
    const Matrix6d reference =
        differenceInOmega([&](const Vector6d& O) { return dexpApply(O, w); }, Omega);
    EXPECT_LT(test::relativeError(DT_w, reference), kDexpTolerance);
    EXPECT_LT(test::relativeError(x.T, dexp(Omega)), 1e-14);
  }
}

TEST_P(DexpDerivatives, JacobianOfTransposeMatchesFiniteDifferences) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 5; ++trial) {
    const Vector6d Omega = twistWithAngle(GetParam(), rng);
    const Vector6d F = randomVector(rng);
    TangentExpansion x;
    expandTangent(Omega, x);
    const Matrix6d reference =
        differenceInOmega([&](const Vector6d& O) { return dexpTransposeApply(O, F); }, Omega);
    EXPECT_LT(test::relativeError(dexpTransposeJacobian(x, F), reference), kDexpTolerance);
  }
}

// T'(Omega, w) w: the second derivative of T w along the joint's own rate w (C24's core)
TEST_P(DexpDerivatives, JacobianOfTDotMatchesFiniteDifferences) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 5; ++trial) {
    const Vector6d Omega = twistWithAngle(GetParam(), rng);
    const Vector6d w = randomVector(rng), d = randomVector(rng), delta = randomVector(rng);
    TangentExpansion x;
    expandTangent(Omega, x);
    Matrix6d DT_w, DDT;
    dexpJacobians(x, w, Vector6d::Zero(), DT_w, DDT);
    const Matrix6d reference =
        differenceInOmega([&](const Vector6d& O) -> Vector6d { return dexpDot(O, w) * w; }, Omega);
    EXPECT_LT(test::relativeError(DDT, reference), kDexpTolerance);
    // with a drive d: d(T'(Omega, w) w + T(Omega) d)/dOmega in the same pass
    dexpJacobians(x, w, d, DT_w, DDT);
    const Matrix6d reference_d = differenceInOmega(
        [&](const Vector6d& O) -> Vector6d { return dexpDot(O, w) * w + dexp(O) * d; }, Omega);
    EXPECT_LT(test::relativeError(DDT, reference_d), kDexpTolerance);
    // the rate from the expansion is the one of lie.cpp (checked against differences there)
    EXPECT_LT(test::relativeError(tangentRate(x, delta), dexpDot(Omega, delta)), 1e-13);
    // consistency: d(T w)/dOmega delta is T'(Omega, delta) w for any delta
    EXPECT_LT(test::relativeError(DT_w * delta, dexpDot(Omega, delta) * w), 1e-13);
  }
}

// zero rotation, tiny, around a common 1e-2 switch, both sides of the series switch at 2, large
INSTANTIATE_TEST_SUITE_P(Angles, DexpDerivatives,
                         ::testing::Values(0.0, 1e-6, 1e-2, 0.7, 2.0 - 1e-9, 2.0 + 1e-9, 2.9));

}  // namespace
}  // namespace tendril
