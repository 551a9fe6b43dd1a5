#include "core/sim/dynamics_system.hpp"

#include <optional>
#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/constraints.hpp"
#include "core/algorithm/dynamics_residual.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/algorithm/model_agnostic_forward_dynamics.hpp"
#include "core/math/central_difference.hpp"
#include "core/sim/second_order_linear_solver.hpp"

namespace tendril {

void FiniteDifferenceJacobian::compute(const Model& model, Data& data, double t,
                                       const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                       Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv) {
  Eigen::VectorXd tau(model.nv), x = q, y = v, plus(model.nv), minus(model.nv);
  const auto qdd = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, Eigen::VectorXd& out) {
    actuationForces(model, qq, t, tau);
    out = forwardDynamics(model, data, qq, vv, tau, t);
  };
  dqdd_dq.resize(model.nv, model.nq);
  dqdd_dv.resize(model.nv, model.nv);
  centralDifferenceJacobian(
      x, step_, [&](Eigen::VectorXd& out) { qdd(x, v, out); }, plus, minus, dqdd_dq);
  centralDifferenceJacobian(
      y, step_, [&](Eigen::VectorXd& out) { qdd(q, y, out); }, plus, minus, dqdd_dv);
}

void AnalyticJacobian::compute(const Model& model, Data& data, double t, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
                               Eigen::MatrixXd& dqdd_dv) {
  if (tau_.size() != model.nv) tau_.resize(model.nv);
  actuationForces(model, q, t, tau_);
  forwardDynamicsDerivatives(model, data, q, v, tau_, t);
  dqdd_dq = data.dqdd_dq;
  dqdd_dv = data.dqdd_dv;
}

DynamicsSystem::DynamicsSystem(const Model& model, std::unique_ptr<DynamicsJacobian> jacobian,
                               DynamicsFamily family)
    : model_(model),
      family_(resolveFamily(model, family)),
      data_(model),
      jacobian_(std::move(jacobian)),
      analytic_(family_ == DynamicsFamily::Engine &&
                dynamic_cast<const AnalyticJacobian*>(jacobian_.get()) != nullptr &&
                model.controllers.empty()),
      articulated_(articulatedBodyIsFaster(model)),
      tau_(model.nv),
      q_r_(model.nq),
      v_r_(model.nv),
      a_r_(model.nv),
      r_(model.nv),
      r_plus_(model.nv),
      r_minus_(model.nv) {
  if (hasConstraints(model)) constrained_ = std::make_unique<ConstrainedDynamicsData>(model);
  if (agnostic()) {
    agnostic_poses_ = ModelAgnosticPoses(model, data_);
    agnostic_qdd_.resize(model.nv);
  }
  if (!model.controllers.empty()) controllers_ = std::make_unique<ControllerLoop>(model);
}

void DynamicsSystem::inputForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                 Eigen::Ref<Eigen::VectorXd> tau) {
  actuationForces(model_, q, t, tau);
  if (controllers_) controllers_->addForces(t, q, v, tau);
}

const Eigen::VectorXd& DynamicsSystem::acceleration(double t, const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v) {
  ++evaluations_;
  return forwardAcceleration(t, q, v);
}

void DynamicsSystem::controllerForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                      Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  if (controllers_) controllers_->addForces(t, q, v, tau);
}

// the closed loop on the model-agnostic family: its ID holds every load but the controllers'
const Eigen::VectorXd& DynamicsSystem::agnosticAcceleration(double t, const Eigen::VectorXd& q,
                                                            const Eigen::VectorXd& v) {
  if (!controllers_) return modelAgnosticForwardDynamics(model_, data_, q, v, t);
  controllerForces(t, q, v, tau_);
  // a PFBL has just formed M and n = ID(q, v, 0, t) at this state: no second MID pass
  if (const ControllerWorkspace* terms = controllers_->modelTerms()) {
    data_.qdd = tau_ - terms->n;
    terms->mass_factor.solveInPlace(data_.qdd);
    return data_.qdd;
  }
  return modelAgnosticForwardDynamics(model_, data_, q, v, tau_, t);
}

const Eigen::VectorXd& DynamicsSystem::forwardAcceleration(double t, const Eigen::VectorXd& q,
                                                           const Eigen::VectorXd& v) {
  if (agnostic()) return agnosticAcceleration(t, q, v);
  inputForces(t, q, v, tau_);
  if (constrained_)  // closed chains, prescribed coordinates
    return constrainedForwardDynamics(model_, data_, *constrained_, q, v, tau_, t);
  // O(n) where every joint owns its coordinates and they lie deep enough to beat forming and
  // factoring M (articulatedBodyIsFaster: long chains, the humanoid; not branched trees)
  if (articulated_) return articulatedBodyForwardDynamics(model_, data_, q, v, tau_, t);
  return forwardDynamics(model_, data_, q, v, tau_, t);
}

void DynamicsSystem::jacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv) {
  if (agnostic() && !controllers_) {  // -M^-1 dr at the forward dynamics, r differenced
    agnostic_qdd_ = modelAgnosticForwardDynamics(model_, data_, q, v, t);
    residualJacobian(t, q, v, agnostic_qdd_, dqdd_dq, dqdd_dv);
    return;
  }
  ++jacobian_evaluations_;
  if (controllers_) {
    differencedJacobian(t, q, v, dqdd_dq, dqdd_dv);  // the laws have no analytical derivatives
    return;
  }
  if (constrained_) {
    constrainedJacobian(t, q, v, dqdd_dq, dqdd_dv);
    return;
  }
  jacobian_->compute(model_, data_, t, q, v, dqdd_dq, dqdd_dv);
}

// central differences of forwardAcceleration(): the closed loop with controllers, the constrained
// dynamics without analytical derivatives
void DynamicsSystem::differencedJacobian(double t, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
                                         Eigen::MatrixXd& dqdd_dv) {
  constexpr double kStep = 1e-6;
  const ReusedBodyEvaluations reuse(data_.agnostic);   // one body moves per difference
  std::optional<ReusedBodyEvaluations> reuse_in_laws;  // in a PFBL's MID as well
  if (controllers_) reuse_in_laws.emplace(controllers_->lawWorkspace());
  q_fd_ = q;
  v_fd_ = v;
  dqdd_dq.resize(model_.nv, model_.nq);
  dqdd_dv.resize(model_.nv, model_.nv);
  for (int i = 0; i < model_.nq; ++i) {
    q_fd_(i) = q(i) + kStep;
    qdd_plus_ = forwardAcceleration(t, q_fd_, v);
    q_fd_(i) = q(i) - kStep;
    dqdd_dq.col(i) = (qdd_plus_ - forwardAcceleration(t, q_fd_, v)) / (2.0 * kStep);
    q_fd_(i) = q(i);
  }
  for (int i = 0; i < model_.nv; ++i) {
    v_fd_(i) = v(i) + kStep;
    qdd_plus_ = forwardAcceleration(t, q, v_fd_);
    v_fd_(i) = v(i) - kStep;
    dqdd_dv.col(i) = (qdd_plus_ - forwardAcceleration(t, q, v_fd_)) / (2.0 * kStep);
    v_fd_(i) = v(i);
  }
}

namespace {

// x^T A x for an A that is zero outside the given diagonal blocks, column by column (no
// temporary product, no nq^2 work)
double blockQuadraticForm(const Eigen::MatrixXd& A, const std::vector<CoordinateBlock>& blocks,
                          const Eigen::VectorXd& x) {
  double sum = 0.0;
  for (const CoordinateBlock& b : blocks) {
    const auto x_b = x.segment(b.idx, b.n);
    for (int c = 0; c < b.n; ++c) sum += x_b(c) * A.col(b.idx + c).segment(b.idx, b.n).dot(x_b);
  }
  return sum;
}

// the columns cols of from
void gatherColumns(const Eigen::MatrixXd& from, const std::vector<int>& cols, Eigen::MatrixXd& to) {
  to.resize(from.rows(), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t c = 0; c < cols.size(); ++c)
    to.col(static_cast<Eigen::Index>(c)) = from.col(cols[c]);
}

// the entries (rows, cols) of from
void gather(const Eigen::MatrixXd& from, const std::vector<int>& rows, const std::vector<int>& cols,
            Eigen::MatrixXd& to) {
  to.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t c = 0; c < cols.size(); ++c) {
    for (std::size_t r = 0; r < rows.size(); ++r) to(r, c) = from(rows[r], cols[c]);
  }
}
}  // namespace

bool DynamicsSystem::forceSpaceJacobian(double t, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v, ForceSpaceBlocks& blocks) {
  ++jacobian_evaluations_;
  if (agnostic()) {  // its ID holds the inputs' time functions
    controllerForces(t, q, v, tau_);
  } else {
    inputForces(t, q, v, tau_);
  }
  if (!analytic_) return forceSpaceDifferences(t, q, v, blocks);
  if (!constrained_) {
    blocks.dr_dq.resize(model_.nv, model_.nv);
    blocks.dr_dv.resize(model_.nv, model_.nv);
    if (!forceBalanceDerivatives(model_, data_, q, v, tau_, t, blocks.dr_dq, blocks.dr_dv))
      return false;
    baseBlocks(blocks);
    return blocks.dr_dq.allFinite() && blocks.dr_dv.allFinite();
  }
  ConstrainedDynamicsData& cdd = *constrained_;
  if (!constrainedForceDerivatives(model_, data_, cdd, q, v, tau_, t)) return false;
  baseBlocks(blocks);
  gather(cdd.dforces_dq, blocks.free, blocks.free, blocks.dr_dq);
  gather(cdd.dforces_dv, blocks.free, blocks.free, blocks.dr_dv);
  gatherColumns(cdd.dc_dq, blocks.free, blocks.dc_dq);
  gatherColumns(cdd.dc_dv, blocks.free, blocks.dc_dv);
  return blocks.dr_dq.allFinite() && blocks.dr_dv.allFinite() && blocks.dc_dq.allFinite() &&
         blocks.dc_dv.allFinite();
}

void DynamicsSystem::baseBlocks(ForceSpaceBlocks& blocks) {
  const int m = model_.n_constraints;
  if (constrained_) {
    blocks.free = constrained_->free_coordinates;
    blocks.mass = constrained_->M_uu;
  } else {
    if (static_cast<int>(blocks.free.size()) != model_.nv) {
      blocks.free.resize(model_.nv);
      for (int k = 0; k < model_.nv; ++k) blocks.free[k] = k;
    }
    blocks.mass = data_.M;
  }
  const auto nu = static_cast<Eigen::Index>(blocks.free.size());
  if (m > 0) {
    blocks.A = constrained_->A_u;
  } else {
    blocks.A.resize(0, nu);
  }
  blocks.dr_dq.resize(nu, nu);
  blocks.dr_dv.resize(nu, nu);
  blocks.dc_dq.resize(m, nu);
  blocks.dc_dv.resize(m, nu);
}

void DynamicsSystem::forceBalanceAt(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                    Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> g) {
  if (agnostic()) {  // its ID is the whole balance but the controllers' (no constraints here)
    r = -modelAgnosticID(model_, data_, q, v, fd_qdd_, t);
    if (controllers_) controllers_->addForces(t, q, v, r);
    return;
  }
  inputForces(t, q, v, r);
  addInternalForces(model_, q, v, r);
  r -= inverseDynamics(model_, data_, q, v, fd_qdd_, t);
  if (model_.n_constraints == 0) return;
  ConstraintData& cd = constrained_->constraints;
  constraintBias(model_, data_, cd);  // A qdd + A-dot v, and e
  constraintJacobian(model_, data_, cd);
  r.noalias() += cd.A.transpose() * fd_lambda_;
  const double T_B = model_.constraint_time_constant;
  g = -cd.bias - cd.e / (T_B * T_B);
  g.noalias() -= (2.0 / T_B) * (cd.A * v);
}

bool DynamicsSystem::forceSpaceDifferences(double t, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& v, ForceSpaceBlocks& blocks) {
  constexpr double kStep = 1e-6;
  const int m = model_.n_constraints;
  // each difference moves one coordinate: the model-agnostic passes, and a PFBL's MID, evaluate
  // only its body again
  const ReusedBodyEvaluations reuse(data_.agnostic);
  std::optional<ReusedBodyEvaluations> reuse_in_laws;
  if (controllers_) reuse_in_laws.emplace(controllers_->lawWorkspace());
  // the base point: qdd and lambda of the forward dynamics, and the state it saw
  if (constrained_) {
    ConstrainedDynamicsData& cdd = *constrained_;
    factorisedConstrainedDynamics(model_, data_, cdd, q, v, tau_, t);  // M_uu for the blocks
    if (!cdd.problem.empty() || !cdd.qdd.allFinite()) return false;
    fd_qdd_ = cdd.qdd;
    fd_lambda_ = cdd.lambda;
    fd_q_ = cdd.q;  // prescribed entries at f(t), f'(t)
    fd_v_ = cdd.v;
  } else {
    const bool finite = agnostic()
                            ? modelAgnosticForwardDynamics(model_, data_, q, v, tau_, t).allFinite()
                            : forwardDynamics(model_, data_, q, v, tau_, t).allFinite();
    if (!finite) return false;
    fd_qdd_ = data_.qdd;
    fd_q_ = q;
    fd_v_ = v;
  }
  baseBlocks(blocks);
  const std::vector<int>& free = blocks.free;
  const auto nu = static_cast<Eigen::Index>(free.size());
  const Eigen::Index nv = model_.nv;
  fd_plus_.resize(nv + m);
  fd_minus_.resize(nv + m);
  // [r; g] at the current fd_q_, fd_v_; the columns keep the rows of the free coordinates
  const auto balance = [&](Eigen::VectorXd& out) {
    forceBalanceAt(t, fd_q_, fd_v_, out.head(nv), out.tail(m));
  };
  const auto freeCoordinate = [&free](Eigen::Index c) { return free[c]; };
  const auto storeInto = [&free, nu, m](Eigen::MatrixXd& dr, Eigen::MatrixXd& dc) {
    return [&dr, &dc, &free, nu, m](Eigen::Index c, const auto& quotient) {
      for (Eigen::Index r = 0; r < nu; ++r) dr(r, c) = quotient(free[r]);
      if (m > 0) dc.col(c) = quotient.tail(m);
    };
  };
  centralDifferences(fd_q_, nu, freeCoordinate, DifferenceStep{kStep}, balance, fd_plus_, fd_minus_,
                     storeInto(blocks.dr_dq, blocks.dc_dq));
  centralDifferences(fd_v_, nu, freeCoordinate, DifferenceStep{kStep}, balance, fd_plus_, fd_minus_,
                     storeInto(blocks.dr_dv, blocks.dc_dv));
  return blocks.dr_dq.allFinite() && blocks.dr_dv.allFinite() && blocks.dc_dq.allFinite() &&
         blocks.dc_dv.allFinite();
}

void DynamicsSystem::constrainedJacobian(double t, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
                                         Eigen::MatrixXd& dqdd_dv) {
  if (analytic_) {
    actuationForces(model_, q, t, tau_);
    constrainedForwardDynamicsDerivatives(model_, data_, *constrained_, q, v, tau_, t);
    dqdd_dq = constrained_->dqdd_dq;
    dqdd_dv = constrained_->dqdd_dv;
    return;
  }
  // the prescribed columns come out zero (their entries are overwritten) and so do their rows
  // (qdd_k = f''(t))
  differencedJacobian(t, q, v, dqdd_dq, dqdd_dv);
}

void DynamicsSystem::prescribeResidualState(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            const Eigen::Ref<const Eigen::VectorXd>& a) {
  if (model_.n_constraints > 0)
    throw std::logic_error("the residual form of the dynamics does not handle closed chains");
  q_r_ = q;
  v_r_ = v;
  a_r_ = a;
  for (const CompiledPrescribedCoordinate& p : model_.prescribed) {
    q_r_(p.coordinate) = p.position(t);
    v_r_(p.coordinate) = p.position.derivative(t, 1);
    a_r_(p.coordinate) = p.position.derivative(t, 2);
  }
}

const Eigen::VectorXd& DynamicsSystem::residual(double t,
                                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                                const Eigen::Ref<const Eigen::VectorXd>& a) {
  ++evaluations_;
  prescribeResidualState(t, q, v, a);
  familyResidual(t, q_r_, v_r_, a_r_, r_);
  // a prescribed coordinate follows f'' (its q and v follow by integration, and are replaced by
  // f and f' wherever the dynamics reads them)
  for (const CompiledPrescribedCoordinate& p : model_.prescribed)
    r_(p.coordinate) = a(p.coordinate) - a_r_(p.coordinate);
  return r_;
}

bool DynamicsSystem::residualJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v,
                                      const Eigen::Ref<const Eigen::VectorXd>& a,
                                      Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv) {
  ++jacobian_evaluations_;
  dqdd_dq.resize(model_.nv, model_.nq);
  dqdd_dv.resize(model_.nv, model_.nv);
  prescribeResidualState(t, q, v, a);
  if (analytic_) {
    dynamicsResidualDerivatives(model_, data_, q_r_, v_r_, a_r_, t, dqdd_dq, dqdd_dv);
  } else {
    residualDifferences(t, q_r_, dqdd_dq);
    residualDifferences(t, v_r_, dqdd_dv);
    // the residual is linear in a: dr/da = M exactly
    if (agnostic()) {
      modelAgnosticMassMatrix(model_, data_, q_r_);
    } else {
      massMatrix(model_, data_, q_r_);
    }
  }
  // the prescribed coordinates: the dynamics never sees their state, and r_k = a_k - f''(t)
  for (const CompiledPrescribedCoordinate& p : model_.prescribed) {
    for (Eigen::MatrixXd* block : {&dqdd_dq, &dqdd_dv}) {
      block->col(p.coordinate).setZero();
      block->row(p.coordinate).setZero();
    }
  }
  // dFD = -M^-1 dr
  prescribeMass();
  if (!factorMassMatrix(model_, data_)) return false;
  dqdd_dq = -dqdd_dq;
  dqdd_dv = -dqdd_dv;
  solveMassMatrix(data_, dqdd_dq);
  solveMassMatrix(data_, dqdd_dv);
  return true;
}

const Eigen::MatrixXd& DynamicsSystem::residualMassMatrix() {
  if (agnostic()) {
    modelAgnosticMassMatrix(model_, data_, q_r_);
    return data_.M;  // no prescribed coordinates on this family
  }
  localSubspaces(model_, data_);  // the residual left the poses but formed no subspaces
  massMatrixFromKinematics(model_, data_);
  prescribeMass();
  return data_.M;
}

bool DynamicsSystem::factorResidualMass() {
  return factorMassMatrix(model_, data_);
}

// data.M with the rows and columns of the prescribed coordinates those of the identity (r_k =
// a_k - f'')
void DynamicsSystem::prescribeMass() {
  for (const CompiledPrescribedCoordinate& p : model_.prescribed) {
    data_.M.col(p.coordinate).setZero();
    data_.M.row(p.coordinate).setZero();
    data_.M(p.coordinate, p.coordinate) = 1.0;
  }
}

// central differences of dynamicsResidual() in x, one of q_r_, v_r_, a_r_ (restored on return)
void DynamicsSystem::residualDifferences(double t, Eigen::VectorXd& x, Eigen::MatrixXd& dr_dx) {
  constexpr double kStep = 1e-6;
  const ReusedBodyEvaluations reuse(data_.agnostic);  // one body moves per difference
  centralDifferenceJacobian(
      x, kStep, [&](Eigen::VectorXd& out) { familyResidual(t, q_r_, v_r_, a_r_, out); }, r_plus_,
      r_minus_, dr_dx);
}

void DynamicsSystem::familyResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                    const Eigen::VectorXd& a, Eigen::Ref<Eigen::VectorXd> out) {
  if (agnostic()) {
    out = modelAgnosticID(model_, data_, q, v, a, t);
  } else {
    dynamicsResidual(model_, data_, q, v, a, t, out);
  }
}

Energies DynamicsSystem::energies(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Energies e;
  e.elastic = 0.5 * blockQuadraticForm(model_.K, model_.elastic_blocks, q);
  if (agnostic()) {  // the element twists of an inertial pass at a = 0, then the element poses
    agnostic_qdd_.setZero();  // of the same evaluations
    modelAgnosticIID(model_, data_, q, v, agnostic_qdd_);
    e.kinetic = modelAgnosticKineticEnergy(data_, v);
    modelAgnosticPosesOfEvaluations(data_, agnostic_poses_);
    e.gravitational = modelAgnosticGravitationalEnergy(model_, data_, agnostic_poses_);
    return e;
  }
  // 1/2 sum of eta^T (M + M_A) eta over the frames: v^T M v / 2 in O(n), without M; the twists
  // from vector operations only (no S matrices)
  posesAndTwists(model_, data_, q, v);
  for (int j = 0; j < model_.n_vjoints(); ++j) {
    const VirtualJoint& joint = model_.joints[j];
    const Vector6d& eta = data_.eta[j];
    if (joint.has_inertia) e.kinetic += 0.5 * eta.dot(joint.M * eta);
    if (joint.has_added_mass) e.kinetic += 0.5 * eta.dot(joint.added_mass * eta);
  }
  const Eigen::Vector3d a_g = model_.gravity.tail<3>();
  for (int j = 0; j < model_.n_vjoints(); ++j) {
    const VirtualJoint& joint = model_.joints[j];
    if (joint.mass > 0.0) e.gravitational -= joint.mass * a_g.dot(data_.g[j].act(joint.com));
  }
  return e;
}

double DynamicsSystem::dissipationRate(const Eigen::VectorXd& v) {
  return blockQuadraticForm(model_.D, model_.elastic_blocks, v);
}

}  // namespace tendril
