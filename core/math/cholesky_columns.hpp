#pragma once
// M X = B for many right-hand sides with the factor M = L L^T of an Eigen::LLT, for the small dense
// M of a robot (a few to a hundred coordinates): Eigen's triangular solves block for large
// matrices and run 2-4x below its own matrix product at these sizes (docs/PERFORMANCE.md, "The
// rigid line"). Here both substitutions are left-looking over row-major blocks of 16 columns:
// three rows of the result are formed together, so each earlier row is loaded once for three
// fused multiply-adds per packet and the twelve running sums stay in registers.

#include <Eigen/Core>

namespace tendril {

class CholeskyColumnSolver {
 public:
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  CholeskyColumnSolver() = default;
  /// \brief Sized for an n x n factor and up to \p max_columns right-hand sides (allocates).
  CholeskyColumnSolver(Eigen::Index n, Eigen::Index max_columns);

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

  /// right-hand sides are solved in blocks of 16 columns and one of 8: a count rounded up to 8
  [[nodiscard]] static Eigen::Index paddedColumns(Eigen::Index columns) {
    return (columns + 7) / 8 * 8;
  }

 private:
  void copyFactor(const Eigen::MatrixXd& L);

  bool stale_ = true;
  RowMajorMatrix forward_;   ///< row k: L(k, 0..k), the rows of L Y = B
  RowMajorMatrix backward_;  ///< row k: L(n-1-i, n-1-k) over i <= k, L^T X = Y in reverse order
  RowMajorMatrix rhs_;       ///< the right-hand sides, row-major, padded with zero columns
};

}  // namespace tendril
