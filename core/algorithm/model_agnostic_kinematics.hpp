#pragma once
// World poses on the model-agnostic family (model_agnostic_body.hpp): each body's proximal frame
// P, distal frame D and inertial elements, from the bodies' own reports (G_D, G_k) composed along
// the tree with the placements g_fixed. What energies and drawing need from a model whose bodies
// may have no virtual-joint form.

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief World poses of the bodies of data.agnostic (indexed by body, in its order; body b is
///        description link data.agnostic.link[b]). Sized once by the constructor.
struct ModelAgnosticPoses {
  ModelAgnosticPoses() = default;
  ModelAgnosticPoses(const Model& model, const Data& data);

  std::vector<SE3> proximal;               ///< P of body b in world
  std::vector<SE3> distal;                 ///< D of body b in world
  std::vector<std::vector<SE3>> elements;  ///< element k of body b in world
  Eigen::VectorXd zero_rates;              ///< v_b = 0 for the evaluations (max nq)
};

/// \brief Evaluates every body at q (rates zero) and composes its poses into world.
/// Allocation-free. \throw std::invalid_argument when a link has no model-agnostic body kind
void modelAgnosticPoses(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                        ModelAgnosticPoses& poses);

/// \brief Composes into \p poses the bodies as their last evaluation in data.agnostic left them
///        (a pass's, at any rates: poses depend on q alone), without evaluating them again.
///        Allocation-free.
void modelAgnosticPosesOfEvaluations(const Data& data, ModelAgnosticPoses& poses);

/// \brief Evaluates only every body's distal frame at (q, 0) in \p w (BodyOutputs::DistalFrame: an
///        LVP body's one point, not its quadrature) and composes them into world: w.world_D[b],
///        and w.S_world[b], the world twists of D_b per coordinate of body b (the spatial
///        Jacobian columns of everything hung from it). Allocation-free.
/// \throw std::invalid_argument when a link has no model-agnostic body kind
void modelAgnosticDistalFrames(const Model& model, ModelAgnosticWorkspace& w,
                               const Eigen::Ref<const Eigen::VectorXd>& q);
/// \brief w.world_D and w.S_world from the evaluations w holds (a pass's, or the above's).
void modelAgnosticWorldDistalFrames(ModelAgnosticWorkspace& w);

/// \brief World position of link \p link's tip (a rigid link's tip frame; a rod's, segment's or
///        LVP body's distal end) and its Jacobian (3 x nv, overwritten), from the world distal
///        frames in \p w (modelAgnosticDistalFrames()). Allocation-free.
Eigen::Vector3d modelAgnosticTipPosition(const Model& model, const ModelAgnosticWorkspace& w,
                                         int link, Eigen::Ref<Eigen::Matrix3Xd> J);

/// \brief Gravitational potential energy -sum_k m_k a_g . c_k over every element (its inertia's
///        mass and first moment, so a lumped part counts as the dynamics see it) [J], from poses
///        modelAgnosticPoses() left in \p poses and data.agnostic.
double modelAgnosticGravitationalEnergy(const Model& model, const Data& data,
                                        const ModelAgnosticPoses& poses);

/// \brief Kinetic energy 1/2 v^T M(q) v as the sum of the elements' 1/2 V_k^T M_k V_k (a lumped
///        part's with its own rates), from the element twists a model-agnostic pass at (q, v) left
///        in data.agnostic (e.g. modelAgnosticIID(q, v, 0)) [J]. No mass matrix.
double modelAgnosticKineticEnergy(const Data& data, const Eigen::Ref<const Eigen::VectorXd>& v);

}  // namespace tendril
