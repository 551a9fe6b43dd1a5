#pragma once
// What the two SUNDIALS steppers share (bdf.cpp: CVODES on x' = [v; FD], ida.cpp: IDAS on the
// residual form): the context, the state y = [q; v] and the damping-work quadrature as N_Vectors,
// the n x n block matrix and linear solver (second_order_linear_solver.hpp), the error text of the
// last failure and the conversion of a solver return into the Stepper's answer.

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <string>

#include "core/sim/simulation.hpp"

namespace tendril::detail {

/// \brief The solver-specific calls of the shared code: CVODE's and IDA's have the same signatures.
struct SundialsCalls {
  const char* name;                                 ///< "CVODE", "IDA"
  void (*free_memory)(void**);                      ///< CVodeFree, IDAFree
  int (*get_steps)(void*, long*);                   ///< CVodeGetNumSteps, IDAGetNumSteps
  int (*get_quadrature)(void*, double*, N_Vector);  ///< CVodeGetQuad, IDAGetQuad
  char* (*flag_name)(long);  ///< CVodeGetReturnFlagName, IDAGetReturnFlagName (malloc'ed)
};

class SundialsStepper : public Stepper {
 public:
  SundialsStepper(DynamicsSystem& system, const SimulationOptions& options,
                  const SundialsCalls& calls);
  ~SundialsStepper() override;
  SundialsStepper(const SundialsStepper&) = delete;
  SundialsStepper& operator=(const SundialsStepper&) = delete;

  double dissipated() const override { return dissipated_; }
  long steps() const override;

 protected:
  static Eigen::Map<Eigen::VectorXd> toEigen(N_Vector x) {
    return Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(x), N_VGetLength(x));
  }
  /// \brief CVODE's and IDA's error handler (the same signature): keeps the message for error()
  static void errorHandler(int code, const char* module, const char* function, char* message,
                           void* user);

  /// \brief Frees the solver's memory, the vectors, matrix and solver, then makes y = [q0; v0], a
  /// zero quadrature and the matrix made by make_matrix with the block linear solver.
  void resetCommon(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                   SUNMatrix (*make_matrix)(int, SUNContext));
  /// \brief After a solver call to an output time: q, v from y, and the damping work; false with
  /// error set when flag is negative (the solver's last message, else "<solver> failed: <flag
  /// name>")
  bool finishAdvance(int flag, Eigen::VectorXd& q, Eigen::VectorXd& v, std::string& error);
  /// \brief Frees the solver's memory (before what it refers to).
  void releaseMemory();
  /// \brief Copies the head and tail of y into q_, v_ (the workspace of the callbacks).
  void unpack(N_Vector y);

  DynamicsSystem& system_;
  const SimulationOptions& options_;
  const int n_;
  const SundialsCalls calls_;
  SUNContext context_ = nullptr;
  void* memory_ = nullptr;  ///< CVODE's or IDA's
  N_Vector y_ = nullptr, quadrature_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  Eigen::VectorXd q_, v_;
  std::string last_error_;
  double dissipated_ = 0.0;  ///< damping work at the last output time

 private:
  void releaseCommon();
};

}  // namespace tendril::detail
