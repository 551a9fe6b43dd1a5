// Tests for core/math/sin_cos.cpp: the batch against libm's long-double sinl and cosl (eleven bits
// beyond a double's), bit-for-bit agreement of batch and single calls, and the values the
// reduction must not get wrong.

#include "core/math/sin_cos.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace tendril {
namespace {

// error of a double against a long-double reference, in ulps of a double in the reference's own
// binade (just below a power of two, the rounded reference's ulp would be twice too large); at zero
// and among subnormals, the smallest step
double ulpError(double value, long double reference) {
  const long double smallest = std::numeric_limits<double>::denorm_min();
  const long double ulp = reference == 0.0L
                              ? smallest
                              : std::max(smallest, std::ldexp(1.0L, std::ilogb(reference) - 52));
  return static_cast<double>(std::abs(static_cast<long double>(value) - reference) / ulp);
}

struct Worst {
  double sin = 0.0, cos = 0.0;
};

Worst worstErrors(const std::vector<double>& angles) {
  const int n = static_cast<int>(angles.size());
  std::vector<double> s(n), c(n);
  sinCos(angles.data(), n, s.data(), c.data());
  Worst worst;
  for (int i = 0; i < n; ++i) {
    const long double x = angles[i];
    worst.sin = std::max(worst.sin, ulpError(s[i], std::sin(x)));
    worst.cos = std::max(worst.cos, ulpError(c[i], std::cos(x)));
  }
  return worst;
}

TEST(SinCosTest, WithinOneUlpOfTheExactValuesAcrossTheReducedRange) {
  std::mt19937_64 rng(11);
  // joint angles, a few turns, many turns, and up to the end of the reduced range
  const double bands[][2] = {{0.0, 0.8}, {0.8, 3.2}, {3.2, 100.0}, {100.0, kSinCosReducedRange}};
  for (const auto& band : bands) {
    std::uniform_real_distribution<double> magnitude(band[0], band[1]);
    std::vector<double> angles(50000);
    for (std::size_t i = 0; i < angles.size(); ++i)
      angles[i] = (i % 2 == 0 ? 1.0 : -1.0) * magnitude(rng);
    const Worst worst = worstErrors(angles);
    EXPECT_LT(worst.sin, 1.0) << "angles in [" << band[0] << ", " << band[1] << "]";
    EXPECT_LT(worst.cos, 1.0) << "angles in [" << band[0] << ", " << band[1] << "]";
  }
}

TEST(SinCosTest, WithinOneUlpNextToMultiplesOfHalfPi) {
  // there the result is tiny and all of it comes from the reduction's second and third parts
  std::vector<double> angles;
  const long double half_pi = std::numbers::pi_v<long double> / 2;
  for (int k = -5215; k <= 5215; ++k) {
    const double x = static_cast<double>(k * half_pi);
    angles.insert(angles.end(), {x, std::nextafter(x, 1e9), std::nextafter(x, -1e9)});
  }
  const Worst worst = worstErrors(angles);
  EXPECT_LT(worst.sin, 1.0);
  EXPECT_LT(worst.cos, 1.0);
}

TEST(SinCosTest, OneAngleGivesTheSameBitsAsTheBatch) {
  // the vectorised body, its remainder and a single call: lengths around every vector width
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> angle(-20.0, 20.0);
  for (int n = 0; n <= 40; ++n) {
    std::vector<double> x(n), s(n), c(n);
    for (double& value : x) value = angle(rng);
    sinCos(x.data(), n, s.data(), c.data());
    for (int i = 0; i < n; ++i) {
      double s_i = 0.0, c_i = 0.0;
      sinCos(x[i], s_i, c_i);
      EXPECT_EQ(s[i], s_i) << "n = " << n << ", i = " << i;
      EXPECT_EQ(c[i], c_i) << "n = " << n << ", i = " << i;
    }
  }
}

TEST(SinCosTest, ZerosAndTinyAnglesAreExactAndEveryQuadrantIsRight) {
  const double tiny[] = {0.0, -0.0, 1e-300, -1e-300, std::numeric_limits<double>::denorm_min(),
                         1e-9};
  for (const double x : tiny) {
    double s = 1.0, c = 0.0;
    sinCos(x, s, c);
    EXPECT_EQ(s, x);                              // sin x = x to the last bit below 1e-8
    EXPECT_EQ(std::signbit(s), std::signbit(x));  // sin(-0) = -0
    EXPECT_EQ(c, 1.0);
  }
  // every quadrant's choice and signs of the kernels: pi/8 on either side of each multiple of
  // pi/2, where sin and cos differ in size (at pi/4 they would not)
  std::vector<double> angles;
  for (int k = -8; k <= 8; ++k) {
    for (const double offset : {-std::numbers::pi / 8, std::numbers::pi / 8})
      angles.push_back(k * std::numbers::pi / 2 + offset);
  }
  const Worst quadrants = worstErrors(angles);
  EXPECT_LT(quadrants.sin, 1.0);
  EXPECT_LT(quadrants.cos, 1.0);
}

TEST(SinCosTest, AnglesOutsideTheReducedRangeAreLibmsAndLeaveTheOthersAlone) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double beyond = std::nextafter(kSinCosReducedRange, inf);
  std::vector<double> x = {0.3, beyond, -1.2, 1e300, 2.5, -beyond, 0.7, inf, -4.0, nan, 9.0};
  const int n = static_cast<int>(x.size());
  std::vector<double> s(n), c(n);
  sinCos(x.data(), n, s.data(), c.data());
  for (int i = 0; i < n; ++i) {
    if (std::abs(x[i]) <= kSinCosReducedRange) {  // the batch kernel, as for one angle
      double s_i = 0.0, c_i = 0.0;
      sinCos(x[i], s_i, c_i);
      EXPECT_EQ(s[i], s_i) << x[i];
      EXPECT_EQ(c[i], c_i) << x[i];
    } else if (std::isfinite(x[i])) {
      EXPECT_EQ(s[i], std::sin(x[i])) << x[i];
      EXPECT_EQ(c[i], std::cos(x[i])) << x[i];
    } else {
      EXPECT_TRUE(std::isnan(s[i]) && std::isnan(c[i])) << x[i];
    }
  }
  // the range's own end is reduced in the batch, within the bound
  const Worst at_end = worstErrors({kSinCosReducedRange, -kSinCosReducedRange});
  EXPECT_LT(at_end.sin, 1.0);
  EXPECT_LT(at_end.cos, 1.0);
}

}  // namespace
}  // namespace tendril
