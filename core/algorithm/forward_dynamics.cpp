#include "core/algorithm/forward_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"

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

// the strict ancestors of every coordinate, root first, as runs of consecutive coordinates (a
// joint's or a division's coordinates are consecutive): the row operations of the tree factor
// become a few contiguous, vectorised axpys per ancestor
void ancestorRuns(Data& data) {
  const std::vector<int>& parent = data.coordinate_parent;
  const int n = static_cast<int>(parent.size());
  data.coordinate_ancestor_runs.assign(n, {});
  for (int k = 0; k < n; ++k) {
    std::vector<CoordinateBlock>& runs = data.coordinate_ancestor_runs[k];
    for (int i = parent[k]; i >= 0; i = parent[i]) {
      if (!runs.empty() && runs.back().idx == i + 1) {
        --runs.back().idx;
        ++runs.back().n;
      } else {
        runs.push_back({i, 1});
      }
    }
    std::reverse(runs.begin(), runs.end());
  }
}

// dense Cholesky (M_factor) or the tree factor: the tree one when M is branched enough that its
// flops, sum over k of depth(k)^2 / 2, are under a quarter of the dense n^3 / 6 (its short runs
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
  ancestorRuns(data);
  data.M_tree_factor.setZero(n, n);
  data.tree_rhs.resize(n, n);
  return kFactorTree;
}

// M = L^T L without fill-in (Featherstone, Rigid Body Dynamics Algorithms, table 6.3): L(k, i)
// is non-zero only for i on the ancestor chain of k, and only those entries are read or written.
// L is row-major, so a row's ancestor runs are contiguous; the runs are short (a joint's or a
// division's coordinates), so plain loops over raw rows beat Eigen's dynamic segments. False when
// M is not positive definite
bool factorTree(Data& data) {
  auto& L = data.M_tree_factor;
  const auto& all_runs = data.coordinate_ancestor_runs;
  const int n = static_cast<int>(L.rows());
  for (int k = 0; k < n; ++k) {
    L(k, k) = data.M(k, k);
    for (const CoordinateBlock& run : all_runs[k])
      L.row(k).segment(run.idx, run.n) = data.M.row(k).segment(run.idx, run.n);
  }
  for (int k = n - 1; k >= 0; --k) {
    if (!(L(k, k) > 0.0)) return false;
    double* const row_k = L.row(k).data();
    row_k[k] = std::sqrt(row_k[k]);
    const double inverse = 1.0 / row_k[k];
    const auto& runs = all_runs[k];
    for (const CoordinateBlock& run : runs) {
      for (int j = run.idx; j < run.idx + run.n; ++j) row_k[j] *= inverse;
    }
    // L(i, j) -= L(k, i) L(k, j) for every ancestor i of k and every j at or above i: the runs
    // before i's, then i's own run up to i
    for (std::size_t r = 0; r < runs.size(); ++r) {
      for (int i = runs[r].idx; i < runs[r].idx + runs[r].n; ++i) {
        double* const row_i = L.row(i).data();
        const double l_ki = row_k[i];
        for (std::size_t s = 0; s < r; ++s) {
          for (int j = runs[s].idx; j < runs[s].idx + runs[s].n; ++j) row_i[j] -= l_ki * row_k[j];
        }
        for (int j = runs[r].idx; j <= i; ++j) row_i[j] -= l_ki * row_k[j];
      }
    }
  }
  return true;
}

// x = M^-1 x = L^-1 L^-T x, both substitutions along the ancestor runs (table 6.4)
void solveTree(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const auto& L = data.M_tree_factor;
  const auto& all_runs = data.coordinate_ancestor_runs;
  const int n = static_cast<int>(x.size());
  for (int k = n - 1; k >= 0; --k) {
    const double* const row_k = L.row(k).data();
    const double x_k = x(k) /= row_k[k];
    for (const CoordinateBlock& run : all_runs[k]) {
      for (int i = run.idx; i < run.idx + run.n; ++i) x(i) -= row_k[i] * x_k;
    }
  }
  for (int k = 0; k < n; ++k) {
    const double* const row_k = L.row(k).data();
    double x_k = x(k);
    for (const CoordinateBlock& run : all_runs[k]) {
      for (int i = run.idx; i < run.idx + run.n; ++i) x_k -= row_k[i] * x(i);
    }
    x(k) = x_k / row_k[k];
  }
}

// X = M^-1 X for many right-hand sides at once: the same substitutions as solveTree, on whole rows
// of a row-major copy (a row operation is then one contiguous axpy over the columns)
void solveTreeRows(Data& data, Eigen::Ref<Eigen::MatrixXd> x) {
  const auto& L = data.M_tree_factor;
  const auto& all_runs = data.coordinate_ancestor_runs;
  const int n = static_cast<int>(x.rows());
  auto X = data.tree_rhs.leftCols(x.cols());
  X = x;
  for (int k = n - 1; k >= 0; --k) {
    X.row(k) /= L(k, k);
    for (const CoordinateBlock& run : all_runs[k]) {
      for (int i = run.idx; i < run.idx + run.n; ++i) X.row(i) -= L(k, i) * X.row(k);
    }
  }
  for (int k = 0; k < n; ++k) {
    for (const CoordinateBlock& run : all_runs[k]) {
      for (int i = run.idx; i < run.idx + run.n; ++i) X.row(k) -= L(k, i) * X.row(i);
    }
    X.row(k) /= L(k, k);
  }
  x = X;
}

}  // namespace

bool factorMassMatrix(const Model& model, Data& data) {
  if (data.mass_factor_kind == kFactorUnset) data.mass_factor_kind = chooseFactor(model, data);
  if (data.mass_factor_kind == kFactorTree) return factorTree(data);
  data.M_factor.compute(data.M);
  return data.M_factor.info() == Eigen::Success;
}

void solveMassMatrix(Data& data, Eigen::Ref<Eigen::MatrixXd> x) {
  if (data.mass_factor_kind != kFactorTree) {
    data.M_factor.solveInPlace(x);
    return;
  }
  if (x.cols() == 1 || x.cols() > data.tree_rhs.cols()) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) solveTree(data, x.col(c));
    return;
  }
  solveTreeRows(data, x);
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
