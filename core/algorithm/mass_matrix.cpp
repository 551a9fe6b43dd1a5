#include "core/algorithm/mass_matrix.hpp"

#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

// The products below are 6 deep with nq_j columns: lazyProduct() keeps them as unrolled 6-term
// dot products. Eigen's default switches to its blocked GEMM once rows + cols + depth exceed 20,
// and packing the operands of such thin products costs more than their arithmetic.

// carries the force block F (6 x n, columns are wrenches in the child frame of p's child joint)
// up from joint `from`'s parent, adding S_p^T F into M for every ancestor p
void propagateToAncestors(const Model& model, Data& data, int from, Eigen::Ref<Matrix6Xd> F) {
  const VirtualJoint& origin = model.joints[from];
  for (int p = origin.parent; p >= 0; p = model.joints[p].parent) {
    const VirtualJoint& ancestor = model.joints[p];
    if (ancestor.single_screw) {
      // the screw is the same in the child frame: project there, then one transport
      for (Eigen::Index c = 0; c < F.cols(); ++c) {
        const double m = ancestor.screw.dot(F.col(c));
        data.M(ancestor.idx_q, origin.idx_q + c) += m;
        data.M(origin.idx_q + c, ancestor.idx_q) += m;
        F.col(c) = applyCoAd(data.g_pc[p], Vector6d(F.col(c)));
      }
      continue;
    }
    for (Eigen::Index c = 0; c < F.cols(); ++c)
      F.col(c) = applyCoAd(data.g_local[p], Vector6d(F.col(c)));
    if (ancestor.nq > 0) {
      // rod intervals of one division share a block: add to both triangles, never assign
      data.M.block(ancestor.idx_q, origin.idx_q, ancestor.nq, origin.nq).noalias() +=
          data.S[p].transpose().lazyProduct(F);
      data.M.block(origin.idx_q, ancestor.idx_q, origin.nq, ancestor.nq).noalias() +=
          F.transpose().lazyProduct(data.S[p]);
    }
    if (ancestor.has_placement) {
      for (Eigen::Index c = 0; c < F.cols(); ++c)
        F.col(c) = applyCoAd(ancestor.g_fixed, Vector6d(F.col(c)));
    }
  }
}

// a rod interval whose parent is an interval of the same division (same coordinates)
bool sharesParentBlock(const Model& model, int j) {
  const VirtualJoint& joint = model.joints[j];
  if (joint.parent < 0 || joint.kind != VirtualJointKind::RodInterval) return false;
  const VirtualJoint& parent = model.joints[joint.parent];
  return parent.kind == VirtualJointKind::RodInterval && parent.idx_q == joint.idx_q &&
         parent.nq == joint.nq;
}

}  // namespace

const Eigen::MatrixXd& massMatrix(const Model& model, Data& data,
                                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  localKinematics(model, data, q);
  return massMatrixFromKinematics(model, data);
}

const Eigen::MatrixXd& massMatrixFromKinematics(const Model& model, Data& data) {
  for (int j = 0; j < model.n_vjoints(); ++j) {
    data.I_composite[j] = model.joints[j].inertia;
    data.M_carry[j].setZero();
    if (model.has_added_mass) data.A_composite[j] = model.joints[j].added_mass;
  }
  data.M.setZero();

  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    // composite inertia of the subtree, handed to the parent's child frame
    if (joint.parent >= 0)
      data.I_composite[joint.parent] += data.I_composite[j].transformed(data.g_pc[j]);
    // added mass is not of rigid-body form: a 6 x 6 composite beside it, Ad*_g A Ad_g^-1
    if (model.has_added_mass && joint.parent >= 0) {
      const Matrix6d X = coAd(data.g_pc[j]);
      data.A_composite[joint.parent].noalias() += X * data.A_composite[j] * X.transpose();
    }
    if (joint.nq == 0) continue;

    auto F = data.scratch_6n.leftCols(joint.nq);
    if (joint.single_screw) {
      F.col(0) = data.I_composite[j] * joint.screw;
      if (model.has_added_mass) F.col(0).noalias() += data.A_composite[j] * joint.screw;
      data.M(joint.idx_q, joint.idx_q) += joint.screw.dot(F.col(0));
      F.col(0) = applyCoAd(data.g_pc[j], Vector6d(F.col(0)));
    } else {
      // in the joint base frame, where S lives
      const SpatialInertia I_base = data.I_composite[j].transformed(data.g_local[j]);
      for (int c = 0; c < joint.nq; ++c) F.col(c) = I_base * Vector6d(data.S[j].col(c));
      if (model.has_added_mass) {
        const Matrix6d X = coAd(data.g_local[j]);
        const Matrix6d A_base = X * data.A_composite[j] * X.transpose();
        F.noalias() += A_base.lazyProduct(data.S[j]);
      }
      auto block = data.M.block(joint.idx_q, joint.idx_q, joint.nq, joint.nq);
      // the force blocks of the later intervals of this division, summed on the way: one
      // projection here instead of one per (interval, ancestor) pair keeps M linear along a rod
      auto& carry = data.M_carry[j];
      for (int c = 0; c < joint.nq; ++c)
        carry.col(c) = applyCoAd(data.g_local[j], Vector6d(carry.col(c)));
      // S^T F + S^T carry + carry^T S with two products: S^T (F + carry) + carry^T S
      F += carry;
      block.noalias() += data.S[j].transpose().lazyProduct(F);
      block.noalias() += carry.transpose().lazyProduct(data.S[j]);
      if (joint.has_placement) {
        for (int c = 0; c < joint.nq; ++c) F.col(c) = applyCoAd(joint.g_fixed, Vector6d(F.col(c)));
      }
      if (sharesParentBlock(model, j)) {
        data.M_carry[joint.parent] += F;
        continue;
      }
    }
    propagateToAncestors(model, data, j, F);
  }
  return data.M;
}

}  // namespace tendril
