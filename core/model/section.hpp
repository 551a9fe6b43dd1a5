#pragma once
// Geometric and constitutive properties of a rod cross-section (docs/theory/gvs.md §6).

#include "core/math/lie.hpp"
#include "core/model/description.hpp"

namespace tendril {

struct SectionProperties {
  double area = 0.0;  ///< A [m^2]
  double Jx =
      0.0;  ///< polar second moment Jy + Jz [m^4] (torsional inertia and stiffness, as SoRoSim)
  double Jy = 0.0;      ///< second moment about local y [m^4]
  double Jz = 0.0;      ///< second moment about local z [m^4]
  double radius = 0.0;  ///< circular radius, or half the larger side (drawing)

  /// \brief Screw inertia per unit length and density: diag(Jx, Jy, Jz, A, A, A).
  Vector6d inertiaDiagonal() const;
  /// \brief Sigma = diag(G Jx, E Jy, E Jz, E A, G A, G A).
  Vector6d stiffnessDiagonal(const MaterialDesc& material) const;
  /// \brief Upsilon = eta diag(Jx, 3 Jy, 3 Jz, 3 A, A, A).
  Vector6d dampingDiagonal(const MaterialDesc& material) const;
};

/// \brief Section properties at normalised abscissa s in [0, 1] of a linearly tapered division.
SectionProperties sectionProperties(const CrossSectionDesc& section, double s);

/// \brief G, from the shear modulus when given, else E / (2 (1 + nu)).
double shearModulus(const MaterialDesc& material);

}  // namespace tendril
