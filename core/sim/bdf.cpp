// Variable-step, variable-order BDF through SUNDIALS CVODE(S). CVODE's Newton matrix I - gamma J,
// J = [[0, I], [dFD/dq, dFD/dv]], is handed over as force-space blocks
// (DynamicsSystem::forceSpaceJacobian(): M, the derivatives of the force balance and of the
// constraint right-hand side, analytical or by central differences) and solved at size nu + m
// (second_order_linear_solver.hpp), never through M^-1; the damping work is a CVODES quadrature, so
// it is integrated to tolerance.

#include <cvodes/cvodes.h>

#include <limits>

#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/sundials_stepper.hpp"

namespace tendril::detail {
namespace {

constexpr SundialsCalls kCvode{"CVODE", CVodeFree, CVodeGetNumSteps, CVodeGetQuad,
                               CVodeGetReturnFlagName};

class BdfStepper final : public SundialsStepper {
 public:
  BdfStepper(DynamicsSystem& system, const SimulationOptions& options)
      : SundialsStepper(system, options, kCvode) {}

  void reset(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    resetCommon(q0, v0, makeForceSpaceMatrix);
    steps_before_restarts_ = 0;
    restarts_ = 0;
    last_restart_time_ = -std::numeric_limits<double>::infinity();
    memory_ = CVodeCreate(CV_BDF, context_);
    CVodeInit(memory_, rightHandSide, t0, y_);
    CVodeSetUserData(memory_, this);
    CVodeSetErrHandlerFn(memory_, errorHandler, this);
    CVodeSStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    CVodeSetMaxNumSteps(memory_, 1000000);
    CVodeSetMinStep(memory_, options_.min_step);
    if (options_.step > 0.0) CVodeSetMaxStep(memory_, options_.step);
    CVodeSetLinearSolver(memory_, solver_, matrix_);
    CVodeSetLinSysFn(memory_, linearSystem);
    // CVODE's reuse heuristics stay at their defaults (a Jacobian at least every 51 steps, the
    // Newton matrix every 20 steps or when gamma moves by 30 %): Jacobians are already ~2 % of the
    // dynamics evaluations, and on the paper's six robots fewer matrix setups (larger gamma
    // tolerance, 50 steps) or a looser Newton test cost more steps and evaluations than they saved
    CVodeQuadInit(memory_, dissipationRate, quadrature_);
    CVodeQuadSStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    CVodeSetQuadErrCon(memory_, SUNTRUE);  // the damping work is part of the error control
  }

  bool advanceTo(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& v,
                 std::string& error) override {
    double t_reached = 0.0;
    last_error_.clear();
    // a held controller input changes at t_out: no step may cross it (CVODE would interpolate
    // back from beyond, on the old input)
    if (system_.controllers() && system_.controllers()->sampled()) CVodeSetStopTime(memory_, t_out);
    int flag = CVode(memory_, t_out, y_, &t_reached, CV_NORMAL);
    while (stepSizeCollapsed(flag) && mayRestart(t_reached)) {
      restartAt(t_reached);
      flag = CVode(memory_, t_out, y_, &t_reached, CV_NORMAL);
    }
    return finishAdvance(flag, q, v, error);
  }

  long steps() const override { return steps_before_restarts_ + SundialsStepper::steps(); }
  long restarts() const override { return restarts_; }

 private:
  // Repeated error-test or Newton failures within one step (or down to a minimum step the user
  // set: SimulationOptions::min_step). On stiff closed chains (the
  // fin-ray finger at rtol 1e-3) they come from the BDF history, not from the model: an ultrafast
  // mode left in the multistep history outruns the error estimate, and a fresh start from the
  // last accepted step (order 1, a new Jacobian) goes on. A model that really diverges fails again
  // without progress, and then stops.
  static bool stepSizeCollapsed(int flag) {
    return flag == CV_ERR_FAILURE || flag == CV_CONV_FAILURE;
  }

  bool mayRestart(double t_reached) const {
    constexpr int kMaxRestarts = 3;
    return restarts_ < kMaxRestarts && t_reached > last_restart_time_;
  }

  // CVODE left y_ at its last accepted step, t_reached; the damping work restarts from its value
  // there
  void restartAt(double t_reached) {
    steps_before_restarts_ += SundialsStepper::steps();
    double t_quadrature = 0.0;
    CVodeGetQuad(memory_, &t_quadrature, quadrature_);
    CVodeReInit(memory_, t_reached, y_);
    CVodeQuadReInit(memory_, quadrature_);
    last_restart_time_ = t_reached;
    ++restarts_;
    last_error_.clear();
  }

  // x' = [v; FD(t, q, v)]; a non-finite acceleration asks CVODE to retry with a smaller step
  static int rightHandSide(double t, N_Vector y, N_Vector y_dot, void* user) {
    auto* self = static_cast<BdfStepper*>(user);
    const int n = self->n_;
    self->unpack(y);
    auto x_dot = toEigen(y_dot);
    x_dot.head(n) = self->v_;
    x_dot.tail(n) = self->system_.acceleration(t, self->q_, self->v_);
    return x_dot.allFinite() ? 0 : 1;
  }

  // A = I - gamma J by its force-space blocks: a fresh Jacobian unless CVODE may reuse the last
  // one (jok); the blocks keep the last Jacobian between calls, as CVODE's savedJ would
  static int linearSystem(double t, N_Vector y, N_Vector /*f*/, SUNMatrix A, sunbooleantype jok,
                          sunbooleantype* jcur, double gamma, void* user, N_Vector, N_Vector,
                          N_Vector) {
    ForceSpaceBlocks& blocks = forceSpaceBlocks(A);
    blocks.gamma = gamma;
    *jcur = jok ? SUNFALSE : SUNTRUE;
    if (jok) return 0;
    auto* self = static_cast<BdfStepper*>(user);
    self->unpack(y);
    return self->system_.forceSpaceJacobian(t, self->q_, self->v_, blocks) ? 0 : 1;
  }

  static int dissipationRate(double /*t*/, N_Vector y, N_Vector rate, void* user) {
    auto* self = static_cast<BdfStepper*>(user);
    self->v_ = toEigen(y).tail(self->n_);
    NV_Ith_S(rate, 0) = self->system_.dissipationRate(self->v_);
    return 0;
  }

  long steps_before_restarts_ = 0;
  int restarts_ = 0;
  double last_restart_time_ = -std::numeric_limits<double>::infinity();
};

}  // namespace

std::unique_ptr<Stepper> makeBdf(DynamicsSystem& system, const SimulationOptions& options) {
  return std::make_unique<BdfStepper>(system, options);
}

}  // namespace tendril::detail
