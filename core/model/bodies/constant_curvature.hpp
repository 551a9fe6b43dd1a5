#pragma once
// Body kind "constant_curvature": a slender segment whose centreline bends with one curvature along
// its whole length (the piecewise-constant-curvature model, docs/theory/model-agnostic.md §5).
// A chain of them is a PCC robot. The circular cross-sections stay rigid and normal to the
// centreline, so the segment is a Cosserat rod with a constant strain
//   xi = (0, theta_y / L, theta_z / L, 1 + delta / L, 0, 0)    (angular first, rod axis x)
// and it compiles into one rod division with that constant basis (rod_division.hpp): the GVS
// engine then gives it kinematics, dynamics, analytical derivatives, contact and drawing. The
// model-agnostic algorithms integrate it by its own closed-form arc kinematics and Gauss rule.
//
//   planar:  q = theta [rad], the bending angle about the local y axis (the segment bends in its
//            x-z plane; theta > 0 turns the tip about +y, toward -z). Singular nowhere: the arc's
//            (1 - cos theta) / theta form is replaced by its series near theta = 0.
//   spatial: q = (theta_y, theta_z, delta): the bending-angle vector about y and z [rad] and the
//            elongation [m]. The straight configuration is q = 0, where the map is smooth (no
//            arc-plane angle, unlike the (kappa, phi, l) arc parameters).

#include "core/model/bodies/material.hpp"

namespace tendril {

enum class CurvatureModel {
  Planar,  ///< one bending angle
  Spatial  ///< two bending angles and the elongation
};

/// \brief How internal stress follows strain. LinearElastic: the bending moment E I kappa and
///        the axial force E A epsilon, with Kelvin-Voigt damping of viscosity eta (the GVS rod's
///        law); for the planar segment K = E I / L and D = 3 eta I / L on theta.
enum class StressModel { LinearElastic };

struct ConstantCurvatureBodyDesc {
  CurvatureModel model = CurvatureModel::Planar;
  double length = 0.3;   ///< rest length L [m]
  double radius = 0.03;  ///< radius of the circular cross-section [m]
  MaterialDesc material;
  StressModel stress = StressModel::LinearElastic;
  /// Gauss-Legendre points along the length: the mass integrals (exact for the section, spectral
  /// along the arc) and the quadrature of the tendons
  int gauss_points = 8;
  bool operator==(const ConstantCurvatureBodyDesc&) const = default;
};

/// \brief Coordinates of a constant-curvature segment: 1 (planar) or 3 (spatial).
[[nodiscard]] constexpr int constantCurvatureDof(CurvatureModel model) {
  return model == CurvatureModel::Planar ? 1 : 3;
}

}  // namespace tendril
