#include "core/algorithm/kinematics.hpp"

#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/math/sin_cos.hpp"

namespace tendril {
namespace {

void checkSize(Eigen::Index actual, int expected, const char* name) {
  if (actual != expected) {
    throw std::invalid_argument(std::string(name) + " has size " + std::to_string(actual) +
                                ", expected " + std::to_string(expected));
  }
}

// Z = dOmega/dq of a Zanna interval (C4) at the strains in data: column k is
// h/2 (phi_1k + phi_2k) e_r + c (phi_2k ad_{xi_z1} - phi_1k ad_{xi_z2}) e_r, r = basis_rows[k]
void zannaSubspace(const VirtualJoint& joint, Data& data, int j) {
  const double c = zannaCommutatorFactor(joint.h), half_h = 0.5 * joint.h;
  const Matrix6d A1 = ad(c * data.xi_z1[j]), A2 = ad(c * data.xi_z2[j]);
  Matrix6Xd& Z = data.Z[j];
  for (int k = 0; k < joint.nq; ++k) {
    const int r = joint.basis_rows[k];
    const double p1 = joint.Phi_z1(r, k), p2 = joint.Phi_z2(r, k);
    Z.col(k).noalias() = p2 * A1.col(r) - p1 * A2.col(r);
    Z(r, k) += half_h * (p1 + p2);
  }
}

// Z, T and S of a joint that is not a single screw, at the Omega and strains in data (C4, C15). A
// rigid joint's Z = Phi, and its S where the subspace is constant, were set when Data was built
void jointSubspace(const VirtualJoint& joint, Data& data, int j) {
  if (joint.kind == VirtualJointKind::Rigid) {
    if (joint.constant_subspace) return;  // T(Phi q) Phi = Phi: no tangent operator needed
  } else {
    if (joint.magnus_order == 4) {
      zannaSubspace(joint, data, j);
    } else {
      data.Z[j] = joint.h * joint.Phi_z1;
    }
    if (joint.constant_subspace) {
      data.S[j] = joint.Phi;
      return;
    }
  }
  data.T[j] = dexp(data.Omega[j]);
  if (joint.identity_basis) {  // a free joint: S = T
    data.S[j] = data.T[j];
    return;
  }
  // one product for rods and rigid joints alike: with two, gcc moved it out of line (+0.3 % ID)
  data.S[j].noalias() = data.T[j] * data.Z[j];
}

// the strains at the collocation points and Omega (C1) of a joint that is not a single screw
void jointOmega(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& q_j, Data& data,
                int j) {
  if (joint.kind == VirtualJointKind::Rigid) {
    data.Omega[j].noalias() = joint.Phi * q_j;
  } else if (joint.magnus_order == 4) {
    data.xi_z1[j] = basisTimes(joint, joint.Phi_z1, q_j) + joint.xi_star;
    data.xi_z2[j] = basisTimes(joint, joint.Phi_z2, q_j) + joint.xi_star;
    data.Omega[j] = magnus4(data.xi_z1[j], data.xi_z2[j], joint.h);
  } else {
    data.xi_z1[j] = basisTimes(joint, joint.Phi_z1, q_j) + joint.xi_star;
    data.Omega[j] = magnus2(data.xi_z1[j], joint.h);
  }
}

// Omega' = Z v of such a joint without Z, at the strains jointOmega() left (C2)
Vector6d jointOmegaRate(const VirtualJoint& joint, const Data& data, int j,
                        const Eigen::Ref<const Eigen::VectorXd>& v_j) {
  if (joint.kind == VirtualJointKind::Rigid) return joint.Phi * v_j;
  if (joint.magnus_order == 4) {
    return magnus4Rate(data.xi_z1[j], data.xi_z2[j], basisTimes(joint, joint.Phi_z1, v_j),
                       basisTimes(joint, joint.Phi_z2, v_j), joint.h);
  }
  return joint.h * basisTimes(joint, joint.Phi_z1, v_j);
}

// out = a b, in place and inlined (SE3::operator* is out of line; this is the pose pass's one
// product per joint)
void compose(const SE3& a, const SE3& b, SE3& out) {
  out.R.noalias() = a.R * b.R;
  out.p.noalias() = a.R * b.p;
  out.p += a.p;
}

// the two axes a rotation about frame axis k turns, in the order (k + 1, k + 2) mod 3
constexpr int kNextAxis[3] = {1, 2, 0}, kAfterNextAxis[3] = {2, 0, 1};

// g_local = exp(screw q) and g_pc = g_fixed g_local of a single screw. About a frame axis e_k (most
// revolute joints) exp is a plane rotation of the other two axes i, l, and g_fixed g_local turns
// two columns of R_fixed: 12 flops instead of a Rodrigues matrix and a 3 x 3 product
void singleScrewPoses(const VirtualJoint& joint, const Data& data, double q, SE3& g_local,
                      SE3& g_pc) {
  const int k = joint.screw_frame_axis;
  if (k < 0) {
    g_local = singleScrewExp(joint, data, q);
    g_pc = joint.has_placement ? joint.g_fixed * g_local : g_local;
    return;
  }
  const int i = kNextAxis[k], l = kAfterNextAxis[k];
  const int slot = joint.screw_angle_slot;
  const double s = joint.screw(k) * data.screw_sin(slot), c = data.screw_cos(slot);
  g_local.R.setIdentity();
  g_local.R(i, i) = c;
  g_local.R(l, l) = c;
  g_local.R(l, i) = s;
  g_local.R(i, l) = -s;
  g_local.p.setZero();
  if (!joint.placement_rotates) {  // g_fixed only translates (or is the identity)
    g_pc.R = g_local.R;
    g_pc.p = joint.g_fixed.p;
    return;
  }
  const Eigen::Matrix3d& R = joint.g_fixed.R;
  g_pc.R.col(k) = R.col(k);
  g_pc.R.col(i) = c * R.col(i) + s * R.col(l);
  g_pc.R.col(l) = c * R.col(l) - s * R.col(i);
  g_pc.p = joint.g_fixed.p;
}

// g_j = g_parent g_pc (2a). A frame-axis rotation whose placement only translates turns two columns
// of the parent's rotation by g_local's cosine and sine: 12 flops instead of the 3 x 3 product
void worldPose(const VirtualJoint& joint, const SE3& parent, const SE3& g_local, const SE3& g_pc,
               SE3& g) {
  const int k = joint.screw_frame_axis;
  if (k < 0 || joint.placement_rotates) {
    compose(parent, g_pc, g);
    return;
  }
  const int i = kNextAxis[k], l = kAfterNextAxis[k];
  const double c = g_local.R(i, i), s = g_local.R(l, i);
  g.R.col(k) = parent.R.col(k);
  g.R.col(i) = c * parent.R.col(i) + s * parent.R.col(l);
  g.R.col(l) = c * parent.R.col(l) - s * parent.R.col(i);
  g.p.noalias() = parent.R * g_pc.p;
  g.p += parent.p;
}

// Omega, Z, T and S of one virtual joint that is not a single screw from its coordinates (C1, C4,
// C15)
void jointPosition(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& q_j,
                   Data& data, int j) {
  jointOmega(joint, q_j, data, j);
  data.g_local[j] = exp(data.Omega[j]);
  jointSubspace(joint, data, j);
}

// Omega, g_local and g_pc of joint j (and Z, T, S where they vary with q)
void localPose(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& q, Data& data,
               int j) {
  if (joint.single_screw) {
    const double q_j = q(joint.idx_q);
    data.Omega[j] = q_j * joint.screw;
    singleScrewPoses(joint, data, q_j, data.g_local[j], data.g_pc[j]);
    return;  // S = Z = Phi were set when Data was built
  }
  jointPosition(joint, q.segment(joint.idx_q, joint.nq), data, j);
  data.g_pc[j] = joint.has_placement ? joint.g_fixed * data.g_local[j] : data.g_local[j];
}

}  // namespace

SE3 singleScrewExp(const Vector6d& screw, double q, double sin_q, double cos_q) {
  SE3 g;
  g.p = q * screw.tail<3>();
  const Eigen::Vector3d a = screw.head<3>();
  if (a.isZero(0.0)) return g;
  g.R = cos_q * Eigen::Matrix3d::Identity() + sin_q * skew(a) + (1.0 - cos_q) * (a * a.transpose());
  return g;
}

SE3 singleScrewExp(const Vector6d& screw, double q) {
  double sin_q = 0.0, cos_q = 1.0;
  if (!screw.head<3>().isZero(0.0)) sinCos(q, sin_q, cos_q);
  return singleScrewExp(screw, q, sin_q, cos_q);
}

void screwAngles(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q) {
  const std::vector<int>& coordinates = model.screw_angle_coordinates;
  const int n = static_cast<int>(coordinates.size());
  if (n == 0) return;
  for (int i = 0; i < n; ++i) data.screw_angle(i) = q(coordinates[i]);
  sinCos(data.screw_angle.data(), n, data.screw_sin.data(), data.screw_cos.data());
}

SE3 singleScrewExp(const VirtualJoint& joint, const Data& data, double q) {
  const int slot = joint.screw_angle_slot;
  if (slot < 0) return singleScrewExp(joint.screw, q, 0.0, 1.0);  // a translation
  assert(data.screw_angle(slot) == q && "screwAngles() did not run for this q");
  return singleScrewExp(joint.screw, q, data.screw_sin(slot), data.screw_cos(slot));
}

Vector6d basisTimes(const VirtualJoint& joint, const Matrix6Xd& Phi,
                    const Eigen::Ref<const Eigen::VectorXd>& q_j) {
  Vector6d out = Vector6d::Zero();
  for (int k = 0; k < joint.nq; ++k) {
    const int r = joint.basis_rows[k];
    out(r) += Phi(r, k) * q_j(k);
  }
  return out;
}

// S-dot v_j = T' Omega' + T (Z-dot v_j) (C21) as one vector, without the matrices T' and Z-dot:
// Z-dot v vanishes for rigid joints and 2nd-order Magnus; for Zanna's 4th order (C8 contracted
// with v) it is c (ad_{xi'_z1} xi'_z2 - ad_{xi'_z2} xi'_z1) = 2 c ad_{xi'_z1} xi'_z2
void jointVelocityStage(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& v_j,
                        Data& data, int j) {
  if (joint.nq == 0 || joint.constant_subspace) return;  // S-dot v stays 0
  const Vector6d Omega_dot = data.Z[j] * v_j;
  Vector6d rate = dexpDotApply(data.Omega[j], Omega_dot, Omega_dot);
  if (joint.kind == VirtualJointKind::RodInterval && joint.magnus_order == 4) {
    const Vector6d xi_dot_z1 = basisTimes(joint, joint.Phi_z1, v_j);
    const Vector6d xi_dot_z2 = basisTimes(joint, joint.Phi_z2, v_j);
    const double c = zannaCommutatorFactor(joint.h);
    rate.noalias() += data.T[j] * ad(xi_dot_z1, Vector6d(2.0 * c * xi_dot_z2));
  }
  data.S_dot_v[j] = rate;
}

Vector6d childTwist(const VirtualJoint& joint, const Data& data, int j,
                    const Eigen::Ref<const Eigen::VectorXd>& v_j) {
  if (joint.single_screw) {
    // Ad^-1_{exp(s q)} s = s: one transform from the parent frame
    Vector6d eta =
        joint.parent < 0 ? Vector6d::Zero() : applyAdInv(data.g_pc[j], data.eta[joint.parent]);
    eta += v_j(0) * joint.screw;
    return eta;
  }
  // eta_j = Ad^-1_{exp Omega} (eta_base + S v_j)
  Vector6d eta_plus = baseTwist(joint, data.eta);
  if (joint.nq > 0) eta_plus.noalias() += data.S[j] * v_j;
  return applyAdInv(data.g_local[j], eta_plus);
}

Vector6d baseTwist(const VirtualJoint& joint, const std::vector<Vector6d>& of_frames,
                   const Vector6d& at_world) {
  if (joint.parent < 0) return joint.has_placement ? applyAdInv(joint.g_fixed, at_world) : at_world;
  return joint.has_placement ? applyAdInv(joint.g_fixed, of_frames[joint.parent])
                             : of_frames[joint.parent];
}

void localSubspaces(const Model& model, Data& data) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    if (!model.joints[j].single_screw) jointSubspace(model.joints[j], data, j);
  }
}

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q) {
  checkSize(q.size(), model.nq, "q");
  screwAngles(model, data, q);
  // each joint's local pose, then g_j = g_parent g_fixed exp(Omega_j) (2a), in one pass
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    localPose(joint, q, data, j);
    if (joint.parent < 0) {
      data.g[j] = data.g_pc[j];
    } else {
      worldPose(joint, data.g[joint.parent], data.g_local[j], data.g_pc[j], data.g[j]);
    }
  }
}

void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) {
  forwardKinematics(model, data, q);
  checkSize(v.size(), model.nv, "v");
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    jointVelocityStage(joint, v_j, data, j);
    data.eta[j] = childTwist(joint, data, j, v_j);
  }
}

void posesAndTwists(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v) {
  checkSize(q.size(), model.nq, "q");
  checkSize(v.size(), model.nv, "v");
  screwAngles(model, data, q);
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto q_j = q.segment(joint.idx_q, joint.nq);
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    // Omega and Omega' = Z v without Z: rods through C1 and its rate C2
    Vector6d Omega_dot = Vector6d::Zero();
    if (joint.single_screw) {
      data.Omega[j] = q_j(0) * joint.screw;
      data.g_local[j] = singleScrewExp(joint, data, q_j(0));
    } else {
      jointOmega(joint, q_j, data, j);
      Omega_dot = jointOmegaRate(joint, data, j, v_j);
      data.g_local[j] = exp(data.Omega[j]);
    }
    data.g_pc[j] = joint.has_placement ? joint.g_fixed * data.g_local[j] : data.g_local[j];
    data.g[j] = joint.parent < 0 ? data.g_pc[j] : data.g[joint.parent] * data.g_pc[j];
    if (joint.single_screw) {
      data.eta[j] = childTwist(joint, data, j, v_j);
      continue;
    }
    // eta_j = Ad^-1_{exp Omega} (eta_base + T(Omega) Omega')
    Vector6d eta_plus = baseTwist(joint, data.eta);
    if (joint.nq > 0)
      eta_plus += joint.constant_subspace ? Omega_dot : dexpApply(data.Omega[j], Omega_dot);
    data.eta[j] = applyAdInv(data.g_local[j], eta_plus);
  }
}

void frameJacobian(const Model& model, const Data& data, int j, Eigen::Ref<Eigen::MatrixXd> J) {
  J.setZero();
  // X: pose of frame j in the base frame of joint i, for i walking from j to the root
  SE3 X = data.g_local[j];
  for (int i = j;;) {
    const VirtualJoint& joint = model.joints[i];
    if (joint.nq > 0) J.middleCols(joint.idx_q, joint.nq).noalias() += AdInv(X) * data.S[i];
    if (joint.parent < 0) break;
    X = data.g_local[joint.parent] * (joint.g_fixed * X);
    i = joint.parent;
  }
}

SE3 jointBasePose(const Model& model, const Data& data, int j) {
  const VirtualJoint& joint = model.joints[j];
  return joint.parent < 0 ? joint.g_fixed : data.g[joint.parent] * joint.g_fixed;
}

SE3 linkTipPose(const Model& model, const Data& data, int link) {
  const LinkInfo& info = model.links[link];
  return data.g[info.tip] * info.g_tip;
}

}  // namespace tendril
