// Variable-step, variable-order BDF through SUNDIALS CVODE(S). The Jacobian [[0, I], [dFD/dq,
// dFD/dv]] comes from the system's DynamicsJacobian (analytical or finite differences); the Newton
// systems are formed by their n x n blocks and solved at size n, not 2n
// (second_order_linear_solver.hpp); the damping work is a CVODES quadrature, so it is integrated
// to tolerance.

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>

#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/simulation.hpp"

namespace tendril::detail {
namespace {

class BdfStepper final : public Stepper {
 public:
  BdfStepper(DynamicsSystem& system, const SimulationOptions& options)
      : system_(system), options_(options), n_(system.model().nv) {
    SUNContext_Create(nullptr, &context_);
  }

  ~BdfStepper() override {
    release();
    SUNContext_Free(&context_);
  }

  void reset(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) override {
    release();
    y_ = N_VNew_Serial(2 * n_, context_);
    quadrature_ = N_VNew_Serial(1, context_);
    toEigen(y_).head(n_) = q0;
    toEigen(y_).tail(n_) = v0;
    NV_Ith_S(quadrature_, 0) = 0.0;
    dissipated_ = 0.0;
    memory_ = CVodeCreate(CV_BDF, context_);
    CVodeInit(memory_, rightHandSide, t0, y_);
    CVodeSetUserData(memory_, this);
    CVodeSetErrHandlerFn(memory_, errorHandler, this);
    CVodeSStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    CVodeSetMaxNumSteps(memory_, 1000000);
    CVodeSetMinStep(memory_, options_.min_step);
    if (options_.step > 0.0) CVodeSetMaxStep(memory_, options_.step);
    matrix_ = makeSecondOrderMatrix(n_, context_);
    solver_ = makeSecondOrderLinearSolver(n_, context_);
    CVodeSetLinearSolver(memory_, solver_, matrix_);
    CVodeSetLinSysFn(memory_, linearSystem);
    // CVODE's reuse heuristics stay at their defaults (a Jacobian at least every 51 steps, the
    // Newton matrix every 20 steps or when gamma moves by 30 %): Jacobians are already ~2 % of the
    // dynamics evaluations, and on the paper's six robots fewer matrix setups (larger gamma
    // tolerance, 50 steps) or a looser Newton test cost more steps and evaluations than they saved
    CVodeQuadInit(memory_, dissipationRate, quadrature_);
    CVodeQuadSStolerances(memory_, options_.relative_tolerance, options_.absolute_tolerance);
    CVodeSetQuadErrCon(memory_, SUNTRUE);  // the damping work is part of the error control
    q_.resize(n_);
    v_.resize(n_);
  }

  bool advanceTo(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& v,
                 std::string& error) override {
    double t_reached = 0.0;
    last_error_.clear();
    const int flag = CVode(memory_, t_out, y_, &t_reached, CV_NORMAL);
    q = toEigen(y_).head(n_);
    v = toEigen(y_).tail(n_);
    if (flag < 0) {
      error = last_error_.empty() ? std::string("CVODE failed: ") + CVodeGetReturnFlagName(flag)
                                  : last_error_;
      return false;
    }
    double t = 0.0;
    if (CVodeGetQuad(memory_, &t, quadrature_) == CV_SUCCESS)
      dissipated_ = NV_Ith_S(quadrature_, 0);
    return true;
  }

  double dissipated() const override { return dissipated_; }

  long steps() const override {
    long steps = 0;
    if (memory_) CVodeGetNumSteps(memory_, &steps);
    return steps;
  }

 private:
  static Eigen::Map<Eigen::VectorXd> toEigen(N_Vector x) {
    return Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(x), N_VGetLength(x));
  }

  // x' = [v; FD(t, q, v)]; a non-finite acceleration asks CVODE to retry with a smaller step
  static int rightHandSide(double t, N_Vector y, N_Vector y_dot, void* user) {
    auto* self = static_cast<BdfStepper*>(user);
    const int n = self->n_;
    const auto x = toEigen(y);
    self->q_ = x.head(n);
    self->v_ = x.tail(n);
    auto x_dot = toEigen(y_dot);
    x_dot.head(n) = self->v_;
    x_dot.tail(n) = self->system_.acceleration(t, self->q_, self->v_);
    return x_dot.allFinite() ? 0 : 1;
  }

  // A = I - gamma J by its blocks: a fresh Jacobian unless CVODE may reuse the last one (jok);
  // the blocks keep the last Jacobian between calls, as CVODE's savedJ would
  static int linearSystem(double t, N_Vector y, N_Vector /*f*/, SUNMatrix A, sunbooleantype jok,
                          sunbooleantype* jcur, double gamma, void* user, N_Vector, N_Vector,
                          N_Vector) {
    SecondOrderBlocks& blocks = secondOrderBlocks(A);
    blocks.gamma = gamma;
    *jcur = jok ? SUNFALSE : SUNTRUE;
    if (jok) return 0;
    auto* self = static_cast<BdfStepper*>(user);
    const int n = self->n_;
    const auto x = toEigen(y);
    self->q_ = x.head(n);
    self->v_ = x.tail(n);
    self->system_.jacobian(t, self->q_, self->v_, blocks.dqdd_dq, blocks.dqdd_dv);
    return blocks.dqdd_dq.allFinite() && blocks.dqdd_dv.allFinite() ? 0 : 1;
  }

  static int dissipationRate(double /*t*/, N_Vector y, N_Vector rate, void* user) {
    auto* self = static_cast<BdfStepper*>(user);
    self->v_ = toEigen(y).tail(self->n_);
    NV_Ith_S(rate, 0) = self->system_.dissipationRate(self->v_);
    return 0;
  }

  static void errorHandler(int /*code*/, const char* /*module*/, const char* /*function*/,
                           char* message, void* user) {
    static_cast<BdfStepper*>(user)->last_error_ = message;
  }

  void release() {
    if (memory_) CVodeFree(&memory_);
    if (solver_) SUNLinSolFree(solver_);
    if (matrix_) SUNMatDestroy(matrix_);
    if (y_) N_VDestroy(y_);
    if (quadrature_) N_VDestroy(quadrature_);
    memory_ = nullptr;
    solver_ = nullptr;
    matrix_ = nullptr;
    y_ = quadrature_ = nullptr;
  }

  DynamicsSystem& system_;
  const SimulationOptions& options_;
  const int n_;
  SUNContext context_ = nullptr;
  void* memory_ = nullptr;
  N_Vector y_ = nullptr, quadrature_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  Eigen::VectorXd q_, v_;
  std::string last_error_;
  double dissipated_ = 0.0;  ///< damping work at the last output time
};

}  // namespace

std::unique_ptr<Stepper> makeBdf(DynamicsSystem& system, const SimulationOptions& options) {
  return std::make_unique<BdfStepper>(system, options);
}

}  // namespace tendril::detail
