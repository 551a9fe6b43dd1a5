#include "core/algorithm/mass_matrix.hpp"

#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

// inertia seen from the parent frame of g: Ad*_g I Ad_g^{-1}
Matrix6d transportInertia(const SE3& g, const Matrix6d& I) {
  const Matrix6d Ad_inv = AdInv(g);
  return Ad_inv.transpose() * I * Ad_inv;
}

}  // namespace

const Eigen::MatrixXd& massMatrix(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q) {
  forwardKinematics(model, data, q);
  for (int j = 0; j < model.n_vjoints(); ++j) data.I_composite[j] = model.joints[j].M;
  data.M.setZero();

  for (int j = model.n_vjoints() - 1; j >= 0; --j) {
    const VirtualJoint& joint = model.joints[j];
    // composite inertia of the subtree in the joint base frame
    const Matrix6d I_base = transportInertia(data.g_local[j], data.I_composite[j]);
    if (joint.parent >= 0) data.I_composite[joint.parent] += transportInertia(joint.g_fixed, I_base);
    if (joint.nq == 0) continue;

    // force block F = I S_j, carried up the tree and projected on each ancestor's S
    auto F = data.scratch_6n.leftCols(joint.nq);
    F.noalias() = I_base * data.S[j];
    data.M.block(joint.idx_q, joint.idx_q, joint.nq, joint.nq).noalias() += data.S[j].transpose() * F;
    Matrix6d to_parent = coAd(joint.g_fixed);
    for (int p = joint.parent; p >= 0; p = model.joints[p].parent) {
      const VirtualJoint& ancestor = model.joints[p];
      F = coAd(data.g_local[p]) * (to_parent * F).eval();
      if (ancestor.nq > 0) {
        auto block = data.M.block(ancestor.idx_q, joint.idx_q, ancestor.nq, joint.nq);
        const Eigen::MatrixXd contribution = data.S[p].transpose() * F;
        block += contribution;
        data.M.block(joint.idx_q, ancestor.idx_q, joint.nq, ancestor.nq) += contribution.transpose();
      }
      to_parent = coAd(ancestor.g_fixed);
    }
  }
  return data.M;
}

}  // namespace tendril
