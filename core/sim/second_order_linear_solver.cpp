#include "core/sim/second_order_linear_solver.hpp"

#include <nvector/nvector_serial.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <cmath>

#include "core/algorithm/forward_dynamics.hpp"

namespace tendril {
namespace {

struct Content {
  explicit Content(int size)
      : n(size), lower_left(size, size), reduced(size, size), lu(size), rhs(size), scaled_q(size) {}
  int n;
  double beta = 0.0;           // the top block row is [I, -beta I]
  Eigen::MatrixXd lower_left;  // A21
  Eigen::MatrixXd reduced;     // A22 + beta A21
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::VectorXd rhs, scaled_q;
  // force space: the (nu + m) x (nu + m) matrix, sized at the first setup
  Eigen::MatrixXd kkt;  // factored into lu, like reduced (a solver serves one kind of matrix)
  Eigen::VectorXd kkt_rhs, kkt_solution, b_q, b_v;
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

// IDA's reduced system: A21 = -gamma dFD/dq, A22 + gamma A21 = I - gamma dFD/dv - gamma^2 dFD/dq
void reduce(Content& c, double gamma, const Eigen::MatrixXd& dqdd_dq,
            const Eigen::MatrixXd& dqdd_dv) {
  c.beta = gamma;
  c.lower_left = -gamma * dqdd_dq;
  c.reduced = gamma * c.lower_left;
  c.reduced.noalias() -= gamma * dqdd_dv;
  c.reduced.diagonal().array() += 1.0;
}

SUNMatrix_ID residualId(SUNMatrix) {
  return SUNMATRIX_CUSTOM;
}
SUNMatrix_ID forceSpaceId(SUNMatrix) {
  return SUNMATRIX_CUSTOM;
}

// [[M - gamma dr/dv - gamma^2 dr/dq, -A^T], [A - gamma dc/dv - gamma^2 dc/dq, 0]]
void assembleForceSpace(Content& c, const ForceSpaceBlocks& blocks) {
  const auto nu = static_cast<Eigen::Index>(blocks.free.size());
  const Eigen::Index m = blocks.A.rows();
  const double gamma = blocks.gamma;
  c.beta = gamma;
  c.kkt.resize(nu + m, nu + m);
  auto top_left = c.kkt.topLeftCorner(nu, nu);
  top_left = blocks.mass;
  top_left.noalias() -= gamma * blocks.dr_dv;
  top_left.noalias() -= (gamma * gamma) * blocks.dr_dq;
  if (m == 0) return;
  c.kkt.topRightCorner(nu, m) = -blocks.A.transpose();
  auto bottom_left = c.kkt.bottomLeftCorner(m, nu);
  bottom_left = blocks.A;
  bottom_left.noalias() -= gamma * blocks.dc_dv;
  bottom_left.noalias() -= (gamma * gamma) * blocks.dc_dq;
  c.kkt.bottomRightCorner(m, m).setZero();
}

// x_v from the force-space system, x_q = b_q + gamma x_v (x_v = b_v where prescribed)
void solveForceSpace(Content& c, const ForceSpaceBlocks& blocks,
                     const Eigen::Map<const Eigen::VectorXd>& rhs,
                     Eigen::Map<Eigen::VectorXd>& out) {
  const int n = c.n;
  const auto nu = static_cast<Eigen::Index>(blocks.free.size());
  const Eigen::Index m = blocks.A.rows();
  c.b_q.resize(nu);
  c.b_v.resize(nu);
  for (Eigen::Index r = 0; r < nu; ++r) {  // hand loops: Eigen's indexed views copy the indices
    c.b_q(r) = rhs(blocks.free[r]);
    c.b_v(r) = rhs(n + blocks.free[r]);
  }
  c.kkt_rhs.resize(nu + m);
  c.kkt_rhs.head(nu).noalias() = blocks.mass * c.b_v;
  c.kkt_rhs.head(nu).noalias() += (c.beta * blocks.dr_dq) * c.b_q;
  if (m > 0) {
    c.kkt_rhs.tail(m).noalias() = blocks.A * c.b_v;
    c.kkt_rhs.tail(m).noalias() += (c.beta * blocks.dc_dq) * c.b_q;
  }
  c.kkt_solution = c.lu.solve(c.kkt_rhs);
  out.tail(n) = rhs.tail(n);
  for (Eigen::Index r = 0; r < nu; ++r) out(n + blocks.free[r]) = c.kkt_solution(r);
  out.head(n) = rhs.head(n) + c.beta * out.tail(n);
}

int setup(SUNLinearSolver solver, SUNMatrix matrix) {
  Content& c = content(solver);
  if (matrix->ops->getid == forceSpaceId) {
    assembleForceSpace(c, forceSpaceBlocks(matrix));
    c.lu.compute(c.kkt);
  } else if (matrix->ops->getid == residualId) {
    const ResidualBlocks& blocks = residualBlocks(matrix);
    reduce(c, 1.0 / blocks.c, blocks.dqdd_dq, blocks.dqdd_dv);
    c.lu.compute(c.reduced);
  } else {
    c.last_flag = SUNLS_ILL_INPUT;  // only the matrices made here
    return c.last_flag;
  }
  // a zero or non-finite pivot: recoverable, the integrator retries with a smaller step
  const double smallest_pivot = c.lu.matrixLU().diagonal().cwiseAbs().minCoeff();
  c.last_flag =
      smallest_pivot > 0.0 && std::isfinite(smallest_pivot) ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
  return c.last_flag;
}

int solve(SUNLinearSolver solver, SUNMatrix matrix, N_Vector x, N_Vector b, realtype) {
  Content& c = content(solver);
  const int n = c.n;
  const Eigen::Map<const Eigen::VectorXd> rhs(N_VGetArrayPointer(b), 2 * n);
  Eigen::Map<Eigen::VectorXd> out(N_VGetArrayPointer(x), 2 * n);
  // x and b are distinct vectors in CVODE and IDA
  if (matrix->ops->getid == forceSpaceId) {
    solveForceSpace(c, forceSpaceBlocks(matrix), rhs, out);
    c.last_flag = SUNLS_SUCCESS;
    return SUNLS_SUCCESS;
  }
  if (matrix->ops->getid == residualId) {
    // diag(I, M) [[c I, -I], [-dFD/dq, c I - dFD/dv]] x = b is the CVODE system with
    // gamma = 1 / c on gamma [b_q; M^-1 b_v]
    const ResidualBlocks& blocks = residualBlocks(matrix);
    c.scaled_q = c.beta * rhs.head(n);
    c.rhs = c.beta * rhs.tail(n);
    solveMassMatrix(*blocks.mass, c.rhs);
  } else {
    c.scaled_q = rhs.head(n);
    c.rhs = rhs.tail(n);
  }
  c.rhs.noalias() -= c.lower_left * c.scaled_q;
  out.tail(n) = c.lu.solve(c.rhs);
  out.head(n) = c.scaled_q + c.beta * out.tail(n);
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

template <typename Blocks>
void destroyMatrix(SUNMatrix matrix) {
  if (!matrix) return;
  delete static_cast<Blocks*>(matrix->content);
  matrix->content = nullptr;
  SUNMatFreeEmpty(matrix);
}

// the blocks are kept: IDA zeroes its matrix before every Jacobian call
int keepBlocks(SUNMatrix) {
  return 0;
}

template <typename Blocks>
SUNMatrix makeBlockMatrix(Blocks* blocks, SUNContext context, SUNMatrix_ID (*getid)(SUNMatrix)) {
  SUNMatrix matrix = SUNMatNewEmpty(context);
  matrix->ops->getid = getid;
  matrix->ops->zero = keepBlocks;
  matrix->ops->destroy = destroyMatrix<Blocks>;
  matrix->content = blocks;
  return matrix;
}

}  // namespace

SUNMatrix makeForceSpaceMatrix(int /*n: sized by the blocks*/, SUNContext context) {
  return makeBlockMatrix(new ForceSpaceBlocks, context, forceSpaceId);
}

ForceSpaceBlocks& forceSpaceBlocks(SUNMatrix matrix) {
  return *static_cast<ForceSpaceBlocks*>(matrix->content);
}

SUNMatrix makeResidualMatrix(int n, SUNContext context) {
  return makeBlockMatrix(new ResidualBlocks(n), context, residualId);
}

ResidualBlocks& residualBlocks(SUNMatrix matrix) {
  return *static_cast<ResidualBlocks*>(matrix->content);
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
