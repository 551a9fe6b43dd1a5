#include "core/algorithm/constrained_dynamics.hpp"

#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"

namespace tendril {
namespace {

std::vector<int> freeCoordinates(const Model& model) {
  std::vector<bool> prescribed(model.nv, false);
  for (const CompiledPrescribedCoordinate& p : model.prescribed) prescribed[p.coordinate] = true;
  std::vector<int> free;
  for (int k = 0; k < model.nv; ++k) {
    if (!prescribed[k]) free.push_back(k);
  }
  return free;
}

// solves [[M_uu, -A_u^T], [A_u, 0]] [X; dlambda] = [dr_uu; dc_u] on the free rows and columns
// with the factors of the last factorisedConstrainedDynamics(), and scatters X into out (nv x nv,
// zero on the prescribed rows and columns)
void solveFreeBlock(const Model& model, ConstrainedDynamicsData& cdd, const Eigen::MatrixXd& dr,
                    const Eigen::MatrixXd& dc, Eigen::MatrixXd& out) {
  const std::vector<int>& free = cdd.free_coordinates;
  const int nu = static_cast<int>(free.size());
  for (int c = 0; c < nu; ++c) {
    for (int r = 0; r < nu; ++r) cdd.X(r, c) = dr(free[r], free[c]);
  }
  cdd.M_factor.solveInPlace(cdd.X);
  if (model.n_constraints > 0) {
    for (int c = 0; c < nu; ++c) cdd.dlambda.col(c) = dc.col(free[c]);
    cdd.dlambda.noalias() -= cdd.A_u * cdd.X;
    cdd.S_factor.solveInPlace(cdd.dlambda);
    cdd.X.noalias() += cdd.Y * cdd.dlambda;
  }
  out.setZero();
  for (int c = 0; c < nu; ++c) {
    for (int r = 0; r < nu; ++r) out(free[r], free[c]) = cdd.X(r, c);
  }
}

}  // namespace

ConstrainedDynamicsData::ConstrainedDynamicsData(const Model& model)
    : constraints(model),
      free_coordinates(freeCoordinates(model)),
      prescribed_mask(static_cast<std::size_t>(model.nv), 0),
      q(model.nq),
      v(model.nv),
      qdd(model.nv),
      lambda(Eigen::VectorXd::Zero(model.n_constraints)),
      efforts(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.prescribed.size()))),
      forces(model.nv),
      forces_u(free_coordinates.size()),
      qdd_u(free_coordinates.size()),
      c(model.n_constraints),
      M_uu(free_coordinates.size(), free_coordinates.size()),
      A_u(model.n_constraints, free_coordinates.size()),
      Y(free_coordinates.size(), model.n_constraints),
      S(model.n_constraints, model.n_constraints),
      M_factor(free_coordinates.size()),
      S_factor(model.n_constraints),
      dqdd_dq(Eigen::MatrixXd::Zero(model.nv, model.nq)),
      dqdd_dv(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dforces_dq(Eigen::MatrixXd::Zero(model.nv, model.nq)),
      dforces_dv(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dc_dq(Eigen::MatrixXd::Zero(model.n_constraints, model.nq)),
      dc_dv(Eigen::MatrixXd::Zero(model.n_constraints, model.nv)),
      X(free_coordinates.size(), free_coordinates.size()),
      dlambda(model.n_constraints, free_coordinates.size()) {
  for (const CompiledPrescribedCoordinate& p : model.prescribed)
    prescribed_mask[static_cast<std::size_t>(p.coordinate)] = 1;
}

bool hasConstraints(const Model& model) {
  return model.n_constraints > 0 || !model.prescribed.empty();
}

void applyPrescribed(const Model& model, double t, Eigen::Ref<Eigen::VectorXd> q,
                     Eigen::Ref<Eigen::VectorXd> v) {
  for (const CompiledPrescribedCoordinate& p : model.prescribed) {
    q(p.coordinate) = p.position(t);
    v(p.coordinate) = p.position.derivative(t, 1);
  }
}

namespace {

// the prescribed coordinates' f'' (zero elsewhere) into cdd.qdd, their f and f' into cdd.q, cdd.v
void prescribedState(const Model& model, ConstrainedDynamicsData& cdd,
                     const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& v, double t) {
  cdd.problem.clear();
  cdd.q = q;
  cdd.v = v;
  applyPrescribed(model, t, cdd.q, cdd.v);
  cdd.qdd.setZero();
  for (const CompiledPrescribedCoordinate& p : model.prescribed)
    cdd.qdd(p.coordinate) = p.position.derivative(t, 2);
}

// prescribed coordinates without closed chains, on a tree the articulated-body recursion takes:
// one hybrid-dynamics pass, O(n), instead of forming and factoring M_uu
const Eigen::VectorXd& hybridRoute(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   const Eigen::Ref<const Eigen::VectorXd>& v,
                                   const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                   double t) {
  prescribedState(model, cdd, q, v, t);
  hybridDynamics(model, data, cdd.q, cdd.v, tau_actuation, cdd.prescribed_mask, cdd.qdd, t);
  if (!data.qdd.allFinite()) {
    cdd.problem = "the mass matrix is not positive definite";
    cdd.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
    return cdd.qdd;
  }
  cdd.qdd = data.qdd;
  for (std::size_t i = 0; i < model.prescribed.size(); ++i)
    cdd.efforts(static_cast<Eigen::Index>(i)) =
        data.articulated.efforts(model.prescribed[i].coordinate);
  return cdd.qdd;
}

}  // namespace

const Eigen::VectorXd& factorisedConstrainedDynamics(
    const Model& model, Data& data, ConstrainedDynamicsData& cdd,
    const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  const std::vector<int>& free = cdd.free_coordinates;
  const int nu = static_cast<int>(free.size()), m = model.n_constraints;
  prescribedState(model, cdd, q, v, t);

  // forces = B u - K q - D v - ID(q, v, [0; qdd_k]); the pass leaves the twists and
  // accelerations that give A_k qdd_k + A-dot v
  cdd.forces = tau_actuation;
  addInternalForces(model, cdd.q, cdd.v, cdd.forces);
  cdd.forces -= inverseDynamics(model, data, cdd.q, cdd.v, cdd.qdd, t);
  if (m > 0) {
    constraintBias(model, data, cdd.constraints);
    constraintJacobian(model, data, cdd.constraints);
  }
  massMatrixFromKinematics(model, data);

  // unconstrained accelerations of the free coordinates
  for (int r = 0; r < nu; ++r) {
    cdd.forces_u(r) = cdd.forces(free[r]);
    for (int c = 0; c < nu; ++c) cdd.M_uu(r, c) = data.M(free[r], free[c]);
  }
  cdd.M_factor.compute(cdd.M_uu);
  if (cdd.M_factor.info() != Eigen::Success) {
    cdd.problem = "the mass matrix is not positive definite";
    cdd.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
    return cdd.qdd;
  }
  cdd.qdd_u = cdd.M_factor.solve(cdd.forces_u);

  // constraint forces from the Schur complement S = A_u M_uu^-1 A_u^T
  if (m > 0) {
    const ConstraintData& cd = cdd.constraints;
    const double T_B = model.constraint_time_constant;
    for (int c = 0; c < nu; ++c) cdd.A_u.col(c) = cd.A.col(free[c]);
    cdd.Y = cdd.A_u.transpose();
    cdd.M_factor.solveInPlace(cdd.Y);
    cdd.S.noalias() = cdd.A_u * cdd.Y;
    cdd.S_factor.compute(cdd.S);
    const auto& D = cdd.S_factor.vectorD();
    const double largest = D.cwiseAbs().maxCoeff();
    if (cdd.S_factor.info() != Eigen::Success || !(D.minCoeff() > 1e-12 * largest)) {
      const auto redundant = findRedundantConstraint(model, cd, free);
      cdd.problem = redundant ? *redundant : "the constraint Jacobian A has no full row rank";
      cdd.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
      return cdd.qdd;
    }
    // A_u qdd_u = -(A_k qdd_k + A-dot v) - (2/T_B) A v - e/T_B^2 (46b)
    cdd.c = -cd.bias - cd.e / (T_B * T_B);
    cdd.c.noalias() -= (2.0 / T_B) * (cd.A * cdd.v);
    cdd.c.noalias() -= cdd.A_u * cdd.qdd_u;
    cdd.lambda = cdd.S_factor.solve(cdd.c);
    cdd.qdd_u.noalias() += cdd.Y * cdd.lambda;
  }
  for (int r = 0; r < nu; ++r) cdd.qdd(free[r]) = cdd.qdd_u(r);

  // efforts on the prescribed rows: M_ku qdd_u - forces_k - (A^T lambda)_k
  for (std::size_t i = 0; i < model.prescribed.size(); ++i) {
    const int k = model.prescribed[i].coordinate;
    double effort = -cdd.forces(k);
    for (int r = 0; r < nu; ++r) effort += data.M(k, free[r]) * cdd.qdd_u(r);
    if (m > 0) effort -= cdd.constraints.A.col(k).dot(cdd.lambda);
    cdd.efforts(static_cast<Eigen::Index>(i)) = effort;
  }
  return cdd.qdd;
}

const Eigen::VectorXd& constrainedForwardDynamics(
    const Model& model, Data& data, ConstrainedDynamicsData& cdd,
    const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  if (model.n_constraints == 0 && data.articulated.supported)
    return hybridRoute(model, data, cdd, q, v, tau_actuation, t);
  return factorisedConstrainedDynamics(model, data, cdd, q, v, tau_actuation, t);
}

bool constrainedForceDerivatives(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  factorisedConstrainedDynamics(model, data, cdd, q, v, tau_actuation,
                                t);  // the factors of M_uu and S
  if (!cdd.problem.empty() || !cdd.qdd.allFinite()) return false;
  // dr = d(B u)/dq - K - dID/dq (+ d(A^T lambda)/dq), -D - dID/dv at the constrained qdd
  // the forward dynamics left the kinematics of cdd.q
  inverseDynamicsDerivativesAtKinematics(model, data, cdd.v, cdd.qdd, t);
  actuationJacobian(model, data, cdd.q, t);
  cdd.dforces_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  cdd.dforces_dv = -model.D - data.dtau_dv;
  if (model.n_constraints > 0) {
    // dc = -(d(A qdd + A-dot v) + (2/T_B) d(A v) + de/T_B^2) (50), (51)
    ConstraintData& cd = cdd.constraints;
    constraintDerivatives(model, data, cdd.lambda, cd);
    const double T_B = model.constraint_time_constant;
    cdd.dforces_dq += cd.dAtlambda_dq;
    cdd.dc_dq = -cd.dbias_dq - (2.0 / T_B) * cd.dAv_dq - cd.de_dq / (T_B * T_B);
    cdd.dc_dv = -cd.dbias_dv - (2.0 / T_B) * cd.A;
  }
  return true;
}

void constrainedForwardDynamicsDerivatives(const Model& model, Data& data,
                                           ConstrainedDynamicsData& cdd,
                                           const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& v,
                                           const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                           double t) {
  if (!constrainedForceDerivatives(model, data, cdd, q, v, tau_actuation, t)) {
    cdd.dqdd_dq.setConstant(std::numeric_limits<double>::quiet_NaN());
    cdd.dqdd_dv.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  solveFreeBlock(model, cdd, cdd.dforces_dq, cdd.dc_dq, cdd.dqdd_dq);
  solveFreeBlock(model, cdd, cdd.dforces_dv, cdd.dc_dv, cdd.dqdd_dv);
}

void indexThreeResidual(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                        const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v,
                        const Eigen::Ref<const Eigen::VectorXd>& a,
                        const Eigen::Ref<const Eigen::VectorXd>& lambda, double t,
                        Eigen::Ref<Eigen::VectorXd> R) {
  const std::vector<int>& free = cdd.free_coordinates;
  const int nu = static_cast<int>(free.size()), m = model.n_constraints;
  actuationForces(model, q, t, cdd.forces);
  addInternalForces(model, q, v, cdd.forces);
  cdd.forces -= inverseDynamics(model, data, q, v, a, t);
  if (m > 0) {
    constraintJacobian(model, data, cdd.constraints);
    cdd.forces.noalias() += cdd.constraints.A.transpose() * lambda;
    R.tail(m) = cdd.constraints.e;
  }
  for (int r = 0; r < nu; ++r) R(r) = cdd.forces(free[r]);
}

void indexThreeJacobian(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                        const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v,
                        const Eigen::Ref<const Eigen::VectorXd>& a,
                        const Eigen::Ref<const Eigen::VectorXd>& lambda, double t, double v_rate,
                        double a_rate, Eigen::Ref<Eigen::MatrixXd> J) {
  const std::vector<int>& free = cdd.free_coordinates;
  const int nu = static_cast<int>(free.size()), m = model.n_constraints;
  inverseDynamicsDerivatives(model, data, q, v, a, t);
  actuationJacobian(model, data, q, t);
  massMatrixFromKinematics(model, data);
  // total derivative of tau - ID + A^T lambda along (q, v(q), a(q)) (12)
  cdd.dforces_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  cdd.dforces_dq -= v_rate * model.D;
  cdd.dforces_dq -= v_rate * data.dtau_dv;
  cdd.dforces_dq -= a_rate * data.M;
  if (m > 0) {
    constraintDerivatives(model, data, lambda, cdd.constraints);
    cdd.dforces_dq += cdd.constraints.dAtlambda_dq;
  }
  J.setZero();
  for (int c = 0; c < nu; ++c) {
    for (int r = 0; r < nu; ++r) J(r, c) = cdd.dforces_dq(free[r], free[c]);
    if (m == 0) continue;
    J.block(0, nu, nu, m).row(c) = cdd.constraints.A.col(free[c]).transpose();
    J.block(nu, c, m, 1) = cdd.constraints.de_dq.col(free[c]);
  }
}

}  // namespace tendril
