#include "core/model/data.hpp"

#include <algorithm>

namespace tendril {
namespace {

void buildDerivativeWorkspace(const Model& model, Data& data) {
  const int n = model.n_vjoints();
  for (auto* vectors : {&data.V_world, &data.A_world, &data.f_world})
    vectors->assign(n, Vector6d::Zero());
  for (auto* matrices :
       {&data.I_sub, &data.B_sub, &data.K_sub, &data.I_sub_own, &data.B_sub_own, &data.K_sub_own})
    matrices->assign(n, Matrix6d::Zero());
  int max_nq = 0;
  for (const VirtualJoint& joint : model.joints) {
    data.columns.emplace_back(Matrix6Xd::Zero(6, 4 * joint.nq));
    data.S_world.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    data.subtree_terms.emplace_back(Matrix6Xd::Zero(6, 2 * joint.nq));
    data.row_terms.emplace_back(Matrix6Xd::Zero(6, 3 * joint.nq));
    data.S_dot.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    max_nq = std::max(max_nq, joint.nq);
  }
  data.local_columns = Matrix6Xd::Zero(6, 4 * max_nq);
  data.g_base.assign(n, SE3::Identity());
  data.rod_S_cores.assign(n, Eigen::Matrix<double, 6, 12>::Zero());

  // a joint continues its parent's group when it has the same coordinates (the next interval of a
  // division); every other joint with coordinates starts a group
  data.group_first.assign(n, -1);
  data.group_previous.assign(n, -1);
  data.group_next.assign(n, -1);
  for (int j = 0; j < n; ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq == 0) continue;
    const int parent = joint.parent;
    const bool continues = parent >= 0 && model.joints[parent].nq == joint.nq &&
                           model.joints[parent].idx_q == joint.idx_q;
    data.group_first[j] = continues ? data.group_first[parent] : j;
    if (!continues) continue;
    data.group_previous[j] = parent;
    data.group_next[parent] = j;
  }
  // the transposed row accumulator of each rod division, at its first interval
  data.rod_rows.assign(n, Eigen::MatrixXd());
  for (int j = 0; j < n; ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.kind == VirtualJointKind::RodInterval && data.group_first[j] == j)
      data.rod_rows[j] = Eigen::MatrixXd::Zero(2 * joint.nq, joint.nq);
  }
  data.rod_rows_scratch = Eigen::MatrixXd::Zero(2 * max_nq, 12);
  data.coordinate_path.assign(n, {});
  for (int j = 0; j < n; ++j) {
    for (int p = j; p >= 0; p = model.joints[p].parent) {
      if (model.joints[p].nq == 0) continue;
      auto& path = data.coordinate_path[j];
      const int group = data.group_first[p];
      const bool seen = std::any_of(path.begin(), path.end(),
                                    [group](const auto& entry) { return entry.first == group; });
      if (!seen) path.emplace_back(group, p);  // walking up, p is the group's last on the path
    }
  }
}

}  // namespace

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
  I_own.assign(n, SpatialInertia{});
  if (model.has_added_mass) {
    A_composite.assign(n, Matrix6d::Zero());
    A_own.assign(n, Matrix6d::Zero());
  }
  int max_nq = 0;
  for (const VirtualJoint& joint : model.joints) {
    // single-screw joints keep S = Z = Phi: kinematics never rewrites them
    Z.emplace_back(joint.single_screw ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    S.emplace_back(joint.single_screw ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    M_carry.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    M_subspace_sum.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    max_nq = std::max(max_nq, joint.nq);
  }
  tau = Eigen::VectorXd::Zero(model.nv);
  M = Eigen::MatrixXd::Zero(model.nv, model.nv);
  qdd = Eigen::VectorXd::Zero(model.nv);
  bias = Eigen::VectorXd::Zero(model.nv);
  // compute() sizes the factor and sets its status (the sizing constructor leaves the status unset)
  M_factor.compute(Eigen::MatrixXd::Identity(model.nv, model.nv));
  scratch_6n = Matrix6Xd::Zero(6, max_nq);
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
  buildDerivativeWorkspace(model, *this);
  scratch_3n = Eigen::MatrixXd::Zero(6, max_nq);
}

}  // namespace tendril
