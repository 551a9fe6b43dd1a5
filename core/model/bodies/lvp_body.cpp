#include "core/model/bodies/lvp_body.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/math/hyper_dual.hpp"
#include "core/math/hyper_dual_block.hpp"
#include "core/math/quadrature.hpp"

namespace tendril {
namespace {

using Coefficients = LvpKinematics::Coefficients;
using Vec = std::array<HyperDual, 3>;
using Mat = std::array<std::array<HyperDual, 3>, 3>;
template <typename T>
using CoefficientsOf = std::array<T, kLvpMaxCoefficients>;
template <typename T>
using VecOf = std::array<T, 3>;
template <typename T>
using MatOf = std::array<std::array<T, 3>, 3>;

constexpr double kPi = std::numbers::pi;

struct NamedPrimitive {
  LvpPrimitiveType type;
  const char* name;
};
constexpr NamedPrimitive kPrimitiveNames[] = {
    {LvpPrimitiveType::Stretch, "stretch"},  {LvpPrimitiveType::BendX1, "bend_x1"},
    {LvpPrimitiveType::BendX2, "bend_x2"},   {LvpPrimitiveType::Twist, "twist"},
    {LvpPrimitiveType::ShearX1, "shear_x1"}, {LvpPrimitiveType::ShearX2, "shear_x2"},
    {LvpPrimitiveType::Source, "source"}};

// P(s), P'(s), P''(s), its integral and double integral from 0, by Horner over the first n
// coefficients (n: the primitive's highest non-zero coefficient + 1)
template <typename T>
T poly(const CoefficientsOf<T>& c, int n, const T& s) {
  T r = c[n - 1];
  for (int m = n - 2; m >= 0; --m) r = r * s + c[m];
  return r;
}
template <typename T>
T polyDerivative(const CoefficientsOf<T>& c, int n, const T& s) {
  if (n < 2) return T(0.0);
  T r = double(n - 1) * c[n - 1];
  for (int m = n - 2; m >= 1; --m) r = r * s + double(m) * c[m];
  return r;
}
template <typename T>
T polySecond(const CoefficientsOf<T>& c, int n, const T& s) {
  if (n < 3) return T(0.0);
  T r = double((n - 1) * (n - 2)) * c[n - 1];
  for (int m = n - 2; m >= 2; --m) r = r * s + double(m * (m - 1)) * c[m];
  return r;
}
template <typename T>
T polyIntegral(const CoefficientsOf<T>& c, int n, const T& s) {
  T r = c[n - 1] / double(n);
  for (int m = n - 2; m >= 0; --m) r = r * s + c[m] / double(m + 1);
  return r * s;
}
template <typename T>
T polyDoubleIntegral(const CoefficientsOf<T>& c, int n, const T& s) {
  T r = c[n - 1] / double(n * (n + 1));
  for (int m = n - 2; m >= 0; --m) r = r * s + c[m] / double((m + 1) * (m + 2));
  return r * s * s;
}

template <typename T>
MatOf<T> identity() {
  MatOf<T> H;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) H[r][c] = T(r == c ? 1.0 : 0.0);
  return H;
}

// a primitive's Jacobian H starts as the identity, then takes the entries the primitive has; on
// blocks only premultiply() reads H, and it reads exactly those entries, so the fill is skipped
inline void startJacobian(Mat& H) {
  H = identity<HyperDual>();
}
template <int N>
void startJacobian(MatOf<HyperDualBlock<N>>& /*H*/) {}

// y3 -> sigma(y3) = y3 + L P(s), (y1, y2) / sqrt(sigma'): the section shrinks as it stretches
template <typename T>
void stretch(const CoefficientsOf<T>& c, int n, double L, VecOf<T>& y, MatOf<T>* H) {
  const T s = y[2] / L;
  const T sigma = y[2] + L * poly(c, n, s), sigma1 = 1.0 + polyDerivative(c, n, s);
  const T k = 1.0 / sqrt(sigma1);
  if (H) {
    const T k3 = k * k * k, sigma2 = polySecond(c, n, s) / L;
    startJacobian(*H);
    (*H)[0][0] = k;
    (*H)[1][1] = k;
    (*H)[0][2] = -0.5 * y[0] * sigma2 * k3;
    (*H)[1][2] = -0.5 * y[1] * sigma2 * k3;
    (*H)[2][2] = sigma1;
  }
  y = {k * y[0], k * y[1], sigma};
}

// the centreline (w(y3), y3) in the a-x3 plane with w'' = kappa (w(0) = w'(0) = 0), sections
// normal to it, the transverse coordinate remapped by g so that area is kept: beta g - kappa g^2
// / 2 = y_a (docs/theory/lvp.md §2.2)
template <typename T>
void bend(const CoefficientsOf<T>& c, int n, double L, int a, VecOf<T>& y, MatOf<T>* H) {
  const T s = y[2] / L;
  const T w = L * polyDoubleIntegral(c, n, s), w1 = polyIntegral(c, n, s), w2 = poly(c, n, s) / L;
  const T beta2 = 1.0 + w1 * w1, beta = sqrt(beta2);
  const T kappa = w2 / beta2;
  const T root = sqrt(beta2 - 2.0 * kappa * y[a]);
  const T g = 2.0 * y[a] / (beta + root);
  const T A = 1.0 / beta, B = w1 / beta;  // cos and sin of the section's angle
  if (H) {
    const T w3 = polyDerivative(c, n, s) / (L * L);
    const T beta1 = w1 * w2 / beta;
    const T kappa1 = (w3 * beta - 2.0 * w2 * beta1) / (beta2 * beta);
    const T g1 = 1.0 / root, g3 = (0.5 * kappa1 * g * g - beta1 * g) / root;
    const T A1 = -beta1 / beta2, B1 = w2 / beta - w1 * beta1 / beta2;
    startJacobian(*H);
    (*H)[a][a] = g1 * A;
    (*H)[a][2] = w1 + g3 * A + g * A1;
    (*H)[2][a] = -g1 * B;
    (*H)[2][2] = 1.0 - g3 * B - g * B1;
  }
  const T y3 = y[2];
  y[a] = w + g * A;
  y[2] = y3 - g * B;
}

template <typename T>
void twist(const CoefficientsOf<T>& c, int n, double L, VecOf<T>& y, MatOf<T>* H) {
  const T s = y[2] / L;
  const T psi = poly(c, n, s);
  const T cs = cos(psi), sn = sin(psi);
  const T y0 = cs * y[0] - sn * y[1], y1 = sn * y[0] + cs * y[1];
  if (H) {
    const T psi1 = polyDerivative(c, n, s) / L;
    startJacobian(*H);
    (*H)[0][0] = cs;
    (*H)[0][1] = -sn;
    (*H)[1][0] = sn;
    (*H)[1][1] = cs;
    (*H)[0][2] = -psi1 * y1;
    (*H)[1][2] = psi1 * y0;
  }
  y[0] = y0;
  y[1] = y1;
}

template <typename T>
void shear(const CoefficientsOf<T>& c, int n, double L, int a, VecOf<T>& y, MatOf<T>* H) {
  const T s = y[2] / L;
  if (H) {
    startJacobian(*H);
    (*H)[a][2] = polyDerivative(c, n, s);
  }
  y[a] = y[a] + L * poly(c, n, s);
}

// r^2 -> r^2 + a(y3) in the section, a = r_c^2 P: each annulus keeps its area
template <typename T>
void source(const CoefficientsOf<T>& c, int n, double L, double rc2, VecOf<T>& y, MatOf<T>* H) {
  const T s = y[2] / L;
  const T a = rc2 * poly(c, n, s);
  const T r2 = y[0] * y[0] + y[1] * y[1];
  const T m = sqrt(1.0 + a / r2);
  if (H) {
    const T a1 = rc2 * polyDerivative(c, n, s) / L;
    const T dm0 = -a * y[0] / (m * r2 * r2), dm1 = -a * y[1] / (m * r2 * r2);
    const T dm3 = a1 / (2.0 * m * r2);
    startJacobian(*H);
    (*H)[0][0] = m + y[0] * dm0;
    (*H)[0][1] = y[0] * dm1;
    (*H)[1][0] = y[1] * dm0;
    (*H)[1][1] = m + y[1] * dm1;
    (*H)[0][2] = y[0] * dm3;
    (*H)[1][2] = y[1] * dm3;
  }
  y[0] = m * y[0];
  y[1] = m * y[1];
}

bool isZero(const HyperDual& x) {
  return x.a == 0.0 && x.b1 == 0.0 && x.b2 == 0.0 && x.c == 0.0;
}
template <int N>
bool isZero(const HyperDualBlock<N>& x) {
  return x.a == 0.0 && x.v == 0.0 && (x.d == 0.0).all() && (x.dv == 0.0).all();
}

// the coefficients in use: trailing ones that vanish with all their derivatives contribute nothing
template <typename T>
int usedTerms(const CoefficientsOf<T>& c) {
  int n = kLvpMaxCoefficients;
  while (n > 1 && isZero(c[static_cast<std::size_t>(n - 1)])) --n;
  return n;
}

template <typename T>
void applyPrimitive(const LvpKinematics::Primitive& p, const CoefficientsOf<T>& c, int n, double L,
                    double rc2, VecOf<T>& y, MatOf<T>* H) {
  switch (p.type) {
    case LvpPrimitiveType::Stretch:
      return stretch(c, n, L, y, H);
    case LvpPrimitiveType::BendX1:
      return bend(c, n, L, 0, y, H);
    case LvpPrimitiveType::BendX2:
      return bend(c, n, L, 1, y, H);
    case LvpPrimitiveType::Twist:
      return twist(c, n, L, y, H);
    case LvpPrimitiveType::ShearX1:
      return shear(c, n, L, 0, y, H);
    case LvpPrimitiveType::ShearX2:
      return shear(c, n, L, 1, y, H);
    case LvpPrimitiveType::Source:
      return source(c, n, L, rc2, y, H);
  }
}

template <typename T>
MatOf<T> multiply(const MatOf<T>& A, const MatOf<T>& B) {
  MatOf<T> C;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C[r][c] = A[r][0] * B[0][c] + A[r][1] * B[1][c] + A[r][2] * B[2][c];
  return C;
}

template <typename T>
T dot(const VecOf<T>& a, const VecOf<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <typename T>
VecOf<T> cross(const VecOf<T>& a, const VecOf<T>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <typename T>
VecOf<T> column(const MatOf<T>& F, int c) {
  return {F[0][c], F[1][c], F[2][c]};
}
template <typename T>
VecOf<T> times(const MatOf<T>& F, const Eigen::Vector3d& x) {
  VecOf<T> out;
  for (int r = 0; r < 3; ++r) out[r] = F[r][0] * x(0) + F[r][1] * x(1) + F[r][2] * x(2);
  return out;
}

template <typename Part>
Eigen::Vector3d part(const Vec& y, Part get) {
  return {get(y[0]), get(y[1]), get(y[2])};
}
template <typename Part>
Eigen::Matrix3d part(const Mat& F, Part get) {
  Eigen::Matrix3d out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out(r, c) = get(F[r][c]);
  return out;
}
const auto value = [](const HyperDual& x) { return x.a; };
const auto first = [](const HyperDual& x) { return x.b1; };
const auto second = [](const HyperDual& x) { return x.b2; };
const auto mixed = [](const HyperDual& x) { return x.c; };

Eigen::Vector3d axialVector(const Eigen::Matrix3d& S) {
  return 0.5 * Eigen::Vector3d(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
}

// F <- H F for a primitive's Jacobian H, reading only the entries H can have besides the identity
// (each primitive changes at most the rows below): the same sums as multiply() without the
// products by its structural zeros and ones
template <typename T>
void premultiply(LvpPrimitiveType type, const MatOf<T>& H, MatOf<T>& F) {
  using Type = LvpPrimitiveType;
  for (int c = 0; c < 3; ++c) {
    const T f0 = F[0][c], f1 = F[1][c], f2 = F[2][c];
    switch (type) {
      case Type::Stretch:
        F[0][c] = H[0][0] * f0 + H[0][2] * f2;
        F[1][c] = H[1][1] * f1 + H[1][2] * f2;
        F[2][c] = H[2][2] * f2;
        break;
      case Type::BendX1:
        F[0][c] = H[0][0] * f0 + H[0][2] * f2;
        F[2][c] = H[2][0] * f0 + H[2][2] * f2;
        break;
      case Type::BendX2:
        F[1][c] = H[1][1] * f1 + H[1][2] * f2;
        F[2][c] = H[2][1] * f1 + H[2][2] * f2;
        break;
      case Type::ShearX1:
        F[0][c] = f0 + H[0][2] * f2;
        break;
      case Type::ShearX2:
        F[1][c] = f1 + H[1][2] * f2;
        break;
      case Type::Twist:
      case Type::Source:
        F[0][c] = H[0][0] * f0 + H[0][1] * f1 + H[0][2] * f2;
        F[1][c] = H[1][0] * f0 + H[1][1] * f1 + H[1][2] * f2;
        break;
    }
  }
}

// y = f(x) for the combined coefficients c (terms: the coefficients in use per primitive), and
// F = df/dx when asked
template <typename T>
void mapPoint(const std::vector<LvpKinematics::Primitive>& primitives,
              const std::vector<CoefficientsOf<T>>& c, const int* terms, const Eigen::Vector3d& x,
              bool with_source, double L, double rc2, VecOf<T>& y, MatOf<T>* F) {
  y = {T(x(0)), T(x(1)), T(x(2))};
  if (F) *F = identity<T>();
  MatOf<T> H;
  for (std::size_t i = 0; i < primitives.size(); ++i) {
    if (!with_source && primitives[i].type == LvpPrimitiveType::Source) continue;
    applyPrimitive(primitives[i], c[i], terms[i], L, rc2, y, F ? &H : nullptr);
    if (F) premultiply(primitives[i].type, H, *F);
  }
}

// the distal frame at the tip centre (without the sources): Gram-Schmidt on F e1, F e2
template <typename T>
void tipFrame(const std::vector<LvpKinematics::Primitive>& primitives,
              const std::vector<CoefficientsOf<T>>& c, const int* terms, const Eigen::Vector3d& tip,
              double L, double rc2, MatOf<T>& R, VecOf<T>& p) {
  MatOf<T> F;
  mapPoint(primitives, c, terms, tip, false, L, rc2, p, &F);
  const VecOf<T> a = column(F, 0), b = column(F, 1);
  const T na = sqrt(dot(a, a));
  const VecOf<T> e1 = {a[0] / na, a[1] / na, a[2] / na};
  const T ab = dot(b, e1);
  const VecOf<T> u = {b[0] - ab * e1[0], b[1] - ab * e1[1], b[2] - ab * e1[2]};
  const T nu = sqrt(dot(u, u));
  const VecOf<T> e2 = {u[0] / nu, u[1] / nu, u[2] / nu};
  const VecOf<T> e3 = cross(e1, e2);
  for (int r = 0; r < 3; ++r) {
    R[r][0] = e1[r];
    R[r][1] = e2[r];
    R[r][2] = e3[r];
  }
}

}  // namespace

const char* lvpPrimitiveName(LvpPrimitiveType type) {
  for (const NamedPrimitive& p : kPrimitiveNames) {
    if (p.type == type) return p.name;
  }
  return "";
}

std::optional<LvpPrimitiveType> lvpPrimitiveFromName(const std::string& name) {
  for (const NamedPrimitive& p : kPrimitiveNames) {
    if (name == p.name) return p.type;
  }
  return std::nullopt;
}

std::vector<LvpPrimitiveDesc> lvpTable4Primitives() {
  using T = LvpPrimitiveType;
  return {{T::Stretch, {{0.0, 1.0, -1.0}}, {}}, {T::BendX1, {{1.0}, {0.0, 1.0}}, {}},
          {T::BendX2, {{1.0}, {0.0, 1.0}}, {}}, {T::Twist, {{0.0, 1.0}}, {}},
          {T::ShearX1, {{0.0, 1.0}}, {}},       {T::ShearX2, {{0.0, 1.0}}, {}}};
}

std::vector<LvpPrimitiveDesc> lvpTable5Primitives() {
  using T = LvpPrimitiveType;
  return {{T::Stretch, {{0.0, 0.0, 1.0}}, {}}, {T::Source, {{0.0, 0.0, 1.0}}, {}}};
}

int lvpDof(const LvpBodyDesc& body) {
  int n = 0;
  for (const LvpPrimitiveDesc& p : body.primitives) n += static_cast<int>(p.modes.size());
  return n;
}

//-------------------- compiled kinematics

LvpKinematics::LvpKinematics(const LvpBodyDesc& body) : body_(body) {
  for (const LvpPrimitiveDesc& desc : body.primitives) {
    Primitive p;
    p.type = desc.type;
    p.first = dof_;
    p.n = static_cast<int>(desc.modes.size());
    for (const std::vector<double>& mode : desc.modes) {
      std::array<double, kLvpMaxCoefficients> row{};
      for (std::size_t m = 0; m < mode.size() && m < row.size(); ++m) row[m] = mode[m];
      p.modes.push_back(row);
    }
    for (std::size_t m = 0; m < desc.rest.size() && m < p.rest.size(); ++m)
      p.rest[m] = desc.rest[m];
    dof_ += p.n;
    primitives_.push_back(p);
  }
  // the cylindrical product rule: Gauss-Legendre in x3 and in r (with the Jacobian r), uniform in
  // the angle (docs/theory/lvp.md §4)
  const LvpQuadratureDesc& rule = body.quadrature;
  const GaussRule axial = gaussLegendre(rule.axial, body.length);
  axial_nodes_ = axial.nodes;
  axial_weights_ = axial.weights;
  const GaussRule radial = gaussLegendre(rule.radial, body.radius - body.cavity_radius);
  const double angle_weight = 2.0 * kPi / rule.angular;
  for (int i = 0; i < rule.axial; ++i) {
    for (int j = 0; j < rule.radial; ++j) {
      const double r = body.cavity_radius + radial.nodes(j);
      for (int k = 0; k < rule.angular; ++k) {
        const double theta = angle_weight * (k + 0.5);
        points_.emplace_back(r * std::cos(theta), r * std::sin(theta), axial.nodes(i));
        volumes_.push_back(axial.weights(i) * radial.weights(j) * r * angle_weight);
      }
    }
  }
}

void LvpKinematics::combine(const Eigen::Ref<const Eigen::VectorXd>& q, const double* d1,
                            const double* d2, std::vector<Coefficients>& out) const {
  out.resize(primitives_.size());
  for (std::size_t i = 0; i < primitives_.size(); ++i) {
    const Primitive& p = primitives_[i];
    for (int m = 0; m < kLvpMaxCoefficients; ++m) {
      HyperDual c(p.rest[static_cast<std::size_t>(m)]);
      for (int k = 0; k < p.n; ++k) {
        const double a = p.modes[static_cast<std::size_t>(k)][static_cast<std::size_t>(m)];
        if (a == 0.0) continue;
        c.a += a * q(p.first + k);
        if (d1) c.b1 += a * d1[p.first + k];
        if (d2) c.b2 += a * d2[p.first + k];
      }
      out[i][static_cast<std::size_t>(m)] = c;
    }
  }
}

void LvpKinematics::map(const std::vector<Coefficients>& c, const Eigen::Vector3d& x,
                        bool with_source, std::array<HyperDual, 3>& y,
                        std::array<std::array<HyperDual, 3>, 3>* F) const {
  y = {HyperDual(x(0)), HyperDual(x(1)), HyperDual(x(2))};
  if (F) *F = identity<HyperDual>();
  const double L = body_.length, rc2 = body_.cavity_radius * body_.cavity_radius;
  Mat H;
  for (std::size_t i = 0; i < primitives_.size(); ++i) {
    if (!with_source && primitives_[i].type == LvpPrimitiveType::Source) continue;
    applyPrimitive(primitives_[i], c[i], usedTerms(c[i]), L, rc2, y, F ? &H : nullptr);
    if (F) *F = multiply(H, *F);
  }
}

Eigen::Vector3d LvpKinematics::position(const Eigen::Vector3d& x,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        bool with_source) const {
  std::vector<Coefficients> c;
  combine(q, nullptr, nullptr, c);
  Vec y;
  map(c, x, with_source, y, nullptr);
  return part(y, value);
}

Eigen::Matrix3d LvpKinematics::deformationGradient(
    const Eigen::Vector3d& x, const Eigen::Ref<const Eigen::VectorXd>& q) const {
  std::vector<Coefficients> c;
  combine(q, nullptr, nullptr, c);
  Vec y;
  Mat F;
  map(c, x, true, y, &F);
  return part(F, value);
}

Eigen::Matrix3Xd LvpKinematics::positionJacobian(const Eigen::Vector3d& x,
                                                 const Eigen::Ref<const Eigen::VectorXd>& q) const {
  Eigen::Matrix3Xd J(3, dof_);
  std::vector<Coefficients> c;
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(dof_);
  for (int j = 0; j < dof_; ++j) {
    unit.setZero();
    unit(j) = 1.0;
    combine(q, unit.data(), nullptr, c);
    Vec y;
    map(c, x, true, y, nullptr);
    J.col(j) = part(y, first);
  }
  return J;
}

Eigen::Vector3d LvpKinematics::positionBias(const Eigen::Vector3d& x,
                                            const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& v) const {
  std::vector<Coefficients> c;
  combine(q, v.data(), v.data(), c);
  Vec y;
  map(c, x, true, y, nullptr);
  return part(y, mixed);
}

void LvpKinematics::distal(const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v, std::vector<Coefficients>& c,
                           Eigen::VectorXd& unit, Distal& out) const {
  const Eigen::Vector3d tip(0.0, 0.0, body_.length);
  // the frame at the tip centre, as hyper-dual numbers: Gram-Schmidt on F e1, F e2
  const auto frame = [&](Mat& R, Vec& p) {
    Mat F;
    map(c, tip, false, p, &F);
    const Vec a = column(F, 0), b = column(F, 1);
    const HyperDual na = sqrt(dot(a, a));
    const Vec e1 = {a[0] / na, a[1] / na, a[2] / na};
    const HyperDual ab = dot(b, e1);
    const Vec u = {b[0] - ab * e1[0], b[1] - ab * e1[1], b[2] - ab * e1[2]};
    const HyperDual nu = sqrt(dot(u, u));
    const Vec e2 = {u[0] / nu, u[1] / nu, u[2] / nu};
    const Vec e3 = cross(e1, e2);
    for (int r = 0; r < 3; ++r) {
      R[r][0] = e1[r];
      R[r][1] = e2[r];
      R[r][2] = e3[r];
    }
  };
  out.J.resize(6, dof_);
  Mat R;
  Vec p;
  for (int j = 0; j < dof_; ++j) {
    unit.setZero();
    unit(j) = 1.0;
    combine(q, unit.data(), nullptr, c);
    frame(R, p);
    const Eigen::Matrix3d R0 = part(R, value);
    out.J.col(j) << axialVector(R0.transpose() * part(R, first)), R0.transpose() * part(p, first);
  }
  combine(q, v.data(), v.data(), c);
  frame(R, p);
  out.R = part(R, value);
  out.p = part(p, value);
  const Eigen::Matrix3d R_dot = part(R, first), R_ddot = part(R, mixed);
  const Eigen::Vector3d p_dot = part(p, first), p_ddot = part(p, mixed);
  out.Jv << axialVector(out.R.transpose() * R_dot), out.R.transpose() * p_dot;
  out.bias << axialVector(R_dot.transpose() * R_dot + out.R.transpose() * R_ddot),
      R_dot.transpose() * p_dot + out.R.transpose() * p_ddot;
}

void LvpKinematics::distal(const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v, Distal& out) const {
  std::vector<Coefficients> c;
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(dof_);
  distal(q, v, c, unit, out);
}

double LvpKinematics::elasticEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const {
  std::vector<Coefficients> c;
  combine(q, nullptr, nullptr, c);
  double energy = 0.0;
  for (std::size_t k = 0; k < points_.size(); ++k) {
    Vec y;
    Mat F;
    map(c, points_[k], true, y, &F);
    energy += volumes_[k] * (part(F, value).squaredNorm() - 3.0);
  }
  return body_.neo_hookean_c * energy;
}

void LvpKinematics::internalForces(const Eigen::Ref<const Eigen::VectorXd>& q,
                                   const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::VectorXd& s,
                                   Eigen::MatrixXd* stiffness) const {
  PointState state;
  prepare(state);
  Eigen::VectorXd rates = Eigen::VectorXd::Zero(dof_);
  if (v.size() == dof_) rates = v;
  evaluate(q, rates, true, state);
  s = state.internal;
  if (!stiffness) return;
  // K_ij = 2 C sum dV (tr(F_j^T F_i) + tr(F^T F_ij)): directions e_i and e_j
  stiffness->setZero(dof_, dof_);
  Eigen::VectorXd unit_i = Eigen::VectorXd::Zero(dof_), unit_j = Eigen::VectorXd::Zero(dof_);
  std::vector<Coefficients> c;
  for (int i = 0; i < dof_; ++i) {
    for (int j = 0; j <= i; ++j) {
      unit_i.setZero();
      unit_j.setZero();
      unit_i(i) = 1.0;
      unit_j(j) = 1.0;
      combine(q, unit_i.data(), unit_j.data(), c);
      double sum = 0.0;
      for (std::size_t k = 0; k < points_.size(); ++k) {
        Vec y;
        Mat F;
        map(c, points_[k], true, y, &F);
        const Eigen::Matrix3d F0 = part(F, value);
        sum += volumes_[k] * ((part(F, second).transpose() * part(F, first)).trace() +
                              (F0.transpose() * part(F, mixed)).trace());
      }
      (*stiffness)(i, j) = (*stiffness)(j, i) = 2.0 * body_.neo_hookean_c * sum;
    }
  }
}

void LvpKinematics::prepare(PointState& state) const {
  const std::size_t n_points = points_.size();
  state.p.assign(n_points, Eigen::Vector3d::Zero());
  state.Jv.assign(n_points, Eigen::Vector3d::Zero());
  state.bias.assign(n_points, Eigen::Vector3d::Zero());
  state.J.assign(n_points, Eigen::Matrix3Xd::Zero(3, dof_));
  state.internal = Eigen::VectorXd::Zero(dof_);
  state.stiffness_times_v = Eigen::VectorXd::Zero(dof_);
  state.unit = Eigen::VectorXd::Zero(dof_);
  state.coefficients.resize(primitives_.size());
  state.distal.J.resize(6, dof_);
  state.volume_gradient = Eigen::VectorXd::Zero(dof_);
  state.block_coefficients.resize(primitives_.size());
  state.block_terms.assign(primitives_.size(), kLvpMaxCoefficients);
}

void LvpKinematics::combineBlock(const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v, int first,
                                 std::vector<BlockCoefficients>& out,
                                 std::vector<int>& terms) const {
  for (std::size_t i = 0; i < primitives_.size(); ++i) {
    const Primitive& p = primitives_[i];
    for (int m = 0; m < kLvpMaxCoefficients; ++m) {
      Block c(p.rest[static_cast<std::size_t>(m)]);
      for (int k = 0; k < p.n; ++k) {
        const double a = p.modes[static_cast<std::size_t>(k)][static_cast<std::size_t>(m)];
        if (a == 0.0) continue;
        const int j = p.first + k;
        c.a += a * q(j);
        c.v += a * v(j);
        if (j >= first && j < first + kBlock) c.d(j - first) += a;
      }
      out[i][static_cast<std::size_t>(m)] = c;
    }
    terms[i] = usedTerms(out[i]);
  }
}

void LvpKinematics::evaluate(const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& v, bool with_forces,
                             PointState& state) const {
  using Lanes = Block::Lanes;
  const std::size_t n_points = points_.size();
  const double two_c = 2.0 * body_.neo_hookean_c;
  const double L = body_.length, rc2 = body_.cavity_radius * body_.cavity_radius;
  VecOf<Block> y;
  MatOf<Block> F;
  // one pass per block of coordinates (at least one, for the position when dof = 0)
  for (int first = 0; first == 0 || first < dof_; first += kBlock) {
    const int lanes = std::min(kBlock, dof_ - first);
    combineBlock(q, v, first, state.block_coefficients, state.block_terms);
    Lanes v_lanes = Lanes::Zero();
    v_lanes.head(lanes) = v.segment(first, lanes).array();
    Lanes elastic = Lanes::Zero(), rate = Lanes::Zero();
    for (std::size_t k = 0; k < n_points; ++k) {
      mapPoint(primitives_, state.block_coefficients, state.block_terms.data(), points_[k], true, L,
               rc2, y, with_forces ? &F : nullptr);
      Eigen::Matrix3Xd& J = state.J[k];
      for (int r = 0; r < 3; ++r) {
        const Block& y_r = y[static_cast<std::size_t>(r)];
        J.row(r).segment(first, lanes) = y_r.d.head(lanes).matrix().transpose();
        if (first == 0) {
          state.p[k](r) = y_r.a;
          state.Jv[k](r) = y_r.v;
          state.bias[k](r) = 0.0;
        }
        // (d^2 f / dq^2 v) v = sum_j v_j d/dq_j (J v)
        state.bias[k](r) += (y_r.dv * v_lanes).sum();
      }
      if (!with_forces) continue;
      // tr(F^T F_j), tr(F_v^T F_j) + tr(F^T F_jv) for the block's j
      Lanes point_elastic = Lanes::Zero(), point_rate = Lanes::Zero();
      for (const auto& row : F) {
        for (const Block& e : row) {
          point_elastic += e.a * e.d;
          point_rate += e.v * e.d + e.a * e.dv;
        }
      }
      elastic += volumes_[k] * point_elastic;
      rate += volumes_[k] * point_rate;
    }
    state.internal.segment(first, lanes) = two_c * elastic.head(lanes).matrix();
    state.stiffness_times_v.segment(first, lanes) = two_c * rate.head(lanes).matrix();
  }
  if (with_forces) {
    state.internal += body_.damping * state.stiffness_times_v;
  } else {
    state.internal.setZero();
    state.stiffness_times_v.setZero();
  }
  distalBlocks(q, v, state);
}

void LvpKinematics::evaluateDistal(const Eigen::Ref<const Eigen::VectorXd>& q,
                                   const Eigen::Ref<const Eigen::VectorXd>& v,
                                   PointState& state) const {
  state.internal.setZero();
  state.stiffness_times_v.setZero();
  distalBlocks(q, v, state);
}

void LvpKinematics::distalBlocks(const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 PointState& state) const {
  using Lanes = Block::Lanes;
  const Eigen::Vector3d tip(0.0, 0.0, body_.length);
  const double L = body_.length, rc2 = body_.cavity_radius * body_.cavity_radius;
  Distal& out = state.distal;
  Eigen::Matrix3d R_dot, R_ddot = Eigen::Matrix3d::Zero(), R_lane;
  Eigen::Vector3d p_dot, p_ddot = Eigen::Vector3d::Zero(), p_lane;
  MatOf<Block> R;
  VecOf<Block> p;
  for (int first = 0; first == 0 || first < dof_; first += kBlock) {
    const int lanes = std::min(kBlock, dof_ - first);
    combineBlock(q, v, first, state.block_coefficients, state.block_terms);
    tipFrame(primitives_, state.block_coefficients, state.block_terms.data(), tip, L, rc2, R, p);
    Lanes v_lanes = Lanes::Zero();
    v_lanes.head(lanes) = v.segment(first, lanes).array();
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        const Block& e = R[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
        if (first == 0) {
          out.R(r, c) = e.a;
          R_dot(r, c) = e.v;
        }
        R_ddot(r, c) += (e.dv * v_lanes).sum();
      }
      const Block& e = p[static_cast<std::size_t>(r)];
      if (first == 0) {
        out.p(r) = e.a;
        p_dot(r) = e.v;
      }
      p_ddot(r) += (e.dv * v_lanes).sum();
    }
    for (int l = 0; l < lanes; ++l) {
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
          R_lane(r, c) = R[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)].d(l);
        p_lane(r) = p[static_cast<std::size_t>(r)].d(l);
      }
      out.J.col(first + l) << axialVector(out.R.transpose() * R_lane), out.R.transpose() * p_lane;
    }
  }
  out.Jv << axialVector(out.R.transpose() * R_dot), out.R.transpose() * p_dot;
  out.bias << axialVector(R_dot.transpose() * R_dot + out.R.transpose() * R_ddot),
      R_dot.transpose() * p_dot + out.R.transpose() * p_ddot;
}

void LvpKinematics::evaluateReference(const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v, bool with_forces,
                                      PointState& state) const {
  const std::size_t n_points = points_.size();
  const double two_c = 2.0 * body_.neo_hookean_c;
  state.internal.setZero();
  state.stiffness_times_v.setZero();
  Vec y;
  Mat F;
  // one pass per coordinate j: directions e_j and v
  for (int j = 0; j < dof_; ++j) {
    state.unit.setZero();
    state.unit(j) = 1.0;
    combine(q, state.unit.data(), v.data(), state.coefficients);
    double s_j = 0.0, k_j = 0.0;
    for (std::size_t k = 0; k < n_points; ++k) {
      map(state.coefficients, points_[k], true, y, with_forces ? &F : nullptr);
      state.J[k].col(j) = part(y, first);
      if (!with_forces) continue;
      // tr(F^T F_j), tr(F_v^T F_j) + tr(F^T F_jv)
      double elastic = 0.0, rate = 0.0;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
          const HyperDual& e = F[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
          elastic += e.a * e.b1;
          rate += e.b2 * e.b1 + e.a * e.c;
        }
      }
      s_j += volumes_[k] * elastic;
      k_j += volumes_[k] * rate;
    }
    state.internal(j) = two_c * s_j;
    state.stiffness_times_v(j) = two_c * k_j;
  }
  if (with_forces) state.internal += body_.damping * state.stiffness_times_v;
  // both directions v: position, J v and the bias (d^2 f / dq^2 v) v
  combine(q, v.data(), v.data(), state.coefficients);
  for (std::size_t k = 0; k < n_points; ++k) {
    map(state.coefficients, points_[k], true, y, nullptr);
    state.p[k] = part(y, value);
    state.Jv[k] = part(y, first);
    state.bias[k] = part(y, mixed);
  }
  distal(q, v, state.coefficients, state.unit, state.distal);
}

double LvpKinematics::cavityVolume(const Eigen::Ref<const Eigen::VectorXd>& q,
                                   Eigen::VectorXd* gradient) const {
  std::vector<Coefficients> c;
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(dof_);
  if (gradient) gradient->resize(dof_);
  return cavityVolume(q, c, unit, gradient);
}

double LvpKinematics::cavityVolume(const Eigen::Ref<const Eigen::VectorXd>& q,
                                   std::vector<Coefficients>& c, Eigen::VectorXd& unit,
                                   Eigen::VectorXd* gradient) const {
  const double rc = body_.cavity_radius;
  if (!(rc > 0.0)) {
    if (gradient) gradient->setZero();
    return 0.0;
  }
  // V = 1/3 (wall integral of x . n + c_top . A_top - c_bottom . A_bottom), the caps being cones
  // from the ends' centres to the rims (docs/theory/lvp.md §6)
  const LvpQuadratureDesc& rule = body_.quadrature;
  const double dtheta = 2.0 * kPi / rule.angular;
  const auto volume = [&]() {
    HyperDual wall(0.0), caps(0.0);
    Vec y;
    Mat F;
    for (int k = 0; k < rule.angular; ++k) {
      const double theta = dtheta * (k + 0.5);
      const Eigen::Vector3d tangent(-rc * std::sin(theta), rc * std::cos(theta), 0.0);
      for (int i = 0; i < rule.axial; ++i) {
        map(c, Eigen::Vector3d(rc * std::cos(theta), rc * std::sin(theta), axial_nodes_(i)), true,
            y, &F);
        wall += (axial_weights_(i) * dtheta) * dot(y, cross(times(F, tangent), column(F, 2)));
      }
      for (const double z : {0.0, body_.length}) {
        map(c, Eigen::Vector3d(rc * std::cos(theta), rc * std::sin(theta), z), true, y, &F);
        const Vec area = cross(y, times(F, tangent));  // 2 dA / dtheta
        Vec centre;
        map(c, Eigen::Vector3d(0.0, 0.0, z), false, centre, nullptr);
        caps += (z == 0.0 ? -0.5 : 0.5) * dtheta * dot(centre, area);
      }
    }
    return (wall + caps) / 3.0;
  };
  if (!gradient || dof_ == 0) {
    combine(q, nullptr, nullptr, c);
    if (gradient) gradient->setZero();
    return volume().a;
  }
  double V = 0.0;
  for (int j = 0; j < dof_; ++j) {
    unit.setZero();
    unit(j) = 1.0;
    combine(q, unit.data(), nullptr, c);
    const HyperDual result = volume();
    (*gradient)(j) = result.b1;
    V = result.a;
  }
  return V;
}

void LvpKinematics::pointJacobian(const Eigen::Ref<const Eigen::VectorXd>& q,
                                  const Eigen::Vector3d& x, PointState& scratch, Eigen::Vector3d& p,
                                  Eigen::Ref<Eigen::Matrix3Xd> J) const {
  const double L = body_.length, rc2 = body_.cavity_radius * body_.cavity_radius;
  scratch.unit.setZero();  // no rates: the lanes alone carry derivatives
  VecOf<Block> y;
  for (int first = 0; first == 0 || first < dof_; first += kBlock) {
    const int lanes = std::min(kBlock, dof_ - first);
    combineBlock(q, scratch.unit, first, scratch.block_coefficients, scratch.block_terms);
    mapPoint(primitives_, scratch.block_coefficients, scratch.block_terms.data(), x, true, L, rc2,
             y, static_cast<MatOf<Block>*>(nullptr));
    for (int r = 0; r < 3; ++r) {
      p(r) = y[static_cast<std::size_t>(r)].a;
      J.row(r).segment(first, lanes) =
          y[static_cast<std::size_t>(r)].d.head(lanes).matrix().transpose();
    }
  }
}

//-------------------- validation

std::optional<LvpProblem> findLvpBodyProblem(const LvpBodyDesc& body, const std::string& pointer) {
  const auto problem = [&](const std::string& key, const std::string& reason) {
    return std::optional<LvpProblem>(LvpProblem{pointer + key, reason});
  };
  if (!(body.length > 0.0)) return problem("/length", "the length must be positive");
  if (!(body.radius > 0.0)) return problem("/radius", "the radius must be positive");
  if (!(body.cavity_radius >= 0.0 && body.cavity_radius < body.radius))
    return problem("/cavity_radius", "the cavity radius must lie in [0, radius)");
  if (!(body.density > 0.0)) return problem("/density", "the density must be positive");
  if (!(body.neo_hookean_c >= 0.0)) return problem("/C", "C must not be negative");
  if (!(body.damping >= 0.0)) return problem("/eta", "eta must not be negative");
  const LvpQuadratureDesc& rule = body.quadrature;
  if (rule.axial < 1 || rule.axial > kMaxGaussPoints)
    return problem("/quadrature/axial",
                   "needs 1 to " + std::to_string(kMaxGaussPoints) + " points");
  if (rule.radial < 1 || rule.radial > kMaxGaussPoints)
    return problem("/quadrature/radial",
                   "needs 1 to " + std::to_string(kMaxGaussPoints) + " points");
  if (rule.angular < 3) return problem("/quadrature/angular", "needs at least 3 angles");
  for (std::size_t i = 0; i < body.primitives.size(); ++i) {
    const LvpPrimitiveDesc& p = body.primitives[i];
    const std::string at = "/primitives/" + std::to_string(i);
    if (p.type == LvpPrimitiveType::Source && !(body.cavity_radius > 0.0))
      return problem(at + "/type", "a source inflates a cavity: set a cavity_radius > 0");
    for (std::size_t k = 0; k < p.modes.size(); ++k) {
      if (p.modes[k].size() > static_cast<std::size_t>(kLvpMaxCoefficients))
        return problem(at + "/modes/" + std::to_string(k), "a mode has at most 8 coefficients");
    }
    if (p.rest.size() > static_cast<std::size_t>(kLvpMaxCoefficients))
      return problem(at + "/rest", "the rest shape has at most 8 coefficients");
  }
  // the rest shape (q = 0): every primitive's Jacobian determinant must be 1 in the whole body
  // (a stretch whose sigma' <= 0 folds it, a bend past its centre of curvature, a source that
  // closes the cavity); checked on the quadrature points and on the boundary
  const LvpKinematics kinematics(body);
  std::vector<Eigen::Vector3d> probes = kinematics.points();
  for (const double r : {body.cavity_radius, body.radius}) {
    if (!(r > 0.0)) continue;
    for (int k = 0; k < 16; ++k) {
      for (int i = 0; i <= 16; ++i) {
        const double theta = 2.0 * kPi * k / 16.0;
        probes.emplace_back(r * std::cos(theta), r * std::sin(theta), body.length * i / 16.0);
      }
    }
  }
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(kinematics.dof());
  std::vector<LvpKinematics::Coefficients> c;
  kinematics.combine(rest, nullptr, nullptr, c);
  const double L = body.length, rc2 = body.cavity_radius * body.cavity_radius;
  for (const Eigen::Vector3d& x : probes) {
    Vec y = {HyperDual(x(0)), HyperDual(x(1)), HyperDual(x(2))};
    for (std::size_t i = 0; i < kinematics.primitives().size(); ++i) {
      Mat H;
      applyPrimitive(kinematics.primitives()[i], c[i], usedTerms(c[i]), L, rc2, y, &H);
      const double det = part(H, value).determinant();
      if (!std::isfinite(det) || std::abs(det - 1.0) > 1e-9) {
        std::ostringstream reason;
        reason << "the rest shape is not volume-preserving here: the Jacobian determinant is "
               << det << " at x = (" << x(0) << ", " << x(1) << ", " << x(2)
               << ") (a stretch with sigma' <= 0, a bend past its centre of curvature or a "
                  "source that closes the cavity)";
        const std::string at = "/primitives/" + std::to_string(i);
        return problem(body.primitives[i].rest.empty() ? at : at + "/rest", reason.str());
      }
    }
  }
  return std::nullopt;
}

}  // namespace tendril
