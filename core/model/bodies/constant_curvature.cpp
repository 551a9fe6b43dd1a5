#include "core/model/bodies/constant_curvature.hpp"

#include "core/model/bodies/rod_division.hpp"

namespace tendril {

std::vector<RodDivisionSpec> rodDivisions(const ConstantCurvatureBodyDesc& segment,
                                          const std::string& link_pointer) {
  RodDivisionSpec spec;
  spec.length = segment.length;
  spec.section.shape = SectionShape::Circular;
  spec.section.radius_start = spec.section.radius_end = segment.radius;
  spec.material = segment.material;
  spec.ndof = constantCurvatureDof(segment.model);
  // xi = (0, theta_y / L, theta_z / L, 1 + delta / L, 0, 0): bending angles and elongation
  if (segment.model == CurvatureModel::Planar) {
    spec.basis_rows = {1};
    spec.mode_names = {"cc/theta"};
  } else {
    spec.basis_rows = {1, 2, 3};
    spec.mode_names = {"cc/theta_y", "cc/theta_z", "cc/elongation"};
  }
  spec.basis = [rows = spec.basis_rows, inverse_length = 1.0 / segment.length](double,
                                                                               Matrix6Xd& Phi) {
    Phi.setZero();
    for (std::size_t k = 0; k < rows.size(); ++k)
      Phi(rows[k], static_cast<Eigen::Index>(k)) = inverse_length;
  };
  spec.reference_strain << 0, 0, 0, 1, 0, 0;
  spec.gauss_points = segment.gauss_points;
  spec.magnus_order = 2;  // exact: the strain is constant along the segment
  spec.gauss_points_pointer = link_pointer + "/constant_curvature/gauss_points";
  return {std::move(spec)};
}

}  // namespace tendril
