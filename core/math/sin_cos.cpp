#include "core/math/sin_cos.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace tendril {
namespace {

// The Taylor series of sin and cos past their leading terms, as polynomials in z = r^2:
// sin r = r + r z S(z), S = -1/3! + z/5! - ... + z^7/17!; cos r = 1 - z/2 + z^2 C(z),
// C = 1/4! - z/6! + ... + z^6/16!. Truncated there, the remainders on |r| <= pi/4 are below 1e-19
// and 2e-18, a thousandth and a fiftieth of an ulp. The coefficients are correctly rounded: n! is
// exact in double up to 22!, so 1/n! is one division
constexpr double reciprocalFactorial(int n) {
  double factorial = 1.0;
  for (int k = 2; k <= n; ++k) factorial *= k;
  return 1.0 / factorial;
}

// first_sign / first!, -first_sign / (first + 2)!, ...: N terms
template <std::size_t N>
constexpr std::array<double, N> alternatingReciprocalFactorials(int first, double first_sign) {
  std::array<double, N> series{};
  for (std::size_t k = 0; k < N; ++k) {
    const double sign = k % 2 == 0 ? first_sign : -first_sign;
    series[k] = sign * reciprocalFactorial(first + 2 * static_cast<int>(k));
  }
  return series;
}
constexpr auto kSinSeries = alternatingReciprocalFactorials<8>(3, -1.0);
constexpr auto kCosSeries = alternatingReciprocalFactorials<7>(4, 1.0);

// sum of series[k] z^k by Horner's rule, from the highest power down
template <std::size_t N>
inline double horner(const std::array<double, N>& series, double z) {
  double p = series[N - 1];
  for (std::size_t k = N - 1; k-- > 0;) p = p * z + series[k];
  return p;
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
// sin = r + r^3 S(r^2) + r_lo, cos = 1 - r^2/2 + r^4 C(r^2) - r r_lo. 1 - r^2/2 is summed with
// its rounding error, which is otherwise half an ulp of the result
inline double sinKernel(double r, double r_lo, double z) {
  return r + (r * z * horner(kSinSeries, z) + r_lo);
}

inline double cosKernel(double r, double r_lo, double z) {
  const double half_z = 0.5 * z, w = 1.0 - half_z;
  return w + (((1.0 - w) - half_z) + (z * z * horner(kCosSeries, z) - r * r_lo));
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
