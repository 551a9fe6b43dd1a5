#include "ui/panels/nice_ticks.hpp"

#include <algorithm>
#include <cmath>

namespace tendril {
namespace {

// the smallest of 1, 2, 5 x 10^k that is at least `rough`
double niceStep(double rough) {
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double mantissa : {1.0, 2.0, 5.0, 10.0}) {
    if (mantissa * power >= rough * (1.0 - 1e-12)) return mantissa * power;
  }
  return 10.0 * power;
}

// fixed decimals while they stay few and the numbers short; scientific otherwise
constexpr double kSmallestFixedStep = 1e-6;
constexpr double kLargestFixedValue = 1e6;

}  // namespace

NiceTicks niceTicks(double low, double high, int target_count) {
  NiceTicks ticks;
  const double span = std::max(high - low, std::abs(high) * 1e-15 + 1e-300);
  ticks.interval = niceStep(span / std::max(target_count, 1));
  ticks.anchor = std::floor(low / ticks.interval) * ticks.interval;
  const double largest = std::max(std::abs(low), std::abs(high));
  const int step_exponent = static_cast<int>(std::floor(std::log10(ticks.interval) + 1e-9));
  if (ticks.interval >= kSmallestFixedStep && largest < kLargestFixedValue) {
    ticks.label_format = QString("%.%1f").arg(std::max(0, -step_exponent));
  } else {
    const int value_exponent = static_cast<int>(std::floor(std::log10(largest)));
    ticks.label_format = QString("%.%1e").arg(std::max(0, value_exponent - step_exponent));
  }
  return ticks;
}

}  // namespace tendril
