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

}  // namespace
}  // namespace tendril
