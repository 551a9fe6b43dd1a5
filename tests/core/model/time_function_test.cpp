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

}  // namespace
}  // namespace tendril
