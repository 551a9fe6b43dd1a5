#pragma once
// M X = B for the small dense M of a robot (a few to a hundred coordinates), with its Cholesky
// factor M = L L^T formed here (factor()) or copied from an Eigen::LLT. Eigen's triangular solves
// block for large matrices and run 2-4x below its own matrix product at these sizes
// (docs/PERFORMANCE.md, "The rigid line"). Here both substitutions are left-looking over row-major
// blocks of 16 columns: three rows of the result are formed together, so each earlier row is
// loaded once for three fused multiply-adds per packet and the twelve running sums stay in
// registers. The factor is Eigen's blocked one, except on a few coordinates, where contiguous dot
// products row by row cost less than its set-up.

#include <Eigen/Core>

namespace tendril {

class CholeskyColumnSolver {
 public:
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  CholeskyColumnSolver() = default;
  /// \brief Sized for an n x n factor and up to \p max_columns right-hand sides (allocates).
  CholeskyColumnSolver(Eigen::Index n, Eigen::Index max_columns);

  /// \brief Factors M = L L^T into the solver's own row-major copies, for the solves without an
  ///        Eigen::LLT below: Eigen's blocked LLT in place (rows laid out at the first many-column
  ///        solve), below kOwnFactorMax coordinates row by row from contiguous dot products
  ///        (Cholesky-Banachiewicz; latency-bound: slower than Eigen's at 30). Allocation-free.
  /// \param[in] M n x n symmetric (both triangles stored)
  /// \return false when M is not positive definite
  bool factor(const Eigen::MatrixXd& M);

  /// \brief x = (L L^T)^-1 x for one right-hand side with the factor of factor().
  void solveColumnInPlace(Eigen::Ref<Eigen::VectorXd> x) const;
  /// \brief solveInPlace() and solvePair() with the factor of factor().
  void solveInPlace(Eigen::Ref<Eigen::MatrixXd> X);
  void solvePair(const Eigen::Ref<const Eigen::MatrixXd>& B1,
                 const Eigen::Ref<const Eigen::MatrixXd>& B2, double scale,
                 Eigen::Ref<Eigen::MatrixXd> X1, Eigen::Ref<Eigen::MatrixXd> X2);

  /// \brief The factor changed: the next solve copies it again.
  void markStale() { stale_ = true; }

  /// \brief Whether solveInPlace() takes \p columns right-hand sides.
  [[nodiscard]] bool fits(Eigen::Index columns) const {
    return paddedColumns(columns) <= rhs_.cols();
  }

  /// \brief X = (L L^T)^-1 X.
  /// \param[in] L the factor (its lower triangle is read: Eigen::LLT::matrixLLT()), n x n
  /// \param[in,out] X n x m, m with fits(m). Allocation-free.
  void solveInPlace(const Eigen::MatrixXd& L, Eigen::Ref<Eigen::MatrixXd> X);

  /// \brief X1 = scale (L L^T)^-1 B1 and X2 = scale (L L^T)^-1 B2, the columns of both in one
  ///        pass (one padding, one sweep over the factor per block of 16).
  /// \param[in] B1, B2 n x m1, n x m2 with fits(m1 + m2); each may be the same matrix as its X
  /// \param[out] X1, X2 n x m1, n x m2. Allocation-free.
  void solvePair(const Eigen::MatrixXd& L, const Eigen::Ref<const Eigen::MatrixXd>& B1,
                 const Eigen::Ref<const Eigen::MatrixXd>& B2, double scale,
                 Eigen::Ref<Eigen::MatrixXd> X1, Eigen::Ref<Eigen::MatrixXd> X2);

  /// right-hand sides are solved in blocks of 16 columns and one of 8: a count rounded up to 8
  [[nodiscard]] static Eigen::Index paddedColumns(Eigen::Index columns) {
    return (columns + 7) / 8 * 8;
  }

 private:
  void copyFactor(const Eigen::MatrixXd& L);
  /// backward_ from forward_ (the rows of L^T in reverse order)
  void reverseTranspose();
  /// the substitutions on the first \p columns of rhs_ (padded with zero columns to whole blocks)
  void solveRows(Eigen::Index columns);

  bool stale_ = true;
  RowMajorMatrix forward_;   ///< row k: L(k, 0..k), the rows of L Y = B
  RowMajorMatrix backward_;  ///< row k: L(n-1-i, n-1-k) over i <= k, L^T X = Y in reverse order
  Eigen::VectorXd inverse_diagonal_;  ///< 1 / L(k, k) while factor() runs
  RowMajorMatrix rhs_;                ///< the right-hand sides, row-major, padded with zero columns
};

}  // namespace tendril
