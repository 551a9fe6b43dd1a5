#include "core/algorithm/mass_matrix.hpp"

#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/rigid_tree_workspace.hpp"

namespace tendril {
namespace {

// The composite-rigid-body algorithm in world coordinates (the t1 terms of IDSVA,
// docs/theory/rigid.md (R13)): M[i, j] = S_i^T I_i S_j for a joint j at or above i, with S in
// world and I_i the composite inertia of i's subtree, a plain sum in world. The intervals of a
// division share their coordinates; with S^P_k the world subspaces summed along the division down
// to k and I^own_k = I_k - I_{k+1} (k's own body and its side branches, accumulated as such: no
// cancellation), I_max(i,j) = sum over k >= max(i, j) of I^own_k gives its own block and its row
// against the groups above:
//   sum_{i,j} S_i^T I_max(i,j) S_j = sum_k S^P_k^T I^own_k S^P_k,
//   sum_i I_i S_i = sum_k I^own_k S^P_k = Y
// One product I^own_k S^P_k per interval serves both; the first is symmetric term by term, so only
// its lower triangle is formed. The block of group h against a group above, whose last joint on
// the way up is a, is Y_h^T S^P_a. Linear in the number of intervals; no column block is carried
// through the ancestors.
//
// The products below are 6 deep with nq_j columns: lazyProduct() keeps them as unrolled 6-term
// dot products, where Eigen's blocked GEMM would pack operands that cost more than the arithmetic.

// I^own S^P: the rigid part in compact form; with added mass, one dense 6 x 6 product of the sum
void ownTimes(const SpatialInertia& I, const Matrix6d* A, const Matrix6Xd& S,
              Eigen::Ref<Matrix6Xd> out) {
  if (A != nullptr) {
    const Matrix6d H = I.matrix() + *A;
    out.noalias() = H.lazyProduct(S);
    return;
  }
  for (Eigen::Index c = 0; c < S.cols(); ++c) out.col(c) = I * Vector6d(S.col(c));
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
  const int previous = joint.group_previous;
  data.M_subspace_sum[j] = S;
  if (previous >= 0) data.M_subspace_sum[j] += data.M_subspace_sum[previous];
}

// joint j's term of its group's own block (lower triangle) and of the group's row sum Y, carried
// up the group to its first joint; there the block is mirrored
void groupBlock(const Model& model, const VirtualJoint& joint, Data& data, int j) {
  const int nq = joint.nq, next = joint.group_next;
  const Matrix6Xd& SP = data.M_subspace_sum[j];
  auto IS = data.scratch_6n.leftCols(nq);
  ownTimes(data.I_own[j], model.has_added_mass ? &data.A_own[j] : nullptr, SP, IS);
  Matrix6Xd& Y = data.M_carry[j];
  if (next >= 0) {
    Y = data.M_carry[next] + IS;
  } else {
    Y = IS;
  }
  auto block = data.M.block(joint.idx_q, joint.idx_q, nq, nq);
  if (next < 0) block.triangularView<Eigen::Lower>().setZero();  // the first term of the block
  for (int c = 0; c < nq; ++c) {
    for (int r = c; r < nq; ++r) block(r, c) += SP.col(r).dot(IS.col(c));
  }
  if (joint.group_first == j) block.triangularView<Eigen::StrictlyUpper>() = block.transpose();
}

// the blocks between group h (at its first joint) and every group above it
void crossBlocks(const Model& model, Data& data, int h) {
  const VirtualJoint& H = model.joints[h];
  const Matrix6Xd& Y = data.M_carry[h];
  for (const auto& [group, a] : model.topology.coordinate_path[h]) {
    if (group == h) continue;
    const VirtualJoint& G = model.joints[group];
    if (H.nq == 1 && G.nq == 1) {  // rigid chains: a fixed-size dot product, not a 1 x 1 GEMM
      data.M(G.idx_q, H.idx_q) = data.M(H.idx_q, G.idx_q) =
          Y.col(0).dot(data.M_subspace_sum[a].col(0));
      continue;
    }
    auto block = data.M.block(H.idx_q, G.idx_q, H.nq, G.nq);
    block.noalias() = Y.transpose().lazyProduct(data.M_subspace_sum[a]);
    data.M.block(G.idx_q, H.idx_q, G.nq, H.nq) = block.transpose();
  }
}

// The rigid-tree route (every joint owns its coordinates, no added mass): the same CRBA with one
// column per coordinate. M[a, c] = S_a^T I_j S_c for c a coordinate of joint j and a one of j or of
// an ancestor, I_j the composite inertia of j's subtree (compact form, in world). F = I_j S_c is
// formed once; the entries against the ancestors then run over the ancestors' coordinates, merged
// into runs of consecutive ones (RigidTreeWorkspace::mass_runs). Only ancestors are visited, so the
// entries between branches keep the zeros Data was built with.
// A run shorter than RigidTreeWorkspace::kShortMassRun is formed entry by entry, each a fixed-size
// 6-term dot product with the contiguous row-major copy of S_a (RigidTreeWorkspace::rows); a longer
// one (chains) as six axpys over whole packets of the column-major copy, whose dynamic-size set-up
// costs more than it saves on the short runs of trees and limbs (humanoid: 36.5k -> 33.6k
// instructions per M; chains within 1 %).

// world subspace rows of joint j's coordinates, in the row-major rows and in the columns (writing
// the columns only when a long run reads them took 2.6 % fewer instructions but 5-9 % more time on
// the humanoid, the arm and the bf-5 tree, alternating the two builds). A rotation about a frame
// axis e_k (most revolutes) is s = sign [R e_k; p x R e_k] with (R, p) = g_j: 9 flops instead of
// the adjoint's 33 (a single screw is the same in the joint base and the child frame)
void worldSubspaceRows(const VirtualJoint& joint, const Data& data, int j, RigidTreeWorkspace& w) {
  const auto store = [&](int k, const Vector6d& s) {
    w.rows.row(joint.idx_q + k).segment<6>(RigidTreeWorkspace::kSOffset) = s.transpose();
    w.S().row(joint.idx_q + k) = s.transpose();
  };
  const SE3& g = data.g[j];
  if (joint.screw_frame_axis >= 0) {
    const int k = joint.screw_frame_axis;
    const Eigen::Vector3d axis = joint.screw(k) * g.R.col(k);
    Vector6d s;
    s << axis, g.p.cross(axis);
    store(0, s);
    return;
  }
  if (joint.single_screw) {
    store(0, applyAd(g, joint.screw));
    return;
  }
  const SE3 base = g * data.g_local[j].inverse();
  for (int k = 0; k < joint.nq; ++k) store(k, applyAd(base, Vector6d(data.S[j].col(k))));
}

// coordinate c's world subspace column, from its row-major row
Eigen::Map<const Vector6d> worldSubspace(const RigidTreeWorkspace& w, int c) {
  return Eigen::Map<const Vector6d>(w.rows.row(c).data() + RigidTreeWorkspace::kSOffset);
}

// M[a, c] = M[c, a] = S_a^T F over one long run (chains): six axpys over whole packets. Kept out of
// line so that the dynamic-size product's set-up does not crowd the short runs' loop
[[gnu::noinline]] void longRunEntries(const RigidTreeWorkspace& w, const CoordinateBlock& ancestors,
                                      int c, const Vector6d& F, Eigen::MatrixXd& M) {
  auto entries = M.col(c).segment(ancestors.idx, ancestors.n);
  entries.noalias() = w.columns.middleCols<6>(RigidTreeWorkspace::kSOffset)
                          .middleRows(ancestors.idx, ancestors.n)
                          .lazyProduct(F);
  M.row(c).segment(ancestors.idx, ancestors.n) = entries.transpose();
}

// M[a, c] = M[c, a] = S_a^T F for every coordinate a of joint j's ancestors, F = I_j S_c
void ancestorEntries(const RigidTreeWorkspace& w, int j, int c, const Vector6d& F,
                     Eigen::MatrixXd& M) {
  constexpr int kRow = RigidTreeWorkspace::kRowLength, kS = RigidTreeWorkspace::kSOffset;
  const Eigen::Index nv = M.rows();
  const CoordinateBlock* run = w.mass_runs.data() + w.mass_run_begin[j];
  const CoordinateBlock* const last = w.mass_runs.data() + w.mass_run_begin[j + 1];
  for (; run != last; ++run) {
    if (run->n >= RigidTreeWorkspace::kShortMassRun) {
      longRunEntries(w, *run, c, F, M);
      continue;
    }
    const double* S_a = w.rows.data() + run->idx * kRow + kS;
    double* column = M.data() + c * nv + run->idx;  // M[a, c]
    double* row = M.data() + run->idx * nv + c;     // M[c, a]
    for (int i = 0; i < run->n; ++i, S_a += kRow, row += nv) {
      const double entry = Eigen::Map<const Vector6d>(S_a).dot(F);
      column[i] = entry;
      *row = entry;
    }
  }
}

void rigidTreeMassMatrix(const Model& model, Data& data) {
  RigidTreeWorkspace& w = data.rigid;
  Eigen::MatrixXd& M = data.M;
  // forward: every body and every subspace column in world
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    data.I_composite[j] = joint.inertia.transformed(data.g[j]);
    if (joint.nq > 0) worldSubspaceRows(joint, data, j, w);
  }
  // backward: composites; per coordinate its joint's own block and its column over the ancestors,
  // mirrored into the row
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    const SpatialInertia& I = data.I_composite[j];
    if (joint.nq == 1) {  // most joints: the own block is the diagonal entry
      const int c = joint.idx_q;
      const Vector6d s = w.columns.row(c).segment<6>(RigidTreeWorkspace::kSOffset).transpose();
      const Vector6d F = I * s;
      M(c, c) = s.dot(F);
      ancestorEntries(w, j, c, F, M);
    } else {
      const int end = joint.idx_q + joint.nq;
      for (int c = joint.idx_q; c < end; ++c) {
        const Vector6d F = I * worldSubspace(w, c);
        for (int r = c; r < end; ++r) M(r, c) = M(c, r) = worldSubspace(w, r).dot(F);
        ancestorEntries(w, j, c, F, M);
      }
    }
    if (joint.parent >= 0) data.I_composite[joint.parent] += I;
  }
}

}  // namespace

const Eigen::MatrixXd& massMatrix(const Model& model, Data& data,
                                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  requireEngineModel(model, "massMatrix");
  forwardKinematics(model, data, q);
  return massMatrixFromKinematics(model, data);
}

const Eigen::MatrixXd& massMatrixFromKinematics(const Model& model, Data& data) {
  if (data.rigid.supported) {
    rigidTreeMassMatrix(model, data);
    return data.M;
  }
  return groupedMassMatrixFromKinematics(model, data);
}

const Eigen::MatrixXd& groupedMassMatrixFromKinematics(const Model& model, Data& data) {
  // forward: every lumped body and every subspace in world
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    data.I_composite[j] = data.I_own[j] = joint.inertia.transformed(data.g[j]);
    if (joint.has_added_mass) {
      data.A_composite[j] =
          transformedInertia(data.g[j], joint.added_mass, joint.added_mass_diagonal);
      data.A_own[j] = data.A_composite[j];
    } else if (model.has_added_mass) {
      data.A_composite[j].setZero();
      data.A_own[j].setZero();
    }
    if (joint.nq > 0) worldSubspace(joint, data, j);
  }
  // backward: composites, each group's own block, then its blocks against the groups above. M is
  // not cleared: entries between coordinates on different branches are zero from Data's
  // construction and never written, the others are all rewritten here
  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0) {
      groupBlock(model, joint, data, j);
      if (joint.group_first == j) crossBlocks(model, data, j);
    }
    const int parent = joint.parent;
    if (parent < 0) continue;
    data.I_composite[parent] += data.I_composite[j];
    if (model.has_added_mass) data.A_composite[parent] += data.A_composite[j];
    if (model.joints[parent].group_next == j) continue;
    // a side branch of the parent (or a child in another group): part of the parent's own term
    data.I_own[parent] += data.I_composite[j];
    if (model.has_added_mass) data.A_own[parent] += data.A_composite[j];
  }
  return data.M;
}

}  // namespace tendril
