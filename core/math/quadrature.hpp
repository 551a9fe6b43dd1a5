#pragma once
// Quadrature rules of a soft rod: Gauss-Legendre abscissae and weights on [0, L] (the computational
// points of docs/theory/gvs.md §2) and the two Zanna collocation points of an interval (§3).

#include <Eigen/Core>

namespace tendril {

/// Largest supported number of Gauss points per division.
inline constexpr int kMaxGaussPoints = 30;

/// \brief An n-point quadrature rule: integral_0^L f(X) dX ~= sum_i weights(i) f(nodes(i)).
struct GaussRule {
  Eigen::VectorXd nodes;    ///< abscissae X_i in (0, L), ascending (n) [m]
  Eigen::VectorXd weights;  ///< positive weights w_i, summing to L (n) [m]
};

/// \brief n-point Gauss-Legendre rule on [0, length], exact for polynomials of degree <= 2n - 1.
///
/// Nodes are the roots of P_n, found by Newton's method on the three-term recurrence from the
/// asymptotic initial guess cos(pi (i + 3/4)/(n + 1/2)); weights are 2/((1 - x^2) P_n'(x)^2),
/// mapped to [0, length]. Accurate to about 1e-15 relative for n <= kMaxGaussPoints. Symmetric
/// pairs are computed once, so the rule is exactly symmetric about length/2.
/// \param[in] n number of points, 1 <= n <= kMaxGaussPoints
/// \param[in] length interval length L > 0 [m]
/// \return nodes and weights (n each)
/// \throws std::invalid_argument if n or length is out of range
/// \see docs/theory/gvs.md §2 (computational points)
[[nodiscard]] GaussRule gaussLegendre(int n, double length = 1.0);

/// Relative position of the first Zanna point in an interval: 1/2 - sqrt(3)/6.
inline constexpr double kZannaLow = 0.5 - 0.28867513459481288225;
/// Relative position of the second Zanna point in an interval: 1/2 + sqrt(3)/6.
inline constexpr double kZannaHigh = 0.5 + 0.28867513459481288225;

/// \brief The two Zanna (2-point Gauss) collocation abscissae of an interval.
struct ZannaPoints {
  double z1;  ///< X0 + (1/2 - sqrt(3)/6) h [m]
  double z2;  ///< X0 + (1/2 + sqrt(3)/6) h [m]
};

/// \brief Zanna points of the interval [X0, X0 + h].
/// \param[in] x0 interval start X_alpha [m]
/// \param[in] h interval length h_alpha [m]
/// \return z1, z2
/// \see docs/theory/gvs.md §3; magnus4() in lie.hpp
[[nodiscard]] ZannaPoints zannaPoints(double x0, double h);

}  // namespace tendril
