#pragma once
// Generalised mass matrix by composite inertias (the CRBA of Featherstone, ch. 6, over virtual
// joints).

#include <Eigen/Core>

#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief M(q) = sum_k J_k^T M_k J_k, symmetric positive definite.
///
/// Backward pass accumulating composite inertias; the column block of joint j is I^c_j S_j carried
/// up through the ancestors and projected on their S. Several interval joints of one rod share a
/// coordinate block, so every contribution is added (never assigned) in both triangles.
/// \param[in] q generalised coordinates (dim model.nq)
/// \return M, stored in data.M (nv x nv); also fills the joint-local position stage of data
///         (localKinematics), not the world poses data.g
const Eigen::MatrixXd& massMatrix(const Model& model, Data& data,
                                  const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief The same, reusing the joint-local position stage already in data (e.g. right after
///        inverseDynamics at the same q, as forward dynamics does).
const Eigen::MatrixXd& massMatrixFromKinematics(const Model& model, Data& data);

}  // namespace tendril
