#pragma once
// The centreline of a model-agnostic body (model_agnostic_body.hpp) for drawing: poses along it in
// its proximal frame P, base to tip, from what the body reported at q_i (and q_i itself, for a body
// that draws more than it reports). Each kind answers with one
// overload of centrelineSamples(); a kind without a centreline (the rigid link) appends nothing. A
// new kind adds its overload (the AgnosticBody dispatch below does not compile without it).

#include <vector>

#include "core/algorithm/model_agnostic_body.hpp"

namespace tendril {

/// \brief A centreline sample: its pose in P and the section's size there [m].
struct CentrelineSample {
  SE3 G;
  double radius = 0.0;
};

/// \brief None: a rigid link has no centreline.
void centrelineSamples(const Model& model, const RigidAgnosticBody& body,
                       const BodyEvaluation& evaluated,
                       const Eigen::Ref<const Eigen::VectorXd>& q_i,
                       std::vector<CentrelineSample>& out);
/// \brief The rod's computational points: the joint's child frame (P when that frame carries no
///        inertia, exact for a rod on a fixed joint), then every interval child frame that carries
///        an element, and the tip frame D, with the interval's section radius.
void centrelineSamples(const Model& model, const GvsRodAgnosticBody& body,
                       const BodyEvaluation& evaluated,
                       const Eigen::Ref<const Eigen::VectorXd>& q_i,
                       std::vector<CentrelineSample>& out);
/// \brief The segment's stations: its elements (the Gauss points of a spatial segment; the base
///        frame C of a planar one), then D.
void centrelineSamples(const Model& model, const ConstantCurvatureAgnosticBody& body,
                       const BodyEvaluation& evaluated,
                       const Eigen::Ref<const Eigen::VectorXd>& q_i,
                       std::vector<CentrelineSample>& out);

/// \brief 17 stations from base to tip, each from a ring of 8 points of the outer surface
///        (r = R): the ring's centre, x along the mean F e3 (the deformed tangent, as a rod's), y
///        towards the ring's first point (material x1), and the ring's mean radius across x (an
///        inflated section draws wider). The axis itself is not material in a hollow body.
void centrelineSamples(const Model& model, const LvpAgnosticBody& body,
                       const BodyEvaluation& evaluated,
                       const Eigen::Ref<const Eigen::VectorXd>& q_i,
                       std::vector<CentrelineSample>& out);

/// \brief Appends the samples of \p body (evaluated by evaluateAgnosticBody() at \p q_i, the
///        link's coordinates) to \p out.
inline void centrelineSamples(const Model& model, const AgnosticBody& body,
                              const BodyEvaluation& evaluated,
                              const Eigen::Ref<const Eigen::VectorXd>& q_i,
                              std::vector<CentrelineSample>& out) {
  std::visit([&](const auto& kind) { centrelineSamples(model, kind, evaluated, q_i, out); }, body);
}

}  // namespace tendril
