#pragma once
// SE(3)/se(3) kernel of the GVS model: poses, twists, wrenches, adjoint maps, exp/log, the tangent
// operator T(Omega) (right-trivialised dexp) with its time derivative, and the Magnus/Zanna
// collocation of a rod's strain field.
//
// Conventions (docs/theory/notation.md §3): twist V = [w; v] (angular first), wrench F = [m; f]
// (moment first), Ad_g = [[R, 0], [p~R, R]], ad_V = [[w~, 0], [v~, w~]], ad*_V = -ad_V^T,
// adbar*_F V = ad*_V F. Every function here is double-only and allocation-free (fixed-size Eigen;
// the Magnus Jacobian helpers write into caller-provided 6 x n storage).

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products, used throughout the spatial algebra

namespace tendril {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

/// \brief A rigid transformation g = (R, p) in SE(3): x_parent = R x_child + p.
///
/// With g = g_AB (pose of frame B in frame A), R is B's orientation in A and p is B's origin in A.
/// Compose as g_AC = g_AB * g_BC.
struct SE3 {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  ///< rotation (3 x 3, orthonormal)
  Eigen::Vector3d p = Eigen::Vector3d::Zero();      ///< translation (3)

  /// \brief Composition (this * other) = (R R', R p' + p).
  SE3 operator*(const SE3& other) const;
  /// \brief Inverse (R^T, -R^T p).
  SE3 inverse() const;
  /// \brief Homogeneous 4 x 4 matrix [[R, p], [0, 1]].
  Eigen::Matrix4d matrix() const;
  /// \brief The identity transformation.
  static SE3 Identity();
  /// \brief Action on a point: R x + p.
  /// \param[in] x point in the child frame (3)
  /// \return the point in the parent frame (3)
  Eigen::Vector3d act(const Eigen::Vector3d& x) const;
};

// --------------------------------------------------------------------------------------------
// hat / vee
// --------------------------------------------------------------------------------------------

/// \brief Skew-symmetric matrix a~ such that a~ b = a x b.
/// \param[in] a vector (3)
/// \return a~ (3 x 3)
[[nodiscard]] inline Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

/// \brief se(3) hat map: V = [w; v] -> [[w~, v], [0, 0]].
/// \param[in] V twist (6)
/// \return hat(V) (4 x 4)
[[nodiscard]] Eigen::Matrix4d hat(const Vector6d& V);

/// \brief Inverse of hat: reads w from the skew block and v from the last column.
/// \param[in] X element of se(3) (4 x 4); the skew block is not checked
/// \return [w; v] (6)
[[nodiscard]] Vector6d vee(const Eigen::Matrix4d& X);

// --------------------------------------------------------------------------------------------
// exponential and logarithm
// --------------------------------------------------------------------------------------------

/// \brief Exponential map exp(hat(Omega)) of SE(3).
///
/// R = I + a w~ + b w~^2 and p = (I + b w~ + c w~^2) v, with t = |w|, a = sin t/t,
/// b = (1 - cos t)/t^2, c = (t - sin t)/t^3. The coefficients use Taylor series below
/// kTangentSeriesThreshold, so the result is accurate to machine precision for every t and is
/// exactly (I, v) for a pure translation (t = 0).
/// \param[in] Omega twist [w; v] (6)
/// \return exp(hat(Omega))
/// \see docs/theory/notation.md (E1)
[[nodiscard]] SE3 exp(const Vector6d& Omega);

/// \brief Logarithm of SE(3), the inverse of exp on rotation angles in [0, pi].
///
/// The angle is atan2(|axial(R)|, (tr R - 1)/2). Above 2 pi/3 the axis comes from the symmetric
/// part of R, with the sign taken from the skew part, so the result stays accurate up to and at pi
/// (where either of the two equivalent axes is returned). The translation uses V^{-1}(w) with the
/// stable coefficient f3(t)/((1 - cos t)/t^2).
/// \param[in] g transformation (R must be orthonormal)
/// \return Omega = [w; v] (6) with |w| <= pi and exp(Omega) == g
[[nodiscard]] Vector6d log(const SE3& g);

// --------------------------------------------------------------------------------------------
// adjoint maps (6 x 6) and their allocation-free applications
// --------------------------------------------------------------------------------------------

/// \brief Ad_g = [[R, 0], [p~R, R]]: maps a twist from the child frame to the parent frame.
/// \return Ad_g (6 x 6)
[[nodiscard]] Matrix6d Ad(const SE3& g);

/// \brief Ad_g^{-1} = Ad_{g^{-1}} = [[R^T, 0], [-R^T p~, R^T]].
/// \return Ad_g^{-1} (6 x 6)
[[nodiscard]] Matrix6d AdInv(const SE3& g);

/// \brief Ad*_g = Ad_g^{-T} = [[R, p~R], [0, R]]: maps a wrench from the child to the parent frame.
/// \return Ad*_g (6 x 6)
[[nodiscard]] Matrix6d coAd(const SE3& g);

/// \brief Ad_g^{-*} = Ad_g^T = [[R^T, -R^T p~], [0, R^T]]: parent-to-child wrench map.
/// \return Ad_g^T (6 x 6)
[[nodiscard]] Matrix6d coAdInv(const SE3& g);

/// \brief Writes skew([x; y; z]) into the 3 x 3 block of A at (row, col); its zero diagonal is
/// left as it is (the callers start from a zero matrix).
inline void putSkew(Matrix6d& A, int row, int col, double x, double y, double z) {
  A(row + 1, col) = z;
  A(row + 2, col) = -y;
  A(row, col + 1) = -z;
  A(row + 2, col + 1) = x;
  A(row, col + 2) = y;
  A(row + 1, col + 2) = -x;
}

/// \brief ad_V = [[w~, 0], [v~, w~]] (Lie bracket: ad_V W = [V, W]).
/// \param[in] V twist (6)
/// \return ad_V (6 x 6)
[[nodiscard]] inline Matrix6d ad(const Vector6d& V) {
  Matrix6d A = Matrix6d::Zero();  // whole-packet stores, then the 18 entries (no 3 x 3 temporaries)
  putSkew(A, 0, 0, V(0), V(1), V(2));
  putSkew(A, 3, 3, V(0), V(1), V(2));
  putSkew(A, 3, 0, V(3), V(4), V(5));
  return A;
}

/// \brief ad*_V = -ad_V^T = [[w~, v~], [0, w~]].
/// \param[in] V twist (6)
/// \return ad*_V (6 x 6)
[[nodiscard]] inline Matrix6d coad(const Vector6d& V) {
  Matrix6d A = Matrix6d::Zero();
  putSkew(A, 0, 0, V(0), V(1), V(2));
  putSkew(A, 3, 3, V(0), V(1), V(2));
  putSkew(A, 0, 3, V(3), V(4), V(5));
  return A;
}

/// \brief adbar*_F = -[[m~, f~], [f~, 0]]: ad*_V F = adbar*_F V (docs/theory/notation.md (B3)).
/// \param[in] F wrench [m; f] (6)
/// \return adbar*_F (6 x 6)
[[nodiscard]] inline Matrix6d coadBar(const Vector6d& F) {
  Matrix6d A = Matrix6d::Zero();
  putSkew(A, 0, 0, -F(0), -F(1), -F(2));
  putSkew(A, 0, 3, -F(3), -F(4), -F(5));
  putSkew(A, 3, 0, -F(3), -F(4), -F(5));
  return A;
}

/// \brief ad_V W = [w x a; v x a + w x b] for W = [a; b], without forming ad_V.
/// \param[in] V twist (6)
/// \param[in] W twist (6)
/// \return ad_V W (6)
[[nodiscard]] inline Vector6d ad(const Vector6d& V, const Vector6d& W) {
  const Eigen::Vector3d w = V.head<3>();
  Vector6d out;
  out.head<3>() = w.cross(W.head<3>());
  out.tail<3>() = V.tail<3>().cross(W.head<3>()) + w.cross(W.tail<3>());
  return out;
}

/// \brief ad*_V F = [w x m + v x f; w x f] for F = [m; f], without forming ad*_V.
/// Also equals adbar*_F V.
/// \param[in] V twist (6)
/// \param[in] F wrench (6)
/// \return ad*_V F (6)
[[nodiscard]] inline Vector6d coad(const Vector6d& V, const Vector6d& F) {
  const Eigen::Vector3d w = V.head<3>();
  Vector6d out;
  out.head<3>() = w.cross(F.head<3>()) + V.tail<3>().cross(F.tail<3>());
  out.tail<3>() = w.cross(F.tail<3>());
  return out;
}

/// \brief Ad_g V without forming Ad_g.
/// \return Ad_g V (6)
[[nodiscard]] inline Vector6d applyAd(const SE3& g, const Vector6d& V) {
  Vector6d out;
  out.head<3>() = g.R * V.head<3>();
  out.tail<3>() = g.R * V.tail<3>() + g.p.cross(out.head<3>());
  return out;
}

/// \brief Ad_g^{-1} V without forming Ad_g^{-1}.
/// \return Ad_g^{-1} V (6)
[[nodiscard]] inline Vector6d applyAdInv(const SE3& g, const Vector6d& V) {
  // R^T w, R^T (v - p x w)
  const Eigen::Vector3d w = V.head<3>();
  Vector6d out;
  out.head<3>() = g.R.transpose() * w;
  out.tail<3>() = g.R.transpose() * (V.tail<3>() - g.p.cross(w));
  return out;
}

/// \brief Ad*_g F (child wrench to parent frame) without forming Ad*_g.
/// \return Ad*_g F (6)
[[nodiscard]] inline Vector6d applyCoAd(const SE3& g, const Vector6d& F) {
  // R m + p x R f, R f
  Vector6d out;
  out.tail<3>() = g.R * F.tail<3>();
  out.head<3>() = g.R * F.head<3>() + g.p.cross(out.tail<3>());
  return out;
}

/// \brief Ad_g^T F (parent wrench to child frame) without forming Ad_g^T.
/// \return Ad_g^T F (6)
[[nodiscard]] inline Vector6d applyCoAdInv(const SE3& g, const Vector6d& F) {
  // R^T (m - p x f), R^T f
  const Eigen::Vector3d f = F.tail<3>();
  Vector6d out;
  out.head<3>() = g.R.transpose() * (F.head<3>() - g.p.cross(f));
  out.tail<3>() = g.R.transpose() * f;
  return out;
}

// --------------------------------------------------------------------------------------------
// tangent operator T(Omega) = sum_k ad_Omega^k / (k+1)!
// --------------------------------------------------------------------------------------------

/// Below this rotation angle [rad] the coefficients f_r, f_r'/t, f_r'' and the exp coefficients use
/// their Taylor series in t^2 (coefficients computed at compile time from their exact rational
/// form, 14 terms: the first neglected term is below 1e-20 at the threshold); above it they use the
/// closed forms of docs/theory/gvs.md (C16).
///
/// Why not a switch near 1e-2: the closed forms cancel catastrophically, the more so
/// the higher the power of t in the denominator (down to t^7 for f4''). Measured in double, their
/// worst relative error is > 100% at t = 1e-2, 6e-6 at t = 0.1, 5e-11 at t = 0.5, 5e-13 at t = 1
/// and 3e-14 at t = 2. At t = 2 both branches therefore agree to ~1e-13.
inline constexpr double kTangentSeriesThreshold = 2.0;

/// \brief Scalar coefficients of T(Omega) = I + sum_{r=1..4} f_r(t) ad_Omega^r and their
/// derivatives,
///        with t = |w| the rotation angle.
///
/// f'_r is stored divided by t because every formula that uses it multiplies by t' = (w . w')/t
/// (docs/theory/gvs.md (C17, C19, C24, C29)); f'_r/t stays finite at t = 0.
struct TangentCoefficients {
  double f[4];                ///< f_1..f_4 (index r-1)
  double df_over_theta[4];    ///< f_r'(t)/t
  double ddf[4];              ///< f_r''(t)
  double d_df_over_theta[4];  ///< (1/t) d/dt (f_r'/t) = (f_r'' - f_r'/t)/t^2 (second derivatives)
};

/// \brief Evaluates f_r, f_r'/t and f_r'' at angle t.
/// \param[in] theta rotation angle t >= 0 [rad]
/// \return the coefficients (series below kTangentSeriesThreshold, closed forms above)
/// \see docs/theory/gvs.md §4 (C16)
[[nodiscard]] TangentCoefficients tangentCoefficients(double theta);

/// \brief Tangent operator T(Omega) = sum_{k>=0} ad_Omega^k/(k+1)!, so that d/dt(exp Omega)
/// exp(-Omega) =
///        hat(T(Omega) Omega') and S = T(Omega) Z.
/// \param[in] Omega twist (6)
/// \return T(Omega) (6 x 6)
[[nodiscard]] Matrix6d dexp(const Vector6d& Omega);

/// \brief T(Omega) V without forming T.
/// \param[in] Omega twist (6)
/// \param[in] V twist (6)
/// \return T(Omega) V (6)
[[nodiscard]] Vector6d dexpApply(const Vector6d& Omega, const Vector6d& V);

/// \brief T(Omega)^T F = F + sum_r (-1)^r f_r (ad*_Omega)^r F without forming T (C28).
/// \param[in] Omega twist (6)
/// \param[in] F wrench (6)
/// \return T(Omega)^T F (6)
[[nodiscard]] Vector6d dexpTransposeApply(const Vector6d& Omega, const Vector6d& F);

/// \brief Time derivative of T along Omega' (C21):
///        T' = sum_r [ (f_r'/t)(w . w') ad^r + f_r sum_{u=1..r} ad^{r-u} ad_{Omega'} ad^{u-1} ].
/// \param[in] Omega twist (6)
/// \param[in] Omega_dot its time derivative (6)
/// \return T'(Omega, Omega') (6 x 6)
[[nodiscard]] Matrix6d dexpDot(const Vector6d& Omega, const Vector6d& Omega_dot);

/// \brief T'(Omega, Omega') x without forming T' (brackets only, about 300 flops):
///        d(ad^r) x follows z_r = ad_Omega z_{r-1} + ad_{Omega'} ad^{r-1} x, z_1 = ad_{Omega'} x.
/// \param[in] Omega twist (6)
/// \param[in] Omega_dot its time derivative (6)
/// \param[in] x twist (6)
/// \return T'(Omega, Omega') x (6)
[[nodiscard]] Vector6d dexpDotApply(const Vector6d& Omega, const Vector6d& Omega_dot,
                                    const Vector6d& x);

/// \brief The velocity and acceleration terms of a joint, T(Omega) Omega' and T(Omega) d +
///        T'(Omega, Omega') Omega', with one evaluation of the coefficients and the brackets
///        ad^r Omega' shared (13 brackets instead of 19 through dexpApply() and dexpDotApply()).
/// \param[in] Omega twist (6)
/// \param[in] Omega_dot its time derivative (6)
/// \param[in] d twist (6), e.g. Z a + Z-dot v
/// \param[out] velocity T(Omega) Omega' (6)
/// \param[out] acceleration T(Omega) d + T'(Omega, Omega') Omega' (6)
void dexpRates(const Vector6d& Omega, const Vector6d& Omega_dot, const Vector6d& d,
               Vector6d& velocity, Vector6d& acceleration);

/// \brief T(Omega) and T'(Omega, Omega') together, sharing the powers of ad_Omega.
/// \param[in] Omega twist (6)
/// \param[in] Omega_dot its time derivative (6)
/// \param[out] T T(Omega) (6 x 6)
/// \param[out] T_dot T'(Omega, Omega') (6 x 6)
void dexpAndDot(const Vector6d& Omega, const Vector6d& Omega_dot, Matrix6d& T, Matrix6d& T_dot);

// --------------------------------------------------------------------------------------------
// Magnus expansion of a rod interval (docs/theory/gvs.md §3)
// --------------------------------------------------------------------------------------------

/// \brief 2nd-order Magnus (midpoint): Omega = h xi(X + h/2).
/// \param[in] xi_mid strain at the interval midpoint (6)
/// \param[in] h interval length [m]
/// \return Omega (6)
[[nodiscard]] Vector6d magnus2(const Vector6d& xi_mid, double h);

/// \brief c = sqrt(3) h^2 / 12, the factor of the commutator in the Zanna-Magnus expansion (C1-C4).
[[nodiscard]] double zannaCommutatorFactor(double h);

/// \brief 4th-order Magnus with Zanna collocation (C1):
///        Omega = h/2 (xi_z1 + xi_z2) + (sqrt(3) h^2/12) ad_{xi_z1} xi_z2.
/// \param[in] xi_z1 strain at the first Zanna point X + (1/2 - sqrt(3)/6) h (6)
/// \param[in] xi_z2 strain at the second Zanna point X + (1/2 + sqrt(3)/6) h (6)
/// \param[in] h interval length [m]
/// \return Omega (6), the twist with g(X + h) = g(X) exp(Omega)
/// \see zannaPoints() in quadrature.hpp
[[nodiscard]] Vector6d magnus4(const Vector6d& xi_z1, const Vector6d& xi_z2, double h);

/// \brief Time derivative of the Zanna Omega (C2):
///        Omega' = h/2 (xi'_z1 + xi'_z2) + c (ad_{xi_z1} xi'_z2 - ad_{xi_z2} xi'_z1), c = sqrt(3)
///        h^2/12.
/// \param[in] xi_z1, xi_z2 strains at the Zanna points (6)
/// \param[in] xi_dot_z1, xi_dot_z2 their time derivatives Phi_z q' (6)
/// \param[in] h interval length [m]
/// \return Omega' (6)
[[nodiscard]] Vector6d magnus4Rate(const Vector6d& xi_z1, const Vector6d& xi_z2,
                                   const Vector6d& xi_dot_z1, const Vector6d& xi_dot_z2, double h);

/// \brief Second time derivative of the Zanna Omega (C3):
///        Omega'' = h/2 (xi''_z1 + xi''_z2) + c (ad_{xi_z1} xi''_z2 - ad_{xi_z2} xi''_z1)
///                  + 2c ad_{xi'_z1} xi'_z2.
/// \param[in] xi_z1, xi_z2 strains at the Zanna points (6)
/// \param[in] xi_dot_z1, xi_dot_z2 first time derivatives (6)
/// \param[in] xi_ddot_z1, xi_ddot_z2 second time derivatives (6)
/// \param[in] h interval length [m]
/// \return Omega'' (6)
[[nodiscard]] Vector6d magnus4Acceleration(const Vector6d& xi_z1, const Vector6d& xi_z2,
                                           const Vector6d& xi_dot_z1, const Vector6d& xi_dot_z2,
                                           const Vector6d& xi_ddot_z1, const Vector6d& xi_ddot_z2,
                                           double h);

/// \brief Z = dOmega/dq of the Zanna Omega (C4, C5):
///        Z = h/2 (Phi_z1 + Phi_z2) + c (ad_{xi_z1} Phi_z2 - ad_{xi_z2} Phi_z1).
/// \param[in] xi_z1, xi_z2 strains at the Zanna points (6)
/// \param[in] Phi_z1, Phi_z2 strain bases at the Zanna points (6 x n)
/// \param[in] h interval length [m]
/// \param[out] Z (6 x n), must not alias Phi_z1 or Phi_z2
void magnus4Jacobian(const Vector6d& xi_z1, const Vector6d& xi_z2,
                     const Eigen::Ref<const Eigen::MatrixXd>& Phi_z1,
                     const Eigen::Ref<const Eigen::MatrixXd>& Phi_z2, double h,
                     Eigen::Ref<Eigen::MatrixXd> Z);

/// \brief Time derivatives of Z (C8, C14): c (ad_{a_z1} Phi_z2 - ad_{a_z2} Phi_z1).
///
/// With a = xi' (= Phi q') this is Z'; with a = xi'' (= Phi q'') it is Z''.
/// \param[in] a_z1, a_z2 xi' (or xi'') at the Zanna points (6)
/// \param[in] Phi_z1, Phi_z2 strain bases at the Zanna points (6 x n)
/// \param[in] h interval length [m]
/// \param[out] Z_dot (6 x n), must not alias Phi_z1 or Phi_z2
void magnus4JacobianRate(const Vector6d& a_z1, const Vector6d& a_z2,
                         const Eigen::Ref<const Eigen::MatrixXd>& Phi_z1,
                         const Eigen::Ref<const Eigen::MatrixXd>& Phi_z2, double h,
                         Eigen::Ref<Eigen::MatrixXd> Z_dot);

// --------------------------------------------------------------------------------------------
// roll-pitch-yaw
// --------------------------------------------------------------------------------------------

/// \brief R = Rz(yaw) Ry(pitch) Rx(roll) (the Placement convention of description.hpp).
/// \return R (3 x 3)
[[nodiscard]] Eigen::Matrix3d rpyToRotation(double roll, double pitch, double yaw);

/// \brief Inverse of rpyToRotation: (roll, pitch, yaw) with pitch in [-pi/2, pi/2] and roll, yaw in
///        (-pi, pi]. At gimbal lock (|pitch| = pi/2) roll is set to 0.
/// \param[in] R rotation (3 x 3)
/// \return (roll, pitch, yaw) [rad]
[[nodiscard]] Eigen::Vector3d rotationToRpy(const Eigen::Matrix3d& R);

}  // namespace tendril
