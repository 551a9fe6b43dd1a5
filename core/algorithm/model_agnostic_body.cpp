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
    element.at_P = j.nq == 0;
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
    element.at_P = f == 0 && j.nq == 0;
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

constexpr int kArcSeriesTerms = 9;

constexpr double inverseFactorial(int n) {
  double value = 1.0;
  for (int k = 2; k <= n; ++k) value /= k;
  return value;
}

// the series in x = phi^2: f1 / phi = sum_k F1_k x^k, f1' = sum_k DF1_k x^k, f2' / phi = sum_k
// DF2_k x^k, with F1_k = (-1)^k / (2k+3)!, DF1_k = (2k+1) F1_k, DF2_k = (-1)^k 2(k+1) / (2k+4)!
struct ArcSeries {
  double f1[kArcSeriesTerms], df1[kArcSeriesTerms], df2[kArcSeriesTerms];
};

constexpr ArcSeries makeArcSeries() {
  ArcSeries series{};
  for (int k = 0; k < kArcSeriesTerms; ++k) {
    const double sign = k % 2 == 0 ? 1.0 : -1.0;
    series.f1[k] = sign * inverseFactorial(2 * k + 3);
    series.df1[k] = (2 * k + 1) * series.f1[k];
    series.df2[k] = sign * 2 * (k + 1) * inverseFactorial(2 * k + 4);
  }
  return series;
}

constexpr ArcSeries kArcSeries = makeArcSeries();

ArcFunctions arcFunctions(double phi, double inverse_phi, double sin_phi, double cos_phi,
                          double half_sinc) {
  ArcFunctions f;
  // f2 = -sinc^2(phi/2) / 2 has no cancellation
  f.f2 = -0.5 * half_sinc * half_sinc;
  if (std::abs(phi) < 1.0) {
    const double x = phi * phi;
    double f1 = kArcSeries.f1[kArcSeriesTerms - 1], df1 = kArcSeries.df1[kArcSeriesTerms - 1],
           df2 = kArcSeries.df2[kArcSeriesTerms - 1];
    for (int k = kArcSeriesTerms - 2; k >= 0; --k) {  // Horner
      f1 = f1 * x + kArcSeries.f1[k];
      df1 = df1 * x + kArcSeries.df1[k];
      df2 = df2 * x + kArcSeries.df2[k];
    }
    f.f1 = f1 * phi;
    f.df1 = df1;
    f.df2 = df2 * phi;
    return f;
  }
  const double i2 = inverse_phi * inverse_phi, i3 = i2 * inverse_phi;
  f.f1 = (phi - sin_phi) * i2;
  f.df1 = (2.0 * sin_phi - phi - phi * cos_phi) * i3;
  f.df2 = (2.0 - 2.0 * cos_phi - phi * sin_phi) * i3;
  return f;
}

// one station of a planar arc at s (phi = theta s / L, its half angle's sine and cosine, 1 / phi
// or 0): the pose relative to the arc's base and the arc functions
struct PlanarStation {
  double sn = 0.0, c = 1.0;   ///< sin phi, cos phi
  double px = 0.0, pz = 0.0;  ///< the chord s (sinc phi, 0, -(1 - cos phi)/phi)
  ArcFunctions f;
};

PlanarStation planarStation(double s, double phi, double sin_half, double cos_half,
                            double inverse_phi) {
  PlanarStation station;
  // sinc(phi/2) = sin(phi/2) / (phi/2) needs no series above 2e-8 (its error is phi^2 / 24
  // relative there, 1e-17)
  const double half_sinc = std::abs(phi) < 2e-8 ? 1.0 : 2.0 * sin_half * inverse_phi;
  station.sn = 2.0 * sin_half * cos_half;
  station.c = 1.0 - 2.0 * sin_half * sin_half;
  // s (sinc phi, 0, -(1 - cos phi)/phi) = s sinc(phi/2) (cos(phi/2), 0, -sin(phi/2))
  station.px = s * half_sinc * cos_half;
  station.pz = -s * half_sinc * sin_half;
  station.f = arcFunctions(phi, inverse_phi, station.sn, station.c, half_sinc);
  return station;
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
  const int nodes = body.gauss_points;
  const GaussRule rule = gaussLegendre(nodes, length);
  lanes.resize(static_cast<std::size_t>((nodes + 3) / 4));
  for (PointLanes& lane : lanes) {  // padding: massless points at the middle
    lane.s.setConstant(0.5 * length);
    lane.u.setConstant(0.5);
    lane.inverse_u.setConstant(2.0);
    for (Lane* zero : {&lane.mass, &lane.inertia_x, &lane.inertia_z}) zero->setZero();
  }
  for (int k = 0; k < nodes; ++k) {
    const double s = rule.nodes(k), u = s / length;
    const Vector6d section_inertia = rule.weights(k) * density;
    abscissae.push_back(s);
    inertia.push_back(SpatialInertia::fromMatrix(section_inertia.asDiagonal()));
    PointLanes& lane = lanes[static_cast<std::size_t>(k / 4)];
    const int i = k % 4;
    lane.s(i) = s;
    lane.u(i) = u;
    lane.inverse_u(i) = length / s;
    lane.mass(i) = section_inertia(3);
    lane.inertia_x(i) = section_inertia(0);
    lane.inertia_z(i) = section_inertia(2);
    total_mass += section_inertia(3);
    inertia_y += section_inertia(1);
    inertia_y_u += section_inertia(1) * u;
    inertia_y_uu += section_inertia(1) * u * u;
  }
  for (PointLanes& lane : lanes) {
    lane.middle_offset = 0.5 * (lane.u - 0.5);
    lane.su = lane.s * lane.u;
    lane.suu = lane.su * lane.u;
    lane.spread = lane.inertia_z - lane.inertia_x;
  }
  abscissae.push_back(length);
}

void ConstantCurvatureAgnosticBody::prepare(const Model& model, BodyEvaluation& out) const {
  const int n = model.links[link].nq, nj = model.joints[joint].nq,
            nb = static_cast<int>(Phi.cols());
  out.n = n;
  out.tip_element = -1;
  out.J_D = Matrix6Xd::Zero(6, n);
  out.scratch = Matrix6Xd::Zero(6, n);
  if (!planar) {  // an element per Gauss point
    out.elements.assign(inertia.size(), AgnosticElement{});
    for (std::size_t k = 0; k < inertia.size(); ++k) {
      out.elements[k].J = Matrix6Xd::Zero(6, n);
      out.elements[k].M = inertia[k];
    }
    return;
  }
  // one element, C, moved by the joint and carrying the whole arc
  out.elements.assign(1, AgnosticElement{});
  out.elements[0].J = Matrix6Xd::Zero(6, nj);
  out.elements[0].at_P = nj == 0;
  LumpedInertia& arc = out.lumped;
  arc.element = 0;
  arc.offset = nj;
  arc.n = nb;
  arc.H = arc.H_dot = arc.dH_w = Matrix6Xd::Zero(6, nb);
  arc.M = Eigen::MatrixXd::Zero(nb, nb);
  arc.Mdot_w = arc.dK = arc.tau = Eigen::VectorXd::Zero(nb);
  arc.dI.assign(static_cast<std::size_t>(nb), SpatialInertia{});
}

void ConstantCurvatureAgnosticBody::evaluate(const Model& model,
                                             const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                             const Eigen::Ref<const Eigen::VectorXd>& v_i,
                                             BodyEvaluation& out) const {
  const VirtualJoint& j0 = model.joints[joint];
  const int nj = j0.nq, nb = static_cast<int>(Phi.cols());
  // the joint's motion: C's (the planar arc's element) or a working copy in the scratch
  SE3 G_J;
  Vector6d Jv_J, b_J;
  Matrix6Xd& J_J = planar ? out.elements[0].J : out.scratch;
  rigidJointMotion(j0, q_i.head(nj), v_i.head(nj), true, G_J, J_J.leftCols(nj), Jv_J, b_J);
  const auto q_B = q_i.tail(nb), v_B = v_i.tail(nb);
  Vector6d xi = Phi * q_B, xi_dot = Phi * v_B;
  xi(3) += 1.0;
  // planar: theta = q_B (Phi = e_y / L); the arc lumped at C from sin and cos of theta / 4, the
  // distal frame (phi = theta) from those of theta / 2
  const double theta = xi(1) * length, sin_quarter = std::sin(0.25 * theta),
               cos_quarter = std::cos(0.25 * theta);
  if (planar) {
    AgnosticElement& base = out.elements[0];
    base.G = G_J;
    base.Jv = Jv_J;
    base.b = b_J;
    lumpPlanarArc(theta, xi_dot(1) * length, sin_quarter, cos_quarter, out);
  }
  // the stations reported one by one: D alone for a planar arc, every Gauss point and D otherwise
  const std::size_t stations = abscissae.size();
  for (std::size_t station = planar ? stations - 1 : 0; station < stations; ++station) {
    const double s = abscissae[station];
    const bool distal = station + 1 == stations;
    SE3& G = distal ? out.G_D : out.elements[station].G;
    Matrix6Xd& J = distal ? out.J_D : out.elements[station].J;
    Vector6d& Jv = distal ? out.Jv_D : out.elements[station].Jv;
    Vector6d& b = distal ? out.b_D : out.elements[station].b;
    SE3 g;
    Vector6d arc_twist, arc_bias;
    if (planar) {
      // the planar branch reports D alone: s = L, phi = theta
      const PlanarStation p =
          planarStation(s, theta, 2.0 * sin_quarter * cos_quarter,
                        1.0 - 2.0 * sin_quarter * sin_quarter, theta == 0.0 ? 0.0 : 1.0 / theta);
      g.R << p.c, 0.0, p.sn, 0.0, 1.0, 0.0, -p.sn, 0.0, p.c;
      g.p << p.px, 0.0, p.pz;
      // J e_theta = (0, s/L, 0, (s^2/L) f1, 0, (s^2/L) f2); the column's other entries stay the
      // zeros prepare() wrote
      const double scale = s * s / length, rate = s * v_B(0) / length;
      J(1, nj) = s / length;
      J(3, nj) = scale * p.f.f1;
      J(5, nj) = scale * p.f.f2;
      arc_twist << 0.0, J(1, nj) * v_B(0), 0.0, J(3, nj) * v_B(0), 0.0, J(5, nj) * v_B(0);
      const double bias = scale * rate * v_B(0);  // s^3 theta-dot^2 / L^2
      arc_bias << 0.0, 0.0, 0.0, bias * p.f.df1, 0.0, bias * p.f.df2;
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
    adInvColumns(g, J_J.leftCols(nj), J.leftCols(nj));
    Jv = applyAdInv(g, Jv_J) + arc_twist;
    b = applyAdInv(g, b_J) + ad(Jv, arc_twist) + arc_bias;
    G = G_J * g;
  }
}

namespace {

using Lane = ConstantCurvatureAgnosticBody::Lane;

// sin and cos of |b| <= 1 by their Taylor series to b^19 and b^20 (the first dropped terms are
// below 1/21! = 2e-20 relative): four at once where libm takes them one by one
constexpr int kSineTerms = 10;

struct SineSeries {
  double sine[kSineTerms], cosine[kSineTerms + 1];
};

constexpr SineSeries makeSineSeries() {
  SineSeries series{};
  for (int k = 0; k <= kSineTerms; ++k) {
    const double sign = k % 2 == 0 ? 1.0 : -1.0;
    if (k < kSineTerms) series.sine[k] = sign * inverseFactorial(2 * k + 1);
    series.cosine[k] = sign * inverseFactorial(2 * k);
  }
  return series;
}

constexpr SineSeries kSineSeries = makeSineSeries();

void sinCos(const Lane& b, Lane& sines, Lane& cosines) {
  if ((b.abs() > 1.0).any()) {
    sines = b.sin();
    cosines = b.cos();
    return;
  }
  const Lane x = b.square();
  sines.setConstant(kSineSeries.sine[kSineTerms - 1]);
  cosines.setConstant(kSineSeries.cosine[kSineTerms]);
  for (int k = kSineTerms - 2; k >= 0; --k) sines = sines * x + kSineSeries.sine[k];
  for (int k = kSineTerms - 1; k >= 0; --k) cosines = cosines * x + kSineSeries.cosine[k];
  sines *= b;
}

// arcFunctions() on four points, branch-free: the series and the closed forms both, each point
// taking the one its |phi| calls for. (The one-point version keeps its branch: the distal frame
// through this one, both forms for one point, cost 14 % of a 20-body planar PCC robot's ID.)
void arcFunctions(const Lane& phi, const Lane& inverse_phi, const Lane& sn, const Lane& c, Lane& f1,
                  Lane& df1, Lane& df2) {
  const Lane x = phi.square();
  Lane s1 = Lane::Constant(kArcSeries.f1[kArcSeriesTerms - 1]);
  Lane s2 = Lane::Constant(kArcSeries.df1[kArcSeriesTerms - 1]);
  Lane s3 = Lane::Constant(kArcSeries.df2[kArcSeriesTerms - 1]);
  for (int k = kArcSeriesTerms - 2; k >= 0; --k) {  // Horner
    s1 = s1 * x + kArcSeries.f1[k];
    s2 = s2 * x + kArcSeries.df1[k];
    s3 = s3 * x + kArcSeries.df2[k];
  }
  const Lane i2 = inverse_phi.square(), i3 = i2 * inverse_phi;
  const auto series = phi.abs() < 1.0;
  f1 = series.select(s1 * phi, (phi - sn) * i2);
  df1 = series.select(s2, (2.0 * sn - phi - phi * c) * i3);
  df2 = series.select(s3 * phi, (2.0 - 2.0 * c - phi * sn) * i3);
}

}  // namespace

void ConstantCurvatureAgnosticBody::lumpPlanarArc(double theta, double theta_dot,
                                                  double sin_quarter, double cos_quarter,
                                                  BodyEvaluation& out) const {
  // the sums over the Gauss points, four at a time, of the sections' inertias about C and of
  // their derivatives in theta. The arc stays in C's x-z plane: the first moment has x and z, the
  // rotational inertia xx, yy, zz and xz, the momentum per unit theta-dot angular y and linear x
  // and z (the linear one is dh/dtheta)
  const double inverse_theta = theta == 0.0 ? 0.0 : 1.0 / theta;
  Lane hx = Lane::Zero(), hz = hx, Hx = hx, Hz = hx, Ixx = hx, Iyy = hx, Izz = hx, Ixz = hx;
  Lane dIxx = hx, dIyy = hx, dIzz = hx, dIxz = hx, Hy = hx, dHx = hx, dHz = hx, dHy = hx;
  Lane M = hx, dM = hx;
  for (const PointLanes& p : lanes) {
    // the half angle theta u / 2 = theta / 4 + b by angle addition, |b| < |theta| / 4
    Lane sb, cb;
    sinCos(theta * p.middle_offset, sb, cb);
    const Lane sh = sin_quarter * cb + cos_quarter * sb, ch = cos_quarter * cb - sin_quarter * sb;
    // the section's pose in C: R_y(phi), phi = theta u, and the chord
    // p = s sinc(phi/2) (cos(phi/2), 0, -sin(phi/2)); sinc(phi/2) needs no series above 2e-8
    // (its error is phi^2 / 24 relative there, 1e-17)
    const Lane phi = theta * p.u, inverse_phi = inverse_theta * p.inverse_u;
    const Lane half_sinc = (phi.abs() < 2e-8).select(Lane::Ones(), 2.0 * sh * inverse_phi);
    const Lane sn = 2.0 * sh * ch, c = 1.0 - 2.0 * sh.square();
    const Lane px = p.s * half_sinc * ch, pz = -p.s * half_sinc * sh;
    Lane f1, df1, df2;
    arcFunctions(phi, inverse_phi, sn, c, f1, df1, df2);
    const Lane f2 = -0.5 * half_sinc.square();
    // dp/dtheta = R q and d2p/dtheta2 = R (u e_y x q + dq/dtheta), q = s u (f1, 0, f2) being the
    // section's J e_theta (linear part) and dq/dtheta = s u^2 (f1', 0, f2')
    const Lane q1 = p.su * f1, q3 = p.su * f2;
    const Lane r1 = p.u * q3 + p.suu * df1, r3 = p.suu * df2 - p.u * q1;
    const Lane dpx = c * q1 + sn * q3, dpz = c * q3 - sn * q1;
    const Lane ddpx = c * r1 + sn * r3, ddpz = c * r3 - sn * r1;
    // R_y(phi) diag(a, b, d) R_y^T: xx a c^2 + d s^2, zz a s^2 + d c^2, xz (d - a) c s
    const Lane& m = p.mass;
    const Lane cs = c * sn, spread_cs = p.spread * cs, mdpx = m * dpx, mdpz = m * dpz;
    hx += m * px;
    hz += m * pz;
    Hx += mdpx;
    Hz += mdpz;
    Ixx += p.inertia_x * c.square() + p.inertia_z * sn.square() + m * pz.square();
    Izz += p.inertia_x * sn.square() + p.inertia_z * c.square() + m * px.square();
    Iyy += m * (px.square() + pz.square());
    Ixz += spread_cs - m * px * pz;
    dIxx += p.u * spread_cs + pz * mdpz;
    dIzz += px * mdpx - p.u * spread_cs;
    dIyy += px * mdpx + pz * mdpz;
    dIxz += p.u * p.spread * (c.square() - sn.square()) - pz * mdpx - px * mdpz;
    Hy += pz * mdpx - px * mdpz;
    dHx += m * ddpx;
    dHz += m * ddpz;
    dHy += m * (pz * ddpx - px * ddpz);
    M += dpx * mdpx + dpz * mdpz;
    dM += ddpx * mdpx + ddpz * mdpz;
  }
  SpatialInertia& I = out.elements[0].M;
  I.m = total_mass;
  I.h << hx.sum(), 0.0, hz.sum();
  I.I << Ixx.sum(), 0.0, Ixz.sum(), 0.0, inertia_y + Iyy.sum(), 0.0, Ixz.sum(), 0.0, Izz.sum();
  LumpedInertia& arc = out.lumped;
  SpatialInertia& dI = arc.dI[0];
  dI.m = 0.0;
  dI.h << Hx.sum(), 0.0, Hz.sum();
  dI.I << 2.0 * dIxx.sum(), 0.0, dIxz.sum(), 0.0, 2.0 * dIyy.sum(), 0.0, dIxz.sum(), 0.0,
      2.0 * dIzz.sum();
  arc.I_dot.m = 0.0;
  arc.I_dot.h = theta_dot * dI.h;
  arc.I_dot.I = theta_dot * dI.I;
  const double dHy_rate = theta_dot * dHy.sum();
  arc.H.col(0) << 0.0, inertia_y_u + Hy.sum(), 0.0, Hx.sum(), 0.0, Hz.sum();
  arc.H_dot.col(0) << 0.0, dHy_rate, 0.0, theta_dot * dHx.sum(), 0.0, theta_dot * dHz.sum();
  arc.dH_w.col(0) = arc.H_dot.col(0);  // (dH/dtheta) theta-dot
  arc.M(0, 0) = inertia_y_uu + M.sum();
  const double dM_sum = 2.0 * dM.sum();
  arc.Mdot_w(0) = dM_sum * theta_dot * theta_dot;
  arc.dK(0) = 0.5 * dM_sum * theta_dot * theta_dot;
}

//-------------------- LVP body

bool LvpAgnosticBody::handles(const Model& model, int link) {
  return model.links[link].kind == BodyKind::Lvp;
}

LvpAgnosticBody::LvpAgnosticBody(const Model& model, int link_index)
    : link(link_index), joint(model.links[link_index].joint) {
  const LvpBodyDesc& body = model.description.links[static_cast<std::size_t>(link_index)].lvp();
  kinematics = std::make_shared<const LvpKinematics>(body);
  density = body.density;
}

void LvpAgnosticBody::prepare(const Model& model, BodyEvaluation& out) const {
  const int n = model.links[link].nq;
  out.n = n;
  out.tip_element = -1;
  out.J_D = Matrix6Xd::Zero(6, n);
  out.scratch = Matrix6Xd::Zero(6, n);
  const std::size_t points = kinematics->points().size();
  out.elements.assign(points, AgnosticElement{});
  for (std::size_t k = 0; k < points; ++k) {
    out.elements[k].J = Matrix6Xd::Zero(6, n);
    Matrix6d M = Matrix6d::Zero();
    M.diagonal().tail<3>().setConstant(density * kinematics->volumes()[k]);
    out.elements[k].M = SpatialInertia::fromMatrix(M);
  }
  out.internal_forces = Eigen::VectorXd::Zero(n);
  out.lvp.emplace();
  kinematics->prepare(*out.lvp);
}

void LvpAgnosticBody::evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                               const Eigen::Ref<const Eigen::VectorXd>& v_i,
                               BodyEvaluation& out) const {
  const VirtualJoint& j0 = model.joints[joint];
  const int nj = j0.nq, nb = kinematics->dof();
  SE3 G_J;
  Vector6d Jv_J, b_J;
  rigidJointMotion(j0, q_i.head(nj), v_i.head(nj), true, G_J, out.scratch.leftCols(nj), Jv_J, b_J);
  LvpKinematics::PointState& state = *out.lvp;
  if (out.elements_wanted)
    kinematics->evaluate(q_i.tail(nb), v_i.tail(nb), out.material_forces, state);
  else
    kinematics->evaluateDistal(q_i.tail(nb), v_i.tail(nb), state);
  out.internal_forces.head(nj).setZero();
  out.internal_forces.tail(nb) = state.internal;
  // a frame g after the joint, moving with J_arc (6 x nb), twist and bias: composed with the joint
  const auto compose = [&](const SE3& g, const Vector6d& arc_twist, const Vector6d& arc_bias,
                           SE3& G, Matrix6Xd& J, Vector6d& Jv, Vector6d& b) {
    if (nj == 0) {
      G = g;
      Jv = arc_twist;
      b = arc_bias;
      return;
    }
    adInvColumns(g, out.scratch.leftCols(nj), J.leftCols(nj));
    Jv = applyAdInv(g, Jv_J) + arc_twist;
    b = applyAdInv(g, b_J) + ad(Jv, arc_twist) + arc_bias;
    G = G_J * g;
  };
  SE3 g;
  Vector6d arc_twist, arc_bias;
  for (std::size_t k = 0; out.elements_wanted && k < out.elements.size(); ++k) {
    AgnosticElement& e = out.elements[k];
    g.R.setIdentity();
    g.p = state.p[k];
    e.J.bottomRightCorner(3, nb) = state.J[k];  // the top rows stay prepare()'s zeros
    arc_twist << Eigen::Vector3d::Zero(), state.Jv[k];
    arc_bias << Eigen::Vector3d::Zero(), state.bias[k];
    compose(g, arc_twist, arc_bias, e.G, e.J, e.Jv, e.b);
  }
  const LvpKinematics::Distal& D = state.distal;
  g.R = D.R;
  g.p = D.p;
  out.J_D.rightCols(nb) = D.J;
  compose(g, D.Jv, D.bias, out.G_D, out.J_D, out.Jv_D, out.b_D);
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
  out.lumped = LumpedInertia{};
  std::visit([&](const auto& kind) { kind.prepare(model, out); }, body);
  for (std::size_t k = 0; k < out.elements.size(); ++k) {
    AgnosticElement& e = out.elements[k];
    if (static_cast<int>(k) == out.lumped.element) continue;  // its inertia varies
    const Eigen::Matrix3d& I = e.M.I;
    e.diagonal = e.M.h.isZero(0.0) && I(0, 1) == 0.0 && I(0, 2) == 0.0 && I(1, 2) == 0.0 &&
                 I(1, 0) == 0.0 && I(2, 0) == 0.0 && I(2, 1) == 0.0;
    if (e.diagonal) e.d << I.diagonal(), e.M.m, e.M.m, e.M.m;
  }
}

}  // namespace tendril
