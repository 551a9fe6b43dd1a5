#pragma once
// An Euler-Lagrange reference for planar piecewise-constant-curvature chains, independent of the
// engine: the chain's kinematics written out in the plane, its point Jacobians by automatic
// differentiation (Eigen's AutoDiffScalar), M = sum of w (rho A Jp^T Jp + rho I Jphi^T Jphi) over
// the same Gauss points as the body, c from the Christoffel symbols with dM/dq by extrapolated
// central differences, and g from the potential energy likewise (model-agnostic paper,
// Simulation 3; docs/theory/model-agnostic.md §7, oracle 1).

#include <Eigen/Core>

#include "core/model/description.hpp"

namespace tendril::test {

/// \brief A planar PCC chain: n segments on fixed joints, each bending about its local y.
struct PlanarPccChain {
  int bodies = 1;
  double length = 0.3, radius = 0.03, density = 1000.0;
  int gauss_points = 8;
  double gravity = 9.81;  ///< along -z; the chain starts along +x (horizontal)
};

/// \brief The chain as a description (the same geometry, for the engine).
RobotDescription planarPccDescription(const PlanarPccChain& chain);

/// \brief M(q) of the reference.
Eigen::MatrixXd lagrangianMassMatrix(const PlanarPccChain& chain, const Eigen::VectorXd& q);

/// \brief c(q, v) = (dM/dq v) v - 1/2 d(v^T M v)/dq of the reference.
Eigen::VectorXd lagrangianBias(const PlanarPccChain& chain, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& v);

/// \brief g(q) = dU/dq of the reference, U the potential energy of gravity.
Eigen::VectorXd lagrangianGravity(const PlanarPccChain& chain, const Eigen::VectorXd& q);

}  // namespace tendril::test
