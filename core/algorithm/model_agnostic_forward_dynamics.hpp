#pragma once
// Forward dynamics on the model-agnostic family (model_agnostic_dynamics.hpp): M(q) and the bias
// h = c + g + K q + D v - B u(t) from one MID pass at a = 0, then qdd = -M^-1 h by the Cholesky
// factor forwardDynamics() uses. The loads are those of modelAgnosticID(): a model with others
// is refused before a run (agnosticFamilyUnsupported(), dynamics_family.hpp).

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief qdd = M^-1 (B u(t) - K q - D v - c - g), from modelAgnosticMID(q, v, 0, t).
/// \return qdd, stored in data.qdd (dim model.nv); M copied into data.M and factored there for
///         solveMassMatrix() (forward_dynamics.hpp). NaN when M is not positive definite, so
///         integrators see a divergence. Allocation-free.
const Eigen::VectorXd& modelAgnosticForwardDynamics(const Model& model, Data& data,
                                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                                    double t);

/// \brief The same with a further generalised force \p tau on the right (what the controllers
///        write, which the ID leaves out): qdd = M^-1 (tau - ID(q, v, 0, t)). Allocation-free.
const Eigen::VectorXd& modelAgnosticForwardDynamics(const Model& model, Data& data,
                                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                                    const Eigen::Ref<const Eigen::VectorXd>& tau,
                                                    double t);

/// \brief The mass matrix of the model-agnostic family, M(q) from modelAgnosticMIID(q, 0, 0),
///        copied into data.M (not factored). Allocation-free.
const Eigen::MatrixXd& modelAgnosticMassMatrix(const Model& model, Data& data,
                                               const Eigen::Ref<const Eigen::VectorXd>& q);

}  // namespace tendril
