#include "core/math/sin_cos.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

namespace tendril {
namespace {

// 1/n!, the Taylor coefficients, correctly rounded (n! is exact in double up to 22!: one division).
// Truncated after x^17 (sin) and x^16 (cos), the remainders on |r| <= pi/4 are below 1e-19 and
// 2e-18, a thousandth and a fiftieth of an ulp
constexpr double reciprocalFactorial(int n) {
  double factorial = 1.0;
  for (int k = 2; k <= n; ++k) factorial *= k;
  return 1.0 / factorial;
}

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 = kHalfPi1 + kHalfPi2 + kHalfPi3 to 123 bits (Cody and Waite): the first two carry at most
// 33 significant bits each, so k * kHalfPi1 and k * kHalfPi2 are exact for |k| < 2^20 (within the
// reduced range |k| <= 5216)
constexpr double kHalfPi1 = 0x1.921fb544p+0;
constexpr double kHalfPi2 = 0x1.0b4611a6p-34;
constexpr double kHalfPi3 = 0x1.3198a2e037073p-69;
// adding 1.5 * 2^52 rounds to an integer, which the low bits of the sum then hold
constexpr double kRoundingShift = 0x1.8p52;
constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
constexpr std::uint64_t kReducedRangeBits = std::bit_cast<std::uint64_t>(kSinCosReducedRange);

// sin and cos of r + r_lo on |r| <= pi/4, r_lo what the reduction's first two parts leave (their
// rounding and the third part; next to a multiple of pi/2 it can exceed r, so it is added last):
// sin = r + r^3 P(r^2) + r_lo, cos = 1 - r^2/2 + r^4 Q(r^2) - r r_lo. 1 - r^2/2 is summed with
// its rounding error, which is otherwise half an ulp of the result
inline double sinKernel(double r, double r_lo, double z) {
  double p = reciprocalFactorial(17);
  p = p * z - reciprocalFactorial(15);
  p = p * z + reciprocalFactorial(13);
  p = p * z - reciprocalFactorial(11);
  p = p * z + reciprocalFactorial(9);
  p = p * z - reciprocalFactorial(7);
  p = p * z + reciprocalFactorial(5);
  p = p * z - reciprocalFactorial(3);
  return r + (r * z * p + r_lo);
}

inline double cosKernel(double r, double r_lo, double z) {
  double p = reciprocalFactorial(16);
  p = p * z - reciprocalFactorial(14);
  p = p * z + reciprocalFactorial(12);
  p = p * z - reciprocalFactorial(10);
  p = p * z + reciprocalFactorial(8);
  p = p * z - reciprocalFactorial(6);
  p = p * z + reciprocalFactorial(4);
  const double half_z = 0.5 * z, w = 1.0 - half_z;
  return w + (((1.0 - w) - half_z) + (z * z * p - r * r_lo));
}

}  // namespace

void sinCos(const double* __restrict angle, int n, double* __restrict sin_out,
            double* __restrict cos_out) {
  // branch-free, so that the compiler vectorises the loop. On |x| = k pi/2 + r with |r| <= pi/4,
  // the quadrant k mod 4 picks and signs the kernels: (sin, cos) = (s, c), (c, -s), (-s, -c),
  // (-c, s); sin takes x's sign back (sin is odd, cos even, as exactly as libm's: sin(-0) = -0)
  std::uint64_t out_of_range = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(angle[i]);
    const double x = std::bit_cast<double>(bits & ~kSignBit);
    const double shifted = x * kTwoOverPi + kRoundingShift;
    const double k = shifted - kRoundingShift;
    const std::uint64_t quadrant = std::bit_cast<std::uint64_t>(shifted);
    const double r_exact = x - k * kHalfPi1, k_half_pi2 = k * kHalfPi2;  // both exact
    const double r = r_exact - k_half_pi2;
    const double r_lo = ((r_exact - r) - k_half_pi2) - k * kHalfPi3;
    const double z = r * r;
    const double s = sinKernel(r, r_lo, z), c = cosKernel(r, r_lo, z);
    const bool odd = (quadrant & 1) != 0;
    const std::uint64_t sin_sign = ((quadrant & 2) << 62) ^ (bits & kSignBit);
    const std::uint64_t cos_sign = ((quadrant + 1) & 2) << 62;
    sin_out[i] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(odd ? c : s) ^ sin_sign);
    cos_out[i] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(odd ? s : c) ^ cos_sign);
    // |x| as bits orders like |x|; NaN and infinities lie above every finite bound
    out_of_range |= static_cast<std::uint64_t>(std::bit_cast<std::uint64_t>(x) > kReducedRangeBits);
  }
  if (out_of_range == 0) return;
  for (int i = 0; i < n; ++i) {
    if (!(std::abs(angle[i]) <= kSinCosReducedRange)) {
      sin_out[i] = std::sin(angle[i]);
      cos_out[i] = std::cos(angle[i]);
    }
  }
}

}  // namespace tendril
