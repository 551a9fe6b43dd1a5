#include "core/algorithm/forward_dynamics_derivatives.hpp"

#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"

namespace tendril {

void forwardDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  forwardDynamics(model, data, q, v, tau_actuation, t);  // qdd and the factor of M
  if (!data.qdd.allFinite()) {
    data.dqdd_dq.setConstant(std::numeric_limits<double>::quiet_NaN());
    data.dqdd_dv.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  inverseDynamicsDerivatives(model, data, q, v, data.qdd, t);
  actuationJacobian(model, data, q, t);
  data.dqdd_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  data.dqdd_dv = -model.D - data.dtau_dv;
  solveMassMatrix(data, data.dqdd_dq);
  solveMassMatrix(data, data.dqdd_dv);
}

}  // namespace tendril
