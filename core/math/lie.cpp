#include "core/math/lie.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/math/lower_block.hpp"

namespace tendril {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// number of Taylor terms in x = t^2; at t = 2 the first neglected f_r'' term is below 1e-20
constexpr int kSeriesTerms = 14;

using SeriesTable = std::array<double, kSeriesTerms>;

// 1/n! in double, exact enough for table generation
constexpr double inverseFactorial(int n) {
  double value = 1.0;
  for (int i = 2; i <= n; ++i) {
    value /= static_cast<double>(i);
  }
  return value;
}

constexpr double alternatingSign(int j) {
  return (j % 2 == 0) ? 1.0 : -1.0;
}

// which scalar function a table expands (all are even in t, expanded in x = t^2)
enum class Fn { F1, F2, F3, F4, SinOverT, OneMinusCosOverT2, TMinusSinOverT3 };

// coefficient of x^j, from the sin/cos Taylor series simplified by hand:
//   f1: (-1)^j (1-j)/(2j+2)!   f2: (-1)^j (1-j)/(2j+3)!
//   f3: (-1)^j (j+1)/(2j+4)!   f4: (-1)^j (j+1)/(2j+5)!
constexpr double seriesCoefficient(Fn fn, int j) {
  const double sign = alternatingSign(j);
  switch (fn) {
    case Fn::F1:
      return sign * (1.0 - j) * inverseFactorial(2 * j + 2);
    case Fn::F2:
      return sign * (1.0 - j) * inverseFactorial(2 * j + 3);
    case Fn::F3:
      return sign * (j + 1.0) * inverseFactorial(2 * j + 4);
    case Fn::F4:
      return sign * (j + 1.0) * inverseFactorial(2 * j + 5);
    case Fn::SinOverT:
      return sign * inverseFactorial(2 * j + 1);
    case Fn::OneMinusCosOverT2:
      return sign * inverseFactorial(2 * j + 2);
    case Fn::TMinusSinOverT3:
      return sign * inverseFactorial(2 * j + 3);
  }
  return 0.0;
}

// which derivative a table holds: f(t), f'(t)/t or f''(t), all as series in x
enum class Deriv { Value, FirstOverT, Second, SecondOverT2 };

constexpr SeriesTable makeTable(Fn fn, Deriv deriv) {
  SeriesTable table{};
  for (int j = 0; j < kSeriesTerms; ++j) {
    // f = sum a_j x^j, f'/t = sum 2(j+1) a_{j+1} x^j, f'' = sum 2(j+1)(2j+1) a_{j+1} x^j
    switch (deriv) {
      case Deriv::Value:
        table[j] = seriesCoefficient(fn, j);
        break;
      case Deriv::FirstOverT:
        table[j] = 2.0 * (j + 1) * seriesCoefficient(fn, j + 1);
        break;
      case Deriv::Second:
        table[j] = 2.0 * (j + 1) * (2.0 * j + 1.0) * seriesCoefficient(fn, j + 1);
        break;
      case Deriv::SecondOverT2:  // (1/t) d/dt (f'/t) = sum 4(j+1)(j+2) a_{j+2} x^j
        table[j] = 4.0 * (j + 1) * (j + 2.0) * seriesCoefficient(fn, j + 2);
        break;
    }
  }
  return table;
}

// four series evaluated side by side: table[j][lane] is the x^j coefficient of lane's function
using LaneTable = std::array<std::array<double, 4>, kSeriesTerms>;

constexpr LaneTable makeLanes(const std::array<Fn, 4>& fns, Deriv deriv) {
  LaneTable lanes{};
  for (int r = 0; r < 4; ++r) {
    const SeriesTable table = makeTable(fns[r], deriv);
    for (int j = 0; j < kSeriesTerms; ++j) {
      lanes[j][r] = table[j];
    }
  }
  return lanes;
}

constexpr std::array<Fn, 4> kTangentFns = {Fn::F1, Fn::F2, Fn::F3, Fn::F4};
constexpr LaneTable kF = makeLanes(kTangentFns, Deriv::Value);
constexpr LaneTable kDfOverT = makeLanes(kTangentFns, Deriv::FirstOverT);
constexpr LaneTable kDdf = makeLanes(kTangentFns, Deriv::Second);
constexpr LaneTable kDDfOverT2 = makeLanes(kTangentFns, Deriv::SecondOverT2);
// exp and log: sin t/t, (1 - cos t)/t^2, (t - sin t)/t^3 and f3
constexpr LaneTable kExpLog =
    makeLanes({Fn::SinOverT, Fn::OneMinusCosOverT2, Fn::TMinusSinOverT3, Fn::F3}, Deriv::Value);

// horner evaluation of four series at once (independent chains)
void evalLanes(const LaneTable& c, double x, double (&out)[4]) {
  double acc[4] = {c[kSeriesTerms - 1][0], c[kSeriesTerms - 1][1], c[kSeriesTerms - 1][2],
                   c[kSeriesTerms - 1][3]};
  for (int j = kSeriesTerms - 2; j >= 0; --j) {
    for (int r = 0; r < 4; ++r) {
      acc[r] = acc[r] * x + c[j][r];
    }
  }
  for (int r = 0; r < 4; ++r) {
    out[r] = acc[r];
  }
}

// coefficients of exp and log: sin t/t, (1 - cos t)/t^2, (t - sin t)/t^3, f3(t)
struct ExpCoefficients {
  double a, b, c, f3;
};

ExpCoefficients expCoefficients(double theta) {
  if (theta < kTangentSeriesThreshold) {
    double v[4];
    evalLanes(kExpLog, theta * theta, v);
    return {v[0], v[1], v[2], v[3]};
  }
  const double s = std::sin(theta);
  const double c = std::cos(theta);
  const double t2 = theta * theta;
  return {s / theta, (1.0 - c) / t2, (theta - s) / (t2 * theta),
          (2.0 - 2.0 * c - theta * s) / (2.0 * t2 * t2)};
}

// how much of TangentCoefficients a caller needs
enum class Need { F, FAndFirst, All };

// f_r, and on request f_r'/t and f_r'', by series below the switch and closed forms above
TangentCoefficients evalTangentCoefficients(double theta, Need need) {
  TangentCoefficients k{};

  // series in x = t^2 below the switch
  if (theta < kTangentSeriesThreshold) {
    const double x = theta * theta;
    evalLanes(kF, x, k.f);
    if (need != Need::F) {
      evalLanes(kDfOverT, x, k.df_over_theta);
    }
    if (need == Need::All) {
      evalLanes(kDdf, x, k.ddf);
      evalLanes(kDDfOverT2, x, k.d_df_over_theta);
    }
    return k;
  }

  // closed forms (docs/theory/gvs.md (C16))
  const double t = theta;
  const double s = std::sin(t);
  const double c = std::cos(t);
  const double t2 = t * t;
  const double t3 = t2 * t;
  const double t4 = t2 * t2;
  const double t5 = t4 * t;
  const double t6 = t3 * t3;
  const double t7 = t6 * t;
  k.f[0] = (4.0 - 4.0 * c - t * s) / (2.0 * t2);
  k.f[1] = (4.0 * t - 5.0 * s + t * c) / (2.0 * t3);
  k.f[2] = (2.0 - 2.0 * c - t * s) / (2.0 * t4);
  k.f[3] = (2.0 * t - 3.0 * s + t * c) / (2.0 * t5);
  if (need == Need::F) {
    return k;
  }

  // the printed f_r' divided once more by t
  const double num13 = -8.0 + (8.0 - t2) * c + 5.0 * t * s;
  const double num24 = -8.0 * t + (15.0 - t2) * s - 7.0 * t * c;
  k.df_over_theta[0] = num13 / (2.0 * t4);
  k.df_over_theta[1] = num24 / (2.0 * t5);
  k.df_over_theta[2] = num13 / (2.0 * t6);
  k.df_over_theta[3] = num24 / (2.0 * t7);
  if (need == Need::FAndFirst) {
    return k;
  }

  // second derivatives
  k.ddf[0] = (24.0 - (24.0 - 6.0 * t2) * c - (18.0 * t - t3) * s) / (2.0 * t4);
  k.ddf[1] = (24.0 * t - (60.0 - 9.0 * t2) * s + (36.0 * t - t3) * c) / (2.0 * t5);
  k.ddf[2] = (40.0 - (40.0 - 8.0 * t2) * c - (28.0 * t - t3) * s) / (2.0 * t6);
  k.ddf[3] = (40.0 * t - (90.0 - 11.0 * t2) * s + (50.0 * t - t3) * c) / (2.0 * t7);
  for (int r = 0; r < 4; ++r) k.d_df_over_theta[r] = (k.ddf[r] - k.df_over_theta[r]) / t2;
  return k;
}

// a 6x6 matrix of the form [[a, 0], [b, a]]: closed under products, holds ad_V, its powers and
// their time derivatives at the cost of three 3x3 products per product
LowerBlock adBlock(const Vector6d& V) {
  return LowerBlock::ad(V);
}

// writes sum_r c_r P_r (+ identity if requested) into a 6x6 matrix
void assemble(const double (&c)[4], const std::array<LowerBlock, 4>& P, bool add_identity,
              Matrix6d& out) {
  Matrix3d a = Matrix3d::Zero();
  if (add_identity) {
    a.diagonal().setOnes();
  }
  Matrix3d b = Matrix3d::Zero();
  for (int r = 0; r < 4; ++r) {
    a += c[r] * P[r].a.topRows<3>();
    b += c[r] * P[r].b.topRows<3>();
  }
  out.topLeftCorner<3, 3>() = a;
  out.topRightCorner<3, 3>().setZero();
  out.bottomLeftCorner<3, 3>() = b;
  out.bottomRightCorner<3, 3>() = a;
}

// powers ad^1..ad^4 of ad_Omega
std::array<LowerBlock, 4> adPowers(const Vector6d& Omega) {
  std::array<LowerBlock, 4> P;
  P[0] = adBlock(Omega);
  P[1] = P[0] * P[0];
  P[2] = P[1] * P[0];
  P[3] = P[2] * P[0];
  return P;
}

}  // namespace

// --------------------------------------------------------------------------------------------
// SE3
// --------------------------------------------------------------------------------------------

SE3 SE3::operator*(const SE3& other) const {
  return {R * other.R, R * other.p + p};
}

SE3 SE3::inverse() const {
  const Matrix3d Rt = R.transpose();
  return {Rt, -(Rt * p)};
}

Eigen::Matrix4d SE3::matrix() const {
  Eigen::Matrix4d M = Eigen::Matrix4d::Identity();
  M.topLeftCorner<3, 3>() = R;
  M.topRightCorner<3, 1>() = p;
  return M;
}

SE3 SE3::Identity() {
  return {};
}

Vector3d SE3::act(const Vector3d& x) const {
  return R * x + p;
}

// --------------------------------------------------------------------------------------------
// hat / vee
// --------------------------------------------------------------------------------------------

Eigen::Matrix4d hat(const Vector6d& V) {
  Eigen::Matrix4d X = Eigen::Matrix4d::Zero();
  X.topLeftCorner<3, 3>() = skew(V.head<3>());
  X.topRightCorner<3, 1>() = V.tail<3>();
  return X;
}

Vector6d vee(const Eigen::Matrix4d& X) {
  Vector6d V;
  V << X(2, 1), X(0, 2), X(1, 0), X(0, 3), X(1, 3), X(2, 3);
  return V;
}

// --------------------------------------------------------------------------------------------
// exp / log
// --------------------------------------------------------------------------------------------

SE3 exp(const Vector6d& Omega) {
  const Vector3d w = Omega.head<3>();
  const Vector3d v = Omega.tail<3>();
  const ExpCoefficients k = expCoefficients(w.norm());

  // rodrigues for R, and V(w) v with cross products so that w = 0 gives p = v exactly
  SE3 g;
  const Matrix3d W = skew(w);
  g.R = Matrix3d::Identity() + k.a * W + k.b * (W * W);
  const Vector3d wxv = w.cross(v);
  g.p = v + k.b * wxv + k.c * w.cross(wxv);
  return g;
}

Vector6d log(const SE3& g) {
  const Matrix3d& R = g.R;

  // angle from the skew part (sin t n) and the trace (cos t)
  const Vector3d s = 0.5 * Vector3d(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
  const double c = std::clamp(0.5 * (R.trace() - 1.0), -1.0, 1.0);
  const double theta = std::atan2(s.norm(), c);

  // rotation vector: from the skew part away from pi, from the symmetric part near pi
  const ExpCoefficients k = expCoefficients(theta);
  Vector3d w;
  if (c > -0.5) {
    w = s / k.a;
  } else {
    const Matrix3d M = 0.5 * (R + R.transpose()) - c * Matrix3d::Identity();
    int largest = 0;
    M.diagonal().maxCoeff(&largest);
    Vector3d n = M.col(largest).normalized();
    if (n.dot(s) < 0.0) {
      n = -n;
    }
    w = theta * n;
  }

  // translation: v = V(w)^{-1} p = p - w x p / 2 + (f3/b) w x (w x p)
  const double d = k.f3 / k.b;
  const Vector3d wxp = w.cross(g.p);
  Vector6d Omega;
  Omega.head<3>() = w;
  Omega.tail<3>() = g.p - 0.5 * wxp + d * w.cross(wxp);
  return Omega;
}

// --------------------------------------------------------------------------------------------
// adjoint maps
// --------------------------------------------------------------------------------------------

Matrix6d Ad(const SE3& g) {
  Matrix6d A;
  A.topLeftCorner<3, 3>() = g.R;
  A.topRightCorner<3, 3>().setZero();
  A.bottomLeftCorner<3, 3>() = skew(g.p) * g.R;
  A.bottomRightCorner<3, 3>() = g.R;
  return A;
}

Matrix6d AdInv(const SE3& g) {
  const Matrix3d Rt = g.R.transpose();
  Matrix6d A;
  A.topLeftCorner<3, 3>() = Rt;
  A.topRightCorner<3, 3>().setZero();
  A.bottomLeftCorner<3, 3>() = -Rt * skew(g.p);
  A.bottomRightCorner<3, 3>() = Rt;
  return A;
}

Matrix6d coAd(const SE3& g) {
  Matrix6d A;
  A.topLeftCorner<3, 3>() = g.R;
  A.topRightCorner<3, 3>() = skew(g.p) * g.R;
  A.bottomLeftCorner<3, 3>().setZero();
  A.bottomRightCorner<3, 3>() = g.R;
  return A;
}

Matrix6d coAdInv(const SE3& g) {
  const Matrix3d Rt = g.R.transpose();
  Matrix6d A;
  A.topLeftCorner<3, 3>() = Rt;
  A.topRightCorner<3, 3>() = -Rt * skew(g.p);
  A.bottomLeftCorner<3, 3>().setZero();
  A.bottomRightCorner<3, 3>() = Rt;
  return A;
}

// --------------------------------------------------------------------------------------------
// tangent operator
// --------------------------------------------------------------------------------------------

TangentCoefficients tangentCoefficients(double theta) {
  return evalTangentCoefficients(theta, Need::All);
}

Matrix6d dexp(const Vector6d& Omega) {
  // T = I + sum_r f_r ad^r
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::F);
  Matrix6d T;
  assemble(k.f, adPowers(Omega), true, T);
  return T;
}

Vector6d dexpApply(const Vector6d& Omega, const Vector6d& V) {
  // accumulate f_r ad^r V by repeated brackets
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::F);
  Vector6d y = V;
  Vector6d out = V;
  for (int r = 0; r < 4; ++r) {
    y = ad(Omega, y);
    out += k.f[r] * y;
  }
  return out;
}

Vector6d dexpTransposeApply(const Vector6d& Omega, const Vector6d& F) {
  // (ad^T)^r F = (-ad*)^r F, C28
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::F);
  Vector6d y = F;
  Vector6d out = F;
  for (int r = 0; r < 4; ++r) {
    y = -coad(Omega, y);
    out += k.f[r] * y;
  }
  return out;
}

void dexpAndDot(const Vector6d& Omega, const Vector6d& Omega_dot, Matrix6d& T, Matrix6d& T_dot) {
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::FAndFirst);
  const std::array<LowerBlock, 4> P = adPowers(Omega);
  assemble(k.f, P, true, T);

  // d(ad^r) = d(ad^{r-1}) ad + ad^{r-1} ad_{Omega'}
  std::array<LowerBlock, 4> D;
  D[0] = adBlock(Omega_dot);
  for (int r = 1; r < 4; ++r) {
    D[r] = D[r - 1] * P[0] + P[r - 1] * D[0];
  }

  // T' = sum_r (f_r'/t)(w . w') ad^r + f_r d(ad^r)   (t' t = w . w')
  const double w_dot_wdot = Omega.head<3>().dot(Omega_dot.head<3>());
  std::array<LowerBlock, 4> terms;
  for (int r = 0; r < 4; ++r) {
    terms[r] = (k.df_over_theta[r] * w_dot_wdot) * P[r] + k.f[r] * D[r];
  }
  constexpr double kOnes[4] = {1.0, 1.0, 1.0, 1.0};
  assemble(kOnes, terms, false, T_dot);
}

Vector6d dexpDotApply(const Vector6d& Omega, const Vector6d& Omega_dot, const Vector6d& x) {
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::FAndFirst);
  const double w_dot_wdot = Omega.head<3>().dot(Omega_dot.head<3>());
  Vector6d y = x;  // ad^{r-1} x
  Vector6d z;      // d(ad^r) x
  Vector6d out = Vector6d::Zero();
  for (int r = 0; r < 4; ++r) {
    z = r == 0 ? ad(Omega_dot, y) : Vector6d(ad(Omega, z) + ad(Omega_dot, y));
    y = ad(Omega, y);
    out += k.df_over_theta[r] * w_dot_wdot * y + k.f[r] * z;
  }
  return out;
}

void dexpRates(const Vector6d& Omega, const Vector6d& Omega_dot, const Vector6d& d,
               Vector6d& velocity, Vector6d& acceleration) {
  const TangentCoefficients k = evalTangentCoefficients(Omega.head<3>().norm(), Need::FAndFirst);
  const double w_dot_wdot = Omega.head<3>().dot(Omega_dot.head<3>());
  // y = ad^r Omega', u = ad^r d, z = d(ad^r) Omega' (dexpDotApply(); z vanishes at r = 1 since
  // ad_{Omega'} Omega' = 0)
  Vector6d y = Omega_dot, u = d, z = Vector6d::Zero();
  velocity = Omega_dot;
  acceleration = d;
  for (int r = 0; r < 4; ++r) {
    if (r == 1) z = ad(Omega_dot, y);
    if (r > 1) z = ad(Omega, z) + ad(Omega_dot, y);
    y = ad(Omega, y);
    u = ad(Omega, u);
    velocity += k.f[r] * y;
    acceleration += k.f[r] * (u + z) + (k.df_over_theta[r] * w_dot_wdot) * y;
  }
}

Matrix6d dexpDot(const Vector6d& Omega, const Vector6d& Omega_dot) {
  Matrix6d T;
  Matrix6d T_dot;
  dexpAndDot(Omega, Omega_dot, T, T_dot);
  return T_dot;
}

// --------------------------------------------------------------------------------------------
// magnus
// --------------------------------------------------------------------------------------------

double zannaCommutatorFactor(double h) {
  return std::sqrt(3.0) * h * h / 12.0;
}

Vector6d magnus2(const Vector6d& xi_mid, double h) {
  return h * xi_mid;
}

Vector6d magnus4(const Vector6d& xi_z1, const Vector6d& xi_z2, double h) {
  // C1
  return 0.5 * h * (xi_z1 + xi_z2) + zannaCommutatorFactor(h) * ad(xi_z1, xi_z2);
}

Vector6d magnus4Rate(const Vector6d& xi_z1, const Vector6d& xi_z2, const Vector6d& xi_dot_z1,
                     const Vector6d& xi_dot_z2, double h) {
  // C2
  return 0.5 * h * (xi_dot_z1 + xi_dot_z2) +
         zannaCommutatorFactor(h) * (ad(xi_z1, xi_dot_z2) - ad(xi_z2, xi_dot_z1));
}

Vector6d magnus4Acceleration(const Vector6d& xi_z1, const Vector6d& xi_z2,
                             const Vector6d& xi_dot_z1, const Vector6d& xi_dot_z2,
                             const Vector6d& xi_ddot_z1, const Vector6d& xi_ddot_z2, double h) {
  // C3
  const double c = zannaCommutatorFactor(h);
  return 0.5 * h * (xi_ddot_z1 + xi_ddot_z2) + c * (ad(xi_z1, xi_ddot_z2) - ad(xi_z2, xi_ddot_z1)) +
         2.0 * c * ad(xi_dot_z1, xi_dot_z2);
}

void magnus4Jacobian(const Vector6d& xi_z1, const Vector6d& xi_z2,
                     const Eigen::Ref<const Eigen::MatrixXd>& Phi_z1,
                     const Eigen::Ref<const Eigen::MatrixXd>& Phi_z2, double h,
                     Eigen::Ref<Eigen::MatrixXd> Z) {
  assert(Phi_z1.rows() == 6 && Phi_z2.rows() == 6 && Z.rows() == 6);
  assert(Phi_z1.cols() == Z.cols() && Phi_z2.cols() == Z.cols());

  // C4, column by column with brackets instead of 6x6 products
  const double c = zannaCommutatorFactor(h);
  for (Eigen::Index j = 0; j < Z.cols(); ++j) {
    const Vector6d phi1 = Phi_z1.col(j);
    const Vector6d phi2 = Phi_z2.col(j);
    Z.col(j) = 0.5 * h * (phi1 + phi2) + c * (ad(xi_z1, phi2) - ad(xi_z2, phi1));
  }
}

void magnus4JacobianRate(const Vector6d& a_z1, const Vector6d& a_z2,
                         const Eigen::Ref<const Eigen::MatrixXd>& Phi_z1,
                         const Eigen::Ref<const Eigen::MatrixXd>& Phi_z2, double h,
                         Eigen::Ref<Eigen::MatrixXd> Z_dot) {
  assert(Phi_z1.rows() == 6 && Phi_z2.rows() == 6 && Z_dot.rows() == 6);
  assert(Phi_z1.cols() == Z_dot.cols() && Phi_z2.cols() == Z_dot.cols());

  // C8 (a = xi') and C14 (a = xi'')
  const double c = zannaCommutatorFactor(h);
  for (Eigen::Index j = 0; j < Z_dot.cols(); ++j) {
    const Vector6d phi1 = Phi_z1.col(j);
    const Vector6d phi2 = Phi_z2.col(j);
    Z_dot.col(j) = c * (ad(a_z1, phi2) - ad(a_z2, phi1));
  }
}

// --------------------------------------------------------------------------------------------
// roll-pitch-yaw
// --------------------------------------------------------------------------------------------

Matrix3d rpyToRotation(double roll, double pitch, double yaw) {
  // R = Rz(yaw) Ry(pitch) Rx(roll), written out
  const double cr = std::cos(roll), sr = std::sin(roll);
  const double cp = std::cos(pitch), sp = std::sin(pitch);
  const double cy = std::cos(yaw), sy = std::sin(yaw);
  Matrix3d R;
  R << cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,  //
      sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,   //
      -sp, cp * sr, cp * cr;
  return R;
}

Vector3d rotationToRpy(const Matrix3d& R) {
  // pitch from the first column
  const double cp = std::hypot(R(0, 0), R(1, 0));
  const double pitch = std::atan2(-R(2, 0), cp);

  // gimbal lock: only roll -/+ yaw is defined; take roll = 0
  if (cp <= 4.0 * std::numeric_limits<double>::epsilon()) {
    return {0.0, pitch, std::atan2(-R(0, 1), R(1, 1))};
  }

  // yaw, then roll from row 1 of Rz(yaw)^T R = Ry Rx, well conditioned even close to the lock
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  const double cy = std::cos(yaw), sy = std::sin(yaw);
  const double roll = std::atan2(sy * R(0, 2) - cy * R(1, 2), cy * R(1, 1) - sy * R(0, 1));
  return {roll, pitch, yaw};
}

}  // namespace tendril
