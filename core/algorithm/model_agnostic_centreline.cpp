#include "core/algorithm/model_agnostic_centreline.hpp"

namespace tendril {

void centrelineSamples(const Model&, const RigidAgnosticBody&, const BodyEvaluation&,
                       std::vector<CentrelineSample>&) {}

void centrelineSamples(const Model& model, const GvsRodAgnosticBody& body,
                       const BodyEvaluation& evaluated, std::vector<CentrelineSample>& out) {
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
                       const BodyEvaluation& evaluated, std::vector<CentrelineSample>& out) {
  const double radius = model.links[body.link].base_radius;
  for (const AgnosticElement& e : evaluated.elements) out.push_back({e.G, radius});
  out.push_back({evaluated.distalPose(), radius});
}

}  // namespace tendril
