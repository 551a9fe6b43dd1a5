#pragma once
// Strain bases Phi(X) of a soft division: one scalar function family evaluated at the normalised
// abscissa s = X/L in [0, 1], and its 6 x n_dof block layout over the strain components
// xi = [torsion, bend y, bend z, stretch, shear y, shear z] (docs/theory/gvs.md (1)).

#include <Eigen/Core>

#include "core/model/description.hpp"

namespace tendril {

/// Number of strain components of a Cosserat rod (3 angular, then 3 linear).
inline constexpr int kStrainComponents = 6;

/// \brief Number of scalar functions of one component at order k: k + 1, or 0 if the component is
///        off (k < 0).
[[nodiscard]] constexpr int basisFunctionCount(int order) {
  return order < 0 ? 0 : order + 1;
}

/// \brief Evaluates the k + 1 functions of a family at s.
///
/// With x = 2s - 1, the families are:
/// - Monomial: s^i;
/// - Legendre: P_i(x), unnormalised (P_i(1) = 1), orthogonal on [0, 1] with norm 1/(2i + 1);
/// - Chebyshev: T_i(x) (first kind, T_i(cos t) = cos(i t));
/// - Fourier: 1, cos(2 pi s), sin(2 pi s), cos(4 pi s), sin(4 pi s), ... (the first k + 1);
/// - Gaussian: exp(-(s - c_i)^2 / (2 sigma^2)) with centres c_i = i/k (uniform on [0, 1], both ends
///   included) and width sigma = 1/(2k) (half the centre spacing); for k = 0 one bump with c = 1/2,
///   sigma = 1/2;
/// - PiecewiseConstant: indicator of the i-th of k + 1 equal pieces [i/(k+1), (i+1)/(k+1)); the
/// last
///   piece also contains s = 1, and s outside [0, 1] is clamped to the first or last piece.
/// \param[in] family function family
/// \param[in] order k >= 0
/// \param[in] s normalised abscissa X/L (nominally in [0, 1])
/// \param[out] values the k + 1 function values (1 x (k + 1), any inner stride, e.g. a row
///             segment of Phi)
/// \pre values.size() == order + 1
void evalBasisFunctions(BasisFamily family, int order, double s,
                        Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> values);

/// \brief Number of strain DoF of a division: sum over enabled components of (order + 1).
/// \param[in] desc family and per-component orders (-1 = off)
/// \return n_dof of the division
[[nodiscard]] int strainBasisDof(const StrainBasisDesc& desc);

/// \brief First column of a component's block in Phi, or -1 if the component is off.
/// \param[in] desc family and per-component orders
/// \param[in] component 0..5 (torsion, bend y, bend z, stretch, shear y, shear z)
/// \return column offset in [0, n_dof), or -1
[[nodiscard]] int strainComponentOffset(const StrainBasisDesc& desc, int component);

/// \brief Fills the strain basis Phi(s) (6 x n_dof) without allocating.
///
/// Row r is strain component r. Enabled components, in the order torsion, bend y, bend z, stretch,
/// shear y, shear z, take consecutive column blocks; component r's block holds its order_r + 1
/// functions in row r and zeros elsewhere. The strain is xi(X) = Phi(X/L) q + xi*(X).
/// \param[in] desc family and per-component orders (-1 = off)
/// \param[in] s normalised abscissa X/L
/// \param[out] Phi strain basis (6 x strainBasisDof(desc)); every entry is written
/// \pre Phi.rows() == 6 and Phi.cols() == strainBasisDof(desc)
/// \see docs/theory/gvs.md §1 (1)
void evalStrainBasis(const StrainBasisDesc& desc, double s, Eigen::Ref<Eigen::MatrixXd> Phi);

}  // namespace tendril
