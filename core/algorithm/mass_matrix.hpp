#pragma once
// Generalised mass matrix by composite inertias (the CRBA of Featherstone, ch. 6, over virtual
// joints), in world coordinates; see mass_matrix.cpp.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief M(q) = sum_k J_k^T M_k J_k, symmetric positive definite.
///
/// Backward pass accumulating composite inertias in world; a division's own block by a recursion
/// along its intervals, the blocks between two coordinate groups from one sum over the lower one.
/// \param[in] q generalised coordinates (dim model.nq)
/// \return M, stored in data.M (nv x nv); also fills the position stage of data
///         (forwardKinematics)
const Eigen::MatrixXd& massMatrix(const Model& model, Data& data,
                                  const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief The same, reusing the position stage already in data, world poses included (e.g. right
///        after inverseDynamics at the same q, as forward dynamics does).
/// Models whose joints each own their coordinates (supportsRigidTreeRoutes()) take the rigid-tree
/// route, one column per coordinate; the others the grouped route below.
const Eigen::MatrixXd& massMatrixFromKinematics(const Model& model, Data& data);

/// \brief The route for every model (coordinate groups of any size), which the rigid-tree route
///        must reproduce; for the tests and the benchmarks that compare the two.
const Eigen::MatrixXd& groupedMassMatrixFromKinematics(const Model& model, Data& data);

}  // namespace tendril
