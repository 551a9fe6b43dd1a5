#include "core/algorithm/model_agnostic_workspace.hpp"

#include <algorithm>
#include <numeric>

namespace tendril {

ModelAgnosticWorkspace::ModelAgnosticWorkspace(const Model& model) {
  // bodies parents first: in the order of their links' joints (virtual joints are parents first)
  const int n_links = static_cast<int>(model.links.size());
  link.resize(n_links);
  std::iota(link.begin(), link.end(), 0);
  std::sort(link.begin(), link.end(),
            [&](int a, int b) { return model.links[a].joint < model.links[b].joint; });
  std::vector<int> body_of_link(n_links, -1);
  for (int b = 0; b < n_links; ++b) body_of_link[link[b]] = b;

  evaluations.resize(n_links);
  for (int b = 0; b < n_links; ++b) {
    const LinkInfo& info = model.links[link[b]];
    const VirtualJoint& joint = model.joints[info.joint];
    parent.push_back(joint.parent < 0 ? -1 : body_of_link[model.joints[joint.parent].link]);
    idx_q.push_back(info.idx_q);
    nq.push_back(info.nq);
    g_fixed.push_back(joint.g_fixed);
    has_placement.push_back(joint.has_placement ? 1 : 0);
    max_nq = std::max(max_nq, info.nq);
    std::optional<AgnosticBody> body = makeAgnosticBody(model, link[b]);
    if (!body) {
      if (unsupported_link < 0) unsupported_link = link[b];
      body = RigidAgnosticBody(model, link[b]);  // a placeholder: the passes refuse to run
    }
    bodies.push_back(*body);
    prepareAgnosticBody(model, bodies.back(), evaluations[b]);
  }
  has_children.assign(n_links, 0);
  for (int b = 0; b < n_links; ++b) {
    if (parent[b] >= 0) has_children[parent[b]] = 1;
  }

  X_D.assign(n_links, SE3::Identity());
  for (auto* vectors : {&V_D, &A_D, &F_D, &F_Q}) vectors->assign(n_links, Vector6d::Zero());
  I_D.assign(n_links, SpatialInertia{});
  I_Q.assign(n_links, SpatialInertia{});
  for (int b = 0; b < n_links; ++b) U.emplace_back(Matrix6Xd::Zero(6, nq[b]));
  world_D.assign(n_links, SE3::Identity());
  for (int b = 0; b < n_links; ++b) S_world.emplace_back(Matrix6Xd::Zero(6, nq[b]));
  MJ = Matrix6Xd::Zero(6, max_nq);
  J_rows = JacobianRows::Zero(max_nq, 6);
  U_world = Matrix6Xd::Zero(6, max_nq);
  tau = Eigen::VectorXd::Zero(model.nv);
  M = Eigen::MatrixXd::Zero(model.nv, model.nv);
  Bu = Eigen::VectorXd::Zero(model.nv);
  anchor_J[0] = anchor_J[1] = Eigen::Matrix3Xd::Zero(3, model.nv);
  tendon_gradient = zero_rates = Eigen::VectorXd::Zero(model.nv);
  for (int b = 0; b < n_links; ++b) {
    evaluated_q.emplace_back(Eigen::VectorXd::Zero(nq[b]));
    evaluated_v.emplace_back(Eigen::VectorXd::Zero(nq[b]));
  }
  evaluated.assign(n_links, Held::None);
  lvp_inputs = Eigen::VectorXd::Zero(
      static_cast<Eigen::Index>(model.lvp_tendons.size() + model.cavity_pressures.size()));
}

void evaluateWorkspaceBody(const Model& model, ModelAgnosticWorkspace& w, int b,
                           const Eigen::Ref<const Eigen::VectorXd>& q_b,
                           const Eigen::Ref<const Eigen::VectorXd>& v_b, BodyOutputs outputs) {
  using Held = ModelAgnosticWorkspace::Held;
  const auto bi = static_cast<std::size_t>(b);
  const Held held = w.evaluated[bi];
  if (w.reuse_unchanged_bodies && held != Held::None && q_b == w.evaluated_q[bi]) {
    // poses and Jacobians depend on q alone
    if (outputs == BodyOutputs::DistalFrame) return;
    if (held != Held::DistalFrame) {
      if (outputs == BodyOutputs::Poses) return;
      if (v_b == w.evaluated_v[bi] && (outputs == BodyOutputs::Motion || held == Held::Everything))
        return;
    }
  }
  BodyEvaluation& evaluation = w.evaluations[bi];
  evaluation.material_forces = outputs == BodyOutputs::Everything;
  evaluation.elements_wanted = outputs != BodyOutputs::DistalFrame;
  evaluateAgnosticBody(model, w.bodies[bi], q_b, v_b, evaluation);
  if (!w.reuse_unchanged_bodies) {
    w.evaluated[bi] = Held::None;
    return;
  }
  w.evaluated_q[bi] = q_b;
  w.evaluated_v[bi] = v_b;
  switch (outputs) {
    case BodyOutputs::DistalFrame:
      w.evaluated[bi] = Held::DistalFrame;
      break;
    case BodyOutputs::Everything:
      w.evaluated[bi] = Held::Everything;
      break;
    default:
      w.evaluated[bi] = Held::Motion;
      break;
  }
}

ReusedBodyEvaluations::ReusedBodyEvaluations(ModelAgnosticWorkspace& w)
    : w_(w), was_reusing_(w.reuse_unchanged_bodies) {
  if (!was_reusing_)
    std::fill(w.evaluated.begin(), w.evaluated.end(), ModelAgnosticWorkspace::Held::None);
  w.reuse_unchanged_bodies = true;
}

ReusedBodyEvaluations::~ReusedBodyEvaluations() {
  w_.reuse_unchanged_bodies = was_reusing_;
  if (!was_reusing_)
    std::fill(w_.evaluated.begin(), w_.evaluated.end(), ModelAgnosticWorkspace::Held::None);
}

}  // namespace tendril
