#include "core/algorithm/data.hpp"

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

  // the transposed row accumulator of each rod division, at its first interval
  data.rod_rows.assign(n, Eigen::MatrixXd());
  for (int j = 0; j < n; ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.kind == VirtualJointKind::RodInterval && joint.group_first == j)
      data.rod_rows[j] = Eigen::MatrixXd::Zero(2 * joint.nq, joint.nq);
  }
  data.rod_rows_scratch = Eigen::MatrixXd::Zero(2 * max_nq, 12);
}

}  // namespace

Data::Data(const Model& model) {
  const std::size_t n = model.joints.size();
  Omega.assign(n, Vector6d::Zero());
  const auto n_angles = static_cast<Eigen::Index>(model.screw_angle_coordinates.size());
  screw_angle = screw_sin = Eigen::VectorXd::Zero(n_angles);
  screw_cos = Eigen::VectorXd::Ones(n_angles);
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
    // rigid joints keep Z = Phi, and S = Phi where the subspace is constant (single screws among
    // them): kinematics never rewrites them
    const bool rigid = joint.kind == VirtualJointKind::Rigid;
    const bool constant_S = rigid && (joint.single_screw || joint.constant_subspace);
    Z.emplace_back(rigid ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    S.emplace_back(constant_S ? Matrix6Xd(joint.Phi) : Matrix6Xd::Zero(6, joint.nq));
    M_carry.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    M_subspace_sum.emplace_back(Matrix6Xd::Zero(6, joint.nq));
    max_nq = std::max(max_nq, joint.nq);
  }
  tau = Eigen::VectorXd::Zero(model.nv);
  M = Eigen::MatrixXd::Zero(model.nv, model.nv);
  qdd = Eigen::VectorXd::Zero(model.nv);
  bias = Eigen::VectorXd::Zero(model.nv);
  M_columns = CholeskyColumnSolver(model.nv, 2 * std::max(model.nq, model.nv));
  scratch_6n = Matrix6Xd::Zero(6, max_nq);
  dtau_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  dtau_dv = Eigen::MatrixXd::Zero(model.nv, model.nv);
  dqdd_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  dqdd_dv = Eigen::MatrixXd::Zero(model.nv, model.nv);
  dtau_applied_dq = Eigen::MatrixXd::Zero(model.nv, model.nq);
  load_sensitivities.reserve(model.point_loads.size() + n);
  tangent.resize(n);
  for (Matrix6Xd* m : {&dSv_dq, &dacc_dq, &Z_rate_v, &Z_rate_a}) *m = Matrix6Xd::Zero(6, max_nq);
  buildDerivativeWorkspace(model, *this);
  agnostic = ModelAgnosticWorkspace(model);
  articulated = ArticulatedBodyWorkspace(model);
  articulated_derivatives = ArticulatedDerivativeWorkspace(model);
  rigid = RigidTreeWorkspace(model);
  scratch_3n = Eigen::MatrixXd::Zero(6, max_nq);
}

}  // namespace tendril
