#pragma once
// The first-order system x = [q; v], x' = [v; FD(t, q, v)] that every integrator advances, with
// its Jacobian (the plug-in point for analytical derivatives) and energy bookkeeping; and the same
// dynamics as a residual r(t, q, v, qdd) = ID - tau for the integrator on the implicit form (IDA).

#include <Eigen/Core>
#include <memory>

#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/data.hpp"
#include "core/algorithm/dynamics_family.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/model/model.hpp"
#include "core/sim/controllers.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

struct ForceSpaceBlocks;  // second_order_linear_solver.hpp

/// \brief Supplies dFD/dq and dFD/dv, the blocks of the Jacobian of x' = f(t, x)
/// (docs/theory/gvs.md (6b, 7, 9)).
class DynamicsJacobian {
 public:
  virtual ~DynamicsJacobian() = default;
  /// \param[out] dqdd_dq nv x nq
  /// \param[out] dqdd_dv nv x nv
  virtual void compute(const Model& model, Data& data, double t, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
                       Eigen::MatrixXd& dqdd_dv) = 0;
};

/// \brief Central finite differences of forward dynamics (2 n evaluations per block).
class FiniteDifferenceJacobian final : public DynamicsJacobian {
 public:
  explicit FiniteDifferenceJacobian(double step = 1e-6) : step_(step) {}
  void compute(const Model& model, Data& data, double t, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
               Eigen::MatrixXd& dqdd_dv) override;

 private:
  double step_;
};

/// \brief The analytical derivatives of the forward dynamics (forwardDynamicsDerivatives()): one
/// recursive pass instead of 2 n forward-dynamics evaluations.
class AnalyticJacobian final : public DynamicsJacobian {
 public:
  void compute(const Model& model, Data& data, double t, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, Eigen::MatrixXd& dqdd_dq,
               Eigen::MatrixXd& dqdd_dv) override;

 private:
  Eigen::VectorXd tau_;  // B u(t), sized on first use
};

/// \brief Forward dynamics with the model's inputs and loads at time t, and its derivatives, on
/// one dynamics family (dynamics_family.hpp). On the model-agnostic family the acceleration is
/// modelAgnosticForwardDynamics() (M and the bias from one MID pass, a Cholesky solve; with a
/// PFBL controller evaluated at the same state, its M and bias instead), the residual
/// modelAgnosticID(), and every Jacobian central differences of that residual, or of the
/// closed-loop acceleration with controllers (the DynamicsJacobian given is not used):
/// derivativeSource() says so.
class DynamicsSystem {
 public:
  /// \throw std::invalid_argument when \p family cannot run \p model (resolveFamily())
  DynamicsSystem(const Model& model, std::unique_ptr<DynamicsJacobian> jacobian,
                 DynamicsFamily family = DynamicsFamily::Auto);

  /// \brief qdd = M^-1 (B u(t) - K q - D v - ID(q, v, 0, t)), u the inputs' time functions or,
  /// for the inputs a controller writes, its law at (t, q, v). \return a reference into the
  /// workspace
  const Eigen::VectorXd& acceleration(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// \brief dFD/dq and dFD/dv at (t, q, v). With controllers, central differences of
  /// acceleration() (the closed loop), whatever the DynamicsJacobian.
  void jacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv);
  /// \brief The Jacobian in force space for CVODE's Newton matrix (force-space blocks of
  /// second_order_linear_solver.hpp): M_uu, the derivatives of the force balance and, with closed
  /// chains, A_u and the derivatives of the constraint right-hand side, on the free coordinates,
  /// all at the forward-dynamics qdd (and lambda) of (t, q, v). Analytical when the system's
  /// DynamicsJacobian is an AnalyticJacobian; otherwise central differences (step 1e-6) of the
  /// force balance and constraint right-hand side at that fixed qdd and lambda (4 nu inverse
  /// dynamics), whatever that DynamicsJacobian is. Counted as a Jacobian. Allocation-free after
  /// the first call.
  /// \return false when the forward dynamics fails there (M or the constraints singular)
  bool forceSpaceJacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          ForceSpaceBlocks& blocks);
  /// \brief The equations of motion as a residual, zero exactly when a = acceleration(t, q, v):
  /// dynamicsResidual() (ID(q, v, a, t) - B u(t) + K q + D v) on the free coordinates; a
  /// prescribed coordinate enters q, v, a as f(t), f'(t), f''(t) and its row is a_k - f''(t).
  /// Closed chains are not supported (throws std::logic_error). Counted as an evaluation.
  /// \return a reference into the workspace (nv)
  const Eigen::VectorXd& residual(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                  const Eigen::Ref<const Eigen::VectorXd>& v,
                                  const Eigen::Ref<const Eigen::VectorXd>& a);
  /// \brief The Jacobian of the residual form as forward-dynamics derivatives: dr/dq and dr/dv
  /// of residual() at (t, q, v, a) (dynamicsResidualDerivatives() when the Jacobian is analytical,
  /// else central differences of the residual) times -M(q)^-1, which is dFD/dq and dFD/dv when
  /// a = FD(q, v). The prescribed rows and columns are zero. Leaves M(q) factored in data() for
  /// solveMassMatrix() (valid until the next factorisation: factorResidualMass(), or the
  /// forwardDynamics() of acceleration() for an unconstrained model). Allocation-free.
  /// \return false when M is not positive definite
  bool residualJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v,
                        const Eigen::Ref<const Eigen::VectorXd>& a, Eigen::MatrixXd& dqdd_dq,
                        Eigen::MatrixXd& dqdd_dv);
  /// \brief dr/da = M at the configuration of the last residual() (its subspaces, which the
  /// residual does not form, then one composite-inertia pass on the poses it left in data(); the
  /// prescribed rows and columns are those of the identity), into data().M. \pre residual() was
  /// the last evaluation.
  const Eigen::MatrixXd& residualMassMatrix();
  /// \brief Factors data().M (as left by residualMassMatrix()) for solveMassMatrix().
  /// \return false when it is not positive definite
  bool factorResidualMass();
  /// \brief Kinetic, gravitational and elastic energy at (q, v); dissipated is left at 0. Leaves
  /// the kinematics of q (poses, twists) in data().
  Energies energies(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// \brief Power dissipated by material damping, v^T D v [W]. Allocation-free.
  double dissipationRate(const Eigen::VectorXd& v);

  const Model& model() const { return model_; }
  Data& data() { return data_; }
  long evaluations() const { return evaluations_; }
  long jacobianEvaluations() const { return jacobian_evaluations_; }
  /// \brief Counts work done outside acceleration() and jacobian() by a solver with its own
  /// residual (index-3 Newmark): residual evaluations and Jacobians.
  void countEvaluations(long dynamics, long jacobians) {
    evaluations_ += dynamics;
    jacobian_evaluations_ += jacobians;
  }
  /// \brief Whether jacobian() is analytical (else finite differences): the constrained solvers
  /// choose their own Jacobians by it. False for a model with controllers: their laws have no
  /// analytical derivatives, so the whole closed loop is differenced.
  bool analyticJacobian() const { return analytic_; }
  /// \brief The family that runs (Auto resolved).
  DynamicsFamily family() const { return family_; }
  bool agnostic() const { return family_ == DynamicsFamily::ModelAgnostic; }
  /// \brief Where the Jacobians come from: analytical only on the engine with an AnalyticJacobian.
  DerivativeSource derivativeSource() const {
    return analytic_ ? DerivativeSource::Analytical : DerivativeSource::CentralDifferences;
  }
  /// \brief The model's controllers (null without): sample instants, hold, records.
  ControllerLoop* controllers() { return controllers_.get(); }
  /// \brief Closed chains and prescribed coordinates (docs/theory/gvs.md §11, §12): the
  /// workspace of the last constrained acceleration (lambda, efforts, problem), null for an
  /// unconstrained model.
  const ConstrainedDynamicsData* constrained() const { return constrained_.get(); }

 private:
  const Model& model_;
  DynamicsFamily family_;
  Data data_;
  std::unique_ptr<DynamicsJacobian> jacobian_;
  bool analytic_ = false;
  bool articulated_ = false;  // forward dynamics by the recursion (articulatedBodyIsFaster())
  // the model-agnostic family: world poses for the energies, the acceleration a Jacobian is
  // taken at
  ModelAgnosticPoses agnostic_poses_;
  Eigen::VectorXd agnostic_qdd_;
  // r = ID(q, v, a, t) - B u + K q + D v of the family, into out
  void familyResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                      const Eigen::VectorXd& a, Eigen::Ref<Eigen::VectorXd> out);
  Eigen::VectorXd tau_;
  long evaluations_ = 0, jacobian_evaluations_ = 0;

  // B u: the inputs' time functions plus what the controllers write
  void inputForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   Eigen::Ref<Eigen::VectorXd> tau);
  const Eigen::VectorXd& forwardAcceleration(double t, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& v);
  // the controllers' B u alone (zero without), into tau
  void controllerForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        Eigen::Ref<Eigen::VectorXd> tau);
  const Eigen::VectorXd& agnosticAcceleration(double t, const Eigen::VectorXd& q,
                                              const Eigen::VectorXd& v);
  void differencedJacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv);
  std::unique_ptr<ControllerLoop> controllers_;

  // closed chains and prescribed coordinates: constrained accelerations, and their Jacobian,
  // analytical (50, 51, 44) when jacobian_ is, else central differences of them
  void constrainedJacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           Eigen::MatrixXd& dqdd_dq, Eigen::MatrixXd& dqdd_dv);
  std::unique_ptr<ConstrainedDynamicsData> constrained_;
  Eigen::VectorXd q_fd_, v_fd_, qdd_plus_;

  // the residual form: the state with the prescribed entries overwritten, the residual, and
  // central-difference scratch
  void prescribeResidualState(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                              const Eigen::Ref<const Eigen::VectorXd>& v,
                              const Eigen::Ref<const Eigen::VectorXd>& a);
  void residualDifferences(double t, Eigen::VectorXd& x, Eigen::MatrixXd& dr_dx);
  void prescribeMass();

  // force space by central differences: the force balance r = B u - K q - D v - ID(q, v, qdd)
  // (+ A^T lambda) and the constraint right-hand side g = -(A qdd + A-dot v) - (2/T_B) A v -
  // e/T_B^2 at fixed qdd and lambda, into r (nv) and g (m)
  void forceBalanceAt(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                      Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> g);
  bool forceSpaceDifferences(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             ForceSpaceBlocks& blocks);
  // the free coordinates, M_uu and A_u of the last forward dynamics, and the derivative blocks
  // sized to them
  void baseBlocks(ForceSpaceBlocks& blocks);
  Eigen::VectorXd fd_qdd_, fd_lambda_, fd_q_, fd_v_;
  Eigen::VectorXd fd_plus_, fd_minus_;  // [r; g] on either side of a central difference
  // r_plus_ and r_minus_: either side of a central difference of the residual
  Eigen::VectorXd q_r_, v_r_, a_r_, r_, r_plus_, r_minus_;
};

}  // namespace tendril
