#pragma once
// A SUNDIALS linear solver for the Newton systems of a second-order system x = [q; v], x' = [v;
// FD]. CVODE hands it A = I - gamma J with J = [[0, I], [dFD/dq, dFD/dv]]; eliminating the top
// block row (x_q = b_q + gamma x_v) leaves the n x n system
//   (I - gamma dFD/dv - gamma^2 dFD/dq) x_v = b_v + gamma dFD/dq b_q,
// one LU of size n instead of 2n: eight times fewer flops, and a quarter of the memory traffic.
//
// With a makeSecondOrderMatrix() matrix and a linear-system function (CVodeSetLinSysFn) CVODE
// never forms A: no 2n x 2n zeroing, Jacobian copy and I - gamma J update per setup, which cost
// more than the n x n LU itself.
//
// IDA (residual r = [q' - v; ID(q, v, v') - tau] = M(q) (v' - FD) in its second half) hands it
// dr/dy + c dr/dy' = [[c I, -I], [dr/dq, dr/dv + c M]]. A makeResidualMatrix() matrix stands for
// it as diag(I, M_k) [[c I, -I], [-dFD/dq, c I - dFD/dv]], which is exact when M_k and the
// derivatives are taken at the same state (dr/dq = -M dFD/dq, dr/dv = -M dFD/dv there): the solve
// applies M_k^-1 to the velocity rows, then is the CVODE one with gamma = 1 / c. The factor of M
// and the derivatives can so be renewed separately (ida.cpp).

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>

#include "core/model/data.hpp"

namespace tendril {

/// \brief What a SecondOrderMatrix holds: A = I - gamma [[0, I], [dqdd_dq, dqdd_dv]].
struct SecondOrderBlocks {
  explicit SecondOrderBlocks(int n) : dqdd_dq(n, n), dqdd_dv(n, n) {}
  Eigen::MatrixXd dqdd_dq, dqdd_dv;  ///< dFD/dq, dFD/dv (n x n)
  double gamma = 0.0;
};

/// \brief What a ResidualMatrix holds: IDA's dr/dy + c dr/dy' as
/// diag(I, M_k) [[c I, -I], [-dqdd_dq, c I - dqdd_dv]].
struct ResidualBlocks {
  explicit ResidualBlocks(int n) : dqdd_dq(n, n), dqdd_dv(n, n) {}
  Eigen::MatrixXd dqdd_dq, dqdd_dv;  ///< dFD/dq, dFD/dv (n x n)
  double c = 0.0;                    ///< IDA's c_j = alpha_s / h
  Data* mass = nullptr;              ///< holds the factor of M_k (solveMassMatrix())
};

/// \brief A SUNMatrix (SUNMATRIX_CUSTOM) standing for the 2n x 2n Newton matrix by its blocks;
/// only makeSecondOrderLinearSolver() can use it. SUNMatZero leaves the blocks as they are (IDA
/// zeroes the matrix before every Jacobian call): the Jacobian function overwrites or reuses
/// them. Free with SUNMatDestroy.
SUNMatrix makeSecondOrderMatrix(int n, SUNContext context);
/// \brief The blocks of a matrix from makeSecondOrderMatrix(), to fill before the solver setup.
SecondOrderBlocks& secondOrderBlocks(SUNMatrix matrix);

/// \brief The same for IDA's iteration matrix.
SUNMatrix makeResidualMatrix(int n, SUNContext context);
ResidualBlocks& residualBlocks(SUNMatrix matrix);

/// \brief A direct SUNLinearSolver for 2n x 2n dense matrices [[I, -gamma I], [A21, A22]] (what
/// CVODE forms from the Jacobian of a second-order system), makeSecondOrderMatrix() ones and
/// makeResidualMatrix() ones. Free with SUNLinSolFree.
SUNLinearSolver makeSecondOrderLinearSolver(int n, SUNContext context);

}  // namespace tendril
