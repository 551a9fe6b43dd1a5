#pragma once
// The isotropic visco-elastic material of a deformable body (GVS rods, constant-curvature
// segments).

#include <optional>

namespace tendril {

struct MaterialDesc {
  double youngs_modulus = 1e6;  ///< E [Pa]
  std::optional<double> poisson_ratio =
      0.5;                              ///< nu in (-1, 0.5]; used when shear_modulus is absent
  std::optional<double> shear_modulus;  ///< G [Pa]; overrides poisson_ratio
  double density = 1000.0;              ///< rho [kg/m^3]
  double damping = 0.0;                 ///< eta [Pa s]
  bool operator==(const MaterialDesc&) const = default;
};

}  // namespace tendril
