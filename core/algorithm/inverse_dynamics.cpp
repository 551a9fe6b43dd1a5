#include "core/algorithm/inverse_dynamics.hpp"

#include <Eigen/Geometry>
#include <stdexcept>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {

namespace {

void checkSizes(const Model& model, Eigen::Index nv_of_v, Eigen::Index nv_of_a) {
  if (nv_of_a != model.nv) throw std::invalid_argument("a has the wrong size");
  if (nv_of_v != model.nv) throw std::invalid_argument("v has the wrong size");
}

// a single-screw joint's twist and acceleration, in the child frame, where the screw is the same:
// eta_dot = Ad^-1 eta_dot_parent + s a + ad_eta (s v)
void singleScrewMotion(const VirtualJoint& joint, Data& data, int j, double v_j, double a_j,
                       const Vector6d& base_acceleration) {
  data.eta[j] =
      joint.parent < 0 ? Vector6d::Zero() : applyAdInv(data.g_pc[j], data.eta[joint.parent]);
  data.eta[j] += v_j * joint.screw;
  data.eta_dot[j] =
      applyAdInv(data.g_pc[j], joint.parent < 0 ? base_acceleration : data.eta_dot[joint.parent]);
  data.eta_dot[j] += a_j * joint.screw + ad(data.eta[j], v_j * joint.screw);
}

// twist and acceleration of frame j from S v and S a + S-dot v in its base frame
void subspaceMotion(const VirtualJoint& joint, Data& data, int j, const Vector6d& base_acceleration,
                    const Vector6d& S_v, const Vector6d& S_a_plus_S_dot_v) {
  const Vector6d eta_base = baseTwist(joint, data.eta);
  Vector6d acc = baseTwist(joint, data.eta_dot, base_acceleration);
  acc += S_a_plus_S_dot_v;
  acc += ad(eta_base, S_v);
  data.eta[j] = applyAdInv(data.g_local[j], eta_base + S_v);
  data.eta_dot[j] = applyAdInv(data.g_local[j], acc);
}

// F_j = M_j eta_dot_j + ad*_eta M_j eta_j, plus Kirchhoff's added mass M_A eta_dot + ad*_eta M_A
// eta (its weight is cancelled in external_loads.cpp)
void bodyWrench(const VirtualJoint& joint, Data& data, int j) {
  if (joint.has_inertia) {
    data.F[j] = joint.inertia * data.eta_dot[j] + coad(data.eta[j], joint.inertia * data.eta[j]);
  } else {
    data.F[j].setZero();
  }
  if (joint.has_added_mass) {
    const Vector6d momentum = joint.added_mass * data.eta[j];
    data.F[j].noalias() += joint.added_mass * data.eta_dot[j];
    data.F[j] += coad(data.eta[j], momentum);
  }
}

// backward pass: transport subtree wrenches to joint bases, project (project(joint, j, F_base,
// tau_j) for joints that are not single screws), pass to parents
template <typename Projection>
void backwardPass(const Model& model, Data& data, const Projection& project) {
  data.tau.setZero();
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.single_screw) {
      // the screw is the same in the child frame: project there, transport once
      data.tau(joint.idx_q) += joint.screw.dot(data.F[j]);
      if (joint.parent >= 0) data.F[joint.parent] += applyCoAd(data.g_pc[j], data.F[j]);
      continue;
    }
    const Vector6d F_base = applyCoAd(data.g_local[j], data.F[j]);
    if (joint.nq > 0) project(joint, j, F_base, data.tau.segment(joint.idx_q, joint.nq));
    if (joint.parent >= 0)
      data.F[joint.parent] += joint.has_placement ? applyCoAd(joint.g_fixed, F_base) : F_base;
  }
}

// Omega, Omega' = Z v, Z a + Z-dot v and the pose of one joint that is not a single screw, from
// vectors only (C1-C3: Z a + Z-dot v is Omega'' at a; Z-dot v vanishes for rigid joints and
// 2nd-order Magnus)
struct JointRates {
  Vector6d Omega_dot = Vector6d::Zero();
  Vector6d drive = Vector6d::Zero();  // Z a + Z-dot v
};

JointRates jointRates(const VirtualJoint& joint, Data& data, int j,
                      const Eigen::Ref<const Eigen::VectorXd>& q_j,
                      const Eigen::Ref<const Eigen::VectorXd>& v_j,
                      const Eigen::Ref<const Eigen::VectorXd>& a_j) {
  JointRates rates;
  if (joint.kind == VirtualJointKind::Rigid) {
    data.Omega[j].noalias() = joint.Phi * q_j;
    rates.Omega_dot.noalias() = joint.Phi * v_j;
    rates.drive.noalias() = joint.Phi * a_j;
  } else if (joint.magnus_order == 4) {
    // Phi_z1 and Phi_z2 times q, v and a in one pass over the single-entry basis columns
    Eigen::Matrix<double, 6, 6> xi = Eigen::Matrix<double, 6, 6>::Zero();
    for (int k = 0; k < joint.nq; ++k) {
      const int r = joint.basis_rows[k];
      const double p1 = joint.Phi_z1(r, k), p2 = joint.Phi_z2(r, k);
      xi(r, 0) += p1 * q_j(k);
      xi(r, 1) += p2 * q_j(k);
      xi(r, 2) += p1 * v_j(k);
      xi(r, 3) += p2 * v_j(k);
      xi(r, 4) += p1 * a_j(k);
      xi(r, 5) += p2 * a_j(k);
    }
    const Vector6d& xi_1 = data.xi_z1[j] = xi.col(0) + joint.xi_star;
    const Vector6d& xi_2 = data.xi_z2[j] = xi.col(1) + joint.xi_star;
    data.Omega[j] = magnus4(xi_1, xi_2, joint.h);
    rates.Omega_dot = magnus4Rate(xi_1, xi_2, xi.col(2), xi.col(3), joint.h);
    rates.drive = magnus4Acceleration(xi_1, xi_2, xi.col(2), xi.col(3), xi.col(4), xi.col(5),
                                      joint.h);  // Omega'' = Z a + Z-dot v
  } else {
    data.xi_z1[j] = basisTimes(joint, joint.Phi_z1, q_j) + joint.xi_star;
    data.Omega[j] = magnus2(data.xi_z1[j], joint.h);
    rates.Omega_dot = joint.h * basisTimes(joint, joint.Phi_z1, v_j);
    rates.drive = joint.h * basisTimes(joint, joint.Phi_z1, a_j);
  }
  data.g_local[j] = exp(data.Omega[j]);
  return rates;
}

// tau_j = Z^T y (y = T^T F_base, or F_base for a constant subspace): Phi^T y for rigid joints;
// for rods through the single-entry basis columns, with Z = Zc_1 Phi_z1 + Zc_2 Phi_z2 (C4:
// Zc_1 = h/2 - c ad_{xi_z2}, Zc_2 = h/2 + c ad_{xi_z1}, ad_xi^T y = -ad*_xi y; 2nd order: Z = h
// Phi_z1)
void projectOnZ(const VirtualJoint& joint, const Data& data, int j, const Vector6d& y,
                Eigen::Ref<Eigen::VectorXd> tau_j) {
  if (joint.kind == VirtualJointKind::Rigid) {
    tau_j.noalias() += joint.Phi.transpose() * y;
    return;
  }
  Vector6d u1, u2 = Vector6d::Zero();
  if (joint.magnus_order == 4) {
    const double c = zannaCommutatorFactor(joint.h), half_h = 0.5 * joint.h;
    u1 = half_h * y + c * coad(data.xi_z2[j], y);
    u2 = half_h * y - c * coad(data.xi_z1[j], y);
  } else {
    u1 = joint.h * y;
  }
  for (int k = 0; k < joint.nq; ++k) {
    const int r = joint.basis_rows[k];
    tau_j(k) += joint.Phi_z1(r, k) * u1(r);
    if (joint.magnus_order == 4) tau_j(k) += joint.Phi_z2(r, k) * u2(r);
  }
}

}  // namespace

const Eigen::VectorXd& inverseDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  requireEngineModel(model, "inverseDynamics");
  forwardKinematics(model, data, q);
  return inverseDynamicsAtKinematics(model, data, v, a, t);
}

const Eigen::VectorXd& inverseDynamicsAtKinematics(const Model& model, Data& data,
                                                   const Eigen::Ref<const Eigen::VectorXd>& v,
                                                   const Eigen::Ref<const Eigen::VectorXd>& a,
                                                   double t) {
  checkSizes(model, v.size(), a.size());
  // forward pass: accelerations (gravity as base acceleration) and body wrenches
  const Vector6d base_acceleration = -model.gravity;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    if (joint.single_screw) {
      singleScrewMotion(joint, data, j, v(joint.idx_q), a(joint.idx_q), base_acceleration);
    } else {
      jointVelocityStage(joint, v_j, data, j);
      data.eta[j] = childTwist(joint, data, j, v_j);
      const Vector6d eta_base = baseTwist(joint, data.eta);
      Vector6d acc = baseTwist(joint, data.eta_dot, base_acceleration);
      if (joint.nq > 0) {
        const Vector6d S_v = data.S[j] * v_j;
        acc.noalias() += data.S[j] * a.segment(joint.idx_q, joint.nq);
        acc += data.S_dot_v[j];
        acc += ad(eta_base, S_v);
      }
      data.eta_dot[j] = applyAdInv(data.g_local[j], acc);
    }
    bodyWrench(joint, data, j);
  }
  subtractExternalWrenches(model, data, t);  // ID = inertial - external
  backwardPass(
      model, data,
      [&](const VirtualJoint&, int j, const Vector6d& F_base, Eigen::Ref<Eigen::VectorXd> tau_j) {
        tau_j.noalias() += data.S[j].transpose() * F_base;
      });
  return data.tau;
}

const Eigen::VectorXd& inverseDynamicsWithoutSubspaces(const Model& model, Data& data,
                                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                                       const Eigen::Ref<const Eigen::VectorXd>& a,
                                                       double t) {
  checkSizes(model, v.size(), a.size());
  if (q.size() != model.nq) throw std::invalid_argument("q has the wrong size");
  const Vector6d base_acceleration = -model.gravity;
  screwAngles(model, data, q);
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto q_j = q.segment(joint.idx_q, joint.nq);
    JointRates rates;
    if (joint.single_screw) {
      data.Omega[j] = q_j(0) * joint.screw;
      data.g_local[j] = singleScrewExp(joint, data, q_j(0));
    } else {
      rates = jointRates(joint, data, j, q_j, v.segment(joint.idx_q, joint.nq),
                         a.segment(joint.idx_q, joint.nq));
    }
    data.g_pc[j] = joint.has_placement ? joint.g_fixed * data.g_local[j] : data.g_local[j];
    data.g[j] = joint.parent < 0 ? data.g_pc[j] : data.g[joint.parent] * data.g_pc[j];
    if (joint.single_screw) {
      singleScrewMotion(joint, data, j, v(joint.idx_q), a(joint.idx_q), base_acceleration);
    } else if (joint.constant_subspace || joint.nq == 0) {
      subspaceMotion(joint, data, j, base_acceleration, rates.Omega_dot, rates.drive);
    } else {
      // S v = T Omega', S a + S-dot v = T (Z a + Z-dot v) + T'(Omega, Omega') Omega' (C21)
      Vector6d S_v, S_a_plus_S_dot_v;
      dexpRates(data.Omega[j], rates.Omega_dot, rates.drive, S_v, S_a_plus_S_dot_v);
      subspaceMotion(joint, data, j, base_acceleration, S_v, S_a_plus_S_dot_v);
    }
    bodyWrench(joint, data, j);
  }
  subtractExternalWrenches(model, data, t);
  backwardPass(model, data,
               [&](const VirtualJoint& joint, int j, const Vector6d& F_base,
                   Eigen::Ref<Eigen::VectorXd> tau_j) {
                 projectOnZ(
                     joint, data, j,
                     joint.constant_subspace ? F_base : dexpTransposeApply(data.Omega[j], F_base),
                     tau_j);
               });
  return data.tau;
}

Eigen::VectorXd internalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  addInternalForces(model, q, v, tau);
  return tau;
}

void addInternalForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> out,
                       double scale) {
  for (const CoordinateBlock& b : model.elastic_blocks) {
    auto out_b = out.segment(b.idx, b.n);
    out_b.noalias() -= scale * (model.K.block(b.idx, b.idx, b.n, b.n) * q.segment(b.idx, b.n));
    out_b.noalias() -= scale * (model.D.block(b.idx, b.idx, b.n, b.n) * v.segment(b.idx, b.n));
  }
}

}  // namespace tendril
