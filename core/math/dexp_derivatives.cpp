#include "core/math/dexp_derivatives.hpp"

namespace tendril {
namespace {

// D_m(x) = d(a^m x)/dOmega for m = 0..count-1, by D_m = a D_{m-1} - ad_{a^{m-1} x}
void powerDerivatives(const TangentExpansion& x, const Vector6d& v, int count, Matrix6d* D) {
  D[0].setZero();
  Vector6d y = v;  // a^{m-1} v
  for (int m = 1; m < count; ++m) {
    D[m].noalias() = x.a[1] * D[m - 1];
    D[m] -= ad(y);
    y = ad(x.Omega, y);
  }
}

}  // namespace

void expandTangent(const Vector6d& Omega, TangentExpansion& x) {
  x.Omega = Omega;
  x.e << Omega.head<3>(), Eigen::Vector3d::Zero();
  x.k = tangentCoefficients(Omega.head<3>().norm());
  x.a[0].setIdentity();
  x.a[1] = ad(Omega);
  for (int m = 2; m <= 4; ++m) x.a[m].noalias() = x.a[m - 1] * x.a[1];
  // P_s = f_s I + f_{s+1} a + ... + f_4 a^{4-s};  P_0 = I + sum_r f_r a^r = T
  for (int s = 1; s <= 4; ++s) {
    x.P[s].setZero();
    for (int m = 0; m <= 4 - s; ++m) x.P[s] += x.k.f[s + m - 1] * x.a[m];
  }
  x.P[0] = x.a[0];
  for (int r = 1; r <= 4; ++r) x.P[0] += x.k.f[r - 1] * x.a[r];
}

Matrix6d dexpJacobian(const TangentExpansion& x, const Vector6d& w) {
  Vector6d y[5];  // a^m w
  y[0] = w;
  for (int m = 1; m <= 4; ++m) y[m] = ad(x.Omega, y[m - 1]);
  Vector6d radial = Vector6d::Zero();
  for (int r = 1; r <= 4; ++r) radial += x.k.df_over_theta[r - 1] * y[r];
  Matrix6d J = radial * x.e.transpose();
  for (int s = 1; s <= 4; ++s) J.noalias() -= x.P[s] * ad(y[s - 1]);
  return J;
}

Matrix6d dexpTransposeJacobian(const TangentExpansion& x, const Vector6d& F) {
  // T^T F = F + sum_r f_r (a^T)^r F and d(a^T v)/dOmega = -adbar*_v  (a^T v = -ad*_Omega v)
  Vector6d z[5];
  z[0] = F;
  for (int m = 1; m <= 4; ++m) z[m] = -coad(x.Omega, z[m - 1]);
  Vector6d radial = Vector6d::Zero();
  for (int r = 1; r <= 4; ++r) radial += x.k.df_over_theta[r - 1] * z[r];
  Matrix6d J = radial * x.e.transpose();
  for (int s = 1; s <= 4; ++s) J.noalias() -= x.P[s].transpose() * coadBar(z[s - 1]);
  return J;
}

Matrix6d dexpDotJacobian(const TangentExpansion& x, const Vector6d& delta, const Vector6d& w) {
  // h = T'(Omega, delta) w = sum_r [ g_r rho a^r w + f_r D_r(w) delta ], g_r = f_r'/t,
  // rho = e . delta; differentiate every factor
  const double rho = x.e.dot(delta);
  Vector6d delta_theta;
  delta_theta << delta.head<3>(), Eigen::Vector3d::Zero();
  const Matrix6d ad_delta = ad(delta);

  Matrix6d Dw[5];  // D_m(w)
  powerDerivatives(x, w, 5, Dw);
  Vector6d y[5];  // a^m w
  y[0] = w;
  for (int m = 1; m <= 4; ++m) y[m] = ad(x.Omega, y[m - 1]);

  Matrix6d H = Matrix6d::Zero();
  Vector6d radial = Vector6d::Zero();   // multiplies e^T
  Vector6d angular = Vector6d::Zero();  // multiplies delta_theta^T
  for (int r = 1; r <= 4; ++r) {
    const double g = x.k.df_over_theta[r - 1];
    radial += x.k.d_df_over_theta[r - 1] * rho * y[r] + g * (Dw[r] * delta);
    angular += g * y[r];
    H += (g * rho) * Dw[r];
  }
  H.noalias() += radial * x.e.transpose();
  H.noalias() += angular * delta_theta.transpose();

  // sum_r f_r sum_{u<=r} [ D_{r-u}(ad_delta a^{u-1} w) + a^{r-u} ad_delta D_{u-1}(w) ]
  Matrix6d Dx[5];
  for (int u = 1; u <= 4; ++u) {
    const Vector6d x_u = ad(delta, y[u - 1]);
    powerDerivatives(x, x_u, 5 - u, Dx);
    for (int m = 1; m <= 4 - u; ++m) H += x.k.f[u + m - 1] * Dx[m];
    if (u >= 2) H.noalias() += x.P[u] * (ad_delta * Dw[u - 1]);
  }
  return H;
}

}  // namespace tendril
