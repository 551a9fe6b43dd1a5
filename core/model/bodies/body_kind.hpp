#pragma once
// The body kinds a link can carry, as one std::variant of their descriptions.
//
// A body kind is a description struct in core/model/bodies/<kind>.hpp plus what each stage does
// with it (docs/ARCHITECTURE.md, "How to add a body kind", lists every place):
//   - the JSON reader and writer (core/io/json_io.cpp) and the schema;
//   - its compiled form for the GVS engine: a rigid body (lumped inertia) or rod divisions
//     (rod_division.hpp), chosen in build_model.cpp by one std::visit;
//   - its model-agnostic evaluation (core/algorithm/model_agnostic_body.hpp): relative kinematics
//     and inertial elements for the seed-001 algorithms;
//   - its builder entry, property rows and drawing in ui/.
// The hot loops never see a kind: they run over the compiled virtual joints.

#include <string>
#include <variant>

#include "core/model/bodies/constant_curvature.hpp"
#include "core/model/bodies/gvs_rod.hpp"
#include "core/model/bodies/lvp_body.hpp"
#include "core/model/bodies/rigid_body.hpp"

namespace tendril {

/// \brief A link's body; the alternative's index is its BodyKind.
using BodyDesc = std::variant<RigidBodyDesc, SoftBodyDesc, ConstantCurvatureBodyDesc, LvpBodyDesc>;

enum class BodyKind { Rigid = 0, Soft = 1, ConstantCurvature = 2, Lvp = 3 };

/// \brief What a person calls it ("rigid body", "GVS rod", "constant-curvature segment",
///        "LVP body").
[[nodiscard]] const char* bodyKindName(BodyKind kind);

/// \brief Whether the body has a centreline with an abscissa X in [0, L] (rods and
///        constant-curvature segments): where loads, cables and loop frames can sit along it.
/// An LVP body has none: its tendons are anchored on its surface (RobotDescription::lvp_tendons).
[[nodiscard]] constexpr bool hasCentreline(BodyKind kind) {
  return kind == BodyKind::Soft || kind == BodyKind::ConstantCurvature;
}

}  // namespace tendril
