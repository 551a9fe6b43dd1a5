#include "core/algorithm/articulated_body.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {

bool supportsArticulatedBody(const Model& model) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0 && (joint.group_first != j || joint.group_next >= 0)) return false;
  }
  return true;
}

bool articulatedBodyIsFaster(const Model& model) {
  if (model.nv == 0 || !supportsArticulatedBody(model)) return false;
  double depth_sum = 0.0;  // sum over coordinates of the coordinates on their way to the root
  for (int j = 0; j < model.n_vjoints(); ++j) {
    if (model.joints[j].nq == 0) continue;
    int on_path = 0;
    for (const auto& [group, last] : model.topology.coordinate_path[j])
      on_path += model.joints[group].nq;
    depth_sum += static_cast<double>(model.joints[j].nq) * on_path;
  }
  return depth_sum >= kArticulatedBodyDepth * model.nv;
}

ArticulatedBodyWorkspace::ArticulatedBodyWorkspace(const Model& model)
    : supported(supportsArticulatedBody(model)) {
  if (!supported) return;  // nothing to size: the passes refuse such a model
  const auto n = static_cast<std::size_t>(model.n_vjoints());
  I_A.assign(n, Matrix6d::Zero());
  p_A.assign(n, Vector6d::Zero());
  c.assign(n, Vector6d::Zero());
  a.assign(n, Vector6d::Zero());
  n_free.assign(n, 0);
  int max_nq = 0;
  for (const VirtualJoint& joint : model.joints) {
    // a single screw's subspace is its constant screw in the child frame too: set once here
    S.emplace_back(joint.single_screw ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    S_free.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    U.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    D_inverse.emplace_back(Eigen::MatrixXd::Zero(joint.nq, joint.nq));
    u.emplace_back(Eigen::VectorXd::Zero(joint.nq));
    max_nq = std::max(max_nq, joint.nq);
  }
  free_columns.assign(static_cast<std::size_t>(model.nv), 0);
  tau = Eigen::VectorXd::Zero(model.nv);
  efforts = Eigen::VectorXd::Zero(model.nv);
  D_scratch = Eigen::MatrixXd::Zero(max_nq, max_nq);
  free_scratch = Eigen::VectorXd::Zero(max_nq);
  D_inverse_U_t = Eigen::MatrixXd::Zero(max_nq, 6);
}

namespace {

// Ad*_g I Ad*_g^T, I symmetric in child coordinates, seen from the parent (g: child in parent), in
// 3 x 3 blocks: with A, B, C the blocks rotated by R, [[A + p~B^T - B p~ - p~C p~, B + p~C],
// [sym, C]]
Matrix6d congruence(const SE3& g, const Matrix6d& I) {
  const Eigen::Matrix3d& R = g.R;
  const Eigen::Matrix3d A = R * I.topLeftCorner<3, 3>() * R.transpose();
  const Eigen::Matrix3d B = R * I.topRightCorner<3, 3>() * R.transpose();
  const Eigen::Matrix3d C = R * I.bottomRightCorner<3, 3>() * R.transpose();
  const Eigen::Matrix3d p = skew(g.p);
  const Eigen::Matrix3d pC = p * C;
  const Eigen::Matrix3d B_shifted = B + pC;
  const Eigen::Matrix3d pBt = p * B.transpose();
  Matrix6d out;
  out.topLeftCorner<3, 3>() = A + pBt + pBt.transpose() - pC * p;
  out.topRightCorner<3, 3>() = B_shifted;
  out.bottomLeftCorner<3, 3>() = B_shifted.transpose();
  out.bottomRightCorner<3, 3>() = C;
  return out;
}

// pass 1: kinematics, the velocity products c and the bias wrenches p (into I_A, p_A)
void outwardVelocityPass(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, double t) {
  ArticulatedBodyWorkspace& w = data.articulated;
  forwardKinematics(model, data, q, v);
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const auto v_j = v.segment(joint.idx_q, joint.nq);
    if (joint.single_screw) {
      w.c[j] = ad(data.eta[j], v_j(0) * joint.screw);
    } else if (joint.nq > 0) {
      w.S[j].noalias() = AdInv(data.g_local[j]) * data.S[j];
      const Vector6d eta_base = baseTwist(joint, data.eta);
      const Vector6d S_v = data.S[j] * v_j;
      w.c[j] = applyAdInv(data.g_local[j], data.S_dot_v[j] + ad(eta_base, S_v));
    } else {
      w.c[j].setZero();
    }
    Matrix6d& I_A = w.I_A[j];
    if (joint.has_inertia) {
      I_A = joint.M;
    } else {
      I_A.setZero();
    }
    if (joint.has_added_mass) I_A += joint.added_mass;
    data.F[j] = coad(data.eta[j], I_A * data.eta[j]);
  }
  subtractExternalWrenches(model, data, t);
  for (int j = 0; j < model.n_vjoints(); ++j) w.p_A[j] = data.F[j];
}

// pass 2 for one joint: U, D^-1, u on its free coordinates (prescribed ones join c), and what
// the joint hands to its parent. False when D is not positive definite
bool inwardJoint(const Model& model, Data& data, int j, const std::vector<char>* prescribed,
                 const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed) {
  ArticulatedBodyWorkspace& w = data.articulated;
  const VirtualJoint& joint = model.joints[j];
  int* const free_columns = w.free_columns.data() + joint.idx_q;
  int n_free = 0;
  for (int k = 0; k < joint.nq; ++k) {
    const int i = joint.idx_q + k;
    if (prescribed != nullptr && (*prescribed)[static_cast<std::size_t>(i)] != 0) {
      w.c[j].noalias() += w.S[j].col(k) * qdd_prescribed(i);
    } else {
      free_columns[n_free++] = k;
    }
  }
  w.n_free[j] = n_free;
  Matrix6d I_a = w.I_A[j];
  Vector6d p_a = w.p_A[j];
  if (n_free == 1 && joint.nq == 1) {  // the common rigid joint: scalar D
    const auto s = w.S[j].col(0);
    const Vector6d U = w.I_A[j] * s;
    const double D = s.dot(U);
    if (!(D > 0.0)) return false;
    w.U[j].col(0) = U;
    w.D_inverse[j](0, 0) = 1.0 / D;
    const double u = w.u[j](0) = w.tau(joint.idx_q) - s.dot(w.p_A[j]);
    I_a.noalias() -= (U / D) * U.transpose();
    p_a.noalias() += I_a * w.c[j];
    p_a += U * (u / D);
  } else if (n_free > 0) {
    if (n_free < joint.nq) {
      for (int f = 0; f < n_free; ++f) w.S_free[j].col(f) = w.S[j].col(free_columns[f]);
    }
    const Matrix6Xd& S_all = n_free < joint.nq ? w.S_free[j] : w.S[j];
    const auto S_f = S_all.leftCols(n_free);
    auto U = w.U[j].leftCols(n_free);
    U.noalias() = w.I_A[j] * S_f;
    Eigen::Ref<Eigen::MatrixXd> D = w.D_scratch.topLeftCorner(n_free, n_free);
    D.noalias() = S_f.transpose() * U;
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> factor(D);
    if (factor.info() != Eigen::Success) return false;
    auto D_inverse = w.D_inverse[j].topLeftCorner(n_free, n_free);
    D_inverse.setIdentity();
    factor.solveInPlace(D_inverse);
    auto u = w.u[j].head(n_free);
    for (int f = 0; f < n_free; ++f) u(f) = w.tau(joint.idx_q + free_columns[f]);
    u.noalias() -= S_f.transpose() * w.p_A[j];
    auto D_inverse_U_t = w.D_inverse_U_t.topRows(n_free);  // products through scratch: no
    D_inverse_U_t.noalias() = D_inverse * U.transpose();   // dynamic-size temporaries
    I_a.noalias() -= U * D_inverse_U_t;
    p_a.noalias() += I_a * w.c[j];
    auto D_inverse_u = w.free_scratch.head(n_free);
    D_inverse_u.noalias() = D_inverse * u;
    p_a.noalias() += U * D_inverse_u;
  } else {
    p_a.noalias() += I_a * w.c[j];
  }
  if (joint.parent >= 0) {
    w.I_A[joint.parent] += congruence(data.g_pc[j], I_a);
    w.p_A[joint.parent] += applyCoAd(data.g_pc[j], p_a);
  }
  return true;
}

// pass 3 for one joint: its acceleration, the free qdd = D^-1 (u - U^T a), and the efforts that
// hold its prescribed coordinates
void outwardJoint(const Model& model, Data& data, int j, const Vector6d& base_acceleration,
                  const std::vector<char>* prescribed) {
  ArticulatedBodyWorkspace& w = data.articulated;
  const VirtualJoint& joint = model.joints[j];
  Vector6d& a = w.a[j];
  a = applyAdInv(data.g_pc[j], joint.parent < 0 ? base_acceleration : w.a[joint.parent]);
  a += w.c[j];
  const int n_free = w.n_free[j];
  const int* const free_columns = w.free_columns.data() + joint.idx_q;
  if (n_free == 1 && joint.nq == 1) {
    const double qdd = w.D_inverse[j](0, 0) * (w.u[j](0) - w.U[j].col(0).dot(a));
    data.qdd(joint.idx_q) = qdd;
    a.noalias() += w.S[j].col(0) * qdd;
  } else if (n_free > 0) {
    auto qdd_f = w.free_scratch.head(n_free);
    qdd_f = w.u[j].head(n_free);
    qdd_f.noalias() -= w.U[j].leftCols(n_free).transpose() * a;
    const Matrix6Xd& S_all = n_free < joint.nq ? w.S_free[j] : w.S[j];
    for (int f = 0; f < n_free; ++f) {
      const double qdd = w.D_inverse[j].row(f).head(n_free).dot(qdd_f);
      data.qdd(joint.idx_q + free_columns[f]) = qdd;
      a.noalias() += S_all.col(f) * qdd;
    }
  }
  if (prescribed == nullptr || n_free == joint.nq) return;
  const Vector6d transmitted = w.I_A[j] * a + w.p_A[j];
  for (int k = 0; k < joint.nq; ++k) {
    const int i = joint.idx_q + k;
    if ((*prescribed)[static_cast<std::size_t>(i)] != 0)
      w.efforts(i) = w.S[j].col(k).dot(transmitted) - w.tau(i);
  }
}

// the three passes; prescribed == nullptr: every coordinate free
const Eigen::VectorXd& articulatedBodyPasses(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, const std::vector<char>* prescribed,
    const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed, double t) {
  ArticulatedBodyWorkspace& w = data.articulated;
  if (!w.supported)
    throw std::invalid_argument(
        "the articulated-body recursion needs every joint to own its coordinates (a rod division "
        "of several intervals shares them)");
  if (q.size() != model.nq || v.size() != model.nv || tau_actuation.size() != model.nv)
    throw std::invalid_argument("q, v or tau has the wrong size");
  w.tau = tau_actuation;
  addInternalForces(model, q, v, w.tau);
  w.efforts.setZero();
  outwardVelocityPass(model, data, q, v, t);
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    if (!inwardJoint(model, data, j, prescribed, qdd_prescribed)) {
      data.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
      return data.qdd;
    }
  }
  if (prescribed != nullptr) {
    for (int i = 0; i < model.nv; ++i) {
      if ((*prescribed)[static_cast<std::size_t>(i)] != 0) data.qdd(i) = qdd_prescribed(i);
    }
  }
  const Vector6d base_acceleration = -model.gravity;
  for (int j = 0; j < model.n_vjoints(); ++j)
    outwardJoint(model, data, j, base_acceleration, prescribed);
  return data.qdd;
}

}  // namespace

const Eigen::VectorXd& articulatedBodyForwardDynamics(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  return articulatedBodyPasses(model, data, q, v, tau_actuation, nullptr, tau_actuation, t);
}

const Eigen::VectorXd& hybridDynamics(const Model& model, Data& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v,
                                      const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                      const std::vector<char>& prescribed,
                                      const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed,
                                      double t) {
  if (static_cast<int>(prescribed.size()) != model.nv || qdd_prescribed.size() != model.nv)
    throw std::invalid_argument("prescribed or qdd_prescribed has the wrong size");
  return articulatedBodyPasses(model, data, q, v, tau_actuation, &prescribed, qdd_prescribed, t);
}

// The inertia sweep (I_A, U, D^-1 on the free coordinates) depends on q alone; with no velocity
// and no gravity the bias terms are those of the force column x only: p_A = sum over children of
// Ad* (p_A + U D^-1 u), u = x - S^T p_A, and the outward sweep a = Ad^-1 a_parent, qdd = D^-1 (u -
// U^T a). Each column thus costs two O(n) sweeps of 6-vector operations, no 6 x 6 product. The
// passes' bias wrenches p_A, accelerations a and forces tau serve as the per-column scratch: the
// outputs of the passes (qdd, efforts) are elsewhere, and the inertia sweep is not touched.
void articulatedBodySolveInPlace(const Model& model, Data& data, Eigen::Ref<Eigen::MatrixXd> X) {
  ArticulatedBodyWorkspace& w = data.articulated;
  if (X.rows() != model.nv) throw std::invalid_argument("the right-hand sides need nv rows");
  const int n_joints = model.n_vjoints();
  for (Eigen::Index column = 0; column < X.cols(); ++column) {
    auto x = X.col(column);
    for (int j = 0; j < n_joints; ++j) w.p_A[j].setZero();
    for (int j = n_joints - 1; j >= 0; --j) {
      const VirtualJoint& joint = model.joints[j];
      const int n_free = w.n_free[j];
      const Vector6d& p = w.p_A[j];  // the children's: kept for the efforts
      Vector6d p_a = p;
      if (n_free == 1 && joint.nq == 1) {
        const double u = w.tau(joint.idx_q) = x(joint.idx_q) - w.S[j].col(0).dot(p);
        p_a.noalias() += w.U[j].col(0) * (w.D_inverse[j](0, 0) * u);
      } else if (n_free > 0) {
        const int* const free_columns = w.free_columns.data() + joint.idx_q;
        const Matrix6Xd& S_all = n_free < joint.nq ? w.S_free[j] : w.S[j];
        auto u = w.tau.segment(joint.idx_q, n_free);
        for (int f = 0; f < n_free; ++f)
          u(f) = x(joint.idx_q + free_columns[f]) - S_all.col(f).dot(p);
        auto D_inverse_u = w.free_scratch.head(n_free);
        D_inverse_u.noalias() = w.D_inverse[j].topLeftCorner(n_free, n_free) * u;
        p_a.noalias() += w.U[j].leftCols(n_free) * D_inverse_u;
      }
      if (joint.parent >= 0) w.p_A[joint.parent] += applyCoAd(data.g_pc[j], p_a);
    }
    for (int j = 0; j < n_joints; ++j) {
      const VirtualJoint& joint = model.joints[j];
      Vector6d& a = w.a[j];
      if (joint.parent < 0) {
        a.setZero();
      } else {
        a = applyAdInv(data.g_pc[j], w.a[joint.parent]);
      }
      const int n_free = w.n_free[j];
      if (n_free == 1 && joint.nq == 1) {
        const double qdd = w.D_inverse[j](0, 0) * (w.tau(joint.idx_q) - w.U[j].col(0).dot(a));
        x(joint.idx_q) = qdd;
        a.noalias() += w.S[j].col(0) * qdd;
        continue;
      }
      if (n_free > 0) {
        const int* const free_columns = w.free_columns.data() + joint.idx_q;
        const Matrix6Xd& S_all = n_free < joint.nq ? w.S_free[j] : w.S[j];
        auto rhs = w.free_scratch.head(n_free);
        rhs = w.tau.segment(joint.idx_q, n_free);
        rhs.noalias() -= w.U[j].leftCols(n_free).transpose() * a;
        for (int f = 0; f < n_free; ++f) {
          const double qdd = w.D_inverse[j].row(f).head(n_free).dot(rhs);
          x(joint.idx_q + free_columns[f]) = qdd;
          a.noalias() += S_all.col(f) * qdd;
        }
      }
      if (n_free == joint.nq) continue;
      // prescribed coordinates (zero acceleration here): the effort S_k^T (I_A a + p_A) - x_k
      const Vector6d transmitted = w.I_A[j] * a + w.p_A[j];
      const int* const free_columns = w.free_columns.data() + joint.idx_q;
      for (int k = 0, f = 0; k < joint.nq; ++k) {
        if (f < n_free && free_columns[f] == k) {  // ascending: the free ones in order
          ++f;
          continue;
        }
        const int i = joint.idx_q + k;
        x(i) = w.S[j].col(k).dot(transmitted) - x(i);
      }
    }
  }
}

}  // namespace tendril
