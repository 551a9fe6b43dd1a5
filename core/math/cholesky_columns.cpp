#include "core/math/cholesky_columns.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/math/transpose_copy.hpp"

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
      inverse_diagonal_(Eigen::VectorXd::Zero(n)),
      rhs_(RowMajorMatrix::Zero(n, paddedColumns(max_columns))) {}

void CholeskyColumnSolver::copyFactor(const Eigen::MatrixXd& L) {
  const Eigen::Index n = L.rows();
  for (Eigen::Index k = 0; k < n; ++k) forward_.row(k).head(k + 1) = L.row(k).head(k + 1);
  reverseTranspose();
}

void CholeskyColumnSolver::reverseTranspose() {
  const Eigen::Index n = forward_.rows();
  // row k of backward_: column n-1-k of L from the diagonal down, reversed
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index c = n - 1 - k;
    for (Eigen::Index i = 0; i <= k; ++i) backward_(k, i) = forward_(n - 1 - i, c);
  }
  stale_ = false;
}

// Below this many coordinates factor() forms L itself: on the 7-joint arm FD took 1.50 instead of
// 1.75 µs (user time, paired with Eigen's factor); its dot products wait on their own sums, and on
// the 30-chain it took 10.0 instead of 8.75 µs, the 60-chain 30.5 instead of 25.5
constexpr Eigen::Index kOwnFactorMax = 12;

namespace {

// factor()'s column-major L in backward_'s memory to the two row-major layouts: rows of L into
// forward; then backward's row k must hold L(n-1-i, n-1-k), i <= k, at k n + i, which the
// column-major L holds at (n-1-k) n + (n-1-i) = n^2 - 1 - (k n + i): reversing the n^2 values in
// place is the whole transposition
void rowsFromColumns(CholeskyColumnSolver::RowMajorMatrix& forward,
                     CholeskyColumnSolver::RowMajorMatrix& backward) {
  const Eigen::Index n = forward.rows();
  const Eigen::Map<const Eigen::MatrixXd> L(backward.data(), n, n);
  // the whole square: the upper triangle (M's, left there by the LLT) is never read from forward
  copyColumnsToRows([&](Eigen::Index c) { return L.col(c).data(); }, n, n, 1.0, forward.data(),
                    forward.cols());
  std::reverse(backward.data(), backward.data() + n * n);
}

}  // namespace

bool CholeskyColumnSolver::factor(const Eigen::MatrixXd& M) {
  const Eigen::Index n = forward_.rows();
  assert(M.rows() == n && M.cols() == n);
  stale_ = true;  // the row-major copies are not (yet) this factor
  if (n >= kOwnFactorMax) {
    // in place in backward_'s memory, column-major: one-column solves read it there (the rows
    // for the many-column kernels are laid out only when such a solve comes, rowsFromColumns)
    Eigen::Map<Eigen::MatrixXd> A(backward_.data(), n, n);
    A = M;
    const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A);
    // Eigen's blocked LLT reports success on NaN: a NaN or infinite M reaches L's diagonal
    return llt.info() == Eigen::Success && A.diagonal().allFinite();
  }
  double* const L = forward_.data();
  const Eigen::Index ld = forward_.cols();
  using ConstRow = Eigen::Map<const Eigen::VectorXd>;
  for (Eigen::Index i = 0; i < n; ++i) {
    double* const L_i = L + i * ld;
    const double* const M_i = M.col(i).data();  // M(j, i) = M(i, j), j <= i: contiguous
    for (Eigen::Index j = 0; j < i; ++j) {
      const double* const L_j = L + j * ld;
      L_i[j] = (M_i[j] - ConstRow(L_i, j).dot(ConstRow(L_j, j))) * inverse_diagonal_(j);
    }
    const double pivot = M_i[i] - ConstRow(L_i, i).squaredNorm();
    if (!(pivot > 0.0)) return false;
    L_i[i] = std::sqrt(pivot);
    inverse_diagonal_(i) = 1.0 / L_i[i];
  }
  reverseTranspose();
  return true;
}

void CholeskyColumnSolver::solveColumnInPlace(Eigen::Ref<Eigen::VectorXd> x) const {
  assert(x.size() == forward_.rows());
  const Eigen::Index n = forward_.rows();
  if (n >= kOwnFactorMax && stale_) {  // factor()'s column-major L, as Eigen::LLT::solveInPlace
    const Eigen::Map<const Eigen::MatrixXd> L(backward_.data(), n, n);
    L.triangularView<Eigen::Lower>().solveInPlace(x);
    L.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
    return;
  }
  if (n >= kOwnFactorMax) {  // Eigen's blocked triangular solves: the sums of dot products below
    const auto L = forward_.topLeftCorner(n, n).triangularView<Eigen::Lower>();
    L.solveInPlace(x);
    L.transpose().solveInPlace(x);
    return;
  }
  using ConstRow = Eigen::Map<const Eigen::VectorXd>;
  for (Eigen::Index k = 0; k < n; ++k)  // L y = x: a dot product with row k
    x(k) = (x(k) - ConstRow(forward_.row(k).data(), k).dot(x.head(k))) / forward_(k, k);
  for (Eigen::Index k = n - 1; k >= 0; --k) {  // L^T x = y: row k as a column, an axpy
    x(k) /= forward_(k, k);
    x.head(k) -= x(k) * ConstRow(forward_.row(k).data(), k);
  }
}

void CholeskyColumnSolver::solveRows(Eigen::Index columns) {
  const Eigen::Index width = paddedColumns(columns), stride = rhs_.cols();
  rhs_.middleCols(columns, width - columns).setZero();  // zeros, not stale values: never NaN
  double* const data = rhs_.data();
  Eigen::Index c = 0;
  for (; c + 16 <= width; c += 16) solveBlock<16>(forward_, backward_, data + c, stride);
  if (c < width) solveBlock<8>(forward_, backward_, data + c, stride);
}

void CholeskyColumnSolver::solveInPlace(const Eigen::MatrixXd& L, Eigen::Ref<Eigen::MatrixXd> X) {
  assert(L.rows() == forward_.rows());
  if (stale_) copyFactor(L);
  solveInPlace(X);
}

void CholeskyColumnSolver::solveInPlace(Eigen::Ref<Eigen::MatrixXd> X) {
  assert(X.rows() == forward_.rows() && fits(X.cols()));
  if (stale_) rowsFromColumns(forward_, backward_);  // after factor()
  stale_ = false;
  const Eigen::Index m = X.cols(), n = X.rows(), stride = rhs_.cols();
  auto column = [&](Eigen::Index c) { return X.col(c).data(); };
  copyColumnsToRows(column, n, m, 1.0, rhs_.data(), stride);
  solveRows(m);
  copyRowsToColumns(rhs_.data(), stride, n, m, 1.0, column);
}

void CholeskyColumnSolver::solvePair(const Eigen::MatrixXd& L,
                                     const Eigen::Ref<const Eigen::MatrixXd>& B1,
                                     const Eigen::Ref<const Eigen::MatrixXd>& B2, double scale,
                                     Eigen::Ref<Eigen::MatrixXd> X1,
                                     Eigen::Ref<Eigen::MatrixXd> X2) {
  assert(L.rows() == forward_.rows());
  if (stale_) copyFactor(L);
  solvePair(B1, B2, scale, X1, X2);
}

void CholeskyColumnSolver::solvePair(const Eigen::Ref<const Eigen::MatrixXd>& B1,
                                     const Eigen::Ref<const Eigen::MatrixXd>& B2, double scale,
                                     Eigen::Ref<Eigen::MatrixXd> X1,
                                     Eigen::Ref<Eigen::MatrixXd> X2) {
  const Eigen::Index m1 = B1.cols(), m2 = B2.cols();
  assert(B1.rows() == forward_.rows() && B2.rows() == forward_.rows() && fits(m1 + m2));
  if (stale_) rowsFromColumns(forward_, backward_);  // after factor()
  stale_ = false;
  const Eigen::Index n = B1.rows(), stride = rhs_.cols();
  auto source = [&](Eigen::Index c) { return c < m1 ? B1.col(c).data() : B2.col(c - m1).data(); };
  copyColumnsToRows(source, n, m1 + m2, 1.0, rhs_.data(), stride);
  solveRows(m1 + m2);
  auto target = [&](Eigen::Index c) { return c < m1 ? X1.col(c).data() : X2.col(c - m1).data(); };
  copyRowsToColumns(rhs_.data(), stride, n, m1 + m2, scale, target);
}

}  // namespace tendril
