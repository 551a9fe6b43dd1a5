#pragma once
// Sines and cosines of many angles in one vectorised pass: the joint angles of forward kinematics,
// where one libm sincos per revolute joint was a tenth of a humanoid's mass matrix.

namespace tendril {

/// \brief Angles beyond which sinCos hands an angle to libm (and where NaN and infinities go):
///        inside, its three-part reduction by pi/2 keeps the error below one ulp (0.84 ulp measured
///        against 200-bit values, libm's own 0.51; docs/PERFORMANCE.md, "The rigid line").
inline constexpr double kSinCosReducedRange = 8192.0;

/// \brief sin_out[i] = sin(angle[i]), cos_out[i] = cos(angle[i]) for i < n, within one ulp of the
///        exact values (and of libm's) for |angle| <= kSinCosReducedRange, libm's own beyond. The
///        result of an angle does not depend on n or on its position, so one angle at a time gives
///        the same bits as the batch. The three arrays must not overlap.
void sinCos(const double* angle, int n, double* sin_out, double* cos_out);

/// \brief One angle, through the same kernel as the batch.
inline void sinCos(double angle, double& sin_out, double& cos_out) {
  sinCos(&angle, 1, &sin_out, &cos_out);
}

}  // namespace tendril
