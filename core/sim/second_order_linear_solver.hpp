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
//
// With analytical derivatives CVODE's system is solved in force space instead (a
// makeForceSpaceMatrix() matrix). dFD = M^-1 dr loses about cond(M) eps of its accuracy in the
// directions of small inertia (thin rods: cond(M) ~ 1e15 on the fin-ray finger), and a Newton
// matrix built from it leaves stiff components unconverged (error-test failures down to
// h ~ 1e-7). Multiplying the velocity rows by M gives the same system without M^-1: on the free
// coordinates u, with the force balance M qdd - A_u^T lambda = r(q, v), A_u qdd = c(q, v) of
// constrained_dynamics.hpp (m = 0 without closed chains),
//   [[M - gamma dr/dv - gamma^2 dr/dq, -A_u^T], [A_u - gamma dc/dv - gamma^2 dc/dq, 0]]
//     [x_v; gamma dlambda] = [M b_v + gamma dr/dq b_q; A_u b_v + gamma dc/dq b_q],
// x_v = b_v on the prescribed coordinates (their rows of J are zero), x_q = b_q + gamma x_v: one
// LU of size nu + m, in which the damping and stiffness terms keep the small-inertia directions
// well scaled.

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>
#include <vector>

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

/// \brief What a ForceSpaceMatrix holds: CVODE's I - gamma J by the force-space derivatives on
/// the free coordinates (DynamicsSystem::forceSpaceJacobian() fills them).
struct ForceSpaceBlocks {
  std::vector<int> free;            ///< the free coordinates u (nu of n)
  Eigen::MatrixXd mass;             ///< M_uu
  Eigen::MatrixXd dr_dq, dr_dv;     ///< derivatives of the force balance (nu x nu)
  Eigen::MatrixXd A, dc_dq, dc_dv;  ///< constraint Jacobian and derivatives of c (m x nu)
  double gamma = 0.0;
};

/// \brief A SUNMatrix (SUNMATRIX_CUSTOM) standing for the 2n x 2n Newton matrix by its blocks;
/// only makeSecondOrderLinearSolver() can use it. SUNMatZero leaves the blocks as they are (IDA
/// zeroes the matrix before every Jacobian call): the Jacobian function overwrites or reuses
/// them. Free with SUNMatDestroy.
SUNMatrix makeSecondOrderMatrix(int n, SUNContext context);
/// \brief The blocks of a matrix from makeSecondOrderMatrix(), to fill before the solver setup.
SecondOrderBlocks& secondOrderBlocks(SUNMatrix matrix);

/// \brief The same in force space (analytical derivatives).
SUNMatrix makeForceSpaceMatrix(int n, SUNContext context);
ForceSpaceBlocks& forceSpaceBlocks(SUNMatrix matrix);

/// \brief The same for IDA's iteration matrix.
SUNMatrix makeResidualMatrix(int n, SUNContext context);
ResidualBlocks& residualBlocks(SUNMatrix matrix);

/// \brief A direct SUNLinearSolver for 2n x 2n dense matrices [[I, -gamma I], [A21, A22]] (what
/// CVODE forms from the Jacobian of a second-order system), makeSecondOrderMatrix(),
/// makeForceSpaceMatrix() and makeResidualMatrix() ones. Free with SUNLinSolFree.
SUNLinearSolver makeSecondOrderLinearSolver(int n, SUNContext context);

}  // namespace tendril
