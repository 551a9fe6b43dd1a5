#include "core/algorithm/lvp_actuation.hpp"

#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/model_agnostic_body.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"

namespace tendril {
namespace {

int bodyOfLink(const ModelAgnosticWorkspace& w, int link) {
  for (std::size_t b = 0; b < w.link.size(); ++b) {
    if (w.link[b] == link) return static_cast<int>(b);
  }
  return -1;
}

// world position of a tendon anchor and its world Jacobian (3 x nv, overwritten)
Eigen::Vector3d anchorPoint(const Model& model, ModelAgnosticWorkspace& w,
                            const CompiledLvpTendon::Anchor& anchor,
                            const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Matrix3Xd& J) {
  const int b = bodyOfLink(w, anchor.link);
  const auto& body = std::get<LvpAgnosticBody>(w.bodies[b]);
  BodyEvaluation& e = w.evaluations[b];
  LvpKinematics::PointState& state = *e.lvp;
  const int nj = model.joints[body.joint].nq, nb = body.kinematics->dof();
  // the joint's child frame: D = G_J (R_D, p_D)
  const LvpKinematics::Distal& D = state.distal;
  SE3 g_D;
  g_D.R = D.R;
  g_D.p = D.p;
  const int p = w.parent[b];
  const SE3 world_Q = p < 0 ? w.g_fixed[b] : w.world_D[p] * w.g_fixed[b];
  const SE3 world_J = world_Q * e.G_D * g_D.inverse();
  Eigen::Vector3d f;
  auto J_own = J.middleCols(w.idx_q[b], w.nq[b]);
  J.setZero();
  body.kinematics->pointJacobian(q.segment(w.idx_q[b] + nj, nb), anchor.x, state, f,
                                 J_own.rightCols(nb));
  for (int c = nj; c < nj + nb; ++c) J_own.col(c) = world_J.R * Eigen::Vector3d(J_own.col(c));
  const Eigen::Vector3d p_world = world_J.act(f);
  for (int c = 0; c < nj; ++c) {  // the joint's body twists at its child frame
    const Vector6d s = e.scratch.col(c);
    J_own.col(c) = world_J.R * (s.head<3>().cross(f) + s.tail<3>());
  }
  for (int a = p; a >= 0; a = w.parent[a]) {  // the ancestors' world twists
    for (int c = 0; c < w.nq[a]; ++c) {
      const Vector6d s = w.S_world[a].col(c);
      J.col(w.idx_q[a] + c) = s.head<3>().cross(p_world) + s.tail<3>();
    }
  }
  return p_world;
}

// l and dl/dq (nv) of one tendon, the bodies' evaluations and world frames current
double tendonLength(const Model& model, ModelAgnosticWorkspace& w, const CompiledLvpTendon& tendon,
                    const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd* gradient) {
  double length = 0.0;
  if (gradient) gradient->setZero(model.nv);
  Eigen::Vector3d previous = anchorPoint(model, w, tendon.anchors[0], q, w.anchor_J[0]);
  for (std::size_t a = 1; a < tendon.anchors.size(); ++a) {
    const int now = static_cast<int>(a % 2), before = 1 - now;
    const Eigen::Vector3d next = anchorPoint(model, w, tendon.anchors[a], q, w.anchor_J[now]);
    const Eigen::Vector3d segment = next - previous;
    const double l = segment.norm();
    length += l;
    if (gradient && l > 0.0) {
      const Eigen::Vector3d direction = segment / l;
      gradient->noalias() += w.anchor_J[now].transpose() * direction;
      gradient->noalias() -= w.anchor_J[before].transpose() * direction;
    }
    previous = next;
  }
  return length;
}

// tau += scale dV/dq of one cavity, its body evaluated at q
void addCavityVolumeGradient(const Model& model, ModelAgnosticWorkspace& w,
                             const CompiledCavityPressure& pressure,
                             const Eigen::Ref<const Eigen::VectorXd>& q, double scale,
                             Eigen::Ref<Eigen::VectorXd> tau) {
  const int b = bodyOfLink(w, pressure.link);
  const auto& body = std::get<LvpAgnosticBody>(w.bodies[b]);
  const int nj = model.joints[body.joint].nq, nb = body.kinematics->dof();
  LvpKinematics::PointState& state = *w.evaluations[b].lvp;
  body.kinematics->cavityVolume(q.segment(w.idx_q[b] + nj, nb), state.coefficients, state.unit,
                                &state.volume_gradient);
  tau.segment(w.idx_q[b] + nj, nb) += scale * state.volume_gradient;
}

// tau += B_lvp(q) u for the LVP part of u: tendon tensions, then pressures
void addLvpInputs(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& tensions,
                  const Eigen::Ref<const Eigen::VectorXd>& pressures,
                  Eigen::Ref<Eigen::VectorXd> tau) {
  ModelAgnosticWorkspace& w = data.agnostic;
  for (std::size_t i = 0; i < model.lvp_tendons.size(); ++i) {
    if (tensions(static_cast<Eigen::Index>(i)) == 0.0) continue;
    tendonLength(model, w, model.lvp_tendons[i], q, &w.tendon_gradient);
    tau -= tensions(static_cast<Eigen::Index>(i)) * w.tendon_gradient;
  }
  for (std::size_t i = 0; i < model.cavity_pressures.size(); ++i) {
    const double p = pressures(static_cast<Eigen::Index>(i));
    if (p != 0.0) addCavityVolumeGradient(model, w, model.cavity_pressures[i], q, p, tau);
  }
}

}  // namespace

std::vector<std::string> inputNames(const Model& model) {
  std::vector<std::string> names;
  for (const CompiledJointInput& input : model.joint_inputs)
    names.push_back(model.coordinate_names[static_cast<std::size_t>(input.coordinate)]);
  for (const CompiledCable& cable : model.cables) names.push_back(cable.name);
  for (const CompiledLvpTendon& tendon : model.lvp_tendons) names.push_back(tendon.name);
  for (const CompiledCavityPressure& pressure : model.cavity_pressures)
    names.push_back(pressure.name);
  return names;
}

Eigen::VectorXd inputValues(const Model& model, double t) {
  Eigen::VectorXd u(static_cast<Eigen::Index>(inputNames(model).size()));
  Eigen::Index i = 0;
  for (const CompiledJointInput& input : model.joint_inputs) u(i++) = input.value(t);
  for (const CompiledCable& cable : model.cables) u(i++) = cable.tension(t);
  for (const CompiledLvpTendon& tendon : model.lvp_tendons) u(i++) = tendon.tension(t);
  for (const CompiledCavityPressure& pressure : model.cavity_pressures)
    u(i++) = pressure.pressure(t);
  return u;
}

void applyInputs(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> tau) {
  const auto joints = static_cast<Eigen::Index>(model.joint_inputs.size());
  const auto cables = static_cast<Eigen::Index>(model.cables.size());
  const auto tendons = static_cast<Eigen::Index>(model.lvp_tendons.size());
  const auto pressures = static_cast<Eigen::Index>(model.cavity_pressures.size());
  if (u.size() != joints + cables + tendons + pressures)
    throw std::invalid_argument("u has the wrong size (inputNames() lists the inputs)");
  tau.setZero();
  for (Eigen::Index i = 0; i < joints; ++i)
    tau(model.joint_inputs[static_cast<std::size_t>(i)].coordinate) += u(i);
  for (Eigen::Index i = 0; i < cables; ++i)
    addCableForces(model.cables[static_cast<std::size_t>(i)], q, u(joints + i), tau);
  if (tendons + pressures == 0) return;
  modelAgnosticDistalFrames(model, data.agnostic, q);
  addLvpInputs(model, data, q, u.segment(joints + cables, tendons),
               u.segment(joints + cables + tendons, pressures), tau);
}

double lvpTendonLength(const Model& model, Data& data, int tendon,
                       const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd* gradient) {
  modelAgnosticDistalFrames(model, data.agnostic, q);
  return tendonLength(model, data.agnostic, model.lvp_tendons.at(static_cast<std::size_t>(tendon)),
                      q, gradient);
}

void lvpTendonLengths(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                      Eigen::Ref<Eigen::VectorXd> lengths, Eigen::Ref<Eigen::MatrixXd> gradients) {
  lvpTendonLengths(model, data.agnostic, q, lengths, gradients);
}

void lvpTendonLengths(const Model& model, ModelAgnosticWorkspace& w,
                      const Eigen::Ref<const Eigen::VectorXd>& q,
                      Eigen::Ref<Eigen::VectorXd> lengths, Eigen::Ref<Eigen::MatrixXd> gradients) {
  modelAgnosticDistalFrames(model, w, q);
  for (std::size_t i = 0; i < model.lvp_tendons.size(); ++i) {
    const auto column = static_cast<Eigen::Index>(i);
    lengths(column) = tendonLength(model, w, model.lvp_tendons[i], q, &w.tendon_gradient);
    gradients.col(column) = w.tendon_gradient;
  }
}

void cavityVolumeGradients(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           Eigen::Ref<Eigen::MatrixXd> gradients) {
  cavityVolumeGradients(model, data.agnostic, q, gradients);
}

void cavityVolumeGradients(const Model& model, ModelAgnosticWorkspace& w,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           Eigen::Ref<Eigen::MatrixXd> gradients) {
  modelAgnosticDistalFrames(model, w, q);
  gradients.setZero();
  for (std::size_t i = 0; i < model.cavity_pressures.size(); ++i) {
    addCavityVolumeGradient(model, w, model.cavity_pressures[i], q, 1.0,
                            gradients.col(static_cast<Eigen::Index>(i)));
  }
}

void addLvpActuationForces(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q, double t,
                           Eigen::Ref<Eigen::VectorXd> tau) {
  ModelAgnosticWorkspace& w = data.agnostic;
  modelAgnosticWorldDistalFrames(w);
  for (std::size_t i = 0; i < model.lvp_tendons.size(); ++i) {
    const CompiledLvpTendon& tendon = model.lvp_tendons[i];
    w.lvp_inputs(static_cast<Eigen::Index>(i)) = tendon.controlled ? 0.0 : tendon.tension(t);
  }
  const auto tendons = static_cast<Eigen::Index>(model.lvp_tendons.size());
  for (std::size_t i = 0; i < model.cavity_pressures.size(); ++i) {
    const CompiledCavityPressure& pressure = model.cavity_pressures[i];
    w.lvp_inputs(tendons + static_cast<Eigen::Index>(i)) =
        pressure.controlled ? 0.0 : pressure.pressure(t);
  }
  addLvpInputs(model, data, q, w.lvp_inputs.head(tendons),
               w.lvp_inputs.tail(static_cast<Eigen::Index>(model.cavity_pressures.size())), tau);
}

}  // namespace tendril
