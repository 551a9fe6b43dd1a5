#include "core/algorithm/model_agnostic_centreline.hpp"

#include "core/model/bodies/lvp_body.hpp"

namespace tendril {

void centrelineSamples(const Model&, const RigidAgnosticBody&, const BodyEvaluation&,
                       const Eigen::Ref<const Eigen::VectorXd>&, std::vector<CentrelineSample>&) {}

void centrelineSamples(const Model& model, const GvsRodAgnosticBody& body,
                       const BodyEvaluation& evaluated, const Eigen::Ref<const Eigen::VectorXd>&,
                       std::vector<CentrelineSample>& out) {
  const LinkInfo& info = model.links[body.link];
  const int base = body.element_of_frame.front();
  out.push_back({base >= 0 ? evaluated.elements[base].G : SE3::Identity(), info.base_radius});
  for (std::size_t f = 1; f < body.element_of_frame.size(); ++f) {
    const int element = body.element_of_frame[f];
    if (element < 0) continue;
    const int interval = body.first + static_cast<int>(f) - 1;
    out.push_back({evaluated.elements[element].G, model.joints[interval].radius});
  }
  // the tip frame D, when its interval carries no inertia (then it is no element)
  if (body.element_of_frame.back() < 0)
    out.push_back({evaluated.G_D, model.joints[body.last].radius});
}

void centrelineSamples(const Model& model, const ConstantCurvatureAgnosticBody& body,
                       const BodyEvaluation& evaluated, const Eigen::Ref<const Eigen::VectorXd>&,
                       std::vector<CentrelineSample>& out) {
  const double radius = model.links[body.link].base_radius;
  for (const AgnosticElement& e : evaluated.elements) out.push_back({e.G, radius});
  out.push_back({evaluated.distalPose(), radius});
}

void centrelineSamples(const Model&, const LvpAgnosticBody& body, const BodyEvaluation& evaluated,
                       const Eigen::Ref<const Eigen::VectorXd>& q_i,
                       std::vector<CentrelineSample>& out) {
  constexpr int kStations =
      17;  // enough for a smooth tube: the primitives are low-order polynomials
  const LvpKinematics& kinematics = *body.kinematics;
  const auto q_body = q_i.tail(kinematics.dof());
  // the joint's child frame, where the body's undeformed cylinder starts: D in P, without the
  // body's own distal frame
  LvpKinematics::Distal distal;
  kinematics.distal(q_body, Eigen::VectorXd::Zero(kinematics.dof()), distal);
  const SE3 base = evaluated.distalPose() * SE3{distal.R, distal.p}.inverse();
  const LvpBodyDesc& desc = kinematics.description();
  for (int i = 0; i < kStations; ++i) {
    const Eigen::Vector3d x(0.0, 0.0, desc.length * i / (kStations - 1));
    const Eigen::Matrix3d F = kinematics.deformationGradient(x, q_body);
    Eigen::Matrix3d R;
    R.col(0) = F.col(2).normalized();
    R.col(1) = (F.col(0) - F.col(0).dot(R.col(0)) * R.col(0)).normalized();
    R.col(2) = R.col(0).cross(R.col(1));
    out.push_back({base * SE3{R, kinematics.position(x, q_body, false)}, desc.radius});
  }
}

}  // namespace tendril
