// Tests for core/math/cholesky_columns.cpp: the many-column solve against Eigen's, on every size
// class of the kernel (rows in threes and the remainder, blocks of 16 and 8 columns, padding).

#include "core/math/cholesky_columns.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <random>

namespace tendril {
namespace {

Eigen::MatrixXd randomMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return u(rng); });
}

// a well-conditioned SPD matrix (cond < 10), so both solves agree to a few ulps of the result
Eigen::MatrixXd randomSpd(Eigen::Index n, std::mt19937& rng) {
  const Eigen::MatrixXd A = randomMatrix(n, n, rng);
  return A * A.transpose() / static_cast<double>(n) + Eigen::MatrixXd::Identity(n, n);
}

TEST(CholeskyColumnSolver, MatchesEigenOnEverySizeClass) {
  std::mt19937 rng(11);
  for (const int n : {1, 2, 3, 4, 7, 8, 30, 31, 35, 60}) {
    const Eigen::MatrixXd M = randomSpd(n, rng);
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    CholeskyColumnSolver solver(n, 2 * n + 17);
    for (const int m : {1, 5, 8, 9, 16, 17, 2 * n, 2 * n + 9}) {
      ASSERT_TRUE(solver.fits(m));
      const Eigen::MatrixXd B = randomMatrix(n, m, rng);
      Eigen::MatrixXd X = B;
      solver.solveInPlace(llt.matrixLLT(), X);
      const Eigen::MatrixXd expected = llt.solve(B);
      EXPECT_LT((X - expected).cwiseAbs().maxCoeff(), 1e-13 * expected.cwiseAbs().maxCoeff())
          << "n " << n << ", " << m << " columns";
      EXPECT_LT((M * X - B).cwiseAbs().maxCoeff(), 1e-13) << "n " << n << ", " << m << " columns";
    }
  }
}

// two blocks of columns in one pass, scaled, into other matrices or in place: the same numbers as
// two single solves (column c of the pair is solved in the same lanes of arithmetic as alone, up to
// its position in a block, so agreement is to rounding, not bitwise)
TEST(CholeskyColumnSolver, SolvesAPairOfBlocksScaled) {
  std::mt19937 rng(23);
  for (const int n : {1, 7, 30, 35}) {
    const Eigen::MatrixXd M = randomSpd(n, rng);
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    CholeskyColumnSolver solver(n, 2 * n);
    const Eigen::MatrixXd B1 = randomMatrix(n, n, rng), B2 = randomMatrix(n, n, rng);
    Eigen::MatrixXd X1(n, n), X2(n, n);
    solver.solvePair(llt.matrixLLT(), B1, B2, -1.0, X1, X2);
    const double scale1 = llt.solve(B1).cwiseAbs().maxCoeff();
    const double scale2 = llt.solve(B2).cwiseAbs().maxCoeff();
    EXPECT_LT((X1 + llt.solve(B1)).cwiseAbs().maxCoeff(), 1e-13 * scale1) << "n " << n;
    EXPECT_LT((X2 + llt.solve(B2)).cwiseAbs().maxCoeff(), 1e-13 * scale2) << "n " << n;
    Eigen::MatrixXd Y1 = B1, Y2 = B2;  // in place
    solver.solvePair(llt.matrixLLT(), Y1, Y2, 1.0, Y1, Y2);
    EXPECT_LT((Y1 + X1).cwiseAbs().maxCoeff(), 1e-15 * scale1) << "n " << n;
    EXPECT_LT((Y2 + X2).cwiseAbs().maxCoeff(), 1e-15 * scale2) << "n " << n;
  }
}

// its own factorisation against Eigen's LLT, then every solve that uses it (one column, blocks,
// pairs); a matrix that is not positive definite is refused
TEST(CholeskyColumnSolver, FactorsAndSolvesWithoutAnEigenFactor) {
  std::mt19937 rng(29);
  for (const int n : {1, 2, 3, 7, 30, 35, 60}) {
    const Eigen::MatrixXd M = randomSpd(n, rng);
    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    CholeskyColumnSolver solver(n, 2 * n);
    ASSERT_TRUE(solver.factor(M)) << "n " << n;
    const Eigen::MatrixXd B = randomMatrix(n, n, rng);
    const Eigen::MatrixXd expected = llt.solve(B);
    const double scale = expected.cwiseAbs().maxCoeff();
    // one column before and after the rows for the many-column kernels are laid out
    Eigen::VectorXd x = B.col(0);
    solver.solveColumnInPlace(x);
    EXPECT_LT((x - expected.col(0)).cwiseAbs().maxCoeff(), 1e-13 * scale) << "n " << n;
    Eigen::MatrixXd X = B;
    solver.solveInPlace(X);
    EXPECT_LT((X - expected).cwiseAbs().maxCoeff(), 1e-13 * scale) << "n " << n;
    x = B.col(1 % n);
    solver.solveColumnInPlace(x);
    EXPECT_LT((x - expected.col(1 % n)).cwiseAbs().maxCoeff(), 1e-13 * scale) << "n " << n;
    Eigen::MatrixXd X1(n, n), X2(n, n);
    solver.solvePair(B, B, 3.0, X1, X2);
    EXPECT_LT((X1 - 3.0 * expected).cwiseAbs().maxCoeff(), 3e-13 * scale) << "n " << n;
    EXPECT_LT((X2 - 3.0 * expected).cwiseAbs().maxCoeff(), 3e-13 * scale) << "n " << n;
    Eigen::MatrixXd indefinite = M;
    indefinite(n - 1, n - 1) = -1.0;
    EXPECT_FALSE(solver.factor(indefinite)) << "n " << n;
    EXPECT_FALSE(solver.factor(Eigen::MatrixXd::Constant(n, n, std::nan("")))) << "n " << n;
  }
}

TEST(CholeskyColumnSolver, CopiesTheFactorAgainOnlyWhenMarkedStale) {
  std::mt19937 rng(5);
  const int n = 10;
  const Eigen::LLT<Eigen::MatrixXd> first(randomSpd(n, rng)), second(randomSpd(n, rng));
  CholeskyColumnSolver solver(n, n);
  const Eigen::MatrixXd B = randomMatrix(n, n, rng);
  Eigen::MatrixXd X = B;
  solver.solveInPlace(first.matrixLLT(), X);
  // not marked stale: still the first factor's copy
  X = B;
  solver.solveInPlace(second.matrixLLT(), X);
  EXPECT_LT((X - first.solve(B)).cwiseAbs().maxCoeff(), 1e-13);
  solver.markStale();
  X = B;
  solver.solveInPlace(second.matrixLLT(), X);
  EXPECT_LT((X - second.solve(B)).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(CholeskyColumnSolver, FitsUpToItsPaddedWidth) {
  const CholeskyColumnSolver solver(5, 10);  // padded to 16
  EXPECT_TRUE(solver.fits(16));
  EXPECT_FALSE(solver.fits(17));
}

}  // namespace
}  // namespace tendril
