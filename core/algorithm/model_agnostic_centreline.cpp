#include "core/algorithm/model_agnostic_centreline.hpp"

#include <array>
#include <cmath>

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
  // enough for a smooth tube: the primitives are low-order polynomials in x3
  constexpr int kStations = 17;
  // the axis of a hollow body is not material (and a source's map is singular there): each
  // station is drawn from a ring of the outer surface, its centre, mean tangent and mean radius,
  // so that an inflated or sheared section shows
  constexpr int kRingPoints = 8;
  const LvpKinematics& kinematics = *body.kinematics;
  const auto q_body = q_i.tail(kinematics.dof());
  // the joint's child frame, where the body's undeformed cylinder starts: D in P, without the
  // body's own distal frame
  LvpKinematics::Distal distal;
  kinematics.distal(q_body, Eigen::VectorXd::Zero(kinematics.dof()), distal);
  const SE3 base = evaluated.distalPose() * SE3{distal.R, distal.p}.inverse();
  const LvpBodyDesc& desc = kinematics.description();
  std::array<Eigen::Vector3d, kRingPoints> ring;
  for (int i = 0; i < kStations; ++i) {
    const double x3 = desc.length * i / (kStations - 1);
    Eigen::Vector3d centre = Eigen::Vector3d::Zero(), tangent = Eigen::Vector3d::Zero();
    for (int k = 0; k < kRingPoints; ++k) {
      const double angle = 2.0 * M_PI * k / kRingPoints;
      const Eigen::Vector3d x(desc.radius * std::cos(angle), desc.radius * std::sin(angle), x3);
      ring[static_cast<std::size_t>(k)] = kinematics.position(x, q_body);
      centre += ring[static_cast<std::size_t>(k)] / kRingPoints;
      tangent += kinematics.deformationGradient(x, q_body).col(2);
    }
    Eigen::Matrix3d R;
    R.col(0) = tangent.normalized();
    double radius = 0.0;
    for (const Eigen::Vector3d& p : ring) {
      const Eigen::Vector3d across = p - centre;
      radius += (across - across.dot(R.col(0)) * R.col(0)).norm() / kRingPoints;
    }
    const Eigen::Vector3d first = ring[0] - centre;  // the material x1 direction: twist shows
    R.col(1) = (first - first.dot(R.col(0)) * R.col(0)).normalized();
    R.col(2) = R.col(0).cross(R.col(1));
    out.push_back({base * SE3{R, centre}, radius});
  }
}

}  // namespace tendril
