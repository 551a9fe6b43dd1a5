#include "core/math/dexp_derivatives.hpp"

namespace tendril {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// D_m(x) = d(a^m x)/dOmega for m = 0..count-1, by D_m = a D_{m-1} - ad_{a^{m-1} x}
void powerDerivatives(const TangentExpansion& x, const Vector6d& v, int count, LowerBlock* D) {
  D[0] = LowerBlock{};
  if (count < 2) return;
  D[1] = LowerBlock::ad(-v);  // a D_0 vanishes
  Vector6d y = v;             // a^{m-1} v
  for (int m = 2; m < count; ++m) {
    y = ad(x.Omega, y);
    D[m] = x.a[1] * D[m - 1];
    D[m] -= LowerBlock::ad(y);
  }
}

// L + u e^T for e = [w; 0]: the rank-one part only touches the first three columns
Matrix6d withRadialColumns(const LowerBlock& L, const Vector6d& u, const Vector6d& e) {
  Matrix6d out = L.matrix();
  out.leftCols<3>().noalias() += u * e.head<3>().transpose();
  return out;
}

// out -= P^T adbar*_z for P = [[A, 0], [B, A]] and adbar*_z = -[[m~, f~], [f~, 0]], z = [m; f]:
// out += [[A^T m~ + B^T f~, A^T f~], [A^T f~, 0]]
void subtractTransposeTimesCoadBar(const LowerBlock& P, const Vector6d& z, Matrix6d& out) {
  const Matrix3d m = skew(z.head<3>()), f = skew(z.tail<3>());
  const auto A = P.a.topRows<3>(), B = P.b.topRows<3>();
  const Matrix3d Atf = A.transpose() * f;
  out.topLeftCorner<3, 3>().noalias() += A.transpose() * m;
  out.topLeftCorner<3, 3>().noalias() += B.transpose() * f;
  out.topRightCorner<3, 3>() += Atf;
  out.bottomLeftCorner<3, 3>() += Atf;
}

// the sums of d(T w)/dOmega = -sum_s P_s ad_{a^{s-1} w} + radial e^T, regrouped by powers of a as
// -sum_m a^m ad_{z_m} (ad is linear): z_m = sum_{s=1..4-m} f_{s+m} a^{s-1} w, radial = sum_r
// f_r'/t a^r w
void tangentJacobianSums(const TangentExpansion& x, const Vector6d& w, Vector6d z[4],
                         Vector6d& radial) {
  Vector6d y[5];  // a^m w
  y[0] = w;
  for (int m = 1; m <= 4; ++m) y[m] = ad(x.Omega, y[m - 1]);
  radial.setZero();
  for (int r = 1; r <= 4; ++r) radial += x.k.df_over_theta[r - 1] * y[r];
  for (int m = 0; m <= 3; ++m) {
    z[m].setZero();
    for (int s = 1; s <= 4 - m; ++s) z[m] += x.k.f[s + m - 1] * y[s - 1];
  }
}

}  // namespace

void expandTangent(const Vector6d& Omega, TangentExpansion& x) {
  x.Omega = Omega;
  x.e << Omega.head<3>(), Eigen::Vector3d::Zero();
  x.k = tangentCoefficients(Omega.head<3>().norm());
  x.a[0] = LowerBlock::identity();
  x.a[1] = LowerBlock::ad(Omega);
  for (int m = 2; m <= 4; ++m) x.a[m] = x.a[m - 1] * x.a[1];
  LowerBlock T = x.a[0];  // T = I + sum_r f_r a^r
  for (int r = 1; r <= 4; ++r) T += x.k.f[r - 1] * x.a[r];
  x.T = T.matrix();
}

Matrix6d tangentRate(const TangentExpansion& x, const Vector6d& Omega_dot) {
  // T' = sum_r (f_r'/t)(e . Omega') a^r + f_r d(a^r),  d(a^r) = d(a^{r-1}) a + a^{r-1} ad_{Omega'}
  const double rho = x.e.dot(Omega_dot);
  const LowerBlock ad_rate = LowerBlock::ad(Omega_dot);
  LowerBlock d_power = ad_rate;  // d(a^1)
  LowerBlock T_dot = (x.k.df_over_theta[0] * rho) * x.a[1] + x.k.f[0] * d_power;
  for (int r = 2; r <= 4; ++r) {
    d_power = d_power * x.a[1] + x.a[r - 1] * ad_rate;
    T_dot += (x.k.df_over_theta[r - 1] * rho) * x.a[r] + x.k.f[r - 1] * d_power;
  }
  return T_dot.matrix();
}

Matrix6d dexpTransposeJacobian(const TangentExpansion& x, const Vector6d& F) {
  // T^T F = F + sum_r f_r (a^T)^r F and d(a^T v)/dOmega = -adbar*_v  (a^T v = -ad*_Omega v), so
  // J = radial e^T - sum_s P_s^T adbar*_{z_{s-1}}. With P_s = sum_m f_{s+m} a^m and adbar* linear
  // that is - sum_m (a^m)^T adbar*_{u_m}, u_m = sum_s f_{s+m} z_{s-1}, whose m = 0 term needs no
  // product
  Vector6d z[5];
  z[0] = F;
  for (int m = 1; m <= 4; ++m) z[m] = -coad(x.Omega, z[m - 1]);
  Vector6d radial = Vector6d::Zero();
  for (int r = 1; r <= 4; ++r) radial += x.k.df_over_theta[r - 1] * z[r];
  Matrix6d J = Matrix6d::Zero();
  J.leftCols<3>().noalias() = radial * x.e.head<3>().transpose();
  for (int m = 0; m <= 3; ++m) {
    Vector6d u = Vector6d::Zero();
    for (int s = 1; s <= 4 - m; ++s) u += x.k.f[s + m - 1] * z[s - 1];
    if (m == 0) {
      J -= coadBar(u);  // a^0 = I
    } else {
      subtractTransposeTimesCoadBar(x.a[m], u, J);
    }
  }
  return J;
}

void dexpJacobians(const TangentExpansion& x, const Vector6d& w, const Vector6d& d, Matrix6d& DT_w,
                   Matrix6d& DDT) {
  // a joint's T' runs along its own Omega' = w: delta names that direction so that the terms below
  // read as the general derivative's
  const Vector6d& delta = w;
  // h = T'(Omega, delta) w = sum_r [ g_r rho a^r w + f_r D_r(w) delta ], g_r = f_r'/t,
  // rho = e . delta; differentiate every factor
  const double rho = x.e.dot(delta);
  const LowerBlock ad_delta = LowerBlock::ad(delta);

  LowerBlock Dw[5];  // D_m(w)
  powerDerivatives(x, w, 5, Dw);
  Vector6d y[5];  // a^m w
  y[0] = w;
  for (int m = 1; m <= 4; ++m) y[m] = ad(x.Omega, y[m - 1]);

  LowerBlock H;
  Vector6d radial = Vector6d::Zero();   // multiplies e^T
  Vector6d angular = Vector6d::Zero();  // multiplies delta_theta^T
  for (int r = 1; r <= 4; ++r) {
    const double g = x.k.df_over_theta[r - 1];
    radial += x.k.d_df_over_theta[r - 1] * rho * y[r] + g * (Dw[r] * delta);
    angular += g * y[r];
    H += (g * rho) * Dw[r];
  }

  // sum_r f_r sum_{u<=r} [ D_{r-u}(ad_delta a^{u-1} w) + a^{r-u} ad_delta D_{u-1}(w) ].
  // First part, regrouped by m = r - u (D_m is linear): sum_{m=1..3} D_m(z_m) with
  // z_m = sum_u f_{u+m} ad_delta a^{u-1} w. Its u = 1 terms vanish (ad_delta w = ad_w w = 0), so
  // z_1 = f_3 ad_delta a w + f_4 ad_delta a^2 w, z_2 = f_4 ad_delta a w, z_3 = 0, and unrolling
  // D_m = a D_{m-1} - ad_{a^{m-1} .} gives -ad_{z_1 + a z_2} - a ad_{z_2}          (one product)
  const Vector6d ad_delta_aw = ad(delta, y[1]);
  const Vector6d z_1 = x.k.f[2] * ad_delta_aw + x.k.f[3] * ad(delta, y[2]);
  const Vector6d z_2 = x.k.f[3] * ad_delta_aw;
  H -= LowerBlock::ad(z_1 + ad(x.Omega, z_2));
  H -= x.a[1] * LowerBlock::ad(z_2);
  // Second part, sum_{u=2..4} P_u ad_delta D_{u-1}(w) = sum_{m=0..2} a^m ad_delta Q_m with
  // Q_m = sum_u f_{u+m} D_{u-1}(w), joined with d(T d)/dOmega = -sum_{m=0..3} a^m ad_{zd_m} +
  // radial (tangentJacobianSums) and summed by Horner's rule
  Vector6d zd[4], radial_d;
  tangentJacobianSums(x, d, zd, radial_d);
  const auto f = [&x](int r) { return x.k.f[r - 1]; };
  const LowerBlock Q0 = f(2) * Dw[1] + f(3) * Dw[2] + f(4) * Dw[3];
  const LowerBlock Q1 = f(3) * Dw[1] + f(4) * Dw[2];
  const LowerBlock Q2 = f(4) * Dw[1];
  LowerBlock K = LowerBlock::ad(-zd[3]);
  K = ad_delta * Q2 + LowerBlock::ad(-zd[2]) + x.a[1] * K;
  K = ad_delta * Q1 + LowerBlock::ad(-zd[1]) + x.a[1] * K;
  K = ad_delta * Q0 + LowerBlock::ad(-zd[0]) + x.a[1] * K;
  H += K;
  DDT = withRadialColumns(H, radial + radial_d, x.e);
  DDT.leftCols<3>().noalias() += angular * delta.head<3>().transpose();
  // d(T w)/dOmega = sum_r f_r D_r(w) + (sum_r g_r a^r w) e^T, from the same D_r(w)
  LowerBlock DT = x.k.f[0] * Dw[1];
  for (int r = 2; r <= 4; ++r) DT += x.k.f[r - 1] * Dw[r];
  DT_w = withRadialColumns(DT, angular, x.e);
}

}  // namespace tendril
