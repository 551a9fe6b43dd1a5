#include "core/algorithm/dynamics_family.hpp"

#include <stdexcept>

#include "core/algorithm/model_agnostic_body.hpp"

namespace tendril {

std::optional<std::string> agnosticFamilyUnsupported(const Model& model) {
  const auto refuse = [](const std::string& what) {
    return "the model-agnostic dynamics family does not support " + what + " yet";
  };
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    if (!makeAgnosticBody(model, i)) {
      return refuse("the body of link '" + model.links[i].name +
                    "' (no model-agnostic body kind handles it)");
    }
  }
  if (!model.point_loads.empty()) return refuse("point loads (/point_loads)");
  if (model.environment.has_contact) return refuse("contact (/environment/contact)");
  if (model.environment.has_fluid) return refuse("fluid loads (/environment/fluid)");
  if (model.has_added_mass) return refuse("added mass (fluid)");
  if (!model.closed_chains.empty()) return refuse("closed chains (/closed_chains)");
  if (!model.prescribed.empty()) return refuse("position inputs (prescribed coordinates)");
  return std::nullopt;
}

DynamicsFamily resolveFamily(const Model& model, DynamicsFamily requested) {
  if (requested == DynamicsFamily::Auto) {
    requested = model.agnostic_only ? DynamicsFamily::ModelAgnostic : DynamicsFamily::Engine;
  }
  if (requested == DynamicsFamily::Engine && model.agnostic_only) {
    throw std::invalid_argument(
        "the engine family cannot run this model: some body has no virtual-joint form (use the "
        "model-agnostic family)");
  }
  if (requested == DynamicsFamily::ModelAgnostic) {
    if (const auto reason = agnosticFamilyUnsupported(model)) throw std::invalid_argument(*reason);
  }
  return requested;
}

std::string familyName(DynamicsFamily family) {
  switch (family) {
    case DynamicsFamily::Engine:
      return "engine";
    case DynamicsFamily::ModelAgnostic:
      return "model-agnostic";
    case DynamicsFamily::Auto:
      break;
  }
  return "auto";
}

bool parseFamily(const std::string& name, DynamicsFamily& family) {
  if (name == "auto") {
    family = DynamicsFamily::Auto;
  } else if (name == "engine") {
    family = DynamicsFamily::Engine;
  } else if (name == "model-agnostic" || name == "agnostic") {
    family = DynamicsFamily::ModelAgnostic;
  } else {
    return false;
  }
  return true;
}

std::string derivativeSourceLabel(DerivativeSource source) {
  return source == DerivativeSource::Analytical
             ? "analytical"
             : "central differences (no analytical derivatives for this body kind)";
}

}  // namespace tendril
