#pragma once
// A SUNDIALS linear solver for the Newton systems of a second-order system x = [q; v], x' = [v;
// FD], in two forms.
//
// CVODE (bdf.cpp) hands it A = I - gamma J with J = [[0, I], [dFD/dq, dFD/dv]], through a
// makeForceSpaceMatrix() matrix and a linear-system function (CVodeSetLinSysFn), so that A is never
// formed. dFD = M^-1 dr would lose about cond(M) eps of its accuracy in the directions of small
// inertia (thin rods: cond(M) ~ 1e15 on the fin-ray finger), and a Newton matrix built from it left
// stiff components unconverged (error-test failures down to h ~ 1e-7). Eliminating the top block
// row (x_q = b_q + gamma x_v) and multiplying the velocity rows by M gives the same system without
// M^-1: on the free coordinates u, with the force balance M qdd - A_u^T lambda = r(q, v),
// A_u qdd = c(q, v) of constrained_dynamics.hpp (r = B u - K q - D v - ID + A^T lambda; m = 0
// without closed chains),
//   [[M - gamma dr/dv - gamma^2 dr/dq, -A_u^T], [A_u - gamma dc/dv - gamma^2 dc/dq, 0]]
//     [x_v; mu] = [M b_v + gamma dr/dq b_q; A_u b_v + gamma dc/dq b_q]
// (mu, the multipliers' increment times gamma, is discarded), x_v = b_v on the prescribed
// coordinates (their rows of J are zero), x_q = b_q + gamma x_v: one LU of size nu + m, in which
// the damping and stiffness terms keep the small-inertia directions well scaled.
//
// IDA (residual r_ID = [q' - v; ID(q, v, v') - tau] = M(q) (v' - FD) in its second half; note the
// sign, opposite to the force balance above) hands it dr_ID/dy + c dr_ID/dy' = [[c I, -I],
// [dr_ID/dq, dr_ID/dv + c M]]. A makeResidualMatrix() matrix stands for it as
// diag(I, M_k) [[c I, -I], [-dFD/dq, c I - dFD/dv]], which is exact when M_k and the derivatives
// are taken at the same state (dr_ID/dq = -M dFD/dq there): the solve applies M_k^-1 to the
// velocity rows, then eliminates the top block row as above with gamma = 1 / c, at size n. The
// factor of M and the derivatives can so be renewed separately (ida.cpp).

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/data.hpp"

namespace tendril {

/// \brief What a ResidualMatrix holds: IDA's dr/dy + c dr/dy' as
/// diag(I, M_k) [[c I, -I], [-dqdd_dq, c I - dqdd_dv]].
struct ResidualBlocks {
  explicit ResidualBlocks(int n) : dqdd_dq(n, n), dqdd_dv(n, n) {}
  Eigen::MatrixXd dqdd_dq, dqdd_dv;  ///< dFD/dq, dFD/dv (n x n)
  double c = 0.0;                    ///< IDA's c_j = alpha_s / h
  Data* mass = nullptr;              ///< holds the factor of M_k (solveMassMatrix())
};

/// \brief What a ForceSpaceMatrix holds: CVODE's I - gamma J by the force-space derivatives on
/// the free coordinates (DynamicsSystem::forceSpaceJacobian() fills them, analytically or by
/// central differences).
struct ForceSpaceBlocks {
  std::vector<int> free;            ///< the free coordinates u (nu of n)
  Eigen::MatrixXd mass;             ///< M_uu
  Eigen::MatrixXd dr_dq, dr_dv;     ///< derivatives of the force balance (nu x nu)
  Eigen::MatrixXd A, dc_dq, dc_dv;  ///< constraint Jacobian and derivatives of c (m x nu)
  double gamma = 0.0;
};

/// \brief A SUNMatrix (SUNMATRIX_CUSTOM) standing for CVODE's 2n x 2n Newton matrix by its
/// force-space blocks; only makeSecondOrderLinearSolver() can use it. SUNMatZero leaves the blocks
/// as they are: the linear-system function overwrites or reuses them. Free with SUNMatDestroy.
SUNMatrix makeForceSpaceMatrix(int n, SUNContext context);
/// \brief The blocks of a matrix from makeForceSpaceMatrix(), to fill before the solver setup.
ForceSpaceBlocks& forceSpaceBlocks(SUNMatrix matrix);

/// \brief The same for IDA's iteration matrix (IDA zeroes its matrix before every Jacobian call).
SUNMatrix makeResidualMatrix(int n, SUNContext context);
ResidualBlocks& residualBlocks(SUNMatrix matrix);

/// \brief A direct SUNLinearSolver for makeForceSpaceMatrix() and makeResidualMatrix() matrices.
/// Free with SUNLinSolFree.
SUNLinearSolver makeSecondOrderLinearSolver(int n, SUNContext context);

}  // namespace tendril
