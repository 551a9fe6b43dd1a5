#include "core/algorithm/model_agnostic_dynamics.hpp"

#include <stdexcept>
#include <string>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics.hpp"

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

// forward pass: every element's pose X in Q (the parent's D, or the world), twist (V) and
// acceleration (A) from Q's, its inertial wrench (W); D's pose in Q and, for bodies with children,
// its motion; gravity as the base acceleration
void forwardPass(const Model& model, ModelAgnosticWorkspace& w,
                 const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& v,
                 const Eigen::Ref<const Eigen::VectorXd>& a, const Vector6d& base_acceleration,
                 bool mass) {
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
    BodyEvaluation& body = w.evaluations[b];
    evaluateAgnosticBody(model, w.bodies[b], q_b, v_b, body);
    const bool placed = w.has_placement[b] != 0;
    for (AgnosticElement& e : body.elements) {
      e.X = placed ? w.g_fixed[b] * e.G : e.G;
      e.V = applyAdInv(e.X, V_Q) + e.Jv;
      e.A = applyAdInv(e.X, A_Q) + ad(e.V, e.Jv) + e.b;
      addJacobianTimes(e.J, a_b, e.A);
      e.W = e.diagonal
                ? Vector6d(e.d.cwiseProduct(e.A) + coad(e.V, Vector6d(e.d.cwiseProduct(e.V))))
                : Vector6d(e.M * e.A + coad(e.V, e.M * e.V));
    }
    if (body.tip_element >= 0) {
      const AgnosticElement& tip = body.elements[body.tip_element];
      w.X_D[b] = tip.X;
      if (!w.has_children[b]) continue;
      w.V_D[b] = tip.V;
      w.A_D[b] = tip.A;
      continue;
    }
    w.X_D[b] = placed ? w.g_fixed[b] * body.G_D : body.G_D;
    if (!w.has_children[b]) continue;
    w.V_D[b] = applyAdInv(w.X_D[b], V_Q) + body.Jv_D;
    w.A_D[b] = applyAdInv(w.X_D[b], A_Q) + ad(w.V_D[b], body.Jv_D) + body.b_D;
    addJacobianTimes(body.J_D, a_b, w.A_D[b]);
  }
}

// the mass-matrix terms of one inertia I posed at X in Q, moving with Jacobian J (6 x cols):
// U += Ad*_X I J, the lower triangle of M_bb += J^T I J, I_Q += Ad*_X I Ad_X^-1
void addMassTerms(const SpatialInertia& I, const Vector6d* diagonal, const SE3& X,
                  const Matrix6Xd& J, ModelAgnosticWorkspace& w, int b,
                  Eigen::Ref<Eigen::MatrixXd> M_bb, SpatialInertia& I_Q) {
  const Eigen::Index cols = J.cols();
  auto MJ = w.MJ.leftCols(cols);
  if (diagonal) {
    MJ = diagonal->asDiagonal() * J;
  } else {
    for (Eigen::Index c = 0; c < cols; ++c) MJ.col(c) = I * Vector6d(J.col(c));
  }
  // U += Ad*_X (M J) = [R top + p~ R bottom; R bottom], in 3 x cols blocks
  auto U = w.U[b].leftCols(cols);
  auto R_bottom = w.U_up.topRows<3>().leftCols(cols);
  R_bottom.noalias() = X.R.lazyProduct(MJ.bottomRows<3>());
  U.bottomRows<3>() += R_bottom;
  U.topRows<3>().noalias() += X.R.lazyProduct(MJ.topRows<3>());
  U.topRows<3>().noalias() += skew(X.p).lazyProduct(R_bottom);
  // lower triangle of J^T (M J), two columns at a time (each J column read once per pair)
  Eigen::Index c = 0;
  for (; c + 1 < cols; c += 2) {
    const Vector6d x0 = MJ.col(c), x1 = MJ.col(c + 1);
    M_bb(c, c) += J.col(c).dot(x0);
    for (Eigen::Index r = c + 1; r < cols; ++r) {
      const Vector6d j = J.col(r);
      M_bb(r, c) += j.dot(x0);
      M_bb(r, c + 1) += j.dot(x1);
    }
  }
  if (c < cols) M_bb(c, c) += J.col(c).dot(MJ.col(c));
  if (!diagonal) {
    I_Q += I.transformed(X);
    return;
  }
  // Ad*_X diag(d) Ad_X^-1: mass m, first moment m p, R diag(d_w) R^T + m (|p|^2 1 - p p^T)
  const double m = (*diagonal)(3);
  I_Q.m += m;
  I_Q.h += m * X.p;
  I_Q.I.noalias() += (X.R * diagonal->head<3>().asDiagonal()) * X.R.transpose();
  I_Q.I.noalias() -= (m * X.p) * X.p.transpose();
  I_Q.I.diagonal().array() += m * X.p.squaredNorm();
}

// rows b of M against every ancestor j: U_b (at Q = the parent's D) carried up from D to D,
// times each ancestor's J_D
void ancestorBlocks(ModelAgnosticWorkspace& w, int b) {
  const int n = w.nq[b], p = w.parent[b];
  if (n == 0 || p < 0) return;
  auto U_up = w.U_up.leftCols(n);
  U_up = w.U[b];
  for (int j = p; j >= 0; j = w.parent[j]) {
    if (w.nq[j] > 0) {
      const Matrix6Xd& J_D = w.evaluations[j].distalJacobian();
      auto block = w.M.block(w.idx_q[b], w.idx_q[j], n, w.nq[j]);
      block.noalias() = U_up.transpose().lazyProduct(J_D);
      w.M.block(w.idx_q[j], w.idx_q[b], w.nq[j], n) = block.transpose();
    }
    if (w.parent[j] < 0) break;
    for (int c = 0; c < n; ++c) U_up.col(c) = applyCoAd(w.X_D[j], Vector6d(U_up.col(c)));
  }
}

// backward pass: (B1)-(B3) at Q and, with `mass`, the composites, U and the blocks of M
void backwardPass(ModelAgnosticWorkspace& w, bool mass) {
  const int n_bodies = static_cast<int>(w.bodies.size());
  for (int b = n_bodies - 1; b >= 0; --b) {
    BodyEvaluation& body = w.evaluations[b];
    const int n = w.nq[b];
    auto tau_b = w.tau.segment(w.idx_q[b], n);
    auto M_bb = w.M.block(w.idx_q[b], w.idx_q[b], n, n);
    tau_b.setZero();
    if (mass) {
      w.U[b].setZero();
      M_bb.triangularView<Eigen::Lower>().setZero();
    }
    const bool loaded_tip = w.has_children[b] != 0;
    Vector6d F = Vector6d::Zero();
    SpatialInertia I_Q;
    for (int k = 0; k < static_cast<int>(body.elements.size()); ++k) {
      const AgnosticElement& e = body.elements[k];
      // D is this element's frame: the children's resultant is projected with it
      const bool at_tip = loaded_tip && k == body.tip_element;
      const Vector6d W = at_tip ? Vector6d(e.W + w.F_D[b]) : e.W;
      addJacobianTransposeTimes(e.J, W, tau_b);
      F += applyCoAd(e.X, W);
      if (!mass) continue;
      if (at_tip) {
        SpatialInertia I = e.M;
        I += w.I_D[b];
        addMassTerms(I, nullptr, e.X, e.J, w, b, M_bb, I_Q);
      } else {
        addMassTerms(e.M, e.diagonal ? &e.d : nullptr, e.X, e.J, w, b, M_bb, I_Q);
      }
    }
    if (loaded_tip && body.tip_element < 0) {
      addJacobianTransposeTimes(body.J_D, w.F_D[b], tau_b);
      F += applyCoAd(w.X_D[b], w.F_D[b]);
      if (mass) addMassTerms(w.I_D[b], nullptr, w.X_D[b], body.J_D, w, b, M_bb, I_Q);
    }
    // Q is the parent's D: hand the resultants over as they are
    w.F_Q[b] = F;
    const int p = w.parent[b];
    if (p >= 0) w.F_D[p] += F;
    if (!mass) continue;
    w.I_Q[b] = I_Q;
    if (p >= 0) w.I_D[p] += I_Q;
    M_bb.triangularView<Eigen::StrictlyUpper>() = M_bb.transpose();
    ancestorBlocks(w, b);
  }
}

void inertialPasses(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v,
                    const Eigen::Ref<const Eigen::VectorXd>& a, const Vector6d& base_acceleration,
                    bool mass) {
  ModelAgnosticWorkspace& w = data.agnostic;
  checkArguments(model, w, q.size(), v.size(), a.size());
  forwardPass(model, w, q, v, a, base_acceleration, mass);
  backwardPass(w, mass);
}

// ID = IID with gravity + K q + D v - B(q) u(t)
void addActiveForces(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& v, double t) {
  ModelAgnosticWorkspace& w = data.agnostic;
  addInternalForces(model, q, v, w.tau, -1.0);
  actuationForces(model, q, t, w.Bu);
  w.tau -= w.Bu;
}

}  // namespace

const Eigen::VectorXd& modelAgnosticIID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a) {
  inertialPasses(model, data, q, v, a, Vector6d::Zero(), false);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticID(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inertialPasses(model, data, q, v, a, -model.gravity, false);
  addActiveForces(model, data, q, v, t);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticMIID(const Model& model, Data& data,
                                         const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& v,
                                         const Eigen::Ref<const Eigen::VectorXd>& a) {
  inertialPasses(model, data, q, v, a, Vector6d::Zero(), true);
  return data.agnostic.tau;
}

const Eigen::VectorXd& modelAgnosticMID(const Model& model, Data& data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        const Eigen::Ref<const Eigen::VectorXd>& a, double t) {
  inertialPasses(model, data, q, v, a, -model.gravity, true);
  addActiveForces(model, data, q, v, t);
  return data.agnostic.tau;
}

}  // namespace tendril
