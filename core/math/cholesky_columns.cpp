#include "core/math/cholesky_columns.hpp"

#include <cassert>

namespace tendril {
namespace {

// The substitution T y = b for a lower-triangular row-major T (row k: T(k, 0..k), leading
// dimension ldt) on W adjacent columns of the row-major X (row k at X + k stride; reversed: at
// X + (n-1-k) stride). Rows are formed three at a time: the sums over the rows before the three
// share each loaded row, then the 3 x 3 triangle among them. Three rows of 16 columns keep twelve
// 4-wide sums in registers: as fast as Eigen's matrix product at these sizes, where one row at a
// time waited on the latency of its own sums.
template <int W>
void substitute(const double* T, Eigen::Index ldt, double* X, Eigen::Index stride, int n,
                bool reversed) {
  using Chunk = Eigen::Matrix<double, W, 1>;
  using Row = Eigen::Map<Chunk, Eigen::Unaligned>;
  auto row = [&](int k) { return Row(X + (reversed ? n - 1 - k : k) * stride); };
  constexpr int kRows = 3;
  int k = 0;
  for (; k + kRows <= n; k += kRows) {
    const double* t0 = T + k * ldt;
    const double* t1 = t0 + ldt;
    const double* t2 = t1 + ldt;
    Chunk s0 = row(k), s1 = row(k + 1), s2 = row(k + 2);
    for (int i = 0; i < k; ++i) {
      const Chunk x_i = row(i);
      s0 -= t0[i] * x_i;
      s1 -= t1[i] * x_i;
      s2 -= t2[i] * x_i;
    }
    s0 /= t0[k];
    s1 -= t1[k] * s0;
    s1 /= t1[k + 1];
    s2 -= t2[k] * s0 + t2[k + 1] * s1;
    s2 /= t2[k + 2];
    row(k) = s0;
    row(k + 1) = s1;
    row(k + 2) = s2;
  }
  for (; k < n; ++k) {
    const double* t = T + k * ldt;
    Chunk s = row(k);
    for (int i = 0; i < k; ++i) s -= t[i] * row(i);
    row(k) = s / t[k];
  }
}

template <int W>
void solveBlock(const CholeskyColumnSolver::RowMajorMatrix& forward,
                const CholeskyColumnSolver::RowMajorMatrix& backward, double* X,
                Eigen::Index stride) {
  const int n = static_cast<int>(forward.rows());
  substitute<W>(forward.data(), forward.cols(), X, stride, n, false);
  substitute<W>(backward.data(), backward.cols(), X, stride, n, true);
}

}  // namespace

CholeskyColumnSolver::CholeskyColumnSolver(Eigen::Index n, Eigen::Index max_columns)
    : forward_(RowMajorMatrix::Zero(n, n)),
      backward_(RowMajorMatrix::Zero(n, n)),
      rhs_(RowMajorMatrix::Zero(n, paddedColumns(max_columns))) {}

void CholeskyColumnSolver::copyFactor(const Eigen::MatrixXd& L) {
  const Eigen::Index n = L.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    // row k of L, and column n-1-k of L from the diagonal down, reversed
    forward_.row(k).head(k + 1) = L.row(k).head(k + 1);
    const Eigen::Index c = n - 1 - k;
    backward_.row(k).head(k + 1) = L.col(c).tail(k + 1).reverse().transpose();
  }
  stale_ = false;
}

void CholeskyColumnSolver::solveInPlace(const Eigen::MatrixXd& L, Eigen::Ref<Eigen::MatrixXd> X) {
  assert(L.rows() == forward_.rows() && X.rows() == forward_.rows() && fits(X.cols()));
  if (stale_) copyFactor(L);
  const Eigen::Index m = X.cols(), width = paddedColumns(m), stride = rhs_.cols();
  rhs_.leftCols(m) = X;
  rhs_.middleCols(m, width - m).setZero();  // zeros, not stale values: never NaN or denormals
  double* const data = rhs_.data();
  Eigen::Index c = 0;
  for (; c + 16 <= width; c += 16) solveBlock<16>(forward_, backward_, data + c, stride);
  if (c < width) solveBlock<8>(forward_, backward_, data + c, stride);
  X = rhs_.leftCols(m);
}

}  // namespace tendril
