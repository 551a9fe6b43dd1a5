#include "core/model/bodies/body_kind.hpp"

namespace tendril {

const char* bodyKindName(BodyKind kind) {
  switch (kind) {
    case BodyKind::Rigid:
      return "rigid body";
    case BodyKind::Soft:
      return "GVS rod";
    case BodyKind::ConstantCurvature:
      return "constant-curvature segment";
    case BodyKind::Lvp:
      return "LVP body";
  }
  return "";
}

}  // namespace tendril
