#include "core/algorithm/model_agnostic_body.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/algorithm/kinematics.hpp"
#include "core/math/quadrature.hpp"
#include "core/model/bodies/rod_division.hpp"
#include "core/model/section.hpp"

namespace tendril {
namespace {

// out = Ad_{g^-1} in, column by column, in 3 x cols blocks: [R^T top; R^T bottom - R^T p~ top]
// (out must not alias in)
void adInvColumns(const SE3& g, const Eigen::Ref<const Matrix6Xd>& in, Eigen::Ref<Matrix6Xd> out) {
  const Eigen::Matrix3d Rt = g.R.transpose();
  const Eigen::Matrix3d Rt_p = Rt * skew(g.p);
  out.topRows<3>().noalias() = Rt.lazyProduct(in.topRows<3>());
  out.bottomRows<3>().noalias() = Rt.lazyProduct(in.bottomRows<3>());
  out.bottomRows<3>().noalias() -= Rt_p.lazyProduct(in.topRows<3>());
}

// the relative motion of a rigid virtual joint's child frame in its base frame: pose G, body
// Jacobian J (6 x nq), J v and Jdot v. A constant J (single screw, commuting columns) is written
// only with write_constant_J: a rigid body's element keeps the one prepare() wrote, a rod's joint
// frame is a working buffer and needs it every time
void rigidJointMotion(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& q_j,
                      const Eigen::Ref<const Eigen::VectorXd>& v_j, bool write_constant_J, SE3& G,
                      Eigen::Ref<Matrix6Xd> J, Vector6d& Jv, Vector6d& b) {
  b.setZero();
  if (joint.nq == 0) {
    G = SE3::Identity();
    Jv.setZero();
    return;
  }
  // single screw: Ad_{exp(-s q)} s = s, so J = s and Jdot = 0
  if (joint.single_screw) {
    G = singleScrewExp(joint.screw, q_j(0));
    if (write_constant_J) J.col(0) = joint.screw;
    Jv = v_j(0) * joint.screw;
    return;
  }
  const Vector6d Omega = joint.Phi * q_j;
  const Vector6d Omega_dot = joint.Phi * v_j;
  G = exp(Omega);
  // commuting columns: T(Omega) Phi = Phi = Ad_{exp(-Omega)} Phi
  if (joint.constant_subspace) {
    if (write_constant_J) J = joint.Phi;
    Jv = Omega_dot;
    return;
  }
  // J = Ad_{exp(-Omega)} T(Omega) Phi = T(-Omega) Phi; with X = -Omega, dexpRates gives
  // T(X) (-Omega') = -J v and T'(X, -Omega') (-Omega') = T'(-Omega, Omega') Omega' = -Jdot v
  J.noalias() = dexp(-Omega).lazyProduct(joint.Phi);
  Vector6d minus_Jv, minus_b;
  dexpRates(-Omega, -Omega_dot, Vector6d::Zero(), minus_Jv, minus_b);
  Jv = -minus_Jv;
  b = -minus_b;
}

// the strains of a rod interval at its collocation points (C1: xi_1 alone for 2nd-order Magnus)
struct IntervalStrains {
  Vector6d xi_1, xi_2 = Vector6d::Zero();
};

// one rod interval's own motion in its child frame: Omega (C1), s = T(-Omega) Omega' (its twist
// relative to its base) and its bias T(-Omega) Z-dot v - T'(-Omega, Omega') Omega' (the
// Ad_{exp(-Omega)} S-dot v of the kinematics, with Z-dot v from C8)
IntervalStrains rodIntervalMotion(const VirtualJoint& joint,
                                  const Eigen::Ref<const Eigen::VectorXd>& q_d,
                                  const Eigen::Ref<const Eigen::VectorXd>& v_d, Vector6d& Omega,
                                  Vector6d& s, Vector6d& bias) {
  IntervalStrains xi;
  Vector6d Omega_dot, Z_dot_v = Vector6d::Zero();
  const double h = joint.h;
  xi.xi_1 = basisTimes(joint, joint.Phi_z1, q_d) + joint.xi_star;
  if (joint.magnus_order == 4) {
    xi.xi_2 = basisTimes(joint, joint.Phi_z2, q_d) + joint.xi_star;
    const Vector6d xi_dot_1 = basisTimes(joint, joint.Phi_z1, v_d);
    const Vector6d xi_dot_2 = basisTimes(joint, joint.Phi_z2, v_d);
    Omega = magnus4(xi.xi_1, xi.xi_2, h);
    Omega_dot = magnus4Rate(xi.xi_1, xi.xi_2, xi_dot_1, xi_dot_2, h);
    Z_dot_v = ad(xi_dot_1, Vector6d(2.0 * zannaCommutatorFactor(h) * xi_dot_2));
  } else {
    Omega = magnus2(xi.xi_1, h);
    Omega_dot = h * basisTimes(joint, joint.Phi_z1, v_d);
  }
  // with X = -Omega: T(X)(-Omega') = -s and T(X)(-Z-dot v) + T'(X, -Omega')(-Omega') = -bias
  Vector6d minus_s, minus_bias;
  dexpRates(-Omega, -Omega_dot, -Z_dot_v, minus_s, minus_bias);
  s = -minus_s;
  bias = -minus_bias;
  return xi;
}

// the interval's Jacobian columns T(-Omega) Z added to cols (6 x nq), through the single-entry
// basis columns (mode k in row r = basis_rows[k]): 4th order (C4)
// Z e_k = p2 ad(c xi_1) e_r - p1 ad(c xi_2) e_r + h/2 (p1 + p2) e_r, 2nd order Z e_k = h p1 e_r
void addRodIntervalColumns(const VirtualJoint& joint, const Vector6d& Omega,
                           const IntervalStrains& xi, Eigen::Ref<Matrix6Xd> cols) {
  const Matrix6d T = dexp(-Omega);
  const double h = joint.h;
  if (joint.magnus_order != 4) {
    for (int k = 0; k < joint.nq; ++k) {
      const int r = joint.basis_rows[k];
      cols.col(k) += (h * joint.Phi_z1(r, k)) * T.col(r);
    }
    return;
  }
  const double c = zannaCommutatorFactor(h), half_h = 0.5 * h;
  const Matrix6d A1 = ad(Vector6d(c * xi.xi_1)), A2 = ad(Vector6d(c * xi.xi_2));
  Matrix6d B1, B2;  // T A1 and T A2, on the rows the basis uses
  for (int r : joint.strain_components) {
    B1.col(r).noalias() = T * A1.col(r);
    B2.col(r).noalias() = T * A2.col(r);
  }
  for (int k = 0; k < joint.nq; ++k) {
    const int r = joint.basis_rows[k];
    const double p1 = joint.Phi_z1(r, k), p2 = joint.Phi_z2(r, k);
    cols.col(k) += p2 * B1.col(r) - p1 * B2.col(r) + (half_h * (p1 + p2)) * T.col(r);
  }
}

}  // namespace

//-------------------- rigid link

bool RigidAgnosticBody::handles(const Model& model, int link) {
  return model.links[link].kind == BodyKind::Rigid;
}

RigidAgnosticBody::RigidAgnosticBody(const Model& model, int link_index)
    : link(link_index), joint(model.links[link_index].joint) {}

void RigidAgnosticBody::prepare(const Model& model, BodyEvaluation& out) const {
  const VirtualJoint& j = model.joints[joint];
  out.n = j.nq;
  out.elements.clear();
  Matrix6Xd J = Matrix6Xd::Zero(6, j.nq);
  if (j.single_screw) J.col(0) = j.screw;
  if (j.constant_subspace && !j.single_screw) J = j.Phi;
  if (j.has_inertia) {
    AgnosticElement element;
    element.J = J;
    element.M = j.inertia;
    out.elements.push_back(element);
    out.tip_element = 0;
    out.J_D.resize(6, 0);
  } else {
    out.tip_element = -1;
    out.J_D = J;
  }
  out.scratch.resize(6, 0);
}

void RigidAgnosticBody::evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                 const Eigen::Ref<const Eigen::VectorXd>& v_i,
                                 BodyEvaluation& out) const {
  const VirtualJoint& j = model.joints[joint];
  if (out.tip_element == 0) {
    AgnosticElement& e = out.elements[0];
    rigidJointMotion(j, q_i, v_i, false, e.G, e.J, e.Jv, e.b);
  } else {
    rigidJointMotion(j, q_i, v_i, false, out.G_D, out.J_D, out.Jv_D, out.b_D);
  }
}

//-------------------- GVS rod

bool GvsRodAgnosticBody::handles(const Model& model, int link) {
  return model.links[link].kind == BodyKind::Soft && model.links[link].first_interval >= 0;
}

GvsRodAgnosticBody::GvsRodAgnosticBody(const Model& model, int link_index)
    : link(link_index),
      joint(model.links[link_index].joint),
      first(model.links[link_index].first_interval),
      last(model.links[link_index].last_interval) {
  // frame 0 is the joint's child frame, frame f > 0 interval first + f - 1
  int count = 0;
  element_of_frame.push_back(model.joints[joint].has_inertia ? count++ : -1);
  for (int f = first; f <= last; ++f) {
    if (model.joints[f].parent != (f == first ? joint : f - 1))
      throw std::invalid_argument("rod intervals of link " + std::to_string(link_index) +
                                  " are not a chain");
    element_of_frame.push_back(model.joints[f].has_inertia ? count++ : -1);
  }
}

void GvsRodAgnosticBody::prepare(const Model& model, BodyEvaluation& out) const {
  const LinkInfo& info = model.links[link];
  out.n = info.nq;
  out.elements.clear();
  for (std::size_t f = 0; f < element_of_frame.size(); ++f) {
    if (element_of_frame[f] < 0) continue;
    const VirtualJoint& j = model.joints[f == 0 ? joint : first + static_cast<int>(f) - 1];
    AgnosticElement element;
    element.J = Matrix6Xd::Zero(6, j.idx_q + j.nq - info.idx_q);
    element.M = j.inertia;
    out.elements.push_back(element);
  }
  out.tip_element = element_of_frame.back();
  out.J_D = Matrix6Xd::Zero(6, info.nq);
  out.scratch = Matrix6Xd::Zero(6, info.nq);
}

void GvsRodAgnosticBody::evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                  const Eigen::Ref<const Eigen::VectorXd>& v_i,
                                  BodyEvaluation& out) const {
  const int base = model.links[link].idx_q;
  const VirtualJoint& j0 = model.joints[joint];
  // the running frame: pose in P, Jacobian (leading `cols` columns of *J), J v, Jdot v
  SE3 G;
  Vector6d Jv, b;
  Matrix6Xd* J = element_of_frame[0] >= 0 ? &out.elements[element_of_frame[0]].J : &out.J_D;
  rigidJointMotion(j0, q_i.head(j0.nq), v_i.head(j0.nq), true, G, J->leftCols(j0.nq), Jv, b);
  int cols = j0.nq;
  if (element_of_frame[0] >= 0) {
    AgnosticElement& e = out.elements[element_of_frame[0]];
    e.G = G;
    e.Jv = Jv;
    e.b = b;
  }
  for (int f = first; f <= last; ++f) {
    const VirtualJoint& interval = model.joints[f];
    const int off = interval.idx_q - base, element = element_of_frame[f - first + 1];
    Vector6d Omega, s, bias;
    const IntervalStrains xi = rodIntervalMotion(interval, q_i.segment(off, interval.nq),
                                                 v_i.segment(off, interval.nq), Omega, s, bias);
    const SE3 g_local = exp(Omega);
    const SE3 g_pc = interval.has_placement ? interval.g_fixed * g_local : g_local;
    // J_f = Ad_{g_pc^-1} J_{f-1} + [T(-Omega) Z]; frames without an element alternate between
    // J_D and the scratch, so that the product never reads what it writes
    Matrix6Xd* next = element >= 0    ? &out.elements[element].J
                      : J == &out.J_D ? &out.scratch
                                      : &out.J_D;
    adInvColumns(g_pc, J->leftCols(cols), next->leftCols(cols));
    if (off + interval.nq > cols) next->middleCols(cols, off + interval.nq - cols).setZero();
    addRodIntervalColumns(interval, Omega, xi, next->middleCols(off, interval.nq));
    J = next;
    cols = std::max(cols, off + interval.nq);
    // Jv_f = Ad_{g_pc^-1} Jv_{f-1} + s, b_f = Ad_{g_pc^-1} b_{f-1} + ad_{Jv_f} s + own bias
    Jv = applyAdInv(g_pc, Jv) + s;
    b = applyAdInv(g_pc, b) + ad(Jv, s) + bias;
    G = G * g_pc;
    if (element >= 0) {
      AgnosticElement& e = out.elements[element];
      e.G = G;
      e.Jv = Jv;
      e.b = b;
    }
  }
  if (J == &out.scratch) out.J_D.swap(out.scratch);  // pointers only: no allocation
  if (out.tip_element < 0) {
    out.G_D = G;
    out.Jv_D = Jv;
    out.b_D = b;
  }
}

//-------------------- constant-curvature segment

namespace {

// f1 = (phi - sin phi)/phi^2, f2 = (cos phi - 1)/phi^2 and their derivatives, from the sine and
// cosine of phi. Below |phi| = 1 the Taylor series of f1, f1' and f2' (nine terms: at |phi| = 1
// the first dropped ones, 1/21! and 20/22!, are below 1e-18 of the sums); above, the closed forms,
// which cancel at most a factor 30 (f2' at phi = 1: 6e-15 relative)
struct ArcFunctions {
  double f1 = 0.0, f2 = 0.0, df1 = 0.0, df2 = 0.0;
};

ArcFunctions arcFunctions(double phi, double inverse_phi, double sin_phi, double cos_phi,
                          double half_sinc) {
  ArcFunctions f;
  // f2 = -sinc^2(phi/2) / 2 has no cancellation
  f.f2 = -0.5 * half_sinc * half_sinc;
  if (std::abs(phi) < 1.0) {
    // f1 = sum_k (-1)^k phi^(2k+1) / (2k+3)!, f1' = sum_k (-1)^k (2k+1) phi^(2k) / (2k+3)!,
    // f2' = sum_k (-1)^k 2(k+1) phi^(2k+1) / (2k+4)!
    const double x = phi * phi;
    double power = 1.0, c1 = 1.0 / 6.0, c2 = 1.0 / 24.0;
    for (int k = 0; k <= 8; ++k) {
      const double signed_power = k % 2 == 0 ? power : -power;
      f.f1 += c1 * signed_power * phi;
      f.df1 += c1 * (2 * k + 1) * signed_power;
      f.df2 += c2 * (2 * (k + 1)) * signed_power * phi;
      c1 /= (2 * k + 4) * (2 * k + 5);
      c2 /= (2 * k + 5) * (2 * k + 6);
      power *= x;
    }
    return f;
  }
  const double i2 = inverse_phi * inverse_phi, i3 = i2 * inverse_phi;
  f.f1 = (phi - sin_phi) * i2;
  f.df1 = (2.0 * sin_phi - phi - phi * cos_phi) * i3;
  f.df2 = (2.0 - 2.0 * cos_phi - phi * sin_phi) * i3;
  return f;
}

}  // namespace

bool ConstantCurvatureAgnosticBody::handles(const Model& model, int link) {
  return model.links[link].kind == BodyKind::ConstantCurvature;
}

ConstantCurvatureAgnosticBody::ConstantCurvatureAgnosticBody(const Model& model, int link_index)
    : link(link_index), joint(model.links[link_index].joint) {
  const ConstantCurvatureBodyDesc& body =
      model.description.links[static_cast<std::size_t>(link_index)].constantCurvature();
  planar = body.model == CurvatureModel::Planar;
  length = body.length;
  // the constant basis the segment compiles with (bend y, bend z, stretch over L)
  Phi = Matrix6Xd::Zero(6, constantCurvatureDof(body.model));
  rodDivisions(body, "").front().basis(0.0, Phi);
  CrossSectionDesc section;
  section.radius_start = section.radius_end = body.radius;
  const Vector6d density =
      body.material.density * sectionProperties(section, 0.0).inertiaDiagonal();
  const GaussRule rule = gaussLegendre(body.gauss_points, length);
  for (int k = 0; k < body.gauss_points; ++k) {
    abscissae.push_back(rule.nodes(k));
    inertia.push_back(SpatialInertia::fromMatrix((rule.weights(k) * density).asDiagonal()));
  }
  abscissae.push_back(length);
  if (abscissae.size() > kMaxStations)
    throw std::invalid_argument("a constant-curvature segment has at most 30 Gauss points");
  for (const double s : abscissae) {
    inverse_fraction.push_back(length / s);
    offset_from_middle.push_back(0.5 * (s / length - 0.5));
  }
}

void ConstantCurvatureAgnosticBody::halfAngles(double theta,
                                               std::array<double, kMaxStations>& sines,
                                               std::array<double, kMaxStations>& cosines,
                                               double& inverse_theta) const {
  inverse_theta = theta == 0.0 ? 0.0 : 1.0 / theta;
  const double quarter = 0.25 * theta, sq = std::sin(quarter), cq = std::cos(quarter);
  const std::size_t nodes = abscissae.size() - 1;
  // theta u_k / 2 = theta / 4 + theta (u_k - 1/2) / 2, and u_{n-1-k} - 1/2 = -(u_k - 1/2)
  for (std::size_t k = 0; k < (nodes + 1) / 2; ++k) {
    const double b = theta * offset_from_middle[k], sb = std::sin(b), cb = std::cos(b);
    sines[k] = sq * cb + cq * sb;
    cosines[k] = cq * cb - sq * sb;
    const std::size_t mirror = nodes - 1 - k;
    sines[mirror] = sq * cb - cq * sb;
    cosines[mirror] = cq * cb + sq * sb;
  }
  sines[nodes] = 2.0 * sq * cq;  // theta / 2
  cosines[nodes] = 1.0 - 2.0 * sq * sq;
}

void ConstantCurvatureAgnosticBody::prepare(const Model& model, BodyEvaluation& out) const {
  const int n = model.links[link].nq;
  out.n = n;
  out.elements.assign(inertia.size(), AgnosticElement{});
  for (std::size_t k = 0; k < inertia.size(); ++k) {
    out.elements[k].J = Matrix6Xd::Zero(6, n);
    out.elements[k].M = inertia[k];
  }
  out.tip_element = -1;
  out.J_D = Matrix6Xd::Zero(6, n);
  out.scratch = Matrix6Xd::Zero(6, n);
}

void ConstantCurvatureAgnosticBody::evaluate(const Model& model,
                                             const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                             const Eigen::Ref<const Eigen::VectorXd>& v_i,
                                             BodyEvaluation& out) const {
  const VirtualJoint& j0 = model.joints[joint];
  const int nj = j0.nq, nb = static_cast<int>(Phi.cols());
  SE3 G_J;
  Vector6d Jv_J, b_J;
  rigidJointMotion(j0, q_i.head(nj), v_i.head(nj), true, G_J, out.scratch.leftCols(nj), Jv_J, b_J);
  const auto q_B = q_i.tail(nb), v_B = v_i.tail(nb);
  Vector6d xi = Phi * q_B, xi_dot = Phi * v_B;
  xi(3) += 1.0;
  // planar: the half angles theta u_k / 2 of the stations, u_k = s_k / L, by angle addition
  // about the middle theta / 4: the Gauss nodes are symmetric about u = 1/2, so a pair of them
  // takes one sine and cosine, and the distal frame (u = 1) the double angle of the middle
  std::array<double, kMaxStations> sin_half{}, cos_half{};
  double inverse_theta = 0.0;
  if (planar) halfAngles(xi(1) * length, sin_half, cos_half, inverse_theta);
  for (std::size_t station = 0; station < abscissae.size(); ++station) {
    const double s = abscissae[station];
    const bool distal = station + 1 == abscissae.size();
    SE3& G = distal ? out.G_D : out.elements[station].G;
    Matrix6Xd& J = distal ? out.J_D : out.elements[station].J;
    Vector6d& Jv = distal ? out.Jv_D : out.elements[station].Jv;
    Vector6d& b = distal ? out.b_D : out.elements[station].b;
    SE3 g;
    Vector6d arc_twist, arc_bias;
    if (planar) {
      // sinc(phi/2) = sin(phi/2) / (phi/2) needs no series above 1e-8 (its error is phi^2 / 24
      // relative there, 1e-17)
      const double phi = s * xi(1), sh = sin_half[station], ch = cos_half[station];
      const double inverse_phi = inverse_theta * inverse_fraction[station];
      const double half_sinc = std::abs(phi) < 2e-8 ? 1.0 : 2.0 * sh * inverse_phi;
      const double sn = 2.0 * sh * ch, c = 1.0 - 2.0 * sh * sh;
      g.R << c, 0.0, sn, 0.0, 1.0, 0.0, -sn, 0.0, c;
      // the chord: s (sinc phi, 0, -(1 - cos phi)/phi) = s sinc(phi/2) (cos(phi/2), 0, -sin(phi/2))
      g.p << s * half_sinc * ch, 0.0, -s * half_sinc * sh;
      const ArcFunctions f = arcFunctions(phi, inverse_phi, sn, c, half_sinc);
      // the column's other entries stay the zeros prepare() wrote
      const double scale = s * s / length, rate = s * v_B(0) / length;
      J(1, nj) = s / length;
      J(3, nj) = scale * f.f1;
      J(5, nj) = scale * f.f2;
      arc_twist << 0.0, J(1, nj) * v_B(0), 0.0, J(3, nj) * v_B(0), 0.0, J(5, nj) * v_B(0);
      const double bias = scale * rate * v_B(0);  // s^3 theta-dot^2 / L^2
      arc_bias << 0.0, 0.0, 0.0, bias * f.df1, 0.0, bias * f.df2;
    } else {
      const Vector6d Omega = s * xi, Omega_dot = s * xi_dot;
      g = exp(Omega);
      for (int k = 0; k < nb; ++k) J.col(nj + k) = dexpApply(-Omega, Vector6d(s * Phi.col(k)));
      // with X = -Omega: T(X)(-Omega') = -arc twist, T'(X, -Omega')(-Omega') = -arc bias
      Vector6d minus_twist, minus_bias;
      dexpRates(-Omega, -Omega_dot, Vector6d::Zero(), minus_twist, minus_bias);
      arc_twist = -minus_twist;
      arc_bias = -minus_bias;
    }
    if (nj == 0) {  // a fixed joint: the arc alone (ad(J v, J v) = 0)
      G = g;
      Jv = arc_twist;
      b = arc_bias;
      continue;
    }
    adInvColumns(g, out.scratch.leftCols(nj), J.leftCols(nj));
    Jv = applyAdInv(g, Jv_J) + arc_twist;
    b = applyAdInv(g, b_J) + ad(Jv, arc_twist) + arc_bias;
    G = G_J * g;
  }
}

//-------------------- dispatch

namespace {

// the first alternative of AgnosticBody, from index I on, whose handles() accepts the link
template <std::size_t I = 0>
std::optional<AgnosticBody> firstKind(const Model& model, int link) {
  if constexpr (I < std::variant_size_v<AgnosticBody>) {
    using Kind = std::variant_alternative_t<I, AgnosticBody>;
    if (Kind::handles(model, link)) return AgnosticBody(std::in_place_index<I>, model, link);
    return firstKind<I + 1>(model, link);
  } else {
    return std::nullopt;
  }
}

}  // namespace

std::optional<AgnosticBody> makeAgnosticBody(const Model& model, int link) {
  return firstKind(model, link);
}

void prepareAgnosticBody(const Model& model, const AgnosticBody& body, BodyEvaluation& out) {
  std::visit([&](const auto& kind) { kind.prepare(model, out); }, body);
  for (AgnosticElement& e : out.elements) {
    const Eigen::Matrix3d& I = e.M.I;
    e.diagonal = e.M.h.isZero(0.0) && I(0, 1) == 0.0 && I(0, 2) == 0.0 && I(1, 2) == 0.0 &&
                 I(1, 0) == 0.0 && I(2, 0) == 0.0 && I(2, 1) == 0.0;
    if (e.diagonal) e.d << I.diagonal(), e.M.m, e.M.m, e.M.m;
  }
}

}  // namespace tendril
