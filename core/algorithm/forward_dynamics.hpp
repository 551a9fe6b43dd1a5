#pragma once
// Forward dynamics by Cholesky factorisation of the mass matrix (docs/theory/gvs.md (4)), dense or,
// for branched models, along the coordinate tree without fill-in.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Solves M(q) qdd = tau_actuation - K q - D v - ID(q, v, 0).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in] tau_actuation generalised actuation forces B u (dim model.nv)
/// \param[in] t time [s] for time-varying point loads
/// \return qdd, stored in data.qdd (dim model.nv); data.M, the factor of M (solveMassMatrix())
///         and data.bias are filled.
///         When M is not positive definite (a non-finite state, or a degenerate model) qdd is NaN,
///         so integrators see a divergence without an exception in the hot path.
const Eigen::VectorXd& forwardDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                       double t = 0.0);

/// \brief Factors data.M as forwardDynamics() does (dense Cholesky, or along the coordinate tree
/// for branched models), for solveMassMatrix(). The kind is chosen from the first M factored,
/// so a later M must keep its sparsity (zeroed rows and columns do). Allocation-free.
/// \return false when M is not positive definite
bool factorMassMatrix(const Model& model, Data& data);

/// \brief x = M^-1 x with the factor of M from the last forwardDynamics(): data.M_columns, or for
/// branched models a tree-sparse M = L^T L (data.tree_factor, O(n depth) instead of O(n^2)).
void solveMassMatrix(Data& data, Eigen::Ref<Eigen::MatrixXd> x);

/// \brief x1 = scale M^-1 b1 and x2 = scale M^-1 b2 with the factor of solveMassMatrix(), the
///        columns of both in one sweep over the factor (dFD's dq and dv columns: one padding, one
///        block structure). b1 may be x1 and b2 may be x2. Allocation-free up to 2 nv columns.
void solveMassMatrixPair(Data& data, const Eigen::Ref<const Eigen::MatrixXd>& b1,
                         const Eigen::Ref<const Eigen::MatrixXd>& b2, double scale,
                         Eigen::Ref<Eigen::MatrixXd> x1, Eigen::Ref<Eigen::MatrixXd> x2);

}  // namespace tendril
