#include "core/model/data.hpp"

#include <algorithm>

namespace tendril {

Data::Data(const Model& model) {
  const std::size_t n = model.joints.size();
  Omega.assign(n, Vector6d::Zero());
  g_local.assign(n, SE3::Identity());
  g.assign(n, SE3::Identity());
  g_pc.assign(n, SE3::Identity());
  T.assign(n, Matrix6d::Identity());
  xi_z1.assign(n, Vector6d::Zero());
  xi_z2.assign(n, Vector6d::Zero());
  eta.assign(n, Vector6d::Zero());
  S_dot_v.assign(n, Vector6d::Zero());
  eta_dot.assign(n, Vector6d::Zero());
  F.assign(n, Vector6d::Zero());
  I_composite.assign(n, SpatialInertia{});
  if (model.has_added_mass) A_composite.assign(n, Matrix6d::Zero());
  int max_nq = 0;
  for (const VirtualJoint& joint : model.joints) {
    // single-screw joints keep S = Z = Phi: kinematics never rewrites them
    Z.emplace_back(joint.single_screw ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    S.emplace_back(joint.single_screw ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    S_dot.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    M_carry.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    max_nq = std::max(max_nq, joint.nq);
  }
  tau = Eigen::VectorXd::Zero(model.nv);
  M = Eigen::MatrixXd::Zero(model.nv, model.nv);
  qdd = Eigen::VectorXd::Zero(model.nv);
  bias = Eigen::VectorXd::Zero(model.nv);
  // compute() sizes the factor and sets its status (the sizing constructor leaves the status unset)
  M_factor.compute(Eigen::MatrixXd::Identity(model.nv, model.nv));
  scratch_6n = Matrix6Xd::Zero(6, max_nq);
  for (auto* blocks : {&deta_dq, &deta_dv, &deta_dot_dq, &deta_dot_dv, &dF_dq, &dF_dv})
    blocks->assign(n, Matrix6Xd::Zero(6, model.nv));
  dtau_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  dtau_dv = Eigen::MatrixXd::Zero(model.nv, model.nv);
  dqdd_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  dqdd_dv = Eigen::MatrixXd::Zero(model.nv, model.nv);
  dtau_applied_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  load_sensitivities.reserve(model.point_loads.size() + n);
  ancestor_cols.assign(n, 0);
  subtree_cols.assign(n, 0);
  for (std::size_t j = 0; j < n; ++j) {  // parents first
    const VirtualJoint& joint = model.joints[j];
    const int parent_cols = joint.parent < 0 ? 0 : ancestor_cols[joint.parent];
    ancestor_cols[j] = std::max(parent_cols, joint.idx_q + joint.nq);
  }
  subtree_cols = ancestor_cols;
  for (std::size_t j = n; j-- > 0;) {
    const int parent = model.joints[j].parent;
    if (parent >= 0) subtree_cols[parent] = std::max(subtree_cols[parent], subtree_cols[j]);
  }
  tangent.resize(n);
  for (Matrix6Xd* m : {&dSv_dq, &dacc_dq, &Z_rate_v, &Z_rate_a}) *m = Matrix6Xd::Zero(6, max_nq);
  for (Matrix6Xd& m : work_6v) m = Matrix6Xd::Zero(6, model.nv);
  scratch_3n = Eigen::MatrixXd::Zero(6, max_nq);
}

}  // namespace tendril
