#include "core/model/bodies/body_kind.hpp"

namespace tendril {

const char* bodyJsonKey(BodyKind kind) {
  switch (kind) {
    case BodyKind::Rigid:
      return "rigid";
    case BodyKind::Soft:
      return "soft";
    case BodyKind::ConstantCurvature:
      return "constant_curvature";
  }
  return "";
}

const char* bodyKindName(BodyKind kind) {
  switch (kind) {
    case BodyKind::Rigid:
      return "rigid body";
    case BodyKind::Soft:
      return "GVS rod";
    case BodyKind::ConstantCurvature:
      return "constant-curvature segment";
  }
  return "";
}

}  // namespace tendril
