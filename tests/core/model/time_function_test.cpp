// Tests for core/model/time_function.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/model/description.hpp"

namespace tendril {
namespace {

TEST(TimeFunctionTest, ConstantRampSineAndTable) {
  EXPECT_EQ(TimeFunction::constant(3.5)(-1.0), 3.5);
  EXPECT_EQ(TimeFunction::constant(3.5)(1e6), 3.5);

  TimeFunction ramp;
  ramp.kind = TimeFunction::Kind::Ramp;
  ramp.value = 10.0;
  ramp.start = 1.0;
  ramp.duration = 2.0;
  EXPECT_EQ(ramp(0.5), 0.0);
  EXPECT_DOUBLE_EQ(ramp(2.0), 5.0);
  EXPECT_EQ(ramp(3.0), 10.0);
  EXPECT_EQ(ramp(9.0), 10.0);
  ramp.duration = 0.0;  // a step
  EXPECT_EQ(ramp(1.0), 0.0);
  EXPECT_EQ(ramp(1.0 + 1e-12), 10.0);

  TimeFunction sine;
  sine.kind = TimeFunction::Kind::Sine;
  sine.amplitude = 2.0;
  sine.frequency = 0.5;
  sine.phase = 0.3;
  sine.offset = -1.0;
  for (double t : {0.0, 0.4, 1.7}) {
    EXPECT_DOUBLE_EQ(sine(t), -1.0 + 2.0 * std::sin(std::numbers::pi * t + 0.3));
  }

  TimeFunction table;
  table.kind = TimeFunction::Kind::Table;
  table.table = {{0.0, 1.0}, {1.0, 3.0}, {3.0, -1.0}};
  EXPECT_EQ(table(-5.0), 1.0);
  EXPECT_DOUBLE_EQ(table(0.25), 1.5);
  EXPECT_DOUBLE_EQ(table(2.0), 1.0);
  EXPECT_EQ(table(1.0), 3.0);
  EXPECT_EQ(table(4.0), -1.0);
}

TEST(TimeFunctionTest, CubicRestToRestMovesFromStartToEndAtRest) {
  TimeFunction cubic;
  cubic.kind = TimeFunction::Kind::Cubic;
  cubic.initial = 0.5;
  cubic.value = -1.5;
  cubic.start = 1.0;
  cubic.duration = 2.0;
  EXPECT_EQ(cubic(0.0), 0.5);
  EXPECT_EQ(cubic(1.0), 0.5);
  EXPECT_DOUBLE_EQ(cubic(2.0), -0.5);  // halfway in time, halfway in value
  EXPECT_EQ(cubic(3.0), -1.5);
  EXPECT_EQ(cubic(7.0), -1.5);
  // at rest at both ends
  EXPECT_EQ(cubic.derivative(1.0, 1), 0.0);
  EXPECT_NEAR(cubic.derivative(3.0 - 1e-12, 1), 0.0, 1e-10);
  EXPECT_EQ(cubic.derivative(0.5, 2), 0.0);
  EXPECT_EQ(cubic.derivative(4.0, 1), 0.0);
  // the largest speed 3/2 (to - from) / duration, at the middle
  EXPECT_DOUBLE_EQ(cubic.derivative(2.0, 1), 1.5 * -2.0 / 2.0);
  // first and second derivatives against central differences inside the move
  const double h = 1e-5;
  for (const double t : {1.1, 1.7, 2.0, 2.6, 2.95}) {
    EXPECT_NEAR(cubic.derivative(t, 1), (cubic(t + h) - cubic(t - h)) / (2 * h), 1e-8) << t;
    EXPECT_NEAR(cubic.derivative(t, 2),
                (cubic.derivative(t + h, 1) - cubic.derivative(t - h, 1)) / (2 * h), 1e-7)
        << t;
  }
}

// p(t) = 2 - t + 0.5 t^2 - 0.3 t^3 and its derivatives
double cubicValue(double t, int order) {
  switch (order) {
    case 0:
      return 2.0 - t + 0.5 * t * t - 0.3 * t * t * t;
    case 1:
      return -1.0 + t - 0.9 * t * t;
    default:
      return 1.0 - 1.8 * t;
  }
}

TEST(TimeFunctionTest, ClampedSplineReproducesACubicOnUnevenPoints) {
  const std::vector<double> knots = {-0.5, 0.1, 0.25, 0.9, 1.0, 1.7};
  std::vector<std::array<double, 2>> points;
  for (double t : knots) points.push_back({t, cubicValue(t, 0)});
  const TimeFunction spline = TimeFunction::spline(
      points, std::array<double, 2>{cubicValue(knots.front(), 1), cubicValue(knots.back(), 1)});
  for (double t = -0.49; t < 1.7; t += 0.037) {
    for (int order = 0; order <= 2; ++order) {
      EXPECT_NEAR(spline.derivative(t, order), cubicValue(t, order), 1e-12)
          << "t = " << t << ", order " << order;
    }
  }
  // held outside, as every table
  EXPECT_EQ(spline(-1.0), cubicValue(-0.5, 0));
  EXPECT_EQ(spline.derivative(2.0, 1), 0.0);
}

TEST(TimeFunctionTest, NaturalSplineIsTwiceContinuouslyDifferentiableAtItsPoints) {
  std::vector<std::array<double, 2>> points;
  for (double t : {0.0, 0.3, 0.45, 1.1, 1.6, 2.0, 2.9}) points.push_back({t, std::sin(2.0 * t)});
  const TimeFunction spline = TimeFunction::spline(points);
  EXPECT_NEAR(spline.derivative(1e-14, 2), 0.0, 1e-12);  // natural end
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(spline(points[i][0]), points[i][1]);
  // value, slope and acceleration on either side of every interior point, from the pieces
  // meeting there (derivative() takes the later piece at a point, so step off it both ways)
  constexpr double step = 1e-7;
  for (std::size_t i = 1; i + 1 < points.size(); ++i) {
    const double t = points[i][0];
    // value: the two pieces' values differ by the slope's step, up to O(step^2)
    EXPECT_NEAR(spline(t + step) - spline(t - step), 2.0 * step * spline.derivative(t, 1), 1e-12);
    for (int order = 1; order <= 2; ++order) {
      const double left = spline.derivative(t - step, order);
      const double right = spline.derivative(t + step, order);
      EXPECT_NEAR(left, right, 1e-5) << "order " << order << " at t = " << t;
    }
    // the slope is the derivative of the value, the acceleration that of the slope (central
    // differences inside a piece)
    const double inside = 0.5 * (t + points[i + 1][0]), h = 1e-5;
    EXPECT_NEAR(spline.derivative(inside, 1), (spline(inside + h) - spline(inside - h)) / (2 * h),
                1e-8);
    EXPECT_NEAR(spline.derivative(inside, 2),
                (spline.derivative(inside + h, 1) - spline.derivative(inside - h, 1)) / (2 * h),
                1e-8);
  }
  // the linear table's acceleration jumps where the spline's does not
  TimeFunction linear = spline;
  linear.interpolation = TimeFunction::Interpolation::Linear;
  EXPECT_GT(std::abs(linear.derivative(0.3 + step, 1) - linear.derivative(0.3 - step, 1)), 0.1);
}

TEST(TimeFunctionTest, SplineWithoutPreparedMomentsRefusesToEvaluate) {
  TimeFunction spline = TimeFunction::spline({{0.0, 0.0}, {1.0, 1.0}, {2.0, 0.0}});
  spline.table.push_back({3.0, 1.0});  // edited without prepareSpline()
  EXPECT_THROW((void)spline(2.5), std::logic_error);
  spline.prepareSpline();
  EXPECT_NO_THROW((void)spline(2.5));
}

}  // namespace
}  // namespace tendril
