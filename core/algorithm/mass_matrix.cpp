#include "core/algorithm/mass_matrix.hpp"

#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

// The composite-rigid-body algorithm in world coordinates (the t1 terms of IDSVA,
// theory-rigid-derivatives.md 3.5): M[i, j] = S_i^T I_i S_j for a joint j at or above i, with S in
// world and I_i the composite inertia of i's subtree, a plain sum in world. The intervals of a
// division share their coordinates; with S^P the world subspaces summed along the division down to
// i, its own block is sum_i S_i^T Y_i where
//   Y_i = Y_{i+1} + (I_i - I_{i+1}) S^P_i
// (the difference, accumulated as such, is i's own body and its side branches: no cancellation),
// and its block against a group above it, whose last joint on the way up is a, is
// (sum_i I_i S_i)^T S^P_a. Linear in the number of intervals; no column block is carried through
// the ancestors.
//
// The products below are 6 deep with nq_j columns: lazyProduct() keeps them as unrolled 6-term
// dot products, where Eigen's blocked GEMM would pack operands that cost more than the arithmetic.

// I S for a composite: the rigid part in compact form, the added mass as a 6 x 6 beside it
void compositeTimes(const SpatialInertia& I, const Matrix6d* A, const Matrix6Xd& S,
                    Eigen::Ref<Matrix6Xd> out) {
  for (Eigen::Index c = 0; c < S.cols(); ++c) out.col(c) = I * Vector6d(S.col(c));
  if (A != nullptr) out.noalias() += A->lazyProduct(S);
}

// world subspace of joint j and its sum along the group
void worldSubspace(const VirtualJoint& joint, Data& data, int j) {
  Matrix6Xd& S = data.S_world[j];
  const SE3 base = joint.single_screw ? data.g[j] : data.g[j] * data.g_local[j].inverse();
  S.topRows<3>().noalias() = base.R.lazyProduct(data.S[j].topRows<3>());
  S.bottomRows<3>().noalias() = base.R.lazyProduct(data.S[j].bottomRows<3>());
  for (int c = 0; c < joint.nq; ++c) {
    const Eigen::Vector3d w = S.col(c).head<3>();
    S.col(c).tail<3>() += base.p.cross(w);
  }
  const int previous = data.group_previous[j];
  data.M_subspace_sum[j] = S;
  if (previous >= 0) data.M_subspace_sum[j] += data.M_subspace_sum[previous];
}

// the group's own block from joint j, and its row sums for the blocks against the groups above
void groupBlock(const Model& model, const VirtualJoint& joint, Data& data, int j) {
  const int nq = joint.nq, next = data.group_next[j];
  const bool added = model.has_added_mass;
  Matrix6Xd& Y = data.M_carry[j];
  auto IS = data.scratch_6n.leftCols(nq);
  compositeTimes(data.I_own[j], added ? &data.A_own[j] : nullptr, data.M_subspace_sum[j], IS);
  if (next >= 0) {
    Y = data.M_carry[next] + IS;
  } else {
    Y = IS;
  }
  const Matrix6Xd& S = data.S_world[j];
  data.M.block(joint.idx_q, joint.idx_q, nq, nq).noalias() += S.transpose().lazyProduct(Y);
  if (data.coordinate_path[data.group_first[j]].size() < 2) return;  // no group above
  Matrix6Xd& T = data.M_rows[data.group_first[j]];
  if (next < 0) T.setZero();
  compositeTimes(data.I_composite[j], added ? &data.A_composite[j] : nullptr, S, IS);
  T += IS;
}

// the blocks between group h (at its first joint) and every group above it
void crossBlocks(const Model& model, Data& data, int h) {
  const VirtualJoint& H = model.joints[h];
  const Matrix6Xd& T = data.M_rows[h];
  for (const auto& [group, a] : data.coordinate_path[h]) {
    if (group == h) continue;
    const VirtualJoint& G = model.joints[group];
    auto block = data.M.block(H.idx_q, G.idx_q, H.nq, G.nq);
    block.noalias() = T.transpose().lazyProduct(data.M_subspace_sum[a]);
    data.M.block(G.idx_q, H.idx_q, G.nq, H.nq) = block.transpose();
  }
}

}  // namespace

const Eigen::MatrixXd& massMatrix(const Model& model, Data& data,
                                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  forwardKinematics(model, data, q);
  return massMatrixFromKinematics(model, data);
}

const Eigen::MatrixXd& massMatrixFromKinematics(const Model& model, Data& data) {
  // forward: every lumped body and every subspace in world
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    data.I_composite[j] = data.I_own[j] = joint.inertia.transformed(data.g[j]);
    if (model.has_added_mass) {
      const Matrix6d X = coAd(data.g[j]);
      data.A_composite[j].noalias() = X.lazyProduct(joint.added_mass).lazyProduct(X.transpose());
      data.A_own[j] = data.A_composite[j];
    }
    if (joint.nq > 0) worldSubspace(joint, data, j);
  }
  data.M.setZero();
  // backward: composites, each group's own block, then its blocks against the groups above
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0) {
      groupBlock(model, joint, data, j);
      if (data.group_first[j] == j) crossBlocks(model, data, j);
    }
    const int parent = joint.parent;
    if (parent < 0) continue;
    data.I_composite[parent] += data.I_composite[j];
    if (model.has_added_mass) data.A_composite[parent] += data.A_composite[j];
    if (data.group_next[parent] == j) continue;
    // a side branch of the parent (or a child in another group): part of the parent's own term
    data.I_own[parent] += data.I_composite[j];
    if (model.has_added_mass) data.A_own[parent] += data.A_composite[j];
  }
  return data.M;
}

}  // namespace tendril
