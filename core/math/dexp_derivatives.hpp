#pragma once
// Derivatives of the tangent operator T(Omega) with respect to Omega, the building blocks of the
// local terms of docs/theory/gvs.md (C19, C20, C24, C29).
//
// With a = ad_Omega, T = I + sum_r f_r(t) a^r, t = |w| and e = I_theta Omega = [w; 0]:
//   d(a^m x)/dOmega = -sum_{s=1..m} a^{m-s} ad_{a^{s-1} x}            (x fixed)
//   d(T w)/dOmega   = (sum_r f_r'/t a^r w) e^T - sum_{s=1..4} P_s ad_{a^{s-1} w}
//   P_s             = sum_{m=0..4-s} f_{s+m} a^m
// Every result is a 6 x 6 matrix; the caller multiplies by Z = dOmega/dq. The powers of a, the P_s
// and the derivatives of the powers have the block form [[A, 0], [B, A]] (LowerBlock): the work is
// done on 3 x 3 blocks, and only the results are assembled as 6 x 6 matrices.

#include "core/math/lie.hpp"
#include "core/math/lower_block.hpp"

namespace tendril {

/// \brief T(Omega) expanded once per joint: coefficients, powers of ad_Omega and T.
struct TangentExpansion {
  Vector6d Omega = Vector6d::Zero();
  Vector6d e = Vector6d::Zero();  ///< I_theta Omega = [w; 0]: t dt/dOmega = e^T
  TangentCoefficients k{};
  LowerBlock a[5];                    ///< ad_Omega^m, m = 0..4
  Matrix6d T = Matrix6d::Identity();  ///< T(Omega) as a matrix
};

/// \brief Fills x for Omega (coefficients with second derivatives, powers, T).
void expandTangent(const Vector6d& Omega, TangentExpansion& x);

/// \brief T'(Omega, Omega'), the time derivative of T (C21), from the expansion (= dexpDot()).
[[nodiscard]] Matrix6d tangentRate(const TangentExpansion& x, const Vector6d& Omega_dot);

/// \brief d(T(Omega)^T F)/dOmega with F held fixed (6 x 6), the core of (C29).
[[nodiscard]] Matrix6d dexpTransposeJacobian(const TangentExpansion& x, const Vector6d& F);

/// \brief The two local Jacobians of a joint moving at Omega' = w ((C20), (C24)), sharing the
/// derivatives of the powers of ad_Omega:
/// - DT_w = d(T(Omega) w)/dOmega; its product with delta is T'(Omega, delta) w.
/// - DDT = d(T'(Omega, w) w + T(Omega) d)/dOmega, w held fixed inside T'; d = Z a + Z-dot v.
void dexpJacobians(const TangentExpansion& x, const Vector6d& w, const Vector6d& d, Matrix6d& DT_w,
                   Matrix6d& DDT);

}  // namespace tendril
