#pragma once
// What the GVS engine compiles of a body with a centreline: a sequence of rod divisions, each a
// strain basis over a length with its section, material and Gauss rule (docs/theory/gvs.md §1-§6).
// A GVS rod gives one per division of its description; a constant-curvature segment gives one
// division whose basis is constant. build_model.cpp turns each into rod-interval virtual joints.

#include <functional>
#include <string>
#include <vector>

#include "core/math/lie.hpp"
#include "core/model/bodies/constant_curvature.hpp"
#include "core/model/bodies/gvs_rod.hpp"

namespace tendril {

using Matrix6Xd = Eigen::Matrix<double, 6, Eigen::Dynamic>;

struct RodDivisionSpec {
  Placement origin;  ///< start in the end frame of the previous division (or the link frame)
  double length = 0.0;
  CrossSectionDesc section;
  MaterialDesc material;
  int ndof = 0;
  /// the strain component (0..5) of each mode: every column of the basis has its one non-zero
  /// entry in that row
  std::vector<int> basis_rows;
  /// name of each mode within the link, e.g. "div0/bend_y/2" or "cc/theta"
  std::vector<std::string> mode_names;
  /// Phi(s) at the normalised abscissa s = X / L (6 x ndof, every entry written)
  std::function<void(double s, Matrix6Xd& Phi)> basis;
  Vector6d reference_strain = Vector6d::Zero();
  int gauss_points = 5;
  int magnus_order = 4;
  /// JSON pointer of the setting that adds Gauss points (named when a mode has no stiffness)
  std::string gauss_points_pointer;
};

/// \brief The divisions of a GVS rod. \param link_pointer e.g. "/links/3"
std::vector<RodDivisionSpec> rodDivisions(const SoftBodyDesc& rod, const std::string& link_pointer);

/// \brief The one division of a constant-curvature segment: the constant basis of
///        constant_curvature.hpp, magnus order 2 (exact for a constant strain).
std::vector<RodDivisionSpec> rodDivisions(const ConstantCurvatureBodyDesc& segment,
                                          const std::string& link_pointer);

}  // namespace tendril
