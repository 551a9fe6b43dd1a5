#include "core/algorithm/model_agnostic_dynamics.hpp"

#include <stdexcept>
#include <string>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/lvp_actuation.hpp"

namespace tendril {
namespace {

void checkArguments(const Model& model, const ModelAgnosticWorkspace& w, Eigen::Index nq,
                    Eigen::Index nv, Eigen::Index na) {
  if (nq != model.nq) throw std::invalid_argument("q has the wrong size");
  if (nv != model.nv) throw std::invalid_argument("v has the wrong size");
  if (na != model.nv) throw std::invalid_argument("a has the wrong size");
  if (w.unsupported_link >= 0) {
    throw std::invalid_argument("no model-agnostic body kind handles link '" +
                                model.links[w.unsupported_link].name + "'");
  }
}

// out += J x over J's columns (6 x cols, small: no GEMV set-up)
inline void addJacobianTimes(const Matrix6Xd& J, const Eigen::Ref<const Eigen::VectorXd>& x,
                             Vector6d& out) {
  for (Eigen::Index c = 0; c < J.cols(); ++c) out += J.col(c) * x(c);
}

// tau += J^T W over J's columns
inline void addJacobianTransposeTimes(const Matrix6Xd& J, const Vector6d& W,
                                      Eigen::Ref<Eigen::VectorXd> tau) {
  for (Eigen::Index c = 0; c < J.cols(); ++c) tau(c) += J.col(c).dot(W);
}

// the inertial wrench at C of a lumped part (model_agnostic_body.hpp, LumpedInertia): d/dt h +
// ad*_V h with the momentum h = I V + H w, C's twist V and acceleration A, the part's rates w and
// accelerations a
// (out of line, like lumpedForces: the element loop of forwardPass stays small enough for the
// compiler to inline its inertia products)
[[gnu::noinline]] Vector6d lumpedWrench(const AgnosticElement& C, const LumpedInertia& part,
                                        const Eigen::Ref<const Eigen::VectorXd>& w,
                                        const Eigen::Ref<const Eigen::VectorXd>& a) {
  Vector6d momentum = C.M * C.V, rate = C.M * C.A + part.I_dot * C.V;
  addJacobianTimes(part.H, w, momentum);
  addJacobianTimes(part.H, a, rate);
  addJacobianTimes(part.H_dot, w, rate);
  return rate + coad(C.V, momentum);
}

// the part's generalised inertial forces d/dt (H^T V + M w) - dT/dy, T = 1/2 V^T I V + V^T H w +
// 1/2 w^T M w
[[gnu::noinline]] void lumpedForces(const AgnosticElement& C, LumpedInertia& part,
                                    const Eigen::Ref<const Eigen::VectorXd>& a) {
  for (int j = 0; j < part.n; ++j) {
    part.tau(j) = part.H_dot.col(j).dot(C.V) + part.H.col(j).dot(C.A) + part.Mdot_w(j) +
                  part.M.row(j).dot(a) - 0.5 * C.V.dot(part.dI[j] * C.V) -
                  C.V.dot(part.dH_w.col(j)) - part.dK(j);
  }
}

// out = Ad_g in = [R top; R bottom + p x R top], one column at a time in fixed-size vectors
// (cheaper than Eigen's 3 x 3 by 3 x cols products of run-time width, see addMomentum)
void adColumns(const SE3& g, const Matrix6Xd& in, Matrix6Xd& out) {
  for (Eigen::Index c = 0; c < in.cols(); ++c) {
    const Eigen::Vector3d top = g.R * Eigen::Vector3d(in.col(c).head<3>());
    out.col(c).head<3>() = top;
    out.col(c).tail<3>() = g.R * Eigen::Vector3d(in.col(c).tail<3>()) + g.p.cross(top);
  }
}

// out = Ad*_g in (wrenches to the parent frame) = [R top + p x R bottom; R bottom], likewise
template <typename Out>
void coAdColumns(const SE3& g, const Matrix6Xd& in, Out&& out) {
  for (Eigen::Index c = 0; c < in.cols(); ++c) {
    const Eigen::Vector3d bottom = g.R * Eigen::Vector3d(in.col(c).template tail<3>());
    out.col(c).template head<3>() =
        g.R * Eigen::Vector3d(in.col(c).template head<3>()) + g.p.cross(bottom);
    out.col(c).template tail<3>() = bottom;
  }
}

// the element's frame is Q itself: its body's joint is fixed and unplaced
inline bool atQ(const ModelAgnosticWorkspace& w, int b, const AgnosticElement& e) {
  return e.at_P && w.has_placement[b] == 0;
}

// D's pose and Jacobian in the world (after X_D[b] and the body's evaluation)
void worldDistal(ModelAgnosticWorkspace& w, int b) {
  const int p = w.parent[b];
  SE3& world = w.world_D[b];
  if (p < 0) {
    world = w.X_D[b];
  } else {  // composed in place (no temporary pose)
    const SE3 &parent = w.world_D[p], &X = w.X_D[b];
    world.R.noalias() = parent.R.lazyProduct(X.R);
    world.p.noalias() = parent.R.lazyProduct(X.p);
    world.p += parent.p;
  }
  const Matrix6Xd& J_D = w.evaluations[b].distalJacobian();
  if (w.nq[b] == 1) {
    const Vector6d j = J_D.col(0);
    auto S = w.S_world[b].col(0);
    S.head<3>().noalias() = world.R.lazyProduct(j.head<3>());
    S.tail<3>().noalias() = world.R.lazyProduct(j.tail<3>());
    S.tail<3>() += world.p.cross(S.head<3>());
  } else if (w.nq[b] > 1) {
    adColumns(world, J_D, w.S_world[b]);
  }
}

// forward pass: every element's pose X in Q (the parent's D, or the world), twist (V) and
// acceleration (A) from Q's, its inertial wrench (W); D's pose in Q and, for bodies with children,
// its motion; gravity as the base acceleration
void forwardPass(const Model& model, ModelAgnosticWorkspace& w,
                 const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& v,
                 const Eigen::Ref<const Eigen::VectorXd>& a, const Vector6d& base_acceleration,
                 bool mass, BodyOutputs outputs) {
  const int n_bodies = static_cast<int>(w.bodies.size());
  for (int b = 0; b < n_bodies; ++b) {
    const int p = w.parent[b];
    const Vector6d V_Q = p < 0 ? Vector6d::Zero() : w.V_D[p];
    const Vector6d A_Q = p < 0 ? base_acceleration : w.A_D[p];
    w.F_D[b].setZero();
    if (mass) w.I_D[b] = SpatialInertia{};

    // the body's black box, then (V), (A) and (W) for each element, with Ad_{G^-1} Ad_{g_fixed^-1}
    // = Ad_{X^-1}, X = g_fixed G
    const auto q_b = q.segment(w.idx_q[b], w.nq[b]);
    const auto v_b = v.segment(w.idx_q[b], w.nq[b]);
    const auto a_b = a.segment(w.idx_q[b], w.nq[b]);
    evaluateWorkspaceBody(model, w, b, q_b, v_b, outputs);
    BodyEvaluation& body = w.evaluations[b];
    const bool placed = w.has_placement[b] != 0;
    for (int k = 0; k < static_cast<int>(body.elements.size()); ++k) {
      AgnosticElement& e = body.elements[k];
      if (atQ(w, b, e)) {  // X = identity, Jv = b = 0, no columns
        e.X = SE3::Identity();
        e.V = V_Q;
        e.A = A_Q;
      } else {
        e.X = placed ? w.g_fixed[b] * e.G : e.G;
        e.V = applyAdInv(e.X, V_Q) + e.Jv;
        e.A = applyAdInv(e.X, A_Q) + ad(e.V, e.Jv) + e.b;
        addJacobianTimes(e.J, a_b, e.A);
      }
      if (k == body.lumped.element) continue;  // its wrench is the lumped part's
      e.W = e.diagonal
                ? Vector6d(e.d.cwiseProduct(e.A) + coad(e.V, Vector6d(e.d.cwiseProduct(e.V))))
                : Vector6d(e.M * e.A + coad(e.V, e.M * e.V));
    }
    if (LumpedInertia& part = body.lumped; part.element >= 0) {
      AgnosticElement& C = body.elements[part.element];
      const auto a_part = a_b.segment(part.offset, part.n);
      C.W = lumpedWrench(C, part, v_b.segment(part.offset, part.n), a_part);
      lumpedForces(C, part, a_part);
    }
    if (body.tip_element >= 0) {
      const AgnosticElement& tip = body.elements[body.tip_element];
      w.X_D[b] = tip.X;
      if (mass) worldDistal(w, b);  // the tip element's inertia is summed in world
      if (!w.has_children[b]) continue;
      w.V_D[b] = tip.V;
      w.A_D[b] = tip.A;
      continue;
    }
    w.X_D[b] = placed ? w.g_fixed[b] * body.G_D : body.G_D;
    if (!w.has_children[b]) continue;
    if (mass) worldDistal(w, b);
    w.V_D[b] = applyAdInv(w.X_D[b], V_Q) + body.Jv_D;
    w.A_D[b] = applyAdInv(w.X_D[b], A_Q) + ad(w.V_D[b], body.Jv_D) + body.b_D;
    addJacobianTimes(body.J_D, a_b, w.A_D[b]);
  }
}

// I_Q += Ad*_X I Ad_X^-1
void addTransformedInertia(const SpatialInertia& I, const Vector6d* diagonal, const SE3& X,
                           SpatialInertia& I_Q) {
  if (!diagonal) {
    I_Q += I.transformed(X);
    return;
  }
  // diag(d): mass m, first moment m p, R diag(d_w) R^T + m (|p|^2 1 - p p^T)
  const double m = (*diagonal)(3);
  I_Q.m += m;
  I_Q.h += m * X.p;
  I_Q.I.noalias() += (X.R * diagonal->head<3>().asDiagonal()) * X.R.transpose();
  I_Q.I.noalias() -= (m * X.p) * X.p.transpose();
  I_Q.I.diagonal().array() += m * X.p.squaredNorm();
}

// U += Ad*_X (M J) = [R top + p x R bottom; R bottom], one column at a time in fixed-size
// vectors (MJ = M J): Eigen's products of a 3 x 3 by a 3 x cols block of run-time width cost about
// three times as many instructions per column here
void addMomentum(const SE3& X, const Eigen::Ref<const Matrix6Xd>& MJ, ModelAgnosticWorkspace& w,
                 int b) {
  for (Eigen::Index c = 0; c < MJ.cols(); ++c) {
    const Eigen::Vector3d top = MJ.col(c).head<3>(), bottom = MJ.col(c).tail<3>();
    const Eigen::Vector3d R_bottom = X.R * bottom;
    auto U = w.U[b].col(c);
    U.head<3>() += X.R * top + X.p.cross(R_bottom);
    U.tail<3>() += R_bottom;
  }
}

using Lane = Eigen::Array4d;
// below this many columns the copy of J's rows costs more than the lanes save (instruction counts
// of the bundled examples: rods of a few modes, spatial constant-curvature segments)
constexpr Eigen::Index kLaneBlockColumns = 8;

// the lower triangle of M_bb += J^T (M J), MJ = M J. J's rows are copied into contiguous columns
// (J_rows = J^T), so that two columns c, c + 1 of the block are six scaled columns of J_rows each,
// added down them four rows at a time in vector lanes (each J_rows entry loaded once for both),
// instead of dot products of length 6 that each end in a horizontal sum. The lanes run up from
// the last row and may cover rows above the diagonal: the caller overwrites the upper triangle
// with the lower one, so only fewer than four rows at the top of the block are done one by one.
// Narrow blocks take the dot products.
void addOwnBlock(const Matrix6Xd& J, const Eigen::Ref<const Matrix6Xd>& MJ,
                 ModelAgnosticWorkspace::JacobianRows& J_rows, Eigen::Ref<Eigen::MatrixXd> M_bb) {
  const Eigen::Index cols = J.cols();
  if (cols < kLaneBlockColumns) {  // dot products of J's columns, two block columns at a time
    Eigen::Index c = 0;
    for (; c + 1 < cols; c += 2) {
      const Vector6d x = MJ.col(c), y = MJ.col(c + 1);
      M_bb(c, c) += J.col(c).dot(x);
      for (Eigen::Index r = c + 1; r < cols; ++r) {
        const Vector6d j = J.col(r);
        M_bb(r, c) += j.dot(x);
        M_bb(r, c + 1) += j.dot(y);
      }
    }
    if (c < cols) M_bb(c, c) += J.col(c).dot(MJ.col(c));
    return;
  }
  J_rows.topRows(cols) = J.transpose();
  const Eigen::Index ld = J_rows.rows(), stride = M_bb.outerStride();
  const double* rows = J_rows.data();
  for (Eigen::Index c = 0; c < cols; c += 2) {
    const bool pair = c + 1 < cols;
    double x[6], y[6];
    for (int k = 0; k < 6; ++k) {
      x[k] = MJ(k, c);
      y[k] = pair ? MJ(k, c + 1) : 0.0;
    }
    double* left = M_bb.data() + c * stride;
    double* right = left + stride;
    Eigen::Index r = cols - 4;
    for (; r >= 0 && r + 4 > c; r -= 4) {  // rows r to r + 3 in one AVX2 register
      Lane sum_x = Lane::Zero(), sum_y = Lane::Zero();
      for (int k = 0; k < 6; ++k) {
        const Lane j = Eigen::Map<const Lane>(rows + k * ld + r);
        sum_x += j * x[k];
        sum_y += j * y[k];
      }
      Eigen::Map<Lane>(left + r) += sum_x;
      if (pair) Eigen::Map<Lane>(right + r) += sum_y;
    }
    for (Eigen::Index row = c; row < r + 4; ++row) {  // the rows no lane reached
      double sum_x = 0.0, sum_y = 0.0;
      for (int k = 0; k < 6; ++k) {
        const double j = rows[k * ld + row];
        sum_x += j * x[k];
        sum_y += j * y[k];
      }
      left[row] += sum_x;
      if (pair) right[row] += sum_y;
    }
  }
}

// what a body's mass terms feed besides its own block: the blocks against its ancestors (U,
// when an ancestor has coordinates) and its parent's composite inertia (I_Q, when it has a parent)
struct MassTermsUse {
  bool momentum = false, composite = false;
};

// the mass-matrix terms of one inertia I posed at X in Q, moving with Jacobian J (6 x cols):
// the lower triangle of M_bb += J^T I J and, as `use` asks, U += Ad*_X I J, I_Q += Ad*_X I Ad_X^-1
void addMassTerms(const SpatialInertia& I, const Vector6d* diagonal, const SE3& X,
                  const Matrix6Xd& J, MassTermsUse use, ModelAgnosticWorkspace& w, int b,
                  Eigen::Ref<Eigen::MatrixXd> M_bb, SpatialInertia& I_Q) {
  const Eigen::Index cols = J.cols();
  if (use.composite) addTransformedInertia(I, diagonal, X, I_Q);
  if (cols == 1) {  // a single screw: fixed-size products
    const Vector6d j = J.col(0);
    const Vector6d Mj = diagonal ? Vector6d(diagonal->cwiseProduct(j)) : Vector6d(I * j);
    if (use.momentum) w.U[b].col(0) += applyCoAd(X, Mj);
    M_bb(0, 0) += j.dot(Mj);
    return;
  }
  auto MJ = w.MJ.leftCols(cols);
  if (diagonal) {
    MJ = diagonal->asDiagonal() * J;
  } else {
    for (Eigen::Index c = 0; c < cols; ++c) MJ.col(c) = I * Vector6d(J.col(c));
  }
  if (use.momentum) addMomentum(X, MJ, w, b);
  addOwnBlock(J, MJ, w.J_rows, M_bb);
}

// the mass-matrix terms of a lumped part at C (X in Q, Jacobian J over the body's leading
// columns): U += Ad*_X H on its columns, M_yc += H^T J, M_yy += M (lower triangles); its I is
// C's M and went through addMassTerms
void addLumpedMassTerms(const AgnosticElement& C, const LumpedInertia& part, MassTermsUse use,
                        ModelAgnosticWorkspace& w, int b, Eigen::Ref<Eigen::MatrixXd> M_bb) {
  for (int j = 0; j < part.n; ++j) {
    const Vector6d H_j = part.H.col(j);
    if (use.momentum) w.U[b].col(part.offset + j) += applyCoAd(C.X, H_j);
    for (Eigen::Index c = 0; c < C.J.cols(); ++c) M_bb(part.offset + j, c) += H_j.dot(C.J.col(c));
    for (int k = 0; k <= j; ++k) M_bb(part.offset + j, part.offset + k) += part.M(j, k);
  }
}

// U_world = Ad*_{world_D[p]} U_b, the momentum of the elements summed in Q in world coordinates
// (zero when there are none)
void localMomentumInWorld(ModelAgnosticWorkspace& w, int b, bool any) {
  const int n = w.nq[b], p = w.parent[b];
  auto U_world = w.U_world.leftCols(n);
  if (!any) {
    U_world.setZero();
  } else if (p < 0) {
    U_world = w.U[b];
  } else if (n == 1) {
    U_world.col(0) = applyCoAd(w.world_D[p], Vector6d(w.U[b].col(0)));
  } else {
    coAdColumns(w.world_D[p], w.U[b], U_world);
  }
}

// the mass-matrix terms of the inertia I that moves with D (the tip element's and the
// children's composites), in world coordinates with D's world columns S: U_world += I S and the
// lower triangle of M_bb += S^T I S
void addDistalMassTerms(const SpatialInertia& I, const Matrix6Xd& S, ModelAgnosticWorkspace& w,
                        Eigen::Ref<Eigen::MatrixXd> M_bb) {
  const Eigen::Index n = S.cols();
  if (n == 0) return;
  if (n == 1) {
    const Vector6d s = S.col(0);
    const Vector6d F = I * s;
    w.U_world.col(0) += F;
    M_bb(0, 0) += s.dot(F);
    return;
  }
  auto F = w.MJ.leftCols(n);
  for (Eigen::Index c = 0; c < n; ++c) F.col(c) = I * Vector6d(S.col(c));
  w.U_world.leftCols(n) += F;
  addOwnBlock(S, F, w.J_rows, M_bb);
}

// rows b of M against every ancestor j: U_world (the momentum at Q per unit a_b) paired with
// J_D of j, both in world coordinates, where the pairing needs no transport up the chain
void ancestorBlocks(ModelAgnosticWorkspace& w, int b) {
  const int n = w.nq[b], p = w.parent[b];
  if (n == 0 || p < 0) return;
  const auto U_world = w.U_world.leftCols(n);
  if (n == 1) {  // one row: its momentum stays in registers, the ancestors' columns read in place
    const Vector6d U = U_world.col(0);
    const Eigen::Index i = w.idx_q[b];
    for (int j = p; j >= 0; j = w.parent[j]) {
      const double* S_j = w.S_world[j].data();
      for (int c = 0; c < w.nq[j]; ++c) {
        const Eigen::Index k = w.idx_q[j] + c;
        const double entry = U.dot(Eigen::Map<const Vector6d>(S_j + 6 * c));
        w.M(i, k) = entry;
        w.M(k, i) = entry;
      }
    }
    return;
  }
  for (int j = p; j >= 0; j = w.parent[j]) {
    const Matrix6Xd& S = w.S_world[j];
    for (int c = 0; c < w.nq[j]; ++c) {
      const Vector6d S_c = S.col(c);
      for (int r = 0; r < n; ++r) {
        const double entry = U_world.col(r).dot(S_c);
        w.M(w.idx_q[b] + r, w.idx_q[j] + c) = entry;
        w.M(w.idx_q[j] + c, w.idx_q[b] + r) = entry;
      }
    }
  }
}

// the mass terms of a body whose one element, of inertia M, is D and moves on one column: the
// world-frame composite-rigid-body step. I = M and the children's composites in world coordinates,
// F = I S its momentum per unit a_b (S = J_D in world), M_bb = S . F, and the rows against the
// ancestors F . S_j, written into both triangles directly
void singleColumnTipMassTerms(ModelAgnosticWorkspace& w, int b, const SpatialInertia& M) {
  const int p = w.parent[b];
  SpatialInertia& I = w.I_Q[b];
  I = M.transformed(w.world_D[b]);
  I += w.I_D[b];
  if (p >= 0) w.I_D[p] += I;
  const Vector6d S = w.S_world[b].col(0);
  const Vector6d F = I * S;
  const Eigen::Index i = w.idx_q[b], nv = w.M.rows();
  w.M(i, i) = S.dot(F);
  double* column = w.M.data() + i * nv;  // column i: M(k, i) for every k
  for (int j = p; j >= 0; j = w.parent[j]) {
    const double* S_j = w.S_world[j].data();
    for (int c = 0; c < w.nq[j]; ++c) {
      const Eigen::Index k = w.idx_q[j] + c;
      column[k] = F.dot(Eigen::Map<const Vector6d>(S_j + 6 * c));
      w.M(i, k) = column[k];
    }
  }
}

// backward pass: (B1)-(B3) at Q and, with `mass`, the composites, U and the blocks of M
// (a template on `mass`: the ID's instance carries none of the mass terms' locals)
template <bool mass>
void backwardPass(ModelAgnosticWorkspace& w) {
  const int n_bodies = static_cast<int>(w.bodies.size());
  for (int b = n_bodies - 1; b >= 0; --b) {
    BodyEvaluation& body = w.evaluations[b];
    const int n = w.nq[b];
    auto tau_b = w.tau.segment(w.idx_q[b], n);
    auto M_bb = w.M.block(w.idx_q[b], w.idx_q[b], n, n);
    tau_b.setZero();
    // one element at D on one column (a rigid link on a single screw): singleColumnTipMassTerms()
    const bool single = mass && n == 1 && body.elements.size() == 1 && body.tip_element == 0 &&
                        body.lumped.element < 0;
    if (mass && !single) {  // (loops: n is small, often 1)
      for (int c = 0; c < n; ++c) {
        w.U[b].col(c).setZero();
        for (int r = c; r < n; ++r) M_bb(r, c) = 0.0;
      }
    }
    const bool loaded_tip = w.has_children[b] != 0;
    Vector6d F = Vector6d::Zero();
    // the mass terms: elements summed in Q (I_local, U_b), what moves with D in world (I_distal)
    const int p = w.parent[b];
    MassTermsUse use;
    if (mass && !single) {
      use.composite = p >= 0;
      for (int j = p; j >= 0 && !use.momentum; j = w.parent[j]) use.momentum = w.nq[j] > 0;
    }
    SpatialInertia I_local, I_distal;
    bool local_columns = false, local_inertia = false;
    if (mass && !single) I_distal = w.I_D[b];
    for (int k = 0; k < static_cast<int>(body.elements.size()); ++k) {
      const AgnosticElement& e = body.elements[k];
      // D is this element's frame: the children's resultant is projected with it
      const bool at_tip = k == body.tip_element;
      const Vector6d W = at_tip && loaded_tip ? Vector6d(e.W + w.F_D[b]) : e.W;
      if (atQ(w, b, e)) {  // no columns, no transport
        F += W;
        if (use.composite) {
          I_local += e.M;
          local_inertia = true;
        }
        continue;
      }
      addJacobianTransposeTimes(e.J, W, tau_b);
      F += applyCoAd(e.X, W);
      if (!mass || single) continue;
      if (at_tip) {
        I_distal += e.M.transformed(w.world_D[b]);
      } else {
        addMassTerms(e.M, e.diagonal ? &e.d : nullptr, e.X, e.J, use, w, b, M_bb, I_local);
        local_columns = local_inertia = true;
      }
    }
    if (const LumpedInertia& part = body.lumped; part.element >= 0) {
      tau_b.segment(part.offset, part.n) += part.tau;
      if (mass) {
        addLumpedMassTerms(body.elements[part.element], part, use, w, b, M_bb);
        local_columns = true;
      }
    }
    if (loaded_tip && body.tip_element < 0) {
      addJacobianTransposeTimes(body.J_D, w.F_D[b], tau_b);
      F += applyCoAd(w.X_D[b], w.F_D[b]);
    }
    // Q is the parent's D: hand the resultants over as they are
    w.F_Q[b] = F;
    if (p >= 0) w.F_D[p] += F;
    if (!mass) continue;
    if (single) {
      singleColumnTipMassTerms(w, b, body.elements[0].M);
      continue;
    }
    localMomentumInWorld(w, b, local_columns && use.momentum);
    if (body.tip_element >= 0 || loaded_tip) addDistalMassTerms(I_distal, w.S_world[b], w, M_bb);
    if (use.composite) {
      w.I_Q[b] = I_distal;
      if (local_inertia) w.I_Q[b] += I_local.transformed(w.world_D[p]);
      w.I_D[p] += w.I_Q[b];
    }
    for (int c = 1; c < n; ++c) {
      for (int r = 0; r < c; ++r) M_bb(r, c) = M_bb(c, r);
    }
    ancestorBlocks(w, b);
  }
}

void inertialPasses(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v,
                    const Eigen::Ref<const Eigen::VectorXd>& a, const Vector6d& base_acceleration,
                    bool mass, BodyOutputs outputs) {
  ModelAgnosticWorkspace& w = data.agnostic;
  checkArguments(model, w, q.size(), v.size(), a.size());
  forwardPass(model, w, q, v, a, base_acceleration, mass, outputs);
  if (mass) {
    backwardPass<true>(w);
  } else {
    backwardPass<false>(w);
  }
}

// ID = IID with gravity + K q + D v - B(q) u(t)
void addActiveForces(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& v, double t) {
  ModelAgnosticWorkspace& w = data.agnostic;
  addInternalForces(model, q, v, w.tau, -1.0);
  // the bodies' own nonlinear material forces (LVP), evaluated with their kinematics
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const Eigen::VectorXd& internal = w.evaluations[b].internal_forces;
    if (internal.size() > 0) w.tau.segment(w.idx_q[b], w.nq[b]) += internal;
  }
  actuationForces(model, q, t, w.Bu);
  if (!model.lvp_tendons.empty() || !model.cavity_pressures.empty())
    addLvpActuationForces(model, data, q, t, w.Bu);
  w.tau -= w.Bu;
}

}  // namespace

const Eigen::VectorXd& modelAgnosticIID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a) {
  inertialPasses(model, data, q, v, a, Vector6d::Zero(), false, BodyOutputs::Motion);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticID(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inertialPasses(model, data, q, v, a, -model.gravity, false, BodyOutputs::Everything);
  addActiveForces(model, data, q, v, t);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticMIID(const Model& model, Data& data,
                                         const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& v,
                                         const Eigen::Ref<const Eigen::VectorXd>& a) {
  inertialPasses(model, data, q, v, a, Vector6d::Zero(), true, BodyOutputs::Motion);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticMID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inertialPasses(model, data, q, v, a, -model.gravity, true, BodyOutputs::Everything);
  addActiveForces(model, data, q, v, t);
  return data.agnostic.tau;
}

}  // namespace tendril
