#pragma once
// The block linear solver of core/sim/second_order_linear_solver.hpp with its SUNDIALS context,
// matrix and vectors, freed on every way out of a test (an ASSERT included).

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <Eigen/Core>

#include "core/sim/second_order_linear_solver.hpp"

namespace tendril::test {

class BlockLinearSolver {
 public:
  /// \param make makeForceSpaceMatrix or makeResidualMatrix; n the number of coordinates
  BlockLinearSolver(SUNMatrix (*make)(int, SUNContext), int n) : n_(n) {
    SUNContext_Create(nullptr, &context_);
    matrix_ = make(n, context_);
    solver_ = makeSecondOrderLinearSolver(n, context_);
    x_ = N_VNew_Serial(2 * n, context_);
    b_ = N_VNew_Serial(2 * n, context_);
    N_VConst(1.0, b_);
  }
  ~BlockLinearSolver() {
    N_VDestroy(x_);
    N_VDestroy(b_);
    SUNLinSolFree(solver_);
    SUNMatDestroy(matrix_);
    SUNContext_Free(&context_);
  }
  BlockLinearSolver(const BlockLinearSolver&) = delete;
  BlockLinearSolver& operator=(const BlockLinearSolver&) = delete;

  SUNMatrix matrix() { return matrix_; }
  /// \brief The right-hand side b (2n, all ones until set) and the solution x of the last solve().
  Eigen::Map<Eigen::VectorXd> rhs() { return {N_VGetArrayPointer(b_), 2 * n_}; }
  Eigen::Map<Eigen::VectorXd> solution() { return {N_VGetArrayPointer(x_), 2 * n_}; }
  int setup() { return SUNLinSolSetup(solver_, matrix_); }
  int solve() { return SUNLinSolSolve(solver_, matrix_, x_, b_, 0.0); }

 private:
  int n_;
  SUNContext context_ = nullptr;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  N_Vector x_ = nullptr, b_ = nullptr;
};

}  // namespace tendril::test
