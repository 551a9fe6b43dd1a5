// Tests for core/math/cholesky_columns.cpp: the many-column solve against Eigen's, on every size
// class of the kernel (rows in threes and the remainder, blocks of 16 and 8 columns, padding).

#include "core/math/cholesky_columns.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
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
