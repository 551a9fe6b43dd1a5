#include "core/sim/sundials_stepper.hpp"

#include <cstdlib>

#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/vectorised_nvector.hpp"

namespace tendril::detail {

SundialsStepper::SundialsStepper(DynamicsSystem& system, const SimulationOptions& options,
                                 const SundialsCalls& calls)
    : system_(system), options_(options), n_(system.model().nv), calls_(calls), q_(n_), v_(n_) {
  SUNContext_Create(nullptr, &context_);
}

SundialsStepper::~SundialsStepper() {
  releaseCommon();
  SUNContext_Free(&context_);
}

void SundialsStepper::errorHandler(int /*code*/, const char* /*module*/, const char* /*function*/,
                                   char* message, void* user) {
  static_cast<SundialsStepper*>(user)->last_error_ = message;
}

void SundialsStepper::resetCommon(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                                  SUNMatrix (*make_matrix)(int, SUNContext)) {
  releaseCommon();
  y_ = N_VNew_Serial(2 * n_, context_);
  useVectorisedOperations(y_);  // and so the integrator's clones of y
  quadrature_ = N_VNew_Serial(1, context_);
  toEigen(y_).head(n_) = q0;
  toEigen(y_).tail(n_) = v0;
  NV_Ith_S(quadrature_, 0) = 0.0;
  dissipated_ = 0.0;
  matrix_ = make_matrix(n_, context_);
  solver_ = makeSecondOrderLinearSolver(n_, context_);
}

long SundialsStepper::steps() const {
  long steps = 0;
  if (memory_) calls_.get_steps(memory_, &steps);
  return steps;
}

bool SundialsStepper::finishAdvance(int flag, Eigen::VectorXd& q, Eigen::VectorXd& v,
                                    std::string& error) {
  q = toEigen(y_).head(n_);
  v = toEigen(y_).tail(n_);
  if (flag < 0) {
    if (last_error_.empty()) {
      char* name = calls_.flag_name(flag);  // malloc'ed: asked for on failure only, and freed
      error = std::string(calls_.name) + " failed: " + name;
      std::free(name);
    } else {
      error = last_error_;
    }
    return false;
  }
  double t = 0.0;
  if (calls_.get_quadrature(memory_, &t, quadrature_) == 0) dissipated_ = NV_Ith_S(quadrature_, 0);
  return true;
}

void SundialsStepper::releaseMemory() {
  if (memory_) calls_.free_memory(&memory_);
  memory_ = nullptr;
}

void SundialsStepper::unpack(N_Vector y) {
  const auto x = toEigen(y);
  q_ = x.head(n_);
  v_ = x.tail(n_);
}

void SundialsStepper::releaseCommon() {
  releaseMemory();
  if (solver_) SUNLinSolFree(solver_);
  if (matrix_) SUNMatDestroy(matrix_);
  if (y_) N_VDestroy(y_);
  if (quadrature_) N_VDestroy(quadrature_);
  solver_ = nullptr;
  matrix_ = nullptr;
  y_ = quadrature_ = nullptr;
}

}  // namespace tendril::detail
