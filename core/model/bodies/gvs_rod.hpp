#pragma once
// Body kind "soft": a Cosserat rod of the Geometric Variable Strain model, divisions with their
// own section, material and strain basis (docs/theory/gvs.md). It compiles into rod divisions
// (core/model/bodies/rod_division.hpp).

#include <array>
#include <vector>

#include "core/model/bodies/material.hpp"
#include "core/model/placement.hpp"

namespace tendril {

enum class SectionShape { Circular, Rectangular };

/// \brief Cross-section that tapers linearly from the start to the end of a division.
struct CrossSectionDesc {
  SectionShape shape = SectionShape::Circular;
  double radius_start = 0.01, radius_end = 0.01;  ///< circular [m]
  double width_start = 0.02, width_end = 0.02;    ///< rectangular, along local y [m]
  double height_start = 0.01, height_end = 0.01;  ///< rectangular, along local z [m]
  bool operator==(const CrossSectionDesc&) const = default;
};

enum class BasisFamily { Monomial, Legendre, Chebyshev, Fourier, Gaussian, PiecewiseConstant };

/// \brief Strain basis: one family, and per strain component (torsion, bend y, bend z, stretch,
///        shear y, shear z) an order, or -1 for "component off". Order k gives k+1 modes.
struct StrainBasisDesc {
  BasisFamily family = BasisFamily::Legendre;
  std::array<int, 6> order{2, 2, 2, -1, -1, -1};
  bool operator==(const StrainBasisDesc&) const = default;
};

struct DivisionDesc {
  Placement
      origin;  ///< start of the division in the end frame of the previous one (or the link frame)
  double length = 0.5;  ///< [m]
  CrossSectionDesc section;
  MaterialDesc material;
  StrainBasisDesc basis;
  std::array<double, 6> reference_strain{0.0, 0.0, 0.0,
                                         1.0, 0.0, 0.0};  ///< xi* [1/m, 1/m, 1/m, -, -, -]
  int gauss_points = 5;
  bool operator==(const DivisionDesc&) const = default;
};

struct SoftBodyDesc {
  std::vector<DivisionDesc> divisions{DivisionDesc{}};
  int magnus_order = 4;  ///< 2 or 4
  bool operator==(const SoftBodyDesc&) const = default;
};

}  // namespace tendril
