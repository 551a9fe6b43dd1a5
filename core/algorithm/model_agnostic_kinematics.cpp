#include "core/algorithm/model_agnostic_kinematics.hpp"

#include <algorithm>
#include <stdexcept>

namespace tendril {

ModelAgnosticPoses::ModelAgnosticPoses(const Model& model, const Data& data) {
  (void)model;
  const ModelAgnosticWorkspace& w = data.agnostic;
  const std::size_t n = w.bodies.size();
  proximal.assign(n, SE3::Identity());
  distal.assign(n, SE3::Identity());
  elements.resize(n);
  for (std::size_t b = 0; b < n; ++b)
    elements[b].assign(w.evaluations[b].elements.size(), SE3::Identity());
  zero_rates = Eigen::VectorXd::Zero(w.max_nq);
}

void modelAgnosticPoses(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                        ModelAgnosticPoses& poses) {
  ModelAgnosticWorkspace& w = data.agnostic;
  if (w.unsupported_link >= 0) {
    throw std::invalid_argument("link '" + model.links[w.unsupported_link].name +
                                "' has no model-agnostic body kind");
  }
  if (q.size() != model.nq) throw std::invalid_argument("q has the wrong size");
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    evaluateWorkspaceBody(model, w, static_cast<int>(b), q.segment(w.idx_q[b], w.nq[b]),
                          poses.zero_rates.head(w.nq[b]), BodyOutputs::Poses);
  }
  modelAgnosticPosesOfEvaluations(data, poses);
}

void modelAgnosticPosesOfEvaluations(const Data& data, ModelAgnosticPoses& poses) {
  const ModelAgnosticWorkspace& w = data.agnostic;
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const BodyEvaluation& body = w.evaluations[b];
    const int p = w.parent[b];
    const SE3& hung_from = p < 0 ? SE3::Identity() : poses.distal[p];
    poses.proximal[b] = hung_from * w.g_fixed[b];
    poses.distal[b] = poses.proximal[b] * body.distalPose();
    for (std::size_t k = 0; k < body.elements.size(); ++k)
      poses.elements[b][k] = poses.proximal[b] * body.elements[k].G;
  }
}

void modelAgnosticDistalFrames(const Model& model, ModelAgnosticWorkspace& w,
                               const Eigen::Ref<const Eigen::VectorXd>& q) {
  if (w.unsupported_link >= 0) {
    throw std::invalid_argument("no model-agnostic body kind handles link '" +
                                model.links[w.unsupported_link].name + "'");
  }
  if (q.size() != model.nq) throw std::invalid_argument("q has the wrong size");
  w.zero_rates.setZero(model.nv);
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    evaluateWorkspaceBody(model, w, static_cast<int>(b), q.segment(w.idx_q[b], w.nq[b]),
                          w.zero_rates.segment(w.idx_q[b], w.nq[b]), BodyOutputs::DistalFrame);
  }
  modelAgnosticWorldDistalFrames(w);
}

void modelAgnosticWorldDistalFrames(ModelAgnosticWorkspace& w) {
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const int p = w.parent[b];
    const BodyEvaluation& e = w.evaluations[b];
    const SE3 world_Q = p < 0 ? w.g_fixed[b] : w.world_D[p] * w.g_fixed[b];
    w.world_D[b] = world_Q * e.distalPose();
    const Matrix6Xd& J_D = e.distalJacobian();
    for (Eigen::Index c = 0; c < J_D.cols(); ++c)
      w.S_world[b].col(c) = applyAd(w.world_D[b], Vector6d(J_D.col(c)));
  }
}

Eigen::Vector3d modelAgnosticTipPosition(const Model& model, const ModelAgnosticWorkspace& w,
                                         int link, Eigen::Ref<Eigen::Matrix3Xd> J) {
  const auto found = std::find(w.link.begin(), w.link.end(), link);
  if (found == w.link.end()) throw std::invalid_argument("no model-agnostic body for the link");
  const int b = static_cast<int>(found - w.link.begin());
  // a rigid link's D is its joint's child frame, its tip placed after it; the other kinds' D is
  // their distal end
  const LinkInfo& info = model.links[static_cast<std::size_t>(link)];
  const Eigen::Vector3d p =
      info.kind == BodyKind::Rigid ? w.world_D[b].act(info.g_tip.p) : w.world_D[b].p;
  J.setZero();
  for (int a = b; a >= 0; a = w.parent[a]) {  // v_p = v_o + omega x p per world twist
    for (int c = 0; c < w.nq[a]; ++c) {
      const Vector6d s = w.S_world[a].col(c);
      J.col(w.idx_q[a] + c) = s.head<3>().cross(p) + s.tail<3>();
    }
  }
  return p;
}

double modelAgnosticGravitationalEnergy(const Model& model, const Data& data,
                                        const ModelAgnosticPoses& poses) {
  const Eigen::Vector3d a_g = model.gravity.tail<3>();
  const ModelAgnosticWorkspace& w = data.agnostic;
  double energy = 0.0;
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const BodyEvaluation& body = w.evaluations[b];
    for (std::size_t k = 0; k < body.elements.size(); ++k) {
      const SpatialInertia& M = body.elements[k].M;
      if (M.m <= 0.0) continue;
      // m c in world: R h + m p
      const SE3& g = poses.elements[b][k];
      energy -= a_g.dot(g.R * M.h + M.m * g.p);
    }
  }
  return energy;
}

double modelAgnosticKineticEnergy(const Data& data, const Eigen::Ref<const Eigen::VectorXd>& v) {
  const ModelAgnosticWorkspace& w = data.agnostic;
  double energy = 0.0;
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const BodyEvaluation& body = w.evaluations[b];
    for (const AgnosticElement& e : body.elements) {
      const Vector6d momentum = e.diagonal ? Vector6d(e.d.cwiseProduct(e.V)) : Vector6d(e.M * e.V);
      energy += 0.5 * e.V.dot(momentum);
    }
    // the lumped part's own motion: V^T H y' + 1/2 y'^T M y' (its C V term is the element's)
    if (const LumpedInertia& part = body.lumped; part.element >= 0) {
      const auto rates = v.segment(w.idx_q[b] + part.offset, part.n);
      const Vector6d& V = body.elements[part.element].V;
      for (int j = 0; j < part.n; ++j) {
        energy += V.dot(part.H.col(j)) * rates(j);
        energy += 0.5 * rates(j) * part.M.col(j).head(part.n).dot(rates);
      }
    }
  }
  return energy;
}

}  // namespace tendril
