// Variable-step, variable-order BDF on the implicit (residual) form through SUNDIALS IDAS:
//   r(t, y, y') = [q' - v; ID(q, v, v', t) - tau_applied(q, v, t)] = 0,  y = [q; v]
// (DynamicsSystem::residual). Each residual is one inverse-dynamics pass: no mass matrix and no
// factorisation, where CVODE's right-hand side is a forward dynamics. The initial v' is the
// forward dynamics at t0, so (y0, y0') is consistent; the damping work is an IDAS quadrature, as
// in bdf.cpp.
//
// The Newton matrix dr/dy + c dr/dy' = [[c I, -I], [dr/dq, dr/dv + c M]] is solved at size n
// (second_order_linear_solver.hpp) as diag(I, M_k) [[c I, -I], [-dFD/dq, c I - dFD/dv]], which
// lets its parts age differently. CVODE's leading term is the constant I and one Jacobian serves
// tens of steps; here it is c M(q), which moves as fast as the robot does (on the underwater robot
// M(t)^-1 M(t + 0.01 s) - I has spectral radius 0.35 while the robot swims: with the M of a
// Jacobian a few steps old the Newton iteration diverges). So:
//   - c: every change refactors the n x n matrix (IDASetDeltaCjLSetup near 0; IDA's own scaling
//     of a stale-c solution by 2 / (1 + c / c_old) is wrong for the stiff modes, where dr/dq / c
//     dominates);
//   - M_k: refactored on a schedule (one composite-inertia pass on the kinematics of the
//     predictor's residual) whose interval keeps the spectral radius of M_k^-1 M - I near
//     kTargetDrift (two power iterations at each refresh measure it), within a Newton solve when
//     an iteration contracts by less than kSlowContraction, and before the retry of a failed one;
//   - dFD/dq, dFD/dv (dr/dq, dr/dv of the residual times -M^-1 at the same state): after a
//     failed step, a retry that M alone did not save, or kJacobianAge steps, as CVODE does.
// The convergence test is CVODE's (converged when |delta| min(1, rate) <= tol, diverging when a
// correction more than doubles) with IDA's tolerance coefficient at kNewtonCoefficient: IDA's own
// fails as soon as the rate exceeds 0.9, also when the corrections are far below the tolerance,
// and IDA's default coefficient (0.33) lets Newton errors disturb its order selection (on the
// hybrid serial robot, 1.5x the steps of 0.1).

#include <idas/idas.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

#include <algorithm>
#include <cmath>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/sundials_stepper.hpp"
#include "core/sim/vectorised_nvector.hpp"

namespace tendril::detail {
namespace {

constexpr long kJacobianAge = 50;           // steps (CVODE: 51)
constexpr double kTargetDrift = 0.02;       // spectral radius of M_k^-1 M - I between refreshes
constexpr double kSlowContraction = 0.2;    // a Newton ratio above this refreshes M at once
constexpr double kNewtonCoefficient = 0.1;  // IDA's epcon (default 0.33)
constexpr int kNewtonIterations = 6;        // IDA's default is 4
constexpr double kDeltaCj = 1e-6;           // a setup at every change of c

constexpr SundialsCalls kIda{"IDA", IDAFree, IDAGetNumSteps, IDAGetQuad, IDAGetReturnFlagName};

class IdaStepper final : public SundialsStepper {
 public:
  IdaStepper(DynamicsSystem& system, const SimulationOptions& options)
      : SundialsStepper(system, options, kIda) {}

  ~IdaStepper() override { release(); }

  void reset(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    resetCommon(q0, v0, makeResidualMatrix);  // frees IDA's memory first
    release();
    residualBlocks(matrix_).mass = &system_.data();
    y_dot_ = N_VNew_Serial(2 * n_, context_);
    useVectorisedOperations(y_dot_);
    auto y_dot = toEigen(y_dot_);
    y_dot.head(n_) = v0;
    y_dot.tail(n_) = system_.acceleration(t0, q0, v0);  // consistent: r(t0, y0, y0') = 0
    a_.resize(n_);
    residual_q_.resize(n_);
    mass_previous_.resize(n_, n_);
    power_.resize(n_);
    image_.resize(n_);
    residual_t_ = mass_time_ = t0;
    mass_interval_ = 0.0;
    mass_previous_valid_ = false;
    jacobian_step_ = -1;
    memory_ = IDACreate(context_);
    IDAInit(memory_, residual, t0, y_, y_dot_);
    IDASetUserData(memory_, this);
    IDASetErrHandlerFn(memory_, errorHandler, this);
    IDASStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    IDASetMaxNumSteps(memory_, 1000000);
    IDASetMinStep(memory_, options_.min_step);
    if (options_.step > 0.0) IDASetMaxStep(memory_, options_.step);
    // our own Newton solver, with a convergence test in CVODE's form whose failure count drives
    // the Jacobian reuse
    newton_ = SUNNonlinSol_Newton(y_, context_);
    IDASetNonlinearSolver(memory_, newton_);
    SUNNonlinSolSetConvTestFn(newton_, convergenceTest, this);
    IDASetMaxNonlinIters(memory_, kNewtonIterations);
    IDASetNonlinConvCoef(memory_, kNewtonCoefficient);
    IDASetLinearSolver(memory_, solver_, matrix_);
    IDASetJacFn(memory_, jacobian);
    IDASetDeltaCjLSetup(memory_, kDeltaCj);
    IDAQuadInit(memory_, dissipationRate, quadrature_);
    IDAQuadSStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    IDASetQuadErrCon(memory_, SUNTRUE);  // the damping work is part of the error control
  }

  bool advanceTo(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& v,
                 std::string& error) override {
    double t_reached = 0.0;
    last_error_.clear();
    return finishAdvance(IDASolve(memory_, t_out, &t_reached, y_, y_dot_, IDA_NORMAL), q, v, error);
  }

 private:
  // r = [q' - v; DynamicsSystem::residual]; a non-finite residual asks IDA for a smaller step.
  // The first residual of a step (the predictor's) refreshes M when the schedule says so
  static int residual(double t, N_Vector y, N_Vector y_dot, N_Vector r, void* user) {
    auto* self = static_cast<IdaStepper*>(user);
    const int n = self->n_;
    self->unpack(y);
    const auto x_dot = toEigen(y_dot);
    self->a_ = x_dot.tail(n);
    auto out = toEigen(r);
    out.head(n) = x_dot.head(n) - self->v_;
    out.tail(n) = self->system_.residual(t, self->q_, self->v_, self->a_);
    const bool new_step = t != self->residual_t_;
    self->residual_t_ = t;
    self->residual_q_ = self->q_;
    if (!out.allFinite()) return 1;
    if (new_step && self->jacobian_step_ >= 0 &&
        std::abs(t - self->mass_time_) >= self->mass_interval_ && !self->refreshMass())
      return 1;
    return 0;
  }

  // M_k = M at the last residual's configuration, factored in the system's Data
  bool refreshMass() {
    mass_refreshed_ = true;
    const Eigen::MatrixXd& M = system_.residualMassMatrix();
    adaptMassInterval(M);
    mass_previous_ = M;
    mass_previous_valid_ = true;
    mass_time_ = residual_t_;
    return system_.factorResidualMass();
  }

  // the spectral radius of M_k^-1 M - I (power iterations with the factor of M_k, still in the
  // system's Data) is how far M moved since M_k; the next interval aims at kTargetDrift, growing
  // at most fourfold
  void adaptMassInterval(const Eigen::MatrixXd& M) {
    const double elapsed = std::abs(residual_t_ - mass_time_);
    if (!(elapsed > 0.0) || !mass_previous_valid_) return;
    power_.setConstant(1.0 / std::sqrt(static_cast<double>(n_)));
    double drift = 0.0;
    for (int k = 0; k < 2; ++k) {
      image_.noalias() = M * power_;
      image_.noalias() -= mass_previous_ * power_;
      solveMassMatrix(system_.data(), image_);
      drift = image_.norm();
      if (!(drift > 0.0) || !std::isfinite(drift)) return;
      power_ = image_ / drift;
    }
    mass_interval_ =
        std::min(elapsed * kTargetDrift / drift, 4.0 * std::max(mass_interval_, elapsed));
  }

  // the blocks of dr/dy + c dr/dy': c always; M alone to retry a Newton solve that failed without
  // a refresh of M; the derivatives when there are none, a step failed since, or they are old
  static int jacobian(double t, double c, N_Vector y, N_Vector y_dot, N_Vector /*r*/, SUNMatrix J,
                      void* user, N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<IdaStepper*>(user);
    ResidualBlocks& blocks = residualBlocks(J);
    blocks.c = c;
    self->rate_ = 1.0;
    long failures_now = 0, step_failures = 0, steps = 0;
    SUNNonlinSolGetNumConvFails(self->newton_, &failures_now);  // restarts at every solve
    IDAGetNumStepSolveFails(self->memory_, &step_failures);
    IDAGetNumSteps(self->memory_, &steps);
    const bool usable = self->jacobian_step_ >= 0 &&
                        step_failures == self->step_failures_at_jacobian_ &&
                        steps - self->jacobian_step_ < kJacobianAge;
    if (usable && failures_now == 0) return 0;
    if (usable && !self->mass_refreshed_ && t == self->residual_t_)
      return self->refreshMass() ? 0 : 1;
    self->unpack(y);
    self->a_ = toEigen(y_dot).tail(self->n_);
    const bool finite = self->system_.residualJacobian(t, self->q_, self->v_, self->a_,
                                                       blocks.dqdd_dq, blocks.dqdd_dv) &&
                        blocks.dqdd_dq.allFinite() && blocks.dqdd_dv.allFinite();
    self->mass_previous_ = self->system_.data().M;  // residualJacobian() factored it
    self->mass_previous_valid_ = true;
    self->mass_time_ = t;
    self->jacobian_step_ = finite ? steps : -1;
    self->step_failures_at_jacobian_ = step_failures;
    return finite ? 0 : 1;
  }

  // CVODE's test: converged when |delta| min(1, rate) <= tol, diverging when a correction more
  // than doubles; a slow contraction refreshes M for the next iteration
  static int convergenceTest(SUNNonlinearSolver nls, N_Vector /*ycor*/, N_Vector delta, double tol,
                             N_Vector weights, void* user) {
    auto* self = static_cast<IdaStepper*>(user);
    const double norm = N_VWrmsNorm(delta, weights);
    int m = 0;
    SUNNonlinSolGetCurIter(nls, &m);
    if (m == 0) self->mass_refreshed_ = false;
    double ratio = 0.0;
    if (m > 0) {
      ratio = norm / self->previous_norm_;
      if (ratio > 2.0) return SUN_NLS_CONV_RECVR;
      self->rate_ = std::max(0.3 * self->rate_, ratio);
    }
    if (norm * std::min(1.0, self->rate_) <= tol) return SUN_NLS_SUCCESS;
    if (ratio > kSlowContraction && !self->mass_refreshed_) {
      if (!self->refreshMass()) return SUN_NLS_CONV_RECVR;
      self->rate_ = 1.0;
    }
    self->previous_norm_ = norm;
    return SUN_NLS_CONTINUE;
  }

  static int dissipationRate(double /*t*/, N_Vector y, N_Vector /*y_dot*/, N_Vector rate,
                             void* user) {
    auto* self = static_cast<IdaStepper*>(user);
    self->v_ = toEigen(y).tail(self->n_);
    NV_Ith_S(rate, 0) = self->system_.dissipationRate(self->v_);
    return 0;
  }

  // the Newton solver and y', after IDA's memory, which refers to them
  void release() {
    releaseMemory();
    if (newton_) SUNNonlinSolFree(newton_);
    if (y_dot_) N_VDestroy(y_dot_);
    newton_ = nullptr;
    y_dot_ = nullptr;
  }

  SUNNonlinearSolver newton_ = nullptr;
  N_Vector y_dot_ = nullptr;
  Eigen::VectorXd a_;
  Eigen::VectorXd residual_q_;  ///< configuration of the last residual
  double residual_t_ = 0.0;     ///< and its time
  // Newton: CVODE's contraction estimate, the last correction, and whether M was refreshed in
  // the current solve
  double rate_ = 1.0, previous_norm_ = 0.0;
  bool mass_refreshed_ = false;
  // M_k: the matrix last factored, when, the interval to the next scheduled refresh, and
  // power-iteration scratch
  Eigen::MatrixXd mass_previous_;
  bool mass_previous_valid_ = false;
  double mass_time_ = 0.0, mass_interval_ = 0.0;
  Eigen::VectorXd power_, image_;
  // the derivatives: step count at their evaluation (-1: none) and the step failures then
  long jacobian_step_ = -1;
  long step_failures_at_jacobian_ = 0;
};

}  // namespace

std::unique_ptr<Stepper> makeIda(DynamicsSystem& system, const SimulationOptions& options) {
  return std::make_unique<IdaStepper>(system, options);
}

}  // namespace tendril::detail
