#include "core/sim/second_order_linear_solver.hpp"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Core>
#include <Eigen/LU>

namespace tendril {
namespace {

struct Content {
  explicit Content(int size)
      : n(size), lower_left(size, size), reduced(size, size), lu(size), rhs(size) {}
  int n;
  double gamma = 0.0;
  Eigen::MatrixXd lower_left;  // A21 = -gamma dFD/dq
  Eigen::MatrixXd reduced;     // A22 + gamma A21
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::VectorXd rhs;
  int last_flag = SUNLS_SUCCESS;
};

Content& content(SUNLinearSolver solver) {
  return *static_cast<Content*>(solver->content);
}

SUNLinearSolver_Type type(SUNLinearSolver) {
  return SUNLINEARSOLVER_DIRECT;
}
SUNLinearSolver_ID id(SUNLinearSolver) {
  return SUNLINEARSOLVER_CUSTOM;
}
int initialize(SUNLinearSolver) {
  return SUNLS_SUCCESS;
}

// A21 and A22 + gamma A21 from a 2n x 2n dense A
void reduceDense(Content& c, SUNMatrix matrix) {
  const int n = c.n;
  const Eigen::Map<const Eigen::MatrixXd> a(SUNDenseMatrix_Data(matrix), 2 * n, 2 * n);
  c.gamma = -a(0, n);  // the top-right block is -gamma I
  c.lower_left = a.bottomLeftCorner(n, n);
  c.reduced = a.bottomRightCorner(n, n);
  c.reduced.noalias() += c.gamma * c.lower_left;
}

// the same from the blocks: A21 = -gamma dFD/dq, A22 + gamma A21 = I - gamma dFD/dv - gamma^2
// dFD/dq
void reduceBlocks(Content& c, const SecondOrderBlocks& blocks) {
  c.gamma = blocks.gamma;
  c.lower_left = -c.gamma * blocks.dqdd_dq;
  c.reduced = c.gamma * c.lower_left;
  c.reduced.noalias() -= c.gamma * blocks.dqdd_dv;
  c.reduced.diagonal().array() += 1.0;
}

SUNMatrix_ID matrixId(SUNMatrix) {
  return SUNMATRIX_CUSTOM;
}

int setup(SUNLinearSolver solver, SUNMatrix matrix) {
  Content& c = content(solver);
  if (matrix->ops->getid == matrixId) {  // from makeSecondOrderMatrix()
    reduceBlocks(c, secondOrderBlocks(matrix));
  } else {
    reduceDense(c, matrix);
  }
  c.lu.compute(c.reduced);
  // a zero or non-finite pivot: recoverable, CVODE retries with a smaller step
  const double smallest_pivot = c.lu.matrixLU().diagonal().cwiseAbs().minCoeff();
  c.last_flag =
      smallest_pivot > 0.0 && std::isfinite(smallest_pivot) ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
  return c.last_flag;
}

int solve(SUNLinearSolver solver, SUNMatrix, N_Vector x, N_Vector b, realtype) {
  Content& c = content(solver);
  const int n = c.n;
  const Eigen::Map<const Eigen::VectorXd> rhs(N_VGetArrayPointer(b), 2 * n);
  Eigen::Map<Eigen::VectorXd> out(N_VGetArrayPointer(x), 2 * n);
  c.rhs = rhs.tail(n);
  c.rhs.noalias() -= c.lower_left * rhs.head(n);
  out.tail(n) = c.lu.solve(c.rhs);
  out.head(n) = rhs.head(n) + c.gamma * out.tail(n);  // x and b are distinct vectors in CVODE
  c.last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

sunindextype lastFlag(SUNLinearSolver solver) {
  return content(solver).last_flag;
}

int freeSolver(SUNLinearSolver solver) {
  if (!solver) return SUNLS_SUCCESS;
  delete static_cast<Content*>(solver->content);
  solver->content = nullptr;
  SUNLinSolFreeEmpty(solver);
  return SUNLS_SUCCESS;
}

void destroyMatrix(SUNMatrix matrix) {
  if (!matrix) return;
  delete static_cast<SecondOrderBlocks*>(matrix->content);
  matrix->content = nullptr;
  SUNMatFreeEmpty(matrix);
}

}  // namespace

SUNMatrix makeSecondOrderMatrix(int n, SUNContext context) {
  SUNMatrix matrix = SUNMatNewEmpty(context);
  matrix->ops->getid = matrixId;
  matrix->ops->destroy = destroyMatrix;
  matrix->content = new SecondOrderBlocks(n);
  return matrix;
}

SecondOrderBlocks& secondOrderBlocks(SUNMatrix matrix) {
  return *static_cast<SecondOrderBlocks*>(matrix->content);
}

SUNLinearSolver makeSecondOrderLinearSolver(int n, SUNContext context) {
  SUNLinearSolver solver = SUNLinSolNewEmpty(context);
  solver->ops->gettype = type;
  solver->ops->getid = id;
  solver->ops->initialize = initialize;
  solver->ops->setup = setup;
  solver->ops->solve = solve;
  solver->ops->lastflag = lastFlag;
  solver->ops->free = freeSolver;
  solver->content = new Content(n);
  return solver;
}

}  // namespace tendril
