#include "core/algorithm/forward_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/math/transpose_copy.hpp"

namespace tendril {
namespace {

constexpr int kFactorUnset = 0, kFactorDense = 1, kFactorTree = 2;

// lambda(i), the nearest ancestor coordinate of coordinate i (-1: none): a joint's coordinates
// form a chain below the last coordinate above the joint; the rod intervals of one division share
// theirs. False when a coordinate gets two parents or a parent that does not precede it (the
// factorisation below needs lambda(i) < i)
bool coordinateParents(const Model& model, std::vector<int>& parent) {
  parent.assign(model.nv, -2);                   // -2: not reached
  std::vector<int> last(model.n_vjoints(), -1);  // last coordinate at or above joint j
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const int above = joint.parent < 0 ? -1 : last[joint.parent];
    last[j] = joint.nq > 0 ? joint.idx_q + joint.nq - 1 : above;
    const bool later_interval = above >= joint.idx_q && above < joint.idx_q + joint.nq;
    if (joint.nq == 0 || later_interval) continue;
    for (int c = 0; c < joint.nq; ++c) {
      const int i = joint.idx_q + c, wanted = c == 0 ? above : i - 1;
      if (wanted >= i || (parent[i] != -2 && parent[i] != wanted)) return false;
      parent[i] = wanted;
    }
  }
  for (const int p : parent) {
    if (p == -2) return false;
  }
  return true;
}

// whether every entry of M off the ancestor chains of the coordinate tree is zero
bool hasTreeSparsity(const Eigen::MatrixXd& M, const std::vector<int>& parent) {
  const int n = static_cast<int>(M.rows());
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> related(n, n);
  related.setConstant(false);
  for (int k = 0; k < n; ++k) {
    for (int i = k; i >= 0; i = parent[i]) related(k, i) = true;
  }
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i <= k; ++i) {
      if (!related(k, i) && M(k, i) != 0.0) return false;
    }
  }
  return true;
}

// the packed rows of L: each coordinate's strict ancestors, root first, then itself. The
// ancestors of the p-th ancestor of k are the first p ancestors of k (they lie on one chain), so
// that row is a prefix of k's: the row operations of the factor become contiguous axpys
void packedRows(Data& data) {
  const std::vector<int>& parent = data.coordinate_parent;
  const int n = static_cast<int>(parent.size());
  data.tree_row_start.assign(1, 0);
  data.tree_ancestors.clear();
  for (int k = 0; k < n; ++k) {
    const auto first = data.tree_ancestors.size();
    for (int i = parent[k]; i >= 0; i = parent[i]) data.tree_ancestors.push_back(i);
    std::reverse(data.tree_ancestors.begin() + static_cast<std::ptrdiff_t>(first),
                 data.tree_ancestors.end());
    data.tree_ancestors.push_back(k);
    data.tree_row_start.push_back(static_cast<int>(data.tree_ancestors.size()));
  }
  data.tree_factor.setZero(static_cast<Eigen::Index>(data.tree_ancestors.size()));
}

// right-hand sides are solved in chunks of 16 and 8 columns: a count rounded up to 8
Eigen::Index paddedColumns(Eigen::Index columns) {
  return (columns + 7) / 8 * 8;
}

// dense Cholesky (data.M_columns) or the tree factor: the tree one when M is branched enough that
// its flops, sum over k of depth(k)^2 / 2, are under a quarter of the dense n^3 / 6 (its short runs
// are slower per flop than Eigen's blocked kernels)
int chooseFactor(const Model& model, Data& data) {
  const int n = model.nv;
  if (n == 0 || model.nq != n || !coordinateParents(model, data.coordinate_parent) ||
      !hasTreeSparsity(data.M, data.coordinate_parent))
    return kFactorDense;
  double tree_flops = 0.0;
  for (int k = 0; k < n; ++k) {
    int depth = 0;
    for (int i = k; i >= 0; i = data.coordinate_parent[i]) ++depth;
    tree_flops += 0.5 * depth * depth;
  }
  const double dense_flops = std::pow(static_cast<double>(n), 3) / 6.0;
  if (4.0 * tree_flops >= dense_flops) return kFactorDense;
  packedRows(data);
  data.tree_rhs.resize(n, paddedColumns(2 * n));  // the dq and dv columns of dFD together
  return kFactorTree;
}

// M = L^T L without fill-in (Featherstone, Rigid Body Dynamics Algorithms, table 6.3): L(k, i)
// is non-zero only for i on the ancestor chain of k, stored packed (packedRows). With l_p the p-th
// entry of row k and i its column, L(i, j) -= L(k, i) L(k, j) for j at or above i is one axpy of
// the first p + 1 entries of row k into row i (whose diagonal is entry p). False when M is not
// positive definite
bool factorTree(Data& data) {
  const std::vector<int>& start = data.tree_row_start;
  const std::vector<int>& column = data.tree_ancestors;
  double* const L = data.tree_factor.data();
  const int n = static_cast<int>(start.size()) - 1;
  for (int k = 0; k < n; ++k) {  // M is symmetric: read column k, which is contiguous
    const double* const M_k = data.M.col(k).data();
    for (int e = start[k]; e < start[k + 1]; ++e) L[e] = M_k[column[e]];
  }
  for (int k = n - 1; k >= 0; --k) {
    double* const row_k = L + start[k];
    const int ancestors = start[k + 1] - start[k] - 1;
    if (!(row_k[ancestors] > 0.0)) return false;
    row_k[ancestors] = std::sqrt(row_k[ancestors]);
    const double inverse = 1.0 / row_k[ancestors];
    for (int p = 0; p < ancestors; ++p) row_k[p] *= inverse;
    for (int p = 0; p < ancestors; ++p) {
      double* const row_i = L + start[column[start[k] + p]];
      const double l_ki = row_k[p];
      for (int e = 0; e <= p; ++e) row_i[e] -= l_ki * row_k[e];
    }
  }
  return true;
}

// x = M^-1 x = L^-1 L^-T x, both substitutions along the packed rows (table 6.4)
void solveTree(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const std::vector<int>& start = data.tree_row_start;
  const std::vector<int>& column = data.tree_ancestors;
  const double* const L = data.tree_factor.data();
  const int n = static_cast<int>(x.size());
  for (int k = n - 1; k >= 0; --k) {
    const int diagonal = start[k + 1] - 1;
    const double x_k = x(k) /= L[diagonal];
    for (int e = start[k]; e < diagonal; ++e) x(column[e]) -= L[e] * x_k;
  }
  for (int k = 0; k < n; ++k) {
    const int diagonal = start[k + 1] - 1;
    double x_k = x(k);
    for (int e = start[k]; e < diagonal; ++e) x_k -= L[e] * x(column[e]);
    x(k) = x_k / L[diagonal];
  }
}

// the substitutions of solveTree on W adjacent columns of the row-major X (row k at X + k stride):
// W columns of a row fit in registers, so the second sweep's sums stay there, and the first
// sweep's pivot row too. Where coordinate k's parent is k - 1 (along a chain of the tree, the
// usual case) rows k - 1 and k are taken together: row k's packed entries are row k - 1's followed
// by its diagonal, so each common ancestor row is loaded (and in the first sweep stored) once for
// both, and the two rows' sums are independent chains of fused multiply-adds, not one
template <int W>
void solveTreeColumns(const Data& data, double* X, Eigen::Index stride) {
  using Chunk = Eigen::Matrix<double, W, 1>;
  using Row = Eigen::Map<Chunk, Eigen::Unaligned>;
  const std::vector<int>& start = data.tree_row_start;
  const std::vector<int>& column = data.tree_ancestors;
  const std::vector<int>& parent = data.coordinate_parent;
  const double* const L = data.tree_factor.data();
  const int n = static_cast<int>(start.size()) - 1;
  // L^T y = x, from the leaves: rows k and k - 1 together when k - 1 is k's parent. A row that
  // is still exactly zero has a zero pivot and changes nothing: it is skipped (right-hand sides
  // with the sparsity of the tree, such as the derivatives of ID, are zero on every row outside
  // the ancestors and descendants of their coordinates; NaN is not zero, so it still spreads)
  for (int k = n - 1; k >= 0;) {
    const int diagonal = start[k + 1] - 1;
    Row row_k(X + k * stride);
    if (!(row_k.array() != 0.0).any()) {
      --k;
      continue;
    }
    const Chunk pivot = row_k / L[diagonal];
    row_k = pivot;
    if (k == 0 || parent[k] != k - 1) {
      for (int e = start[k]; e < diagonal; ++e) Row(X + column[e] * stride) -= L[e] * pivot;
      --k;
      continue;
    }
    const int common = start[k] - 1 - start[k - 1];  // the ancestors of k - 1
    const double* const L_k = L + start[k];
    const double* const L_up = L + start[k - 1];
    Row row_up(X + (k - 1) * stride);
    const Chunk pivot_up = (row_up - L_k[common] * pivot) / L_up[common];
    row_up = pivot_up;
    for (int p = 0; p < common; ++p)
      Row(X + column[start[k - 1] + p] * stride) -= L_k[p] * pivot + L_up[p] * pivot_up;
    k -= 2;
  }
  // L x = y, from the root: rows k and k + 1 together when k is k + 1's parent
  for (int k = 0; k < n;) {
    const int diagonal = start[k + 1] - 1;
    Row row_k(X + k * stride);
    Chunk sum = row_k;
    if (k + 1 == n || parent[k + 1] != k) {
      for (int e = start[k]; e < diagonal; ++e) sum -= L[e] * Row(X + column[e] * stride);
      row_k = sum / L[diagonal];
      ++k;
      continue;
    }
    const int common = diagonal - start[k];  // the ancestors of k
    const double* const L_k = L + start[k];
    const double* const L_down = L + start[k + 1];
    Row row_down(X + (k + 1) * stride);
    Chunk sum_down = row_down;
    for (int p = 0; p < common; ++p) {
      const Chunk x = Row(X + column[start[k] + p] * stride);
      sum -= L_k[p] * x;
      sum_down -= L_down[p] * x;
    }
    sum /= L_k[common];
    row_k = sum;
    sum_down -= L_down[common] * sum;
    row_down = sum_down / L_down[common + 1];
    k += 2;
  }
}

// the substitutions of solveTree on the first `columns` columns of data.tree_rhs, padded to whole
// chunks with zero columns (columns are independent; zeros, not stale values, so that the padding
// never computes with NaN or denormals)
void solveTreeRhs(Data& data, Eigen::Index columns) {
  const Eigen::Index width = paddedColumns(columns), stride = data.tree_rhs.cols();
  data.tree_rhs.middleCols(columns, width - columns).setZero();
  double* const X = data.tree_rhs.data();
  Eigen::Index c = 0;
  for (; c + 16 <= width; c += 16) solveTreeColumns<16>(data, X + c, stride);
  if (c < width) solveTreeColumns<8>(data, X + c, stride);
}

// X = M^-1 X for many right-hand sides at once: solveTree's substitutions on a row-major copy
void solveTreeRows(Data& data, Eigen::Ref<Eigen::MatrixXd> x) {
  const Eigen::Index m = x.cols();
  data.tree_rhs.leftCols(m) = x;
  solveTreeRhs(data, m);
  x = data.tree_rhs.leftCols(m);
}

// from this many right-hand sides the dense factor's solves take the blocked kernels of
// CholeskyColumnSolver (Eigen's triangular solves took 2.5x their time on 14 to 120 columns); fewer
// go column by column (dot products down the rows of L, then axpys up them)
constexpr Eigen::Index kManyColumns = 4;

}  // namespace

bool factorMassMatrix(const Model& model, Data& data) {
  if (data.mass_factor_kind == kFactorUnset) data.mass_factor_kind = chooseFactor(model, data);
  if (data.mass_factor_kind == kFactorTree) return factorTree(data);
  return data.M_columns.factor(data.M);
}

void solveMassMatrix(Data& data, Eigen::Ref<Eigen::MatrixXd> x) {
  if (data.mass_factor_kind != kFactorTree) {
    if (x.cols() >= kManyColumns && data.M_columns.fits(x.cols())) {
      data.M_columns.solveInPlace(x);
    } else {
      for (Eigen::Index c = 0; c < x.cols(); ++c) data.M_columns.solveColumnInPlace(x.col(c));
    }
    return;
  }
  if (x.cols() == 1 || paddedColumns(x.cols()) > data.tree_rhs.cols()) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) solveTree(data, x.col(c));
    return;
  }
  solveTreeRows(data, x);
}

void solveMassMatrixPair(Data& data, const Eigen::Ref<const Eigen::MatrixXd>& b1,
                         const Eigen::Ref<const Eigen::MatrixXd>& b2, double scale,
                         Eigen::Ref<Eigen::MatrixXd> x1, Eigen::Ref<Eigen::MatrixXd> x2) {
  const Eigen::Index m1 = b1.cols(), m2 = b2.cols();
  const bool tree = data.mass_factor_kind == kFactorTree;
  const bool fits = tree ? paddedColumns(m1 + m2) <= data.tree_rhs.cols()
                         : m1 + m2 >= kManyColumns && data.M_columns.fits(m1 + m2);
  if (!fits) {  // one by one (few columns, or more than the buffers hold)
    x1 = scale * b1;
    x2 = scale * b2;
    solveMassMatrix(data, x1);
    solveMassMatrix(data, x2);
    return;
  }
  if (!tree) return data.M_columns.solvePair(b1, b2, scale, x1, x2);
  if (m1 != m2) {
    data.tree_rhs.leftCols(m1) = b1;
    data.tree_rhs.middleCols(m1, m2) = b2;
    solveTreeRhs(data, m1 + m2);
    x1 = scale * data.tree_rhs.leftCols(m1);
    x2 = scale * data.tree_rhs.middleCols(m1, m2);
    return;
  }
  // column c of each side by side (dFD: the dq and dv columns of one coordinate), so that a block
  // of 16 holds the columns of 8 neighbouring coordinates: with right-hand sides of the tree's
  // sparsity (one limb and its ancestors) more of its rows stay zero for solveTreeColumns to skip
  const Eigen::Index n = b1.rows(), stride = data.tree_rhs.cols();
  auto source = [&](Eigen::Index c) {
    return c % 2 == 0 ? b1.col(c / 2).data() : b2.col(c / 2).data();
  };
  copyColumnsToRows(source, n, 2 * m1, 1.0, data.tree_rhs.data(), stride);
  solveTreeRhs(data, 2 * m1);
  auto target = [&](Eigen::Index c) {
    return c % 2 == 0 ? x1.col(c / 2).data() : x2.col(c / 2).data();
  };
  copyRowsToColumns(data.tree_rhs.data(), stride, n, 2 * m1, scale, target);
}

const Eigen::VectorXd& forwardDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                       double t) {
  data.qdd.setZero();
  data.bias = inverseDynamics(model, data, q, v, data.qdd, t);
  massMatrixFromKinematics(model, data);  // inverseDynamics left the kinematics of q in data
  if (!factorMassMatrix(model, data)) {
    data.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
    return data.qdd;
  }
  data.qdd = tau_actuation;
  addInternalForces(model, q, v, data.qdd);
  data.qdd -= data.bias;
  solveMassMatrix(data, data.qdd);
  return data.qdd;
}

}  // namespace tendril
