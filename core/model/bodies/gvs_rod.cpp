#include "core/model/bodies/gvs_rod.hpp"

#include "core/model/bodies/rod_division.hpp"
#include "core/model/strain_basis.hpp"

namespace tendril {
namespace {

const char* const kStrainNames[6] = {"torsion", "bend_y",  "bend_z",
                                     "stretch", "shear_y", "shear_z"};

}  // namespace

std::vector<RodDivisionSpec> rodDivisions(const SoftBodyDesc& rod,
                                          const std::string& link_pointer) {
  std::vector<RodDivisionSpec> specs;
  for (std::size_t d = 0; d < rod.divisions.size(); ++d) {
    const DivisionDesc& division = rod.divisions[d];
    RodDivisionSpec spec;
    spec.origin = division.origin;
    spec.length = division.length;
    spec.section = division.section;
    spec.material = division.material;
    spec.ndof = strainBasisDof(division.basis);
    for (int c = 0; c < kStrainComponents; ++c) {
      for (int k = 0; k < basisFunctionCount(division.basis.order[c]); ++k) {
        spec.basis_rows.push_back(c);
        spec.mode_names.push_back("div" + std::to_string(d) + "/" + kStrainNames[c] + "/" +
                                  std::to_string(k));
      }
    }
    spec.basis = [basis = division.basis](double s, Matrix6Xd& Phi) {
      evalStrainBasis(basis, s, Phi);
    };
    spec.reference_strain = Eigen::Map<const Vector6d>(division.reference_strain.data());
    spec.gauss_points = division.gauss_points;
    spec.magnus_order = rod.magnus_order;
    spec.gauss_points_pointer =
        link_pointer + "/soft/divisions/" + std::to_string(d) + "/gauss_points";
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace tendril
