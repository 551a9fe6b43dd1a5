// Tests for core/math/lie.cpp.

#include "core/math/lie.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

namespace tendril {
namespace {

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;

constexpr double kPi = std::numbers::pi;

// identity checks: exact algebra evaluated in double, O(1) entries
constexpr double kIdentityTol = 1e-12;
// central differences: step 1e-5 balances truncation (~h^2 |f'''|/6 ~ 1e-10) and round-off
// (~eps/h ~ 2e-11), docs/theory/gvs.md (O6)
constexpr double kFdTol = 1e-8;
constexpr double kFdStep = 1e-5;

// the rotation angles every angle-dependent test visits: zero, tiny, around the 1e-2 often
// suggested for the series, around the actual switch, large, and close to pi
std::vector<double> testAngles() {
  return {0.0,
          1e-9,
          1e-4,
          1e-2 * (1.0 - 1e-9),
          1e-2 * (1.0 + 1e-9),
          0.3,
          1.0,
          kTangentSeriesThreshold * (1.0 - 1e-12),
          kTangentSeriesThreshold * (1.0 + 1e-12),
          2.0 * kPi / 3.0 + 1e-9,
          3.0,
          kPi - 1e-6};
}

Vector3d randomUnit(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  return Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
}

Vector6d randomVector6(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> uniform(-scale, scale);
  Vector6d V;
  for (int i = 0; i < 6; ++i) {
    V(i) = uniform(rng);
  }
  return V;
}

// a twist with a prescribed rotation angle and a random O(1) translation part
Vector6d twistWithAngle(std::mt19937& rng, double theta) {
  Vector6d V;
  V.head<3>() = theta * randomUnit(rng);
  V.tail<3>() = randomVector6(rng).head<3>();
  return V;
}

// a random pose built from Eigen's angle-axis, independent of tendril::exp
SE3 randomPose(std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(0.0, kPi);
  SE3 g;
  g.R = Eigen::AngleAxisd(angle(rng), randomUnit(rng)).toRotationMatrix();
  g.p = 2.0 * randomVector6(rng).head<3>();
  return g;
}

// reference matrix exponential of hat(V) (scaling and squaring Pade)
Matrix4d expReference(const Vector6d& V) {
  return hat(V).exp();
}

// reference tangent operator: the truncated series sum_{k<30} ad^k/(k+1)!
Matrix6d dexpReference(const Vector6d& Omega) {
  const Matrix6d A = ad(Omega);
  Matrix6d term = Matrix6d::Identity();
  Matrix6d sum = Matrix6d::Identity();
  for (int k = 1; k < 30; ++k) {
    term = term * A / static_cast<double>(k + 1);
    sum += term;
  }
  return sum;
}

// se(3) bracket from the 4x4 commutator, independent of ad()
Vector6d bracketReference(const Vector6d& V, const Vector6d& W) {
  return vee(hat(V) * hat(W) - hat(W) * hat(V));
}

// the closed forms of f_r, f_r'/t and f_r'' in long double (docs/theory/gvs.md (C16))
struct LongDoubleCoefficients {
  long double f[4], df_over_theta[4], ddf[4];
};

LongDoubleCoefficients closedFormsLongDouble(long double t) {
  const long double s = std::sin(t), c = std::cos(t);
  LongDoubleCoefficients k{};
  k.f[0] = (4 - 4 * c - t * s) / (2 * std::pow(t, 2));
  k.f[1] = (4 * t - 5 * s + t * c) / (2 * std::pow(t, 3));
  k.f[2] = (2 - 2 * c - t * s) / (2 * std::pow(t, 4));
  k.f[3] = (2 * t - 3 * s + t * c) / (2 * std::pow(t, 5));
  const long double d1 = (-8 + (8 - t * t) * c + 5 * t * s) / (2 * std::pow(t, 3));
  const long double d2 = (-8 * t + (15 - t * t) * s - 7 * t * c) / (2 * std::pow(t, 4));
  const long double d3 = (-8 + (8 - t * t) * c + 5 * t * s) / (2 * std::pow(t, 5));
  const long double d4 = (-8 * t + (15 - t * t) * s - 7 * t * c) / (2 * std::pow(t, 6));
  k.df_over_theta[0] = d1 / t;
  k.df_over_theta[1] = d2 / t;
  k.df_over_theta[2] = d3 / t;
  k.df_over_theta[3] = d4 / t;
  k.ddf[0] = (24 - (24 - 6 * t * t) * c - (18 * t - t * t * t) * s) / (2 * std::pow(t, 4));
  k.ddf[1] = (24 * t - (60 - 9 * t * t) * s + (36 * t - t * t * t) * c) / (2 * std::pow(t, 5));
  k.ddf[2] = (40 - (40 - 8 * t * t) * c - (28 * t - t * t * t) * s) / (2 * std::pow(t, 6));
  k.ddf[3] = (40 * t - (90 - 11 * t * t) * s + (50 * t - t * t * t) * c) / (2 * std::pow(t, 7));
  return k;
}

// the small-angle series of f_r (docs/theory/gvs.md §4), truncated after the theta^4 terms
TangentCoefficients digestSeries(double t) {
  const double t2 = t * t, t4 = t2 * t2, t6 = t4 * t2;
  TangentCoefficients k{};
  k.f[0] = 0.5 - t4 / 720 + t6 / 20160;
  k.f[1] = 1.0 / 6 - t4 / 5040;
  k.f[2] = 1.0 / 24 - t2 / 360 + t4 / 13440;
  k.f[3] = 1.0 / 120 - t2 / 2520 + t4 / 120960;
  k.df_over_theta[0] = -t2 / 180 + t4 / 3360;
  k.df_over_theta[1] = -t2 / 1260 + t4 / 30240;
  k.df_over_theta[2] = -1.0 / 180 + t2 / 3360;
  k.df_over_theta[3] = -1.0 / 1260 + t2 / 30240;
  k.ddf[0] = -t2 / 60 + t4 / 672;
  k.ddf[1] = -t2 / 420 + t4 / 6048;
  k.ddf[2] = -1.0 / 180 + t2 / 1120;
  k.ddf[3] = -1.0 / 1260 + t2 / 10080;
  return k;
}

double maxAbs(const Eigen::MatrixXd& M) {
  return M.cwiseAbs().maxCoeff();
}

// product integral of g' = g hat(xi(X)) on [x0, x0 + h] with many small RK4 steps
Matrix4d productIntegral(const std::function<Vector6d(double)>& xi, double x0, double h,
                         int steps) {
  Matrix4d g = Matrix4d::Identity();
  const double dx = h / steps;
  for (int i = 0; i < steps; ++i) {
    const double x = x0 + i * dx;
    const Matrix4d A0 = hat(xi(x));
    const Matrix4d Am = hat(xi(x + 0.5 * dx));
    const Matrix4d A1 = hat(xi(x + dx));
    const Matrix4d k1 = g * A0;
    const Matrix4d k2 = (g + 0.5 * dx * k1) * Am;
    const Matrix4d k3 = (g + 0.5 * dx * k2) * Am;
    const Matrix4d k4 = (g + dx * k3) * A1;
    g += dx / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------

TEST(LieTest, SkewHatAndVeeFollowTheConventions) {
  std::mt19937 rng(1);
  const Vector3d a = randomVector6(rng).head<3>();
  const Vector3d b = randomVector6(rng).head<3>();
  EXPECT_LT((skew(a) * b - a.cross(b)).norm(), kIdentityTol);

  // angular part first: hat(V) = [[w~, v], [0, 0]]
  Vector6d V;
  V << 1, 2, 3, 4, 5, 6;
  Matrix4d expected;
  expected << 0, -3, 2, 4,  //
      3, 0, -1, 5,          //
      -2, 1, 0, 6,          //
      0, 0, 0, 0;
  EXPECT_EQ(hat(V), expected);
  EXPECT_EQ(vee(hat(V)), V);
}

TEST(LieTest, PoseOperationsMatchHomogeneousMatrices) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g1 = randomPose(rng);
    const SE3 g2 = randomPose(rng);
    const Vector3d x = randomVector6(rng).head<3>();
    EXPECT_LT(maxAbs((g1 * g2).matrix() - g1.matrix() * g2.matrix()), kIdentityTol);
    EXPECT_LT(maxAbs(g1.inverse().matrix() - g1.matrix().inverse()), kIdentityTol);
    EXPECT_LT(maxAbs((g1 * g1.inverse()).matrix() - Matrix4d::Identity()), kIdentityTol);
    const Eigen::Vector4d xh = g1.matrix() * x.homogeneous();
    EXPECT_LT((g1.act(x) - xh.head<3>()).norm(), kIdentityTol);
  }
  EXPECT_EQ(SE3::Identity().matrix(), Matrix4d::Identity());
}

TEST(LieTest, ExpMatchesMatrixExponential) {
  std::mt19937 rng(3);
  for (const double theta : testAngles()) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vector6d V = twistWithAngle(rng, theta);
      const Matrix4d g = exp(V).matrix();
      EXPECT_LT(maxAbs(g - expReference(V)), 1e-13) << "theta = " << theta;
      // R stays a rotation
      const Matrix3d R = g.topLeftCorner<3, 3>();
      EXPECT_LT(maxAbs(R.transpose() * R - Matrix3d::Identity()), 1e-14) << "theta = " << theta;
    }
  }
}

TEST(LieTest, ExpOfPureTranslationIsExact) {
  Vector6d V;
  V << 0, 0, 0, 0.3, -1.7, 2.9;
  const SE3 g = exp(V);
  EXPECT_EQ(g.R, Matrix3d::Identity());
  EXPECT_EQ(g.p, V.tail<3>());
  EXPECT_EQ(log(g), V);
}

TEST(LieTest, LogInvertsExp) {
  std::mt19937 rng(4);
  std::vector<double> angles = testAngles();
  angles.push_back(kPi - 1e-3);
  angles.push_back(kPi - 1e-8);
  for (const double theta : angles) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vector6d V = twistWithAngle(rng, theta);
      // conditioning of the rotation vector degrades like 1/(pi - theta) near pi
      const double tol = theta > 3.0 ? 1e-12 / (kPi - theta) * 1e-3 + 1e-12 : 1e-13;
      EXPECT_LT((log(exp(V)) - V).norm(), tol) << "theta = " << theta;
    }
  }
}

TEST(LieTest, ExpInvertsLogIncludingHalfTurns) {
  std::mt19937 rng(5);
  std::vector<SE3> poses;
  for (int trial = 0; trial < 50; ++trial) {
    poses.push_back(randomPose(rng));
  }
  // exact half turns about coordinate and oblique axes
  for (const Vector3d& axis : {Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(0, 0, 1),
                               Vector3d(1, -2, 0.5).normalized()}) {
    SE3 g;
    g.R = Eigen::AngleAxisd(kPi, axis).toRotationMatrix();
    g.p = Vector3d(0.4, -0.1, 0.9);
    poses.push_back(g);
  }
  for (const SE3& g : poses) {
    const Vector6d V = log(g);
    EXPECT_LE(V.head<3>().norm(), kPi + 1e-12);
    EXPECT_LT(maxAbs(exp(V).matrix() - g.matrix()), 1e-13);
  }
}

TEST(LieTest, AdjointMatricesMatchTheirDefinitions) {
  std::mt19937 rng(6);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = randomPose(rng);
    const Vector6d V = randomVector6(rng);
    const Vector6d W = randomVector6(rng);
    const Vector6d F = randomVector6(rng);

    // hat(Ad_g V) = g hat(V) g^{-1}
    const Matrix4d conj = g.matrix() * hat(V) * g.matrix().inverse();
    EXPECT_LT((Ad(g) * V - vee(conj)).norm(), kIdentityTol);
    EXPECT_LT(maxAbs(AdInv(g) - Ad(g).inverse()), kIdentityTol);
    EXPECT_LT(maxAbs(AdInv(g) - Ad(g.inverse())), kIdentityTol);
    EXPECT_LT(maxAbs(coAd(g) - Ad(g).inverse().transpose()), kIdentityTol);
    EXPECT_LT(maxAbs(coAdInv(g) - Ad(g).transpose()), kIdentityTol);

    // ad_V W = [V, W]; ad* = -ad^T; adbar* from docs/theory/notation.md (B3)
    EXPECT_LT((ad(V) * W - bracketReference(V, W)).norm(), kIdentityTol);
    EXPECT_LT(maxAbs(coad(V) + ad(V).transpose()), kIdentityTol);
    EXPECT_LT((coad(V) * F - coadBar(F) * V).norm(), kIdentityTol);

    // apply forms equal the matrix forms
    EXPECT_LT((applyAd(g, V) - Ad(g) * V).norm(), kIdentityTol);
    EXPECT_LT((applyAdInv(g, V) - AdInv(g) * V).norm(), kIdentityTol);
    EXPECT_LT((applyCoAd(g, F) - coAd(g) * F).norm(), kIdentityTol);
    EXPECT_LT((applyCoAdInv(g, F) - coAdInv(g) * F).norm(), kIdentityTol);
    EXPECT_LT((ad(V, W) - ad(V) * W).norm(), kIdentityTol);
    EXPECT_LT((coad(V, F) - coad(V) * F).norm(), kIdentityTol);

    // wrench transport preserves power: (Ad*_g F) . (Ad_g V) = F . V
    EXPECT_NEAR(applyCoAd(g, F).dot(applyAd(g, V)), F.dot(V), kIdentityTol);
  }
}

TEST(LieTest, IdentitiesB1ToB9) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = randomPose(rng);
    const Vector6d V = randomVector6(rng);
    const Vector6d V2 = randomVector6(rng);
    const Vector6d F = randomVector6(rng);
    const Matrix6d A = Ad(g);
    const Matrix6d Ai = AdInv(g);
    const Matrix6d As = coAd(g);
    const Matrix6d Ais = coAdInv(g);

    // docs/theory/notation.md (B1, B2, B3)
    EXPECT_LT(maxAbs(coad(V) + ad(V).transpose()), kIdentityTol);
    EXPECT_LT((ad(V) * V2 + ad(V2) * V).norm(), kIdentityTol);
    EXPECT_LT((coad(V) * V2 - coadBar(V2) * V).norm(), kIdentityTol);
    // docs/theory/notation.md (B4, B5)
    EXPECT_LT(maxAbs(A * ad(V) - ad(A * V) * A), kIdentityTol);
    EXPECT_LT(maxAbs(ad(V) * A - A * ad(Ai * V)), kIdentityTol);
    // docs/theory/notation.md (B6, B7)
    EXPECT_LT(maxAbs(As * coad(V) - coad(A * V) * As), kIdentityTol);
    EXPECT_LT(maxAbs(coad(V) * As - As * coad(Ai * V)), kIdentityTol);
    // docs/theory/notation.md (B8, B9)
    EXPECT_LT(maxAbs(As * coadBar(F) - coadBar(As * F) * A), kIdentityTol);
    EXPECT_LT(maxAbs(coadBar(F) * A - As * coadBar(Ais * F)), kIdentityTol);
  }
}

TEST(LieTest, AdjointTimeDerivativesB10ToB13) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 10; ++trial) {
    // g(t) = g0 exp(t eta) has body velocity eta (docs/theory/notation.md (B15))
    const SE3 g0 = randomPose(rng);
    const Vector6d eta = randomVector6(rng);
    const SE3 gp = g0 * exp(kFdStep * eta);
    const SE3 gm = g0 * exp(-kFdStep * eta);
    const auto fd = [&](Matrix6d (*map)(const SE3&)) -> Matrix6d {
      return (map(gp) - map(gm)) / (2.0 * kFdStep);
    };
    EXPECT_LT(maxAbs(fd(&Ad) - Ad(g0) * ad(eta)), kFdTol);
    EXPECT_LT(maxAbs(fd(&coAd) - coAd(g0) * coad(eta)), kFdTol);
    EXPECT_LT(maxAbs(fd(&AdInv) + ad(eta) * AdInv(g0)), kFdTol);
    EXPECT_LT(maxAbs(fd(&coAdInv) + coad(eta) * coAdInv(g0)), kFdTol);
  }
}

TEST(LieTest, TangentOperatorMatchesSeries) {
  std::mt19937 rng(9);
  for (const double theta : testAngles()) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vector6d Omega = twistWithAngle(rng, theta);
      const Matrix6d T = dexp(Omega);
      EXPECT_LT(maxAbs(T - dexpReference(Omega)), kIdentityTol) << "theta = " << theta;

      // apply forms
      const Vector6d V = randomVector6(rng);
      EXPECT_LT((dexpApply(Omega, V) - T * V).norm(), kIdentityTol);
      EXPECT_LT((dexpTransposeApply(Omega, V) - T.transpose() * V).norm(), kIdentityTol);
    }
  }
}

TEST(LieTest, TangentOperatorIsRightTrivialisedDerivativeOfExp) {
  std::mt19937 rng(10);
  for (const double theta : testAngles()) {
    for (int trial = 0; trial < 3; ++trial) {
      // (d/dt exp(Omega + t Omega')) exp(-Omega) = hat(T(Omega) Omega')
      const Vector6d Omega = twistWithAngle(rng, theta);
      const Vector6d Omega_dot = randomVector6(rng);
      const Matrix4d dg =
          (exp(Omega + kFdStep * Omega_dot).matrix() - exp(Omega - kFdStep * Omega_dot).matrix()) /
          (2.0 * kFdStep);
      const Matrix4d lhs = dg * exp(Omega).inverse().matrix();
      EXPECT_LT(maxAbs(lhs - hat(dexp(Omega) * Omega_dot)), kFdTol) << "theta = " << theta;
    }
  }
}

TEST(LieTest, TangentCoefficientsMatchClosedFormsInLongDouble) {
  // long double closed forms cancel like eps_ld/t^6 (eps_ld ~ 1e-19): trusted above t = 0.5
  for (double theta = 0.5; theta <= 3.5; theta += 0.01) {
    const TangentCoefficients k = tangentCoefficients(theta);
    const LongDoubleCoefficients ref = closedFormsLongDouble(theta);
    for (int r = 0; r < 4; ++r) {
      const auto near = [](double value, long double expected) {
        return std::abs(value - static_cast<double>(expected)) <=
               1e-12 * std::abs(static_cast<double>(expected)) + 1e-16;
      };
      EXPECT_TRUE(near(k.f[r], ref.f[r])) << "f" << r + 1 << " at " << theta;
      EXPECT_TRUE(near(k.df_over_theta[r], ref.df_over_theta[r]))
          << "f" << r + 1 << "'/t at " << theta;
      EXPECT_TRUE(near(k.ddf[r], ref.ddf[r])) << "f" << r + 1 << "'' at " << theta;
    }
  }
}

TEST(LieTest, TangentCoefficientsMatchDigestSeriesForSmallAngles) {
  for (const double theta : {0.0, 1e-9, 1e-4, 1e-3, 1e-2}) {
    const TangentCoefficients k = tangentCoefficients(theta);
    const TangentCoefficients ref = digestSeries(theta);
    for (int r = 0; r < 4; ++r) {
      // the printed series drop terms of order t^6 (f) or t^4 (f'/t, f''); the largest dropped
      // coefficient is 120/10! = 3.3e-5 (t^4 of f3''), i.e. 3.3e-13 at t = 1e-2
      EXPECT_NEAR(k.f[r], ref.f[r], 1e-15) << "f" << r + 1 << " at " << theta;
      EXPECT_NEAR(k.df_over_theta[r], ref.df_over_theta[r], 5e-13) << r + 1 << " at " << theta;
      EXPECT_NEAR(k.ddf[r], ref.ddf[r], 5e-13) << r + 1 << " at " << theta;
    }
  }
  // the values at zero are the exact 1/(r+1)!
  const TangentCoefficients k0 = tangentCoefficients(0.0);
  EXPECT_EQ(k0.f[0], 0.5);
  EXPECT_DOUBLE_EQ(k0.f[1], 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(k0.f[2], 1.0 / 24.0);
  EXPECT_DOUBLE_EQ(k0.f[3], 1.0 / 120.0);
}

TEST(LieTest, SeriesAndClosedFormsAgreeAtTheSwitch) {
  // both sides of the switch differ by 2e-13 in t, far below the tolerance
  const double below = kTangentSeriesThreshold * (1.0 - 1e-13);
  const double above = kTangentSeriesThreshold * (1.0 + 1e-13);
  const TangentCoefficients a = tangentCoefficients(below);
  const TangentCoefficients b = tangentCoefficients(above);
  for (int r = 0; r < 4; ++r) {
    EXPECT_NEAR(a.f[r], b.f[r], 1e-12 * std::abs(b.f[r])) << r + 1;
    EXPECT_NEAR(a.df_over_theta[r], b.df_over_theta[r], 1e-12 * std::abs(b.df_over_theta[r]))
        << r + 1;
    EXPECT_NEAR(a.ddf[r], b.ddf[r], 1e-12 * std::abs(b.ddf[r])) << r + 1;
  }

  // and so do T, T' and exp
  std::mt19937 rng(11);
  const Vector6d Omega = twistWithAngle(rng, 1.0);
  const Vector6d Omega_dot = randomVector6(rng);
  const Vector6d lo = Omega * below, hi = Omega * above;
  EXPECT_LT(maxAbs(dexp(lo) - dexp(hi)), 1e-12);
  EXPECT_LT(maxAbs(dexpDot(lo, Omega_dot) - dexpDot(hi, Omega_dot)), 1e-12);
  EXPECT_LT(maxAbs(exp(lo).matrix() - exp(hi).matrix()), 1e-12);
}

TEST(LieTest, TangentCoefficientDerivativesMatchFiniteDifferences) {
  // central differences of f and f' in t; both branches
  const double h = 1e-5;
  for (const double theta : {0.05, 0.5, 1.5, 1.99, 2.01, 2.5, 3.0}) {
    const TangentCoefficients k = tangentCoefficients(theta);
    const TangentCoefficients kp = tangentCoefficients(theta + h);
    const TangentCoefficients km = tangentCoefficients(theta - h);
    for (int r = 0; r < 4; ++r) {
      const double df_fd = (kp.f[r] - km.f[r]) / (2.0 * h);
      EXPECT_NEAR(k.df_over_theta[r] * theta, df_fd, kFdTol) << r + 1 << " at " << theta;
      const double ddf_fd =
          (kp.df_over_theta[r] * (theta + h) - km.df_over_theta[r] * (theta - h)) / (2.0 * h);
      EXPECT_NEAR(k.ddf[r], ddf_fd, kFdTol) << r + 1 << " at " << theta;
    }
  }
}

TEST(LieTest, DexpDotMatchesFiniteDifferences) {
  std::mt19937 rng(12);
  std::vector<double> angles = testAngles();
  angles.push_back(1e-6);
  angles.push_back(2.5);
  for (const double theta : angles) {
    for (int trial = 0; trial < 3; ++trial) {
      const Vector6d Omega = twistWithAngle(rng, theta);
      const Vector6d Omega_dot = randomVector6(rng);
      const Matrix6d fd =
          (dexp(Omega + kFdStep * Omega_dot) - dexp(Omega - kFdStep * Omega_dot)) / (2.0 * kFdStep);
      const Matrix6d T_dot = dexpDot(Omega, Omega_dot);
      EXPECT_LT(maxAbs(T_dot - fd), kFdTol) << "theta = " << theta;
      EXPECT_GT(maxAbs(T_dot), 1e-3);  // not trivially zero

      Matrix6d T, T_dot2;
      dexpAndDot(Omega, Omega_dot, T, T_dot2);
      EXPECT_EQ(T, dexp(Omega));
      EXPECT_EQ(T_dot2, T_dot);

      // the matrix-free product used by the velocity stage
      const Vector6d x = randomVector6(rng);
      const Vector6d product = T_dot * x;
      EXPECT_LT((dexpDotApply(Omega, Omega_dot, x) - product).cwiseAbs().maxCoeff(),
                1e-14 * (1.0 + product.cwiseAbs().maxCoeff()))
          << "theta = " << theta;

      // the joint's velocity and acceleration terms in one pass (inverseDynamicsWithoutSubspaces)
      Vector6d velocity, acceleration;
      dexpRates(Omega, Omega_dot, x, velocity, acceleration);
      const Vector6d expected_velocity = T * Omega_dot;
      const Vector6d expected_acceleration = T * x + T_dot * Omega_dot;
      EXPECT_LT((velocity - expected_velocity).cwiseAbs().maxCoeff(),
                1e-14 * (1.0 + expected_velocity.cwiseAbs().maxCoeff()));
      EXPECT_LT((acceleration - expected_acceleration).cwiseAbs().maxCoeff(),
                1e-14 * (1.0 + expected_acceleration.cwiseAbs().maxCoeff()))
          << "theta = " << theta;
    }
  }
}

TEST(LieTest, Magnus4OfConstantStrainIsExact) {
  // O12: the commutator vanishes, so both orders give h xi, and exp(h xi) is the exact flow. The
  // 4th-order sum adds c [xi, xi], whose cross products are exactly zero only without fused
  // multiply-adds (fma(a, b, -c d) rounds one product, not the other): then it is the rounding of
  // those products, a few eps c |xi|^2
  std::mt19937 rng(13);
  for (int trial = 0; trial < 5; ++trial) {
    const Vector6d xi = randomVector6(rng, 3.0);
    const double h = 0.37;
    const double bracket_rounding =
        4.0 * std::numeric_limits<double>::epsilon() * zannaCommutatorFactor(h) * xi.squaredNorm();
    EXPECT_LE(maxAbs(magnus4(xi, xi, h) - h * xi), bracket_rounding);
    EXPECT_EQ(magnus2(xi, h), (h * xi).eval());
    const Matrix4d g = productIntegral([&](double) { return xi; }, 0.0, h, 2000);
    EXPECT_LT(maxAbs(exp(h * xi).matrix() - g), 1e-12);
  }
}

TEST(LieTest, Magnus4ConvergesAtFifthOrderForLinearStrain) {
  // xi(X) = a + X b with non-commuting a, b; local error of Zanna-Magnus is O(h^5), midpoint O(h^3)
  Vector6d a, b;
  a << 0.3, -1.2, 0.8, 1.0, 0.1, -0.2;
  b << 2.0, 1.5, -3.0, 0.5, -1.0, 0.7;
  const auto xi = [&](double x) -> Vector6d { return a + x * b; };
  const double x0 = 0.3;

  std::vector<double> err4, err2;
  for (const double h : {0.2, 0.1, 0.05}) {
    const Matrix4d g = productIntegral(xi, x0, h, 4000);
    const double z1 = x0 + (0.5 - std::sqrt(3.0) / 6.0) * h;
    const double z2 = x0 + (0.5 + std::sqrt(3.0) / 6.0) * h;
    err4.push_back(maxAbs(exp(magnus4(xi(z1), xi(z2), h)).matrix() - g));
    err2.push_back(maxAbs(exp(magnus2(xi(x0 + 0.5 * h), h)).matrix() - g));
  }
  for (int i = 0; i + 1 < 3; ++i) {
    const double order4 = std::log2(err4[i] / err4[i + 1]);
    const double order2 = std::log2(err2[i] / err2[i + 1]);
    EXPECT_NEAR(order4, 5.0, 0.3) << "errors " << err4[i] << " " << err4[i + 1];
    EXPECT_NEAR(order2, 3.0, 0.3) << "errors " << err2[i] << " " << err2[i + 1];
  }
  EXPECT_LT(err4.back(), 1e-6);
  EXPECT_LT(err4.back(), 1e-2 * err2.back());
}

TEST(LieTest, MagnusRatesMatchFiniteDifferences) {
  // xi_z = Phi_z q + xi*, q(t) = q + t qd + t^2/2 qdd
  std::srand(14);
  const int n = 4;
  const double h = 0.15;
  const Eigen::MatrixXd Phi1 = Eigen::MatrixXd::Random(6, n);
  const Eigen::MatrixXd Phi2 = Eigen::MatrixXd::Random(6, n);
  Vector6d xi_star;
  xi_star << 0, 0, 0, 1, 0, 0;
  const Eigen::VectorXd q = Eigen::VectorXd::Random(n) * 3.0;
  const Eigen::VectorXd qd = Eigen::VectorXd::Random(n);
  const Eigen::VectorXd qdd = Eigen::VectorXd::Random(n);

  const auto omegaAt = [&](const Eigen::VectorXd& qq) -> Vector6d {
    return magnus4(Phi1 * qq + xi_star, Phi2 * qq + xi_star, h);
  };
  const auto zAt = [&](const Eigen::VectorXd& qq) -> Eigen::MatrixXd {
    Eigen::MatrixXd Z(6, n);
    magnus4Jacobian(Phi1 * qq + xi_star, Phi2 * qq + xi_star, Phi1, Phi2, h, Z);
    return Z;
  };
  const auto qAt = [&](double t) -> Eigen::VectorXd { return q + t * qd + 0.5 * t * t * qdd; };

  const Vector6d xi1 = Phi1 * q + xi_star, xi2 = Phi2 * q + xi_star;
  const Vector6d xid1 = Phi1 * qd, xid2 = Phi2 * qd;
  const Vector6d xidd1 = Phi1 * qdd, xidd2 = Phi2 * qdd;

  // Z = dOmega/dq (C4); Omega is quadratic in q, so central differences are exact up to round-off
  const Eigen::MatrixXd Z = zAt(q);
  for (int j = 0; j < n; ++j) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j) * kFdStep;
    const Vector6d col = (omegaAt(q + e) - omegaAt(q - e)) / (2.0 * kFdStep);
    EXPECT_LT((Z.col(j) - col).norm(), 1e-9);
  }

  // Omega' (C2) and Omega'' (C3) along q(t)
  const double dt = 1e-3;
  const Vector6d rate_fd = (omegaAt(qAt(dt)) - omegaAt(qAt(-dt))) / (2.0 * dt);
  const Vector6d acc_fd =
      (omegaAt(qAt(dt)) - 2.0 * omegaAt(qAt(0.0)) + omegaAt(qAt(-dt))) / (dt * dt);
  const Vector6d rate = magnus4Rate(xi1, xi2, xid1, xid2, h);
  EXPECT_LT((rate - rate_fd).norm(), 1e-8);
  EXPECT_LT((rate - Z * qd).norm(), kIdentityTol);  // C6
  EXPECT_LT((magnus4Acceleration(xi1, xi2, xid1, xid2, xidd1, xidd2, h) - acc_fd).norm(), 1e-6);

  // Z' (C8) and Z'' (C14) along q(t)
  Eigen::MatrixXd Z_dot(6, n), Z_ddot(6, n);
  magnus4JacobianRate(xid1, xid2, Phi1, Phi2, h, Z_dot);
  magnus4JacobianRate(xidd1, xidd2, Phi1, Phi2, h, Z_ddot);
  const Eigen::MatrixXd Z_dot_fd = (zAt(qAt(dt)) - zAt(qAt(-dt))) / (2.0 * dt);
  const Eigen::MatrixXd Z_ddot_fd = (zAt(qAt(dt)) - 2.0 * Z + zAt(qAt(-dt))) / (dt * dt);
  EXPECT_LT(maxAbs(Z_dot - Z_dot_fd), 1e-9);
  EXPECT_LT(maxAbs(Z_ddot - Z_ddot_fd), 1e-6);
  EXPECT_GT(maxAbs(Z_dot), 1e-3);
  // C7: Omega'' = Z qdd + Z' qd
  EXPECT_LT(
      (magnus4Acceleration(xi1, xi2, xid1, xid2, xidd1, xidd2, h) - (Z * qdd + Z_dot * qd)).norm(),
      kIdentityTol);
}

TEST(LieTest, RollPitchYawRoundTrip) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  std::uniform_real_distribution<double> half(-0.5 * kPi, 0.5 * kPi);
  for (int trial = 0; trial < 50; ++trial) {
    const double r = angle(rng), p = half(rng), y = angle(rng);
    const Matrix3d R = rpyToRotation(r, p, y);
    const Matrix3d expected =
        (Eigen::AngleAxisd(y, Vector3d::UnitZ()) * Eigen::AngleAxisd(p, Vector3d::UnitY()) *
         Eigen::AngleAxisd(r, Vector3d::UnitX()))
            .toRotationMatrix();
    EXPECT_LT(maxAbs(R - expected), kIdentityTol);
    EXPECT_LT((rotationToRpy(R) - Vector3d(r, p, y)).norm(), 1e-10);
  }

  // at and near gimbal lock only the rotation round-trips
  for (const double p : {0.5 * kPi, -0.5 * kPi, 0.5 * kPi - 1e-9}) {
    const Matrix3d R = rpyToRotation(0.7, p, -1.1);
    const Vector3d rpy = rotationToRpy(R);
    EXPECT_LT(maxAbs(rpyToRotation(rpy.x(), rpy.y(), rpy.z()) - R), 1e-12) << p;
  }
}

}  // namespace
}  // namespace tendril
