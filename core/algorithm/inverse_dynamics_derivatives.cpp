#include "core/algorithm/inverse_dynamics_derivatives.hpp"

#include <cmath>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

bool hasVaryingSubspace(const VirtualJoint& joint) {
  return joint.nq > 0 && !joint.constant_subspace;
}

bool isZanna(const VirtualJoint& joint) {
  return joint.kind == VirtualJointKind::RodInterval && joint.magnus_order == 4;
}

double zannaCoefficient(const VirtualJoint& joint) {
  return zannaCommutatorFactor(joint.h);
}

// Z-dot-like rates of a Zanna interval, W(w) = d(Z w)/dq = c (ad_{Phi_z1 w} Phi_z2 - ad_{Phi_z2 w}
// Phi_z1) (C8 with w = v, C14 with w = a): with single-entry basis columns, column k is
// c (phi_2k ad_{w1}.col(s_k) - phi_1k ad_{w2}.col(s_k))
void zannaRate(const VirtualJoint& joint, const Vector6d& w1, const Vector6d& w2,
               Eigen::Ref<Matrix6Xd> W) {
  const double c = zannaCoefficient(joint);
  const Matrix6d A1 = ad(c * w1), A2 = ad(c * w2);  // ad is linear: scale 6 entries, not 36
  for (int k = 0; k < joint.nq; ++k) {
    const int r = joint.basis_rows[k];
    W.col(k).noalias() = joint.Phi_z2(r, k) * A1.col(r) - joint.Phi_z1(r, k) * A2.col(r);
  }
}

// The local terms of a joint with a varying subspace, sharing T' and Z-dot (C19, C20, C21, C24):
//   d(S v)/dq       = DT(Omega') Z + T Z-dot                       -> data.dSv_dq
//   S-dot           = T' Z + T Z-dot                                -> data.S_dot
//   d(S a + S-dot v)/dq = [DTdot(Omega', Omega') + DT(Z a + Z-dot v)] Z + (DT(Omega') + T') Z-dot
//                         + T W(a)                                  -> data.dacc_dq
// with DT(w) = d(T w)/dOmega, Omega' = Z v, Z-dot = W(v) (0 unless 4th-order Magnus)
void localTerms(const VirtualJoint& joint, Data& data, int j,
                const Eigen::Ref<const Eigen::VectorXd>& v_j,
                const Eigen::Ref<const Eigen::VectorXd>& a_j) {
  const int nq = joint.nq;
  auto dSv = data.dSv_dq.leftCols(nq);
  auto dacc = data.dacc_dq.leftCols(nq);
  TangentExpansion& x = data.tangent[j];
  expandTangent(data.Omega[j], x);
  const Matrix6d& T = x.T;
  const Matrix6Xd& Z = data.Z[j];
  const Vector6d Omega_dot = Z * v_j;
  Vector6d drive = Z * a_j;  // becomes Z a + Z-dot v
  auto W_v = data.Z_rate_v.leftCols(nq);
  auto W_a = data.Z_rate_a.leftCols(nq);
  const bool zanna = isZanna(joint);
  if (zanna) {
    zannaRate(joint, basisTimes(joint, joint.Phi_z1, v_j), basisTimes(joint, joint.Phi_z2, v_j),
              W_v);
    zannaRate(joint, basisTimes(joint, joint.Phi_z1, a_j), basisTimes(joint, joint.Phi_z2, a_j),
              W_a);
    drive.noalias() += W_v * v_j;
  }
  Matrix6d DT_v, DDT;
  dexpJacobians(x, Omega_dot, drive, DT_v, DDT);
  const Matrix6d T_dot = tangentRate(x, Omega_dot);
  dSv.noalias() = DT_v.lazyProduct(Z);
  data.S_dot[j].noalias() = T_dot.lazyProduct(Z);
  dacc.noalias() = DDT.lazyProduct(Z);
  if (!zanna) return;
  auto T_W = data.scratch_6n.leftCols(nq);
  T_W.noalias() = T.lazyProduct(W_v);
  dSv += T_W;
  data.S_dot[j] += T_W;
  dacc.noalias() += (DT_v + T_dot).lazyProduct(W_v);
  dacc.noalias() += T.lazyProduct(W_a);
}

// d(S^T F)/dq_j = Z^T DTt(F) Z + d(Z^T)/dq (T^T F)   (C29), added to the joint's diagonal block
void addProjectionDerivative(const VirtualJoint& joint, Data& data, int j, const Vector6d& F) {
  if (!hasVaryingSubspace(joint)) return;
  const TangentExpansion& x = data.tangent[j];
  const Matrix6Xd& Z = data.Z[j];
  auto block = data.dtau_dq.block(joint.idx_q, joint.idx_q, joint.nq, joint.nq);
  auto scratch = data.Z_rate_v.leftCols(joint.nq);
  scratch.noalias() = dexpTransposeJacobian(x, F) * Z;
  block.noalias() += Z.transpose().lazyProduct(scratch);
  if (!isZanna(joint)) return;
  // Z^T F' = ... + c (Phi_z1^T adbar*_F' xi_z2 - Phi_z2^T adbar*_F' xi_z1), F' = T^T F: entry (i,
  // k) of c (Phi_z1^T B Phi_z2 - Phi_z2^T B Phi_z1) is c (phi_1i phi_2k - phi_2i phi_1k) B(r_i,
  // r_k) for the single-entry basis columns (mode k in row r_k)
  const double c = zannaCoefficient(joint);
  const Matrix6d B = coadBar(x.T.transpose() * F);
  const std::vector<int>& rows = joint.basis_rows;
  for (int k = 0; k < joint.nq; ++k) {
    const int r_k = rows[k];
    const double p1_k = c * joint.Phi_z1(r_k, k), p2_k = c * joint.Phi_z2(r_k, k);
    for (int i = 0; i < joint.nq; ++i) {
      const int r_i = rows[i];
      block(i, k) += (joint.Phi_z1(r_i, i) * p2_k - joint.Phi_z2(r_i, i) * p1_k) * B(r_i, r_k);
    }
  }
}

// The pass works in world coordinates (IDSVA, docs/theory/rigid.md §3, generalised to
// rods; docs/theory/gvs.md (G1-G5)). Varying the coordinates of virtual joint j alone moves its
// subtree rigidly by the world screws s = Ad_{g_base} S_j and, beyond that, changes every subtree
// twist and acceleration by k-independent columns: for each frame k below j (V, A world twist and
// acceleration)
//   dV_k/dq_j = s x V_k + Psi_dot,    dA_k/dq_j = s x A_k + Psi_dot x V_k + Psi_ddot,
//   dA_k/dv_j = s x V_k + Psi_ddot_v,  dV_k/dv_j = s,
// with, in j's base frame (eta+ = eta_base + S v, acc+ its acceleration):
//   Psi_dot   = d(S v)/dq + ad_{eta+} S
//   Psi_ddot  = d(S a + S-dot v)/dq + ad_{eta_base} d(S v)/dq + ad_{acc+} S + ad_{eta+} Psi_dot
//   Psi_ddot_v = S-dot + d(S v)/dq + ad_{eta_base + eta+} S.
// The rigid parts cancel in tau_i = S_i^T f_i (both turn together), so with the subtree
// composites I (inertia), B2 = 2B - D (Coriolis matrix, minus the twist sensitivity of the loads)
// and K (pose sensitivity of the loads), the pseudo-joint blocks are
//   i below or at j:  dtau_i/dq_j = S_i^T (B2_i Psi_dot_j + I_i Psi_ddot_j - K_i s_j)
//                     dtau_i/dv_j = S_i^T (B2_i s_j + I_i Psi_ddot_v_j)
//   i above j:        dtau_i/dq_j = S_i^T t3_j,  t3_j = B2_j Psi_dot_j + I_j Psi_ddot_j - K_j s_j
//                                                       + f_j xbar* s_j,
//                     dtau_i/dv_j = S_i^T (B2_j s_j + I_j Psi_ddot_v_j)
// plus, on the diagonal, d(S_j^T f)/dq_j - (s x S_j)^T f = C29 + S_j^T (f xbar*) S_j. The intervals
// of a division share coordinates: their columns are summed along the division (prefix sums in
// data.columns), the subtree terms of one division carried by a recursion whose composite
// differences only hold the interval's own body and its side branches, and the blocks between
// two divisions formed once from row sums (data.row_terms): O(nq^2) per interval, nothing per
// (interval, ancestor column) pair.

enum ColumnBlock { kPsiDot = 0, kS = 1, kPsiDdot = 2, kPsiDdotV = 3 };

template <typename Matrix>
auto block(Matrix& columns, int nq, ColumnBlock which) {
  return columns.middleCols(static_cast<int>(which) * nq, nq);
}

// out = Ad_g in, column by column through the rotation (24 instead of 36 products per column)
void applyAdToColumns(const SE3& g, const Eigen::Ref<const Matrix6Xd>& in, Matrix6Xd& out) {
  out.topRows<3>().noalias() = g.R.lazyProduct(in.topRows<3>());
  out.bottomRows<3>().noalias() = g.R.lazyProduct(in.bottomRows<3>());
  for (Eigen::Index c = 0; c < in.cols(); ++c) {
    const Eigen::Vector3d w = out.col(c).head<3>();
    out.col(c).tail<3>() += g.p.cross(w);
  }
}

// 2B = V x* I - I V x + (I V) xbar* for a rigid-body inertia I = [[I_O, h~], [-h~, m 1]] and V =
// [w; v], in 3 x 3 blocks: with X = I_O w~, momentum [k; p] = I V and skew products a~ b~ = b a^T -
// (a . b) 1, [a~, b~] = (a x b)~,
//   2B = [[-(X + X^T) - h v^T - v h^T + 2 (h . v) 1 - k~,  (w x h + m v - p)~],
//         [(-(w x h) - m v - p)~,                            0]]
// (about 80 flops instead of two 6 x 6 products)
Matrix6d coriolisTwice(const SpatialInertia& I, const Vector6d& V) {
  const Eigen::Vector3d w = V.head<3>(), v = V.tail<3>();
  const Vector6d momentum = I * V;
  const Eigen::Vector3d w_h = w.cross(I.h), m_v = I.m * v;
  Eigen::Matrix3d X;  // I_O w~, column by column: I_O (w x e_i)
  X.col(0) = I.I.col(1) * w(2) - I.I.col(2) * w(1);
  X.col(1) = I.I.col(2) * w(0) - I.I.col(0) * w(2);
  X.col(2) = I.I.col(0) * w(1) - I.I.col(1) * w(0);
  Matrix6d B;
  auto top_left = B.topLeftCorner<3, 3>();
  top_left = -(X + X.transpose());
  top_left.noalias() -= I.h * v.transpose() + v * I.h.transpose();
  top_left.diagonal().array() += 2.0 * I.h.dot(v);
  top_left -= skew(momentum.head<3>());
  B.topRightCorner<3, 3>() = skew(w_h + m_v - momentum.tail<3>());
  B.bottomLeftCorner<3, 3>() = skew(-w_h - m_v - momentum.tail<3>());
  B.bottomRightCorner<3, 3>().setZero();
  return B;
}

// twist, acceleration and subtree wrench in world; the frame's own inertia and 2B in world
void worldBody(const VirtualJoint& joint, Data& data, int j) {
  data.V_world[j] = applyAd(data.g[j], data.eta[j]);
  data.A_world[j] = applyAd(data.g[j], data.eta_dot[j]);
  data.f_world[j] = applyCoAd(data.g[j], data.F[j]);
  data.K_sub[j].setZero();
  if (!joint.has_inertia && !joint.has_added_mass) {
    data.I_sub[j].setZero();
    data.B_sub[j].setZero();
    return;
  }
  // Ad_g^-T M Ad_g^-1: the rigid part and the added mass each in compact form (a few dozen flops)
  Matrix6d& I = data.I_sub[j];
  const Vector6d& V = data.V_world[j];
  Matrix6d& B = data.B_sub[j];
  const SpatialInertia rigid = joint.inertia.transformed(data.g[j]);
  I = rigid.matrix();
  if (!joint.has_added_mass) {
    B = coriolisTwice(rigid, V);
    return;
  }
  I += transformedInertia(data.g[j], joint.added_mass, joint.added_mass_diagonal);
  // 2B = V x* I - I V x + (I V) xbar*
  B.noalias() = coad(V).lazyProduct(I);
  B.noalias() -= I.lazyProduct(ad(V));
  B += coadBar(I * V);
}

// own columns of joint j, in world, then summed with those of the earlier intervals of its group
void jointColumns(const VirtualJoint& joint, Data& data, int j,
                  const Eigen::Ref<const Eigen::VectorXd>& v_j, bool at_rest) {
  const int nq = joint.nq;
  auto own = data.local_columns.leftCols(4 * nq);
  Vector6d eta_plus, acc_plus, eta_base;
  SE3 base_in_world;
  if (joint.single_screw) {
    // in the child frame, where the screw is the same
    eta_plus = data.eta[j];
    acc_plus = data.eta_dot[j];
    eta_base = eta_plus - v_j(0) * joint.screw;
    base_in_world = data.g[j];
  } else {
    eta_plus = applyAd(data.g_local[j], data.eta[j]);
    acc_plus = applyAd(data.g_local[j], data.eta_dot[j]);
    eta_base = eta_plus;
    eta_base.noalias() -= data.S[j] * v_j;
    base_in_world = data.g[j] * data.g_local[j].inverse();
  }
  data.g_base[j] = base_in_world;
  const Matrix6Xd& S = data.S[j];
  auto psi_dot = block(own, nq, kPsiDot);
  auto psi_ddot = block(own, nq, kPsiDdot);
  auto psi_ddot_v = block(own, nq, kPsiDdotV);
  block(own, nq, kS) = S;
  if (at_rest) {
    psi_dot.setZero();
    psi_ddot.noalias() = ad(acc_plus).lazyProduct(S);
    psi_ddot_v.setZero();
  } else {
    // Psi_ddot = (ad_{acc+} + ad_{eta+}^2) S + ad_{eta_base + eta+} d(S v)/dq + d(S a + S-dot v)/dq
    const Matrix6d ad_plus = ad(eta_plus);
    const Matrix6d ad_sum = ad(eta_base + eta_plus);
    psi_dot.noalias() = ad_plus.lazyProduct(S);
    psi_ddot.noalias() = ad(acc_plus).lazyProduct(S);
    psi_ddot.noalias() += ad_plus.lazyProduct(psi_dot);  // ad_{eta+}^2 S from ad_{eta+} S
    psi_ddot_v.noalias() = ad_sum.lazyProduct(S);
    if (hasVaryingSubspace(joint)) {
      const auto dSv = data.dSv_dq.leftCols(nq);
      psi_dot += dSv;
      psi_ddot += data.dacc_dq.leftCols(nq);
      psi_ddot.noalias() += ad_sum.lazyProduct(dSv);
      psi_ddot_v += data.S_dot[j] + dSv;
    }
  }
  Matrix6Xd& columns = data.columns[j];
  applyAdToColumns(base_in_world, own, columns);
  data.S_world[j] = block(columns, nq, kS);
  const int previous = joint.group_previous;
  if (previous >= 0) columns += data.columns[previous];
}

// A rod interval's subspace and all its columns are 6 x 6 cores applied to its basis at the
// collocation points: Z = sum_a Zc_a Phi_a (C4: Zc_1 = h/2 - c ad_{xi_z2}, Zc_2 = h/2 + c
// ad_{xi_z1}; 2nd-order Magnus: Zc_1 = h), Z-dot = W(v) = c (ad_{Phi_1 v} Phi_2 - ad_{Phi_2 v}
// Phi_1), and every column block above is a 6 x 6 matrix times Z or W. So the blocks are formed as
// 6 x 6 cores (one per collocation point), taken to world, and expanded into the nq columns once,
// each column being phi_1k core_1.col(r_k) + phi_2k core_2.col(r_k): fixed-size products instead of
// 6 x nq ones. Only the columns r of the strain components the basis uses are ever read (three of
// six for a Kirchhoff rod), so the cores are formed on those alone: with n_c components, a core is
// 6 x n_c and column s of core a stands for column strain_components[s] of the full one.

// below about a dozen modes the dense 6 x nq products of localTerms and jointColumns are cheaper
// (fin-ray, 4 modes: 3.50M instead of 2.97M instructions per call)
bool usesRodCores(const VirtualJoint& joint) {
  constexpr int kRodCoreMinModes = 12;
  return joint.kind == VirtualJointKind::RodInterval && joint.nq >= kRodCoreMinModes;
}

// [core_1 | core_2] on the used strain components: 6 x (Points x Components). Components is 6 (a
// Cosserat rod) or 3 (a Kirchhoff rod, a planar one) at compile time, other counts dynamic: fixed
// sizes keep the products unrolled (dynamic columns alone cost the full rods 12 % of dID)
constexpr int coreColumns(int points, int components) {
  return components == Eigen::Dynamic ? Eigen::Dynamic : points * components;
}
constexpr int coreMaxColumns(int points, int components) {
  return components == Eigen::Dynamic ? 6 * points : points * components;
}
template <int Points, int Components>
using RodCores = Eigen::Matrix<double, 6, coreColumns(Points, Components), 0, 6,
                               coreMaxColumns(Points, Components)>;

int componentCount(const VirtualJoint& joint) {
  return static_cast<int>(joint.strain_components.size());
}

// f.template operator()<Points, Components>() for the shape of joint's rod cores
template <typename Function>
void withCoreShape(const VirtualJoint& joint, Function&& f) {
  const int n_c = componentCount(joint);
  if (isZanna(joint)) {
    if (n_c == 6) return f.template operator()<2, 6>();
    if (n_c == 3) return f.template operator()<2, 3>();
    return f.template operator()<2, Eigen::Dynamic>();
  }
  if (n_c == 6) return f.template operator()<1, 6>();
  if (n_c == 3) return f.template operator()<1, 3>();
  return f.template operator()<1, Eigen::Dynamic>();
}

// [Zc_1 | Zc_2] for a Zanna interval, at the strains of the last position stage (or at w1, w2 for
// W(w) = [-c ad_{w2} | c ad_{w1}] without the h/2 terms), on the used components
template <int Components>
RodCores<2, Components> zannaCores(const VirtualJoint& joint, double half_h, double c,
                                   const Vector6d& xi_1, const Vector6d& xi_2) {
  const int n_c = componentCount(joint);
  const Matrix6d A1 = ad(c * xi_1), A2 = ad(c * xi_2);
  RodCores<2, Components> cores(6, 2 * n_c);
  for (int s = 0; s < n_c; ++s) {
    const int r = joint.strain_components[s];
    cores.col(s) = -A2.col(r);
    cores.col(n_c + s) = A1.col(r);
    cores(r, s) += half_h;
    cores(r, n_c + s) += half_h;
  }
  return cores;
}

// [Zc_1 | Zc_2] of a rod interval at its current strains (2nd-order Magnus: Zc_1 = h), on the used
// components
template <int Points, int Components>
RodCores<Points, Components> subspaceCores(const VirtualJoint& joint, const Data& data, int j) {
  if constexpr (Points == 2) {
    return zannaCores<Components>(joint, 0.5 * joint.h, zannaCoefficient(joint), data.xi_z1[j],
                                  data.xi_z2[j]);
  } else {
    const int n_c = componentCount(joint);
    RodCores<Points, Components> cores = RodCores<Points, Components>::Zero(6, n_c);
    for (int s = 0; s < n_c; ++s) cores(joint.strain_components[s], s) = joint.h;
    return cores;
  }
}

// Grouped by their right factor, the blocks of jointColumns (S = T Zc, dSv = DT_v Zc + T W_v,
// S-dot = T' Zc + T W_v, dacc = (DT_v + T') W_v + T W_a + M Zc) are
//   S          = T Zc
//   Psi_dot    = (DT_v + ad_{eta+} T) Zc + T W_v
//   Psi_ddot_v = L2 Zc + 2 T W_v,                      L2 = T' + DT_v + ad_{eta_base + eta+} T
//   Psi_ddot   = (M + A T + ad_{eta_base + eta+} DT_v) Zc + L2 W_v + T W_a
// with M = DDT(Omega', Omega') + DT(Z a + Z-dot v) and A = ad_{acc+} + ad_{eta+}^2: the 6 x 6 left
// factors are formed and taken to world first, then multiplied by the cores of Z and W.
enum RodRows { kRowsS = 0, kRowsPsiDot = 1, kRowsPsiDdotV = 2, kRowsPsiDdot = 3 };

template <int Points, int Components>
using RodColumnCores = Eigen::Matrix<double, 24, coreColumns(Points, Components), 0, 24,
                                     coreMaxColumns(Points, Components)>;

// rows 6 b .. 6 b + 5 hold block b (RodRows) as the world cores of the rod interval
template <int Points, int Components>
void rodColumnCores(const VirtualJoint& joint, Data& data, int j,
                    const Eigen::Ref<const Eigen::VectorXd>& v_j,
                    const Eigen::Ref<const Eigen::VectorXd>& a_j, bool at_rest,
                    RodColumnCores<Points, Components>& cores) {
  using Cores = RodCores<Points, Components>;
  TangentExpansion& x = data.tangent[j];
  expandTangent(data.Omega[j], x);
  const Matrix6d& T = x.T;
  const Cores Zc = subspaceCores<Points, Components>(joint, data, j);
  const double c = Points == 2 ? zannaCoefficient(joint) : 0.0;
  const Vector6d eta_plus = applyAd(data.g_local[j], data.eta[j]);
  const Vector6d acc_plus = applyAd(data.g_local[j], data.eta_dot[j]);
  const SE3& base = data.g_base[j] = data.g[j] * data.g_local[j].inverse();
  // left factors [T; L1; L2; L3], then Ad_base on each: [R w; p x (R w) + R v] column by column
  Eigen::Matrix<double, 24, 6> left;
  left.topRows<6>() = T;
  Cores W_v, W_a;
  if (at_rest) {
    left.middleRows<12>(6).setZero();
    left.bottomRows<6>().noalias() = ad(acc_plus) * T;
  } else {
    Vector6d w_v[Points], w_a[Points];  // Phi_a v, Phi_a a
    w_v[0] = basisTimes(joint, joint.Phi_z1, v_j);
    w_a[0] = basisTimes(joint, joint.Phi_z1, a_j);
    if constexpr (Points == 2) {
      w_v[1] = basisTimes(joint, joint.Phi_z2, v_j);
      w_a[1] = basisTimes(joint, joint.Phi_z2, a_j);
    }
    // Omega' = Z v = sum_a Zc_a Phi_a v, and Phi_a v lies in the used components
    const int n_c = componentCount(joint);
    Vector6d Omega_dot = Vector6d::Zero(), drive = Vector6d::Zero();  // drive: Z a + Z-dot v
    for (int a = 0; a < Points; ++a) {
      for (int s = 0; s < n_c; ++s) {
        const int r = joint.strain_components[s];
        Omega_dot.noalias() += w_v[a](r) * Zc.col(a * n_c + s);
        drive.noalias() += w_a[a](r) * Zc.col(a * n_c + s);
      }
    }
    if constexpr (Points == 2) {
      drive += 2.0 * c * ad(w_v[0], w_v[1]);
      W_v = zannaCores<Components>(joint, 0.0, c, w_v[0], w_v[1]);
      W_a = zannaCores<Components>(joint, 0.0, c, w_a[0], w_a[1]);
    }
    Matrix6d DT_v, DDT;
    dexpJacobians(x, Omega_dot, drive, DT_v, DDT);
    const Vector6d eta_base = eta_plus - T * Omega_dot;  // S v = T Omega'
    const Matrix6d ad_plus = ad(eta_plus);
    const Matrix6d ad_sum = ad(eta_base + eta_plus);
    auto L1 = left.middleRows<6>(6 * kRowsPsiDot);
    auto L2 = left.middleRows<6>(6 * kRowsPsiDdotV);
    auto L3 = left.middleRows<6>(6 * kRowsPsiDdot);
    L1 = DT_v;
    L1.noalias() += ad_plus * T;
    L2 = tangentRate(x, Omega_dot) + DT_v;
    L2.noalias() += ad_sum * T;
    L3 = DDT;
    L3.noalias() += (ad(acc_plus) + ad_plus * ad_plus) * T;
    L3.noalias() += ad_sum * DT_v;
  }
  for (int b = 0; b < 4; ++b) {
    auto top = left.middleRows<3>(6 * b), bottom = left.middleRows<3>(6 * b + 3);
    top = base.R * top;  // aliased: Eigen evaluates the product into a temporary
    bottom = base.R * bottom;
    bottom.noalias() += skew(base.p) * top;
  }
  cores.noalias() = left.lazyProduct(Zc);
  if constexpr (Points == 2) {
    if (at_rest) return;
    const auto T_world = left.topRows<6>();
    Cores T_W;
    T_W.noalias() = T_world.lazyProduct(W_v);
    cores.template middleRows<6>(6 * kRowsPsiDot) += T_W;
    cores.template middleRows<6>(6 * kRowsPsiDdotV) += 2.0 * T_W;
    cores.template middleRows<6>(6 * kRowsPsiDdot).noalias() +=
        left.middleRows<6>(6 * kRowsPsiDdotV).lazyProduct(W_v);
    cores.template middleRows<6>(6 * kRowsPsiDdot).noalias() += T_world.lazyProduct(W_a);
  }
}

// the columns of a rod interval from its world cores, plus those of the earlier intervals of its
// division; its own S in world too
template <int Points, int Components>
void expandRodColumns(const VirtualJoint& joint, Data& data, int j,
                      const RodColumnCores<Points, Components>& cores) {
  constexpr RodRows kRowsOfBlock[4] = {kRowsPsiDot, kRowsS, kRowsPsiDdot, kRowsPsiDdotV};
  const int nq = joint.nq;
  Matrix6Xd& columns = data.columns[j];
  const int previous = joint.group_previous;
  const int n_c = componentCount(joint);
  for (int k = 0; k < nq; ++k) {
    const int r = joint.basis_rows[k], s = joint.component_slot[k];
    const double p1 = joint.Phi_z1(r, k);
    const double p2 = Points == 2 ? joint.Phi_z2(r, k) : 0.0;
    for (int b = 0; b < 4; ++b) {
      const int row = 6 * kRowsOfBlock[b];
      Vector6d own = p1 * cores.template block<6, 1>(row, s);
      if constexpr (Points == 2) own.noalias() += p2 * cores.template block<6, 1>(row, n_c + s);
      if (b == kS) data.S_world[j].col(k) = own;
      if (previous >= 0) own += data.columns[previous].col(b * nq + k);
      columns.col(b * nq + k) = own;
    }
  }
  data.rod_S_cores[j].leftCols(Points * n_c) = cores.template topRows<6>();
}

template <int Points, int Components>
void rodColumns(const VirtualJoint& joint, Data& data, int j,
                const Eigen::Ref<const Eigen::VectorXd>& v_j,
                const Eigen::Ref<const Eigen::VectorXd>& a_j, bool at_rest) {
  RodColumnCores<Points, Components> cores;
  rodColumnCores<Points, Components>(joint, data, j, v_j, a_j, at_rest, cores);
  expandRodColumns<Points, Components>(joint, data, j, cores);
}

// the own world columns of joint j (data.columns[j], summed along its group), whatever its kind
void ownColumns(const VirtualJoint& joint, Data& data, int j,
                const Eigen::Ref<const Eigen::VectorXd>& v,
                const Eigen::Ref<const Eigen::VectorXd>& a, bool at_rest) {
  const auto v_j = v.segment(joint.idx_q, joint.nq);
  if (usesRodCores(joint)) {
    const auto a_j = a.segment(joint.idx_q, joint.nq);
    withCoreShape(joint, [&]<int Points, int Components>() {
      rodColumns<Points, Components>(joint, data, j, v_j, a_j, at_rest);
    });
    return;
  }
  if (at_rest) {
    if (hasVaryingSubspace(joint)) expandTangent(data.Omega[j], data.tangent[j]);  // for C29
  } else {
    if (hasVaryingSubspace(joint))
      localTerms(joint, data, j, v_j, a.segment(joint.idx_q, joint.nq));
  }
  jointColumns(joint, data, j, v_j, at_rest);
}

void forwardPass(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& v,
                 const Eigen::Ref<const Eigen::VectorXd>& a, bool at_rest) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    worldBody(joint, data, j);
    if (joint.nq > 0) ownColumns(joint, data, j, v, a, at_rest);
  }
}

// state-dependent external wrenches enter the composites in world (ID = inertial - external):
// K += Ad^-T d_pose Ad^-1, B2 -= Ad^-T d_twist Ad^-1. Returns whether some load depends on the
// twist (else, at rest, dID/dv vanishes)
bool addLoadSensitivities(const Model& model, Data& data, double t) {
  externalWrenchSensitivities(model, data, t);
  bool twist_dependent = false;
  for (const WrenchSensitivity& s : data.load_sensitivities) {
    const Matrix6d X = coAd(data.g[s.joint]);
    const Matrix6d X_pose = X.lazyProduct(s.d_pose);
    data.K_sub[s.joint].noalias() += X_pose.lazyProduct(X.transpose());
    if (s.d_twist.isZero(0.0)) continue;
    twist_dependent = true;
    const Matrix6d X_twist = X.lazyProduct(s.d_twist);
    data.B_sub[s.joint].noalias() -= X_twist.lazyProduct(X.transpose());
  }
  return twist_dependent;
}

// The rows of a rod interval, S^T [Y_q | Y_v] plus C29 on the q side, through its basis: every
// column of Phi_z1, Phi_z2 has one entry (the mode's strain component, joint.basis_rows), and
//   Z^T X = Phi_z1^T L1 X + Phi_z2^T L2 X,  L_a = Zc_a^T (subspaceCores)
// (C4; 2nd-order Magnus: L1 = h, no Phi_z2), S_world^T = Z^T T^T Ad_base^T, and C29 =
// Z^T DTt(F) Z + c (Phi_z1^T B Phi_z2 - Phi_z2^T B Phi_z1) = sum_ab Phi_a^T C_ab Phi_b with cores
// C_ab = L_a DTt L_b^T (+- c B), n_c x n_c on the used components. What was four dense nq x 6 x nq
// products is now two 6 x 2 n_c x 2nq products and O(nq^2) scalar work.
template <int Points, int Components>
void projectRodRows(const VirtualJoint& joint, Data& data, int j, const Vector6d& F_base,
                    bool with_velocity) {
  using Cores = RodCores<Points, Components>;
  constexpr int kColumns = coreColumns(Points, Components);
  constexpr int kMaxColumns = coreMaxColumns(Points, Components);
  const int nq = joint.nq;
  constexpr bool zanna = Points == 2;
  const int n_c = componentCount(joint), cols = Points * n_c;
  const TangentExpansion& x = data.tangent[j];
  // Zc = [Zc_1 | Zc_2] = [L_1^T | L_2^T] on the used components (2nd-order Magnus: Zc_1 only)
  const Cores Zc = subspaceCores<Points, Components>(joint, data, j);
  // L_a G [Y_q | Y_v] with G = T^T Ad_base^T: L_a G is the transposed world core a of S
  auto S_cores = data.rod_S_cores[j].leftCols(cols);
  if (!usesRodCores(joint)) {
    const Matrix6d G_t = Ad(data.g_base[j]) * x.T;
    S_cores.noalias() = G_t.lazyProduct(Zc);
  }
  // W = [W_1 | W_2] = [Y_q | Y_v]^T (L_a G)^T, kept transposed: a strain component's column is
  // contiguous. Formed a column of Y at a time as the product S_cores^T y, which runs on whole
  // packets, where the transposed product did not
  const Matrix6Xd& Y = data.subtree_terms[j];
  const int width = with_velocity ? 2 * nq : nq;
  auto W = data.rod_rows_scratch.topLeftCorner(width, cols);
  const Eigen::Matrix<double, kColumns, 6, 0, kMaxColumns, 6> S_t = S_cores.transpose();
  for (int c = 0; c < width; ++c) W.row(c).noalias() = (S_t * Y.col(c)).transpose();
  // C29 cores: C = Zc^T DTt Zc holds every C_ab = L_a DTt L_b^T (block a, b), and the Zanna term
  // c (Phi_z1^T B Phi_z2 - Phi_z2^T B Phi_z1) adds B to C_12 and -B to C_21
  const Cores DTt_Zc = dexpTransposeJacobian(x, F_base).lazyProduct(Zc);
  Eigen::Matrix<double, kColumns, kColumns, 0, kMaxColumns, kMaxColumns> C(cols, cols);
  const Eigen::Matrix<double, kColumns, 6, 0, kMaxColumns, 6> Zc_t = Zc.transpose();
  C.noalias() = Zc_t.lazyProduct(DTt_Zc);  // column by column, on whole packets
  if constexpr (zanna) {
    const Matrix6d B = zannaCoefficient(joint) * coadBar(x.T.transpose() * F_base);
    for (int t = 0; t < n_c; ++t) {
      for (int s = 0; s < n_c; ++s) {
        const double b = B(joint.strain_components[s], joint.strain_components[t]);
        C(s, n_c + t) += b;
        C(n_c + s, t) -= b;
      }
    }
  }
  // the cores fold into the q half: W_a += sum_b C_ab Phi_b, column k being phi_b,k C_ab.col(s_k),
  // so row k of W gains phi_1k C.col(s_k) + phi_2k C.col(n_c + s_k)
  const std::vector<int>& rows = joint.basis_rows;
  for (int k = 0; k < nq; ++k) {
    const int r = rows[k], slot = joint.component_slot[k];
    if constexpr (zanna) {
      W.row(k).noalias() +=
          (joint.Phi_z1(r, k) * C.col(slot) + joint.Phi_z2(r, k) * C.col(n_c + slot)).transpose();
    } else {
      W.row(k).noalias() += joint.Phi_z1(r, k) * C.col(slot).transpose();
    }
  }
  // rows: row i of Phi_1^T W_1 + Phi_2^T W_2 is phi_1,i W_1.row(s_i) + phi_2,i W_2.row(s_i),
  // summed over the division's intervals in a transposed accumulator (contiguous columns of length
  // width), added to dtau once per division by divisionRows()
  Eigen::MatrixXd& rows_t = data.rod_rows[joint.group_first];
  if (joint.group_next < 0) rows_t.setZero();
  using Column = Eigen::Map<Eigen::VectorXd>;
  using ConstColumn = Eigen::Map<const Eigen::VectorXd>;
  for (int i = 0; i < nq; ++i) {
    const int r = rows[i], slot = joint.component_slot[i];
    Column row_t(rows_t.col(i).data(), width);
    const ConstColumn W_1(W.col(slot).data(), width);
    if constexpr (zanna) {
      const ConstColumn W_2(W.col(n_c + slot).data(), width);
      row_t.noalias() += joint.Phi_z1(r, i) * W_1 + joint.Phi_z2(r, i) * W_2;  // one pass
    } else {
      row_t.noalias() += joint.Phi_z1(r, i) * W_1;
    }
  }
}

// the rows accumulated by projectRodRows over a division, at its first interval
void divisionRows(const VirtualJoint& joint, Data& data, int j, bool with_velocity) {
  const int nq = joint.nq;
  const Eigen::MatrixXd& rows_t = data.rod_rows[j];
  data.dtau_dq.block(joint.idx_q, joint.idx_q, nq, nq) += rows_t.topRows(nq).transpose();
  if (with_velocity)
    data.dtau_dv.block(joint.idx_q, joint.idx_q, nq, nq) += rows_t.bottomRows(nq).transpose();
}

// rows and columns of joint j's own group: Y = [Y_q | Y_v] carried up the group,
//   Y_q,i = Y_q,i+1 + B2_E Psi_dot^P + I_E Psi_ddot^P - K_E s^P + (f_i xbar*) s_i
//   Y_v,i = Y_v,i+1 + B2_E s^P + I_E Psi_ddot_v^P
// (E = the composite of i minus that of the next interval, accumulated as such in data.*_sub_own:
// i's own body and side branches; P = summed up to i); rows += S_i^T Y
void groupTerms(const VirtualJoint& joint, Data& data, int j, bool with_velocity,
                const Matrix6d& B_E, const Matrix6d& I_E, const Matrix6d& K_E) {
  const int nq = joint.nq;
  const int next = joint.group_next;
  Matrix6Xd& Y = data.subtree_terms[j];
  if (next >= 0) {
    Y = data.subtree_terms[next];
  } else {
    Y.setZero();
  }
  const Matrix6Xd& P = data.columns[j];
  const Matrix6Xd& S = data.S_world[j];
  auto Y_q = Y.leftCols(nq);
  auto Y_v = Y.rightCols(nq);
  // [Psi_dot | S] and [Psi_ddot | Psi_ddot_v] are adjacent in P: one product each for both halves
  const int width = with_velocity ? 2 * nq : nq;
  for (int c = 0; c < width; ++c) {
    Vector6d y = Y.col(c);
    y.noalias() += B_E * P.col(c);
    y.noalias() += I_E * P.col(2 * nq + c);
    Y.col(c) = y;
  }
  if (!K_E.isZero(0.0)) Y_q.noalias() -= K_E.lazyProduct(block(P, nq, kS));
  Y_q.noalias() += coadBar(data.f_world[j]).lazyProduct(S);
  const Vector6d F_base = applyCoAd(data.g_local[j], data.F[j]);
  // below about 8 modes the dense products are cheaper than the cores of the sparse route
  constexpr int kSparseRouteMinModes = 8;
  if (joint.kind == VirtualJointKind::RodInterval && nq >= kSparseRouteMinModes) {
    withCoreShape(joint, [&]<int Points, int Components>() {
      projectRodRows<Points, Components>(joint, data, j, F_base, with_velocity);
    });
    if (joint.group_first == j) divisionRows(joint, data, j, with_velocity);
    return;
  }
  data.dtau_dq.block(joint.idx_q, joint.idx_q, nq, nq).noalias() += S.transpose().lazyProduct(Y_q);
  if (with_velocity) {
    data.dtau_dv.block(joint.idx_q, joint.idx_q, nq, nq).noalias() +=
        S.transpose().lazyProduct(Y_v);
  }
  if (hasVaryingSubspace(joint)) addProjectionDerivative(joint, data, j, F_base);
}

// row sums for the blocks against the groups above: T = [T4 | T1 | T5] = sum over the group of
// [B2^T S | I S | -K^T S]
void addRowTerms(const VirtualJoint& joint, Data& data, int j) {
  const int nq = joint.nq;
  Matrix6Xd& T = data.row_terms[joint.group_first];
  if (joint.group_next < 0) T.setZero();
  const Matrix6Xd& S = data.S_world[j];
  T.leftCols(nq).noalias() += data.B_sub[j].transpose().lazyProduct(S);
  T.middleCols(nq, nq).noalias() += data.I_sub[j].lazyProduct(S);
  T.rightCols(nq).noalias() -= data.K_sub[j].transpose().lazyProduct(S);
}

// blocks between group H (first joint h) and each group G above it, a = G's last joint on the
// way up: rows H, columns G from the row sums; rows G, columns H from t3 / t2 summed over H,
// which are Y at H's first joint
void crossGroupTerms(const Model& model, Data& data, int h, bool with_velocity) {
  const VirtualJoint& H = model.joints[h];
  const int n = H.nq;
  const Matrix6Xd& T = data.row_terms[h];
  const auto T4 = T.leftCols(n), T1 = T.middleCols(n, n), T5 = T.rightCols(n);
  const auto t3 = data.subtree_terms[h].leftCols(n), t2 = data.subtree_terms[h].rightCols(n);
  for (const auto& [group, a] : model.topology.coordinate_path[h]) {
    if (group == h) continue;
    const VirtualJoint& G = model.joints[group];
    const int m = G.nq;
    const Matrix6Xd& P = data.columns[a];
    if (n == 1 && m == 1) {  // rigid chains: fixed-size dot products, not 1 x 1 GEMMs
      const auto S = P.col(kS);
      data.dtau_dq(H.idx_q, G.idx_q) +=
          T.col(0).dot(P.col(kPsiDot)) + T.col(1).dot(P.col(kPsiDdot)) + T.col(2).dot(S);
      data.dtau_dq(G.idx_q, H.idx_q) += S.dot(data.subtree_terms[h].col(0));
      if (!with_velocity) continue;
      data.dtau_dv(H.idx_q, G.idx_q) += T.col(0).dot(S) + T.col(1).dot(P.col(kPsiDdotV));
      data.dtau_dv(G.idx_q, H.idx_q) += S.dot(data.subtree_terms[h].col(1));
      continue;
    }
    auto q_below = data.dtau_dq.block(H.idx_q, G.idx_q, n, m);
    q_below.noalias() += T4.transpose().lazyProduct(block(P, m, kPsiDot));
    q_below.noalias() += T1.transpose().lazyProduct(block(P, m, kPsiDdot));
    q_below.noalias() += T5.transpose().lazyProduct(block(P, m, kS));
    data.dtau_dq.block(G.idx_q, H.idx_q, m, n).noalias() +=
        block(P, m, kS).transpose().lazyProduct(t3);
    if (!with_velocity) continue;
    auto v_below = data.dtau_dv.block(H.idx_q, G.idx_q, n, m);
    v_below.noalias() += T4.transpose().lazyProduct(block(P, m, kS));
    v_below.noalias() += T1.transpose().lazyProduct(block(P, m, kPsiDdotV));
    data.dtau_dv.block(G.idx_q, H.idx_q, m, n).noalias() +=
        block(P, m, kS).transpose().lazyProduct(t2);
  }
}

// with_velocity false: dID/dv is zero (at rest, no twist-dependent load)
void backwardPass(const Model& model, Data& data, bool with_velocity) {
  data.dtau_dq.setZero();
  data.dtau_dv.setZero();
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0) {
      groupTerms(joint, data, j, with_velocity, data.B_sub_own[j], data.I_sub_own[j],
                 data.K_sub_own[j]);
      const bool has_groups_above = model.topology.coordinate_path[joint.group_first].size() > 1;
      if (has_groups_above) addRowTerms(joint, data, j);
      if (joint.group_first == j && has_groups_above)
        crossGroupTerms(model, data, j, with_velocity);
    }
    const int parent = joint.parent;
    if (parent < 0) continue;
    data.I_sub[parent] += data.I_sub[j];
    data.B_sub[parent] += data.B_sub[j];
    data.K_sub[parent] += data.K_sub[j];
    if (model.joints[parent].group_next == j) continue;
    // a side branch (or a child in another group) belongs to the parent's own term
    data.I_sub_own[parent] += data.I_sub[j];
    data.B_sub_own[parent] += data.B_sub[j];
    data.K_sub_own[parent] += data.K_sub[j];
  }
}

// The rigid-tree route (RigidTreeWorkspace: every joint owns its coordinates, so each group is
// one joint). A joint's own composites are then its subtree composites, used as they are (no
// copies), and the entries of coordinate c (of joint j) against the coordinates a of j's ancestors
// are formed over runs of consecutive ancestor coordinates from the rows of the world columns
// (crossGroupTerms for groups of one joint):
//   column c:  dtau_dq(a, c) = S_a^T t3_c,  dtau_dv(a, c) = S_a^T t2_c
//   row c:     dtau_dq(c, a) = Psi_dot_a^T T4_c + S_a^T T5_c + Psi_ddot_a^T T1_c
//              dtau_dv(c, a) = S_a^T T4_c + Psi_ddot_v_a^T T1_c
// with T4 = B2^T s_c, T5 = -K^T s_c, T1 = I s_c and t3, t2 = Y_q, Y_v of groupTerms: whole-packet
// axpys down each run instead of four dot products and two joint look-ups per entry.

// the world columns of a single screw straight from its frame's world twist V and acceleration A
// (gravity included): s = Ad_g screw, Psi_dot = V x s, Psi_ddot = A x s + V x Psi_dot,
// Psi_ddot_v = 2 Psi_dot (jointColumns' products seen from world: V = V_base + s v_j, s x s = 0)
void singleScrewColumns(const VirtualJoint& joint, Data& data, int j) {
  const Vector6d s = applyAd(data.g[j], joint.screw);
  const Vector6d& V = data.V_world[j];
  const Vector6d psi_dot = ad(V, s);
  Matrix6Xd& columns = data.columns[j];  // frameDerivatives() reads them
  columns.col(kPsiDot) = psi_dot;
  columns.col(kS) = s;
  columns.col(kPsiDdot) = ad(data.A_world[j], s) + ad(V, psi_dot);
  columns.col(kPsiDdotV) = 2.0 * psi_dot;
}

// joint j's columns as rows of the workspace: [Psi_dot | S | Psi_ddot | Psi_ddot_v] per coordinate
void storeColumnRows(const VirtualJoint& joint, Data& data, int j) {
  const Matrix6Xd& columns = data.columns[j];
  for (int k = 0; k < joint.nq; ++k) {
    auto row = data.rigid.rows.row(joint.idx_q + k);
    for (int b = 0; b < 4; ++b) row.segment<6>(6 * b) = columns.col(b * joint.nq + k).transpose();
    data.rigid.columns.row(joint.idx_q + k) = row;
  }
}

void rigidForwardPass(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& a, bool at_rest) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    worldBody(joint, data, j);
    if (joint.nq == 0) continue;
    if (joint.single_screw) {
      singleScrewColumns(joint, data, j);
    } else {
      ownColumns(joint, data, j, v, a, at_rest);
    }
    storeColumnRows(joint, data, j);
  }
}

// groupTerms for a single screw: Y_q = B2 Psi_dot + I Psi_ddot - K s + (f xbar*) s and Y_v = B2 s +
// I Psi_ddot_v (6 x 1 each, S constant: no C29), and its diagonal entries s^T Y
void singleScrewOwnTerms(const VirtualJoint& joint, Data& data, int j, bool with_velocity,
                         bool with_loads) {
  const int c = joint.idx_q;
  const Matrix6Xd& columns = data.columns[j];
  const Matrix6d &B = data.B_sub[j], &I = data.I_sub[j];
  const Vector6d s = columns.col(kS);
  Vector6d t3 = coad(s, data.f_world[j]);
  t3.noalias() += B * columns.col(kPsiDot);
  t3.noalias() += I * columns.col(kPsiDdot);
  if (with_loads) t3.noalias() -= data.K_sub[j] * s;
  Matrix6Xd& Y = data.subtree_terms[j];
  Y.col(0) = t3;
  data.dtau_dq(c, c) = s.dot(t3);
  if (!with_velocity) return;
  Vector6d t2 = B * s;
  t2.noalias() += I * columns.col(kPsiDdotV);
  Y.col(1) = t2;
  data.dtau_dv(c, c) = s.dot(t2);
}

// below this many coordinates a run is formed entry by entry from the contiguous rows: the
// products over whole runs pay their set-up per run (breadth-first trees: 0.8x of the grouped
// route)
constexpr int kShortDerivativeRun = 4;

// the entries of coordinate c against a short run of ancestor coordinates, one row each
void shortRunTerms(Data& data, int c, const CoordinateBlock& ancestors,
                   const Eigen::Matrix<double, 18, 1>& row_factors, const Vector6d& t3,
                   const Vector6d& t2, bool with_velocity) {
  for (int a = ancestors.idx; a < ancestors.idx + ancestors.n; ++a) {
    const Eigen::Map<const Eigen::Matrix<double, 24, 1>> row(data.rigid.rows.row(a).data());
    const auto S = row.segment<6>(6);
    data.dtau_dq(a, c) = S.dot(t3);
    data.dtau_dq(c, a) = row.head<18>().dot(row_factors);
    if (!with_velocity) continue;
    data.dtau_dv(a, c) = S.dot(t2);
    data.dtau_dv(c, a) = S.dot(row_factors.head<6>()) + row.tail<6>().dot(row_factors.tail<6>());
  }
}

// the entries of coordinate c against a run of six ancestor coordinates from a (a free base) as
// fixed-size products: the long-run products of ancestorTerms unrolled
void freeBaseTerms(Data& data, int c, int a, const Eigen::Matrix<double, 18, 1>& row_factors,
                   const Vector6d& t3, const Vector6d& t2, bool with_velocity) {
  const auto rows = data.rigid.columns.middleRows<6>(a);
  const auto S = rows.middleCols<6>(6);
  Vector6d row;
  data.dtau_dq.col(c).segment<6>(a).noalias() = S.lazyProduct(t3);
  row.noalias() = rows.leftCols<18>().lazyProduct(row_factors);
  data.dtau_dq.row(c).segment<6>(a) = row.transpose();
  if (!with_velocity) return;
  data.dtau_dv.col(c).segment<6>(a).noalias() = S.lazyProduct(t2);
  row.noalias() = S.lazyProduct(row_factors.head<6>());
  row.noalias() += rows.rightCols<6>().lazyProduct(row_factors.tail<6>());
  data.dtau_dv.row(c).segment<6>(a) = row.transpose();
}

// the entries of joint j's coordinates against its ancestors' (see above)
void ancestorTerms(const VirtualJoint& joint, Data& data, int j, bool with_velocity,
                   bool with_loads) {
  RigidTreeWorkspace& w = data.rigid;
  const Matrix6d &B = data.B_sub[j], &I = data.I_sub[j];
  const Matrix6Xd& Y = data.subtree_terms[j];
  for (int k = 0; k < joint.nq; ++k) {
    const int c = joint.idx_q + k;
    const Vector6d s = w.columns.row(c).segment<6>(6).transpose();
    Eigen::Matrix<double, 18, 1> row_factors;  // [T4; T5; T1] against [Psi_dot | S | Psi_ddot]
    row_factors.head<6>().noalias() = B.transpose() * s;
    if (with_loads) {
      row_factors.segment<6>(6).noalias() = -data.K_sub[j].transpose() * s;
    } else {
      row_factors.segment<6>(6).setZero();
    }
    row_factors.tail<6>().noalias() = I * s;
    const Vector6d t3 = Y.col(k), t2 = Y.col(joint.nq + k);
    for (int run = w.run_begin[j]; run < w.run_begin[j + 1]; ++run) {
      const CoordinateBlock& ancestors = w.ancestor_runs[run];
      if (ancestors.n < kShortDerivativeRun) {
        shortRunTerms(data, c, ancestors, row_factors, t3, t2, with_velocity);
        continue;
      }
      if (ancestors.n == RigidTreeWorkspace::kFreeBaseRun) {  // fixed-size products
        freeBaseTerms(data, c, ancestors.idx, row_factors, t3, t2, with_velocity);
        continue;
      }
      const auto rows = w.columns.middleRows(ancestors.idx, ancestors.n);
      const auto S = rows.middleCols<6>(6);
      auto row = w.row_scratch.head(ancestors.n);
      data.dtau_dq.col(c).segment(ancestors.idx, ancestors.n).noalias() = S.lazyProduct(t3);
      row.noalias() = rows.leftCols<18>().lazyProduct(row_factors);
      data.dtau_dq.row(c).segment(ancestors.idx, ancestors.n) = row.transpose();
      if (!with_velocity) continue;
      data.dtau_dv.col(c).segment(ancestors.idx, ancestors.n).noalias() = S.lazyProduct(t2);
      row.noalias() = S.lazyProduct(row_factors.head<6>());
      row.noalias() += rows.rightCols<6>().lazyProduct(row_factors.tail<6>());
      data.dtau_dv.row(c).segment(ancestors.idx, ancestors.n) = row.transpose();
    }
  }
}

void rigidBackwardPass(const Model& model, Data& data, bool with_velocity, bool with_loads) {
  data.dtau_dq.setZero();
  data.dtau_dv.setZero();
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0) {
      if (joint.single_screw) {
        singleScrewOwnTerms(joint, data, j, with_velocity, with_loads);
      } else {
        groupTerms(joint, data, j, with_velocity, data.B_sub[j], data.I_sub[j], data.K_sub[j]);
      }
      ancestorTerms(joint, data, j, with_velocity, with_loads);
    }
    const int parent = joint.parent;
    if (parent < 0) continue;
    data.I_sub[parent] += data.I_sub[j];
    data.B_sub[parent] += data.B_sub[j];
    if (with_loads) data.K_sub[parent] += data.K_sub[j];
  }
}

void groupedDerivativesAtKinematics(const Model& model, Data& data,
                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                    const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inverseDynamicsAtKinematics(model, data, v, a, t);  // eta, eta_dot, subtree wrenches, tau
  // at rest (exactly: statics, the first step of a simulation) every twist term vanishes
  const bool at_rest = v.isZero(0.0) && a.isZero(0.0);
  forwardPass(model, data, v, a, at_rest);
  const bool twist_dependent_loads = addLoadSensitivities(model, data, t);
  data.I_sub_own = data.I_sub;
  data.B_sub_own = data.B_sub;
  data.K_sub_own = data.K_sub;
  backwardPass(model, data, !at_rest || twist_dependent_loads);
}

}  // namespace

void inverseDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  forwardKinematics(model, data, q);
  inverseDynamicsDerivativesAtKinematics(model, data, v, a, t);
}

void inverseDynamicsDerivativesAtKinematics(const Model& model, Data& data,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  if (!data.rigid.supported) {
    groupedDerivativesAtKinematics(model, data, v, a, t);
    return;
  }
  inverseDynamicsAtKinematics(model, data, v, a, t);  // eta, eta_dot, subtree wrenches, tau
  // at rest (exactly: statics, the first step of a simulation) every twist term vanishes
  const bool at_rest = v.isZero(0.0) && a.isZero(0.0);
  rigidForwardPass(model, data, v, a, at_rest);
  const bool twist_dependent_loads = addLoadSensitivities(model, data, t);
  rigidBackwardPass(model, data, !at_rest || twist_dependent_loads,
                    !data.load_sensitivities.empty());
}

void groupedInverseDynamicsDerivatives(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  forwardKinematics(model, data, q);
  groupedDerivativesAtKinematics(model, data, v, a, t);
}

void frameDerivatives(const Model& model, const Data& data, int j, const SE3& g_offset,
                      FrameDerivatives& out) {
  for (Eigen::MatrixXd* m : {&out.J, &out.deta_dq, &out.deta_dot_dq, &out.deta_dot_dv})
    m->setZero();
  if (j < 0) return;
  // world columns summed over every group on the way up, then d eta = Ad^-1 Psi_dot,
  // d eta_dot/dq = Ad^-1 (Psi_ddot - V x Psi_dot), d eta_dot/dv = Ad^-1 (Psi_ddot_v - V x s)
  const Matrix6d ad_V = ad(data.V_world[j]);
  const Matrix6d to_frame = AdInv(data.g[j] * g_offset);
  for (const auto& [group, a] : model.topology.coordinate_path[j]) {
    const VirtualJoint& G = model.joints[group];
    const int m = G.nq;
    const Matrix6Xd& P = data.columns[a];
    out.J.middleCols(G.idx_q, m).noalias() = to_frame.lazyProduct(block(P, m, kS));
    out.deta_dq.middleCols(G.idx_q, m).noalias() = to_frame.lazyProduct(block(P, m, kPsiDot));
    auto dacc_q = out.deta_dot_dq.middleCols(G.idx_q, m);
    auto dacc_v = out.deta_dot_dv.middleCols(G.idx_q, m);
    dacc_q = block(P, m, kPsiDdot);
    dacc_q.noalias() -= ad_V.lazyProduct(block(P, m, kPsiDot));
    dacc_v = block(P, m, kPsiDdotV);
    dacc_v.noalias() -= ad_V.lazyProduct(block(P, m, kS));
    for (Eigen::Index c = 0; c < m; ++c) {
      dacc_q.col(c) = to_frame * Vector6d(dacc_q.col(c));
      dacc_v.col(c) = to_frame * Vector6d(dacc_v.col(c));
    }
  }
}

}  // namespace tendril
