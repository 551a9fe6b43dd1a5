#pragma once
// Which family of recursions evaluates a model's dynamics: the GVS engine on virtual joints
// (inverseDynamics(), forwardDynamics() and their analytical derivatives) or the model-agnostic
// recursion between black-box bodies (model_agnostic_dynamics.hpp), which has no analytical
// derivatives: its Jacobians come from central differences of its inverse dynamics.

#include <optional>
#include <string>

#include "core/model/model.hpp"

namespace tendril {

/// \brief Auto: the model-agnostic family exactly when model.agnostic_only (some body has no
/// virtual-joint form), else the engine. Engine and ModelAgnostic force one (ModelAgnostic runs
/// any model whose loads it supports; Engine refuses an agnostic_only model).
enum class DynamicsFamily { Auto, Engine, ModelAgnostic };

/// \brief Where the Jacobians of a run come from.
enum class DerivativeSource { Analytical, CentralDifferences };

/// \brief The family that runs \p model for a request: Auto resolved, and checked.
/// \throw std::invalid_argument when the model-agnostic family cannot run the model (see
///        agnosticFamilyUnsupported()) or the engine is asked for an agnostic_only model
DynamicsFamily resolveFamily(const Model& model, DynamicsFamily requested);

/// \brief Why the model-agnostic family cannot run \p model, as one sentence naming the element
/// (a link no body kind handles, point loads, contact, fluid loads or added mass, closed chains,
/// prescribed coordinates), or nothing. The family's inverse dynamics covers inertia, gravity,
/// stiffness, damping, cables and force inputs only; a load it would drop is refused instead.
std::optional<std::string> agnosticFamilyUnsupported(const Model& model);

/// \brief "engine", "model-agnostic", "auto".
std::string familyName(DynamicsFamily family);
/// \brief Parses "auto", "engine", "model-agnostic" (or "agnostic"). \return false if unknown
bool parseFamily(const std::string& name, DynamicsFamily& family);

/// \brief What a user is told about a Jacobian source: "analytical", or "central differences (no
/// analytical derivatives for this body kind)".
std::string derivativeSourceLabel(DerivativeSource source);

/// \brief The source of the Jacobians of a resolved family when analytical ones are asked for.
inline DerivativeSource derivativeSource(DynamicsFamily resolved) {
  return resolved == DynamicsFamily::ModelAgnostic ? DerivativeSource::CentralDifferences
                                                   : DerivativeSource::Analytical;
}

}  // namespace tendril
