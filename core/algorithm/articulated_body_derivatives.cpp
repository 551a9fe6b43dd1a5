// Kim's chain rule on the articulated-body recursion (Kim's paper, section 3, Tables 6 and 7,
// rebuilt from the recursion itself: docs/theory/rigid.md §6, (R16)-(R20)); checked against central
// differences and against the two other analytic routes by the tests.
//
// clang-format off
// The recursion. Child frame j of each virtual joint, parent lambda; X = Ad_{g_pc}^-1 maps the
// parent's twists into frame j and X^T frame j's wrenches into the parent; ad, ad* = -ad^T as in
// core/math/lie.hpp; S_F, S_P the free and prescribed columns of the joint's subspace S:
//   V     = X V_lambda + S v                 eta  = ad_V S v + sigma,   sigma = S-dot v
//   c     = eta + S_P qdd_P                  B    = ad*_V I V - F_ext + sum_children X^T beta
//   Î     = I + sum_children X^T Pi X        U    = Î S_F,   Psi = (S_F^T U)^-1
//   u     = tau_F - S_F^T B                  Pi   = Î - U Psi U^T
//   beta  = B + Pi c + U Psi u               w    = X a_lambda + c   (root: a_lambda = -G)
//   qdd_F = Psi (u - U^T w)                  a    = w + S_F qdd_F
//   e_P   = S_P^T (Î a + B) - tau_P          (the efforts that hold the prescribed coordinates)
// With every coordinate free this is the forward dynamics (Kim's Table 3, rebuilt in the digest as
// Table 4 without active joints); with some prescribed the hybrid dynamics (Table 4: a wholly
// prescribed joint has Pi = Î, beta = B + Î c). Kim's beta = B + Î (eta + S Psi (tau - S^T (Î eta
// + B))) is ours expanded.
//
// The derivative along one scalar p (a coordinate, a velocity, a force or a prescribed
// acceleration). The joint's own motion is dh = g_pc^-1 dg_pc = S dq_j (Kim's Corollaries 1, 2),
// so dX = -ad_dh X and d(X^T F) = X^T (dF + ad*_dh F). Table 6, and Table 7 on the prescribed
// columns:
//   outward  dP    = X dP_lambda + dh                  (the frame's g^-1 dg, which moves the loads)
//            dV    = X dV_lambda - ad_dh X V_lambda + dS v + S dv
//            deta  = ad_dV S v + ad_V (dS v + S dv) + dsigma/dq dq_j + dsigma/dv dv_j
//            dc    = deta + dS_P qdd_P + S_P dqdd_P
//            dB    = ad*_dV I V + ad*_V I dV - dF_ext,    dF_ext = K_pose dP + K_twist dV
//   inward   dU    = dÎ S_F + Î dS_F                   dPsi = -Psi (dS_F^T U + S_F^T dU) Psi
//            du    = dtau_F - dS_F^T B - S_F^T dB
//            dPi   = dÎ - dU Psi U^T - U Psi dU^T - U dPsi U^T
//            dbeta = dB + dPi c + Pi dc + (dU Psi + U dPsi) u + U Psi du
//            dÎ_lambda += X^T (dPi - Pi ad_dh - (Pi ad_dh)^T) X
//            dB_lambda += X^T (dbeta + ad*_dh beta)
//   outward  dw    = X da_lambda - ad_dh X a_lambda + dc
//            dqdd_F = dPsi (u - U^T w) + Psi (du - dU^T w - U^T dw)
//            da    = dw + dS_F qdd_F + S_F dqdd_F
//            de_P  = dS_P^T (Î a + B) + S_P^T (dÎ a + Î da + dB) - dtau_P
// where dtau = (d(B u)/dq - K) dq - D dv plus the direction's own change of the applied forces.
// A wholly prescribed joint reads dPi = dÎ, dbeta = dB + dÎ c + Î dc (Table 7's active rows).
//
// The joint terms. Omega = Phi q_j and g_local = exp(Omega), so in the child frame
// S = T(-Omega) Phi (T the tangent operator of lie.hpp), constant (= Phi, dS = 0, sigma = 0) when
// Phi's columns commute. Otherwise (universal, planar, spherical, free), with O = -Omega and
// w = Phi v_j, T'(O, d) the derivative of T(O) along d:
//   dS/dq_k   = -T'(O, Phi e_k) Phi               sigma     = -T'(O, w) w
//   dsigma/dv = -(d(T(O) w)/dO + T'(O, w)) Phi    dsigma/dq = d(T'(O, w) w)/dO Phi   (w held)
// clang-format on
//
// Sparsity: along q_j or v_j only the subtree of j moves (dP, dV, deta), the articulated inertias
// change on j's ancestors only (dÎ), the accelerations everywhere. So each direction is three O(n)
// sweeps whose 6 x 6 work is confined to j's ancestors, and a Jacobian is O(n^2).

#include "core/algorithm/articulated_body_derivatives.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/external_loads.hpp"
#include "core/math/spatial_inertia.hpp"

namespace tendril {

bool supportsArticulatedDerivatives(const Model& model) {
  if (!supportsArticulatedBody(model)) return false;
  for (const VirtualJoint& joint : model.joints) {
    if (joint.kind != VirtualJointKind::Rigid) return false;
  }
  return true;
}

namespace {

bool hasVaryingSubspace(const VirtualJoint& joint) {
  return joint.nq > 0 && !joint.constant_subspace && !joint.single_screw;
}

}  // namespace

ArticulatedDerivativeWorkspace::ArticulatedDerivativeWorkspace(const Model& model)
    : supported(supportsArticulatedDerivatives(model)) {
  if (!supported) return;
  const auto n = static_cast<std::size_t>(model.n_vjoints());
  inertia.assign(n, Matrix6d::Zero());
  momentum.assign(n, Vector6d::Zero());
  Pi.assign(n, Matrix6d::Zero());
  beta.assign(n, Vector6d::Zero());
  tangent.resize(n);
  for (auto* vectors : {&dP, &dV, &dh, &dc, &dB, &da}) vectors->assign(n, Vector6d::Zero());
  dI.assign(n, Matrix6d::Zero());
  dI_nonzero.assign(n, 0);
  dS_nonzero.assign(n, 0);
  moved.assign(n, 0);
  velocity = Eigen::VectorXd::Zero(model.nv);
  int max_nq = 0;
  for (const VirtualJoint& joint : model.joints) {
    const bool varying = hasVaryingSubspace(joint);
    const int nq = joint.nq;
    dS_dq.emplace_back(Matrix6Xd::Zero(6, varying ? nq * nq : 0));
    dsigma_dq.emplace_back(Matrix6Xd::Zero(6, varying ? nq : 0));
    dsigma_dv.emplace_back(Matrix6Xd::Zero(6, varying ? nq : 0));
    dS.emplace_back(Matrix6Xd::Zero(6, nq));
    dU.emplace_back(Matrix6Xd::Zero(6, nq));
    dPsi.emplace_back(Eigen::MatrixXd::Zero(nq, nq));
    du.emplace_back(Eigen::VectorXd::Zero(nq));
    max_nq = std::max(max_nq, nq);
  }
  dtau = Eigen::VectorXd::Zero(model.nv);
  unit_q = Eigen::VectorXd::Zero(model.nv);
  unit_v = Eigen::VectorXd::Zero(model.nv);
  unit_qdd = Eigen::VectorXd::Zero(model.nv);
  dS_free = Matrix6Xd::Zero(6, max_nq);
  small_scratch = Eigen::MatrixXd::Zero(max_nq, max_nq);
  psi_U_t = Eigen::MatrixXd::Zero(max_nq, 6);
  dpsi_U_t = Eigen::MatrixXd::Zero(max_nq, 6);
  for (Eigen::VectorXd* s : {&vector_scratch, &vector_scratch2, &vector_scratch3})
    *s = Eigen::VectorXd::Zero(max_nq);
}

namespace {

void requireSupport(const Data& data) {
  if (!data.articulated_derivatives.supported)
    throw std::invalid_argument(
        "the chain rule on the articulated-body recursion needs rigid joints only, each owning its "
        "coordinates (this model has rod intervals)");
}

// the columns of S (or of its derivative) of the joint's free coordinates, first n_free of them
const Matrix6Xd& freeColumns(const ArticulatedBodyWorkspace& w, int j, const VirtualJoint& joint) {
  return w.n_free[j] < joint.nq ? w.S_free[j] : w.S[j];
}

// dS's free columns into ws.dS_free (or dS itself when every column is free)
Eigen::Ref<const Matrix6Xd> gatherFreeDerivative(ArticulatedDerivativeWorkspace& ws,
                                                 const ArticulatedBodyWorkspace& w, int j,
                                                 const VirtualJoint& joint) {
  const int n_free = w.n_free[j];
  if (n_free == joint.nq) return ws.dS[j];
  const int* const free_columns = w.free_columns.data() + joint.idx_q;
  for (int f = 0; f < n_free; ++f) ws.dS_free.col(f) = ws.dS[j].col(free_columns[f]);
  return ws.dS_free.leftCols(n_free);
}

// whether coordinate k of joint j is prescribed (not among its free columns)
bool isPrescribed(const ArticulatedBodyWorkspace& w, int j, const VirtualJoint& joint, int k) {
  const int* const free_columns = w.free_columns.data() + joint.idx_q;
  for (int f = 0; f < w.n_free[j]; ++f) {
    if (free_columns[f] == k) return false;
  }
  return true;
}

// dS/dq_k, sigma's partials of a joint with a varying subspace, at q_j, v_j (see the top)
void varyingJointTerms(const VirtualJoint& joint, const Data& data, int j,
                       const Eigen::Ref<const Eigen::VectorXd>& v_j,
                       ArticulatedDerivativeWorkspace& ws) {
  TangentExpansion& x = ws.tangent[j];
  expandTangent(-data.Omega[j], x);
  const Matrix6Xd& Phi = joint.Phi;
  const int nq = joint.nq;
  for (int k = 0; k < nq; ++k)
    ws.dS_dq[j].middleCols(k * nq, nq).noalias() = -tangentRate(x, Phi.col(k)) * Phi;
  const Vector6d w = Phi * v_j;
  Matrix6d DT_w, DDT;
  dexpJacobians(x, w, Vector6d::Zero(), DT_w, DDT);
  const Matrix6d T_dot = tangentRate(x, w);
  ws.dsigma_dv[j].noalias() = -(DT_w + T_dot) * Phi;
  ws.dsigma_dq[j].noalias() = DDT * Phi;
}

// the per-state quantities the directions share: inertias, Pi, beta, the joint terms, d(B u)/dq
// and the load sensitivities
void prepareState(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& v, double t) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    Matrix6d& I = ws.inertia[j];
    if (joint.has_inertia) {
      I = joint.M;
    } else {
      I.setZero();
    }
    if (joint.has_added_mass) I += joint.added_mass;
    ws.momentum[j].noalias() = I * data.eta[j];
    const int n_free = w.n_free[j];
    ws.Pi[j] = w.I_A[j];
    ws.beta[j] = w.p_A[j];
    if (n_free > 0) {
      const auto U = w.U[j].leftCols(n_free);
      const auto Psi = w.D_inverse[j].topLeftCorner(n_free, n_free);
      auto psi_U_t = ws.psi_U_t.topRows(n_free);
      psi_U_t.noalias() = Psi * U.transpose();
      ws.Pi[j].noalias() -= U * psi_U_t;
      auto psi_u = ws.vector_scratch.head(n_free);
      psi_u.noalias() = Psi * w.u[j].head(n_free);
      ws.beta[j].noalias() += U * psi_u;
    }
    ws.beta[j].noalias() += ws.Pi[j] * w.c[j];
    if (hasVaryingSubspace(joint))
      varyingJointTerms(joint, data, j, v.segment(joint.idx_q, joint.nq), ws);
  }
  ws.velocity = v;
  actuationJacobian(model, data, q, t);
  externalWrenchSensitivities(model, data, t);
}

// outward sweep 1: how each frame moves along the direction (dP, dV, dh, dS) and what that changes
// locally (dc, the bias dB before the children's); dI is cleared
void outwardMotion(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& dq,
                   const Eigen::Ref<const Eigen::VectorXd>& dv,
                   const Eigen::Ref<const Eigen::VectorXd>& dqdd) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const int parent = joint.parent, nq = joint.nq;
    const auto dq_j = dq.segment(joint.idx_q, nq);
    const auto dv_j = dv.segment(joint.idx_q, nq);
    const bool moves_itself = !dq_j.isZero(0.0);
    const bool moves = moves_itself || !dv_j.isZero(0.0) || (parent >= 0 && ws.moved[parent] != 0);
    ws.moved[j] = static_cast<char>(moves);
    ws.dI_nonzero[j] = 0;
    ws.dS_nonzero[j] = 0;
    Vector6d& dc = ws.dc[j];
    const Matrix6Xd& S = w.S[j];
    if (!moves) {
      ws.dP[j].setZero();
      ws.dV[j].setZero();
      ws.dh[j].setZero();
      ws.dB[j].setZero();
      dc.setZero();
    } else {
      const auto v_j = ws.velocity.segment(joint.idx_q, nq);
      const bool varying = hasVaryingSubspace(joint);
      Vector6d& dh = ws.dh[j];
      dh.noalias() = S * dq_j;
      Matrix6Xd& dS = ws.dS[j];
      if (varying && moves_itself) {
        dS.setZero();
        for (int k = 0; k < nq; ++k) dS += dq_j(k) * ws.dS_dq[j].middleCols(k * nq, nq);
        ws.dS_nonzero[j] = 1;
      }
      const Vector6d S_v = S * v_j;
      Vector6d dS_v = S * dv_j;  // becomes dS v + S dv
      if (ws.dS_nonzero[j] != 0) dS_v.noalias() += dS * v_j;
      const Vector6d X_V = data.eta[j] - S_v;  // the parent's twist in this frame
      Vector6d& dV = ws.dV[j];
      Vector6d& dP = ws.dP[j];
      if (parent >= 0) {
        dV = applyAdInv(data.g_pc[j], ws.dV[parent]);
        dP = applyAdInv(data.g_pc[j], ws.dP[parent]) + dh;
      } else {
        dV.setZero();
        dP = dh;
      }
      dV += dS_v - ad(dh, X_V);
      dc = ad(dV, S_v) + ad(data.eta[j], dS_v);
      if (varying) {
        dc.noalias() += ws.dsigma_dq[j] * dq_j;
        dc.noalias() += ws.dsigma_dv[j] * dv_j;
      }
      ws.dB[j] = coad(dV, ws.momentum[j]) + coad(data.eta[j], ws.inertia[j] * dV);
    }
    // the prescribed coordinates' S_P qdd_P, part of c
    if (w.n_free[j] == nq) continue;
    for (int k = 0; k < nq; ++k) {
      if (!isPrescribed(w, j, joint, k)) continue;
      const int i = joint.idx_q + k;
      dc.noalias() += S.col(k) * dqdd(i);
      if (ws.dS_nonzero[j] != 0) dc.noalias() += ws.dS[j].col(k) * data.qdd(i);
    }
  }
  // loads that depend on the frames' poses and twists
  for (const WrenchSensitivity& s : data.load_sensitivities) {
    const int j = s.joint;
    if (ws.moved[j] == 0) continue;
    ws.dB[j].noalias() -= s.d_pose * ws.dP[j];
    ws.dB[j].noalias() -= s.d_twist * ws.dV[j];
  }
}

// inwardArticulation() for the common one-coordinate free joint, in scalars: Psi = 1 / D, and its
// subspace is constant (a single screw), so dS = 0 and only dÎ changes U
void inwardScalarJoint(Data& data, int j, int i, bool has_dI, Matrix6d& dPi, Vector6d& dbeta) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  const auto s = w.S[j].col(0);
  const auto U = w.U[j].col(0);
  const double psi = w.D_inverse[j](0, 0), u = w.u[j](0);
  const double du = ws.du[j](0) = ws.dtau(i) - s.dot(ws.dB[j]);
  if (has_dI) {
    const Vector6d dU = ws.dI[j] * s;
    ws.dU[j].col(0) = dU;
    const double dpsi = ws.dPsi[j](0, 0) = -psi * psi * s.dot(dU);
    const Vector6d U_psi = psi * U;
    dPi.noalias() -= dU * U_psi.transpose() + U_psi * dU.transpose();
    dPi.noalias() -= (dpsi * U) * U.transpose();
    dbeta += (psi * u) * dU + (dpsi * u) * U;
  }
  dbeta += (psi * du) * U;
}

// outwardAcceleration()'s dqdd for the same joint; before = X a_lambda + c, ws.da[j] = dw
double outwardScalarJoint(const Data& data, int j, bool has_dI, const Vector6d& before) {
  const ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  const auto U = w.U[j].col(0);
  const double psi = w.D_inverse[j](0, 0);
  double rhs = ws.du[j](0) - U.dot(ws.da[j]);
  if (!has_dI) return psi * rhs;
  rhs -= ws.dU[j].col(0).dot(before);
  return ws.dPsi[j](0, 0) * (w.u[j](0) - U.dot(before)) + psi * rhs;
}

// inward sweep: dU, dPsi, du of each joint and what it hands its parent (dÎ, dB)
void inwardArticulation(const Model& model, Data& data) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    const int n_free = w.n_free[j];
    const bool has_dI = ws.dI_nonzero[j] != 0, has_dS = ws.dS_nonzero[j] != 0;
    const bool inertia_changes = has_dI || has_dS;
    const Matrix6d& I_A = w.I_A[j];
    Vector6d dbeta = ws.dB[j];
    Matrix6d dPi = has_dI ? ws.dI[j] : Matrix6d::Zero();
    if (n_free == 1 && joint.nq == 1 && !has_dS) {
      inwardScalarJoint(data, j, joint.idx_q, has_dI, dPi, dbeta);
    } else if (n_free > 0) {
      const auto S_F = freeColumns(w, j, joint).leftCols(n_free);
      const auto U = w.U[j].leftCols(n_free);
      const auto Psi = w.D_inverse[j].topLeftCorner(n_free, n_free);
      auto dU = ws.dU[j].leftCols(n_free);
      auto dPsi = ws.dPsi[j].topLeftCorner(n_free, n_free);
      auto du = ws.du[j].head(n_free);
      const int* const free_columns = w.free_columns.data() + joint.idx_q;
      for (int f = 0; f < n_free; ++f) du(f) = ws.dtau(joint.idx_q + free_columns[f]);
      du.noalias() -= S_F.transpose() * ws.dB[j];
      if (inertia_changes) {
        if (has_dI) {
          dU.noalias() = ws.dI[j] * S_F;
        } else {
          dU.setZero();
        }
        auto dD = ws.small_scratch.topLeftCorner(n_free, n_free);
        if (has_dS) {
          const auto dS_F = gatherFreeDerivative(ws, w, j, joint);
          dU.noalias() += I_A * dS_F;
          du.noalias() -= dS_F.transpose() * w.p_A[j];
          dD.noalias() = dS_F.transpose() * U;
          dD.noalias() += S_F.transpose() * dU;
        } else {
          dD.noalias() = S_F.transpose() * dU;
        }
        dPsi.noalias() = dD * Psi;  // -Psi dD Psi, through dD's storage
        dD.noalias() = -Psi * dPsi;
        dPsi = dD;
        // dPi = dÎ - dU Psi U^T - (dU Psi U^T)^T - U dPsi U^T
        auto psi_U_t = ws.psi_U_t.topRows(n_free);
        auto dpsi_U_t = ws.dpsi_U_t.topRows(n_free);
        psi_U_t.noalias() = Psi * U.transpose();
        dpsi_U_t.noalias() = dPsi * U.transpose();
        Matrix6d dU_psi_U_t;
        dU_psi_U_t.noalias() = dU * psi_U_t;
        dPi -= dU_psi_U_t + dU_psi_U_t.transpose();
        dPi.noalias() -= U * dpsi_U_t;
        // dbeta's dU Psi u + U dPsi u
        auto psi_u = ws.vector_scratch.head(n_free);
        psi_u.noalias() = Psi * w.u[j].head(n_free);
        dbeta.noalias() += dU * psi_u;
        auto dpsi_u = ws.vector_scratch2.head(n_free);
        dpsi_u.noalias() = dPsi * w.u[j].head(n_free);
        dbeta.noalias() += U * dpsi_u;
      }
      auto psi_du = ws.vector_scratch.head(n_free);
      psi_du.noalias() = Psi * du;
      dbeta.noalias() += U * psi_du;
    }
    if (inertia_changes) dbeta.noalias() += dPi * w.c[j];
    dbeta.noalias() += ws.Pi[j] * ws.dc[j];
    const int parent = joint.parent;
    if (parent < 0) continue;
    const Vector6d& dh = ws.dh[j];
    const bool turns = ws.moved[j] != 0 && !dh.isZero(0.0);
    if (inertia_changes || turns) {
      Matrix6d E = inertia_changes ? dPi : Matrix6d::Zero();
      if (turns) {
        Matrix6d Pi_ad;
        Pi_ad.noalias() = ws.Pi[j] * ad(dh);
        E -= Pi_ad + Pi_ad.transpose();
      }
      const Matrix6d dI_parent = transformedInertia(data.g_pc[j], E, std::nullopt);
      if (ws.dI_nonzero[parent] != 0) {
        ws.dI[parent] += dI_parent;
      } else {
        ws.dI[parent] = dI_parent;
        ws.dI_nonzero[parent] = 1;
      }
    }
    if (ws.moved[j] != 0) dbeta += coad(dh, ws.beta[j]);
    ws.dB[parent] += applyCoAd(data.g_pc[j], dbeta);
  }
}

// outward sweep 2: the accelerations' derivatives, dqdd on the free coordinates and the efforts'
// on the prescribed ones, into dy
void outwardAcceleration(const Model& model, Data& data, const Vector6d& base_acceleration,
                         Eigen::Ref<Eigen::VectorXd> dy) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const int parent = joint.parent, n_free = w.n_free[j];
    const bool has_dI = ws.dI_nonzero[j] != 0, has_dS = ws.dS_nonzero[j] != 0;
    const Vector6d X_a = applyAdInv(data.g_pc[j], parent < 0 ? base_acceleration : w.a[parent]);
    Vector6d& da = ws.da[j];
    da = ws.dc[j];
    if (parent >= 0) da += applyAdInv(data.g_pc[j], ws.da[parent]);
    if (ws.moved[j] != 0) da -= ad(ws.dh[j], X_a);
    if (n_free == 1 && joint.nq == 1 && !has_dS) {
      const double dqdd = outwardScalarJoint(data, j, has_dI, X_a + w.c[j]);
      da.noalias() += w.S[j].col(0) * dqdd;
      dy(joint.idx_q) = dqdd;
    } else if (n_free > 0) {
      const Vector6d before = X_a + w.c[j];  // the acceleration without the free coordinates'
      const auto S_F = freeColumns(w, j, joint).leftCols(n_free);
      const auto U = w.U[j].leftCols(n_free);
      const auto Psi = w.D_inverse[j].topLeftCorner(n_free, n_free);
      const int* const free_columns = w.free_columns.data() + joint.idx_q;
      auto rhs = ws.vector_scratch.head(n_free);  // du - dU^T before - U^T dbefore
      rhs = ws.du[j].head(n_free);
      rhs.noalias() -= U.transpose() * da;
      auto dqdd = ws.vector_scratch3.head(n_free);
      if (has_dI || has_dS) {
        rhs.noalias() -= ws.dU[j].leftCols(n_free).transpose() * before;
        auto r = ws.vector_scratch2.head(n_free);  // u - U^T before = Psi^-1 qdd_F
        r = w.u[j].head(n_free);
        r.noalias() -= U.transpose() * before;
        dqdd.noalias() = ws.dPsi[j].topLeftCorner(n_free, n_free) * r;
        dqdd.noalias() += Psi * rhs;
      } else {
        dqdd.noalias() = Psi * rhs;
      }
      da.noalias() += S_F * dqdd;
      for (int f = 0; f < n_free; ++f) dy(joint.idx_q + free_columns[f]) = dqdd(f);
      if (has_dS) {
        const auto dS_F = gatherFreeDerivative(ws, w, j, joint);
        for (int f = 0; f < n_free; ++f)
          da.noalias() += dS_F.col(f) * data.qdd(joint.idx_q + free_columns[f]);
      }
    }
    if (n_free == joint.nq) continue;
    // efforts e_P = S_P^T (Î a + B) - tau_P
    const Vector6d F = w.I_A[j] * w.a[j] + w.p_A[j];
    Vector6d dF = w.I_A[j] * da + ws.dB[j];
    if (has_dI) dF.noalias() += ws.dI[j] * w.a[j];
    for (int k = 0; k < joint.nq; ++k) {
      if (!isPrescribed(w, j, joint, k)) continue;
      const int i = joint.idx_q + k;
      double de = w.S[j].col(k).dot(dF) - ws.dtau(i);
      if (has_dS) de += ws.dS[j].col(k).dot(F);
      dy(i) = de;
    }
  }
}

// one direction through the three sweeps; ws.dtau holds the change of the applied forces
void propagate(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& dq,
               const Eigen::Ref<const Eigen::VectorXd>& dv,
               const Eigen::Ref<const Eigen::VectorXd>& dqdd, Eigen::Ref<Eigen::VectorXd> dy) {
  outwardMotion(model, data, dq, dv, dqdd);
  inwardArticulation(model, data);
  outwardAcceleration(model, data, -model.gravity, dy);
}

// the columns along q and v: ws.unit_q, ws.unit_v carry one unit entry at a time
void stateColumns(const Model& model, Data& data, Eigen::Ref<Eigen::MatrixXd> dy_dq,
                  Eigen::Ref<Eigen::MatrixXd> dy_dv) {
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  for (int k = 0; k < model.nq; ++k) {
    ws.unit_q(k) = 1.0;
    ws.dtau = data.dtau_applied_dq.col(k) - model.K.col(k);
    propagate(model, data, ws.unit_q, ws.unit_v, ws.unit_qdd, dy_dq.col(k));
    ws.unit_q(k) = 0.0;
  }
  for (int k = 0; k < model.nv; ++k) {
    ws.unit_v(k) = 1.0;
    ws.dtau = -model.D.col(k);
    propagate(model, data, ws.unit_q, ws.unit_v, ws.unit_qdd, dy_dv.col(k));
    ws.unit_v(k) = 0.0;
  }
}

}  // namespace

void articulatedBodyForwardDynamicsDerivatives(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
    Eigen::Ref<Eigen::MatrixXd> dqdd_dtau) {
  requireSupport(data);
  if (dqdd_dtau.cols() > 0 && (dqdd_dtau.rows() != model.nv || dqdd_dtau.cols() != model.nv))
    throw std::invalid_argument("dqdd_dtau must be nv x nv (or have no columns)");
  articulatedBodyForwardDynamics(model, data, q, v, tau_actuation, t);
  if (!data.qdd.allFinite()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    data.dqdd_dq.setConstant(nan);
    data.dqdd_dv.setConstant(nan);
    dqdd_dtau.setConstant(nan);
    return;
  }
  prepareState(model, data, q, v, t);
  stateColumns(model, data, data.dqdd_dq, data.dqdd_dv);
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  for (Eigen::Index k = 0; k < dqdd_dtau.cols(); ++k) {
    ws.dtau.setZero();
    ws.dtau(k) = 1.0;
    propagate(model, data, ws.unit_q, ws.unit_v, ws.unit_qdd, dqdd_dtau.col(k));
  }
}

void articulatedBodyForwardDynamicsDerivatives(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  Eigen::MatrixXd none;  // no columns: no allocation
  articulatedBodyForwardDynamicsDerivatives(model, data, q, v, tau_actuation, t, none);
}

void articulatedHybridDynamicsDerivatives(const Model& model, Data& data,
                                          const Eigen::Ref<const Eigen::VectorXd>& q,
                                          const Eigen::Ref<const Eigen::VectorXd>& v,
                                          const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                          const std::vector<char>& prescribed,
                                          const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed,
                                          double t, HybridDynamicsDerivatives& out) {
  requireSupport(data);
  hybridDynamics(model, data, q, v, tau_actuation, prescribed, qdd_prescribed, t);
  if (!data.qdd.allFinite()) {
    out.setNaN();
    return;
  }
  prepareState(model, data, q, v, t);
  stateColumns(model, data, out.dy_dq, out.dy_dv);
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  ws.dtau.setZero();
  for (int i = 0; i < model.nv; ++i) {
    const bool is_prescribed = prescribed[static_cast<std::size_t>(i)] != 0;
    if (is_prescribed) {
      ws.unit_qdd(i) = 1.0;
    } else {
      ws.dtau(i) = 1.0;
    }
    propagate(model, data, ws.unit_q, ws.unit_v, ws.unit_qdd, out.dy_dw.col(i));
    ws.unit_qdd(i) = 0.0;
    ws.dtau(i) = 0.0;
  }
}

void articulatedBodyDirectionalDerivative(const Model& model, Data& data,
                                          const Eigen::Ref<const Eigen::VectorXd>& dq,
                                          const Eigen::Ref<const Eigen::VectorXd>& dv,
                                          const Eigen::Ref<const Eigen::VectorXd>& dw,
                                          Eigen::Ref<Eigen::VectorXd> dy) {
  requireSupport(data);
  if (dq.size() != model.nq || dv.size() != model.nv || dw.size() != model.nv ||
      dy.size() != model.nv)
    throw std::invalid_argument("dq, dv, dw or dy has the wrong size");
  ArticulatedDerivativeWorkspace& ws = data.articulated_derivatives;
  const ArticulatedBodyWorkspace& w = data.articulated;
  // dw splits into the force change on the free coordinates and the acceleration change on the
  // prescribed ones (ws.unit_qdd serves as its storage)
  ws.dtau.noalias() = data.dtau_applied_dq * dq;
  ws.dtau.noalias() -= model.K * dq;
  ws.dtau.noalias() -= model.D * dv;
  ws.unit_qdd.setZero();
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    for (int k = 0; k < joint.nq; ++k) {
      const int i = joint.idx_q + k;
      if (w.n_free[j] < joint.nq && isPrescribed(w, j, joint, k)) {
        ws.unit_qdd(i) = dw(i);
      } else {
        ws.dtau(i) += dw(i);
      }
    }
  }
  propagate(model, data, dq, dv, ws.unit_qdd, dy);
  ws.unit_qdd.setZero();
}

}  // namespace tendril
