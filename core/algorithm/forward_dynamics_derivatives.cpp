#include "core/algorithm/forward_dynamics_derivatives.hpp"

#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"

namespace tendril {

bool forceBalanceDerivatives(const Model& model, Data& data,
                             const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& v,
                             const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
                             Eigen::Ref<Eigen::MatrixXd> dr_dq, Eigen::Ref<Eigen::MatrixXd> dr_dv) {
  forwardDynamics(model, data, q, v, tau_actuation, t);  // qdd, the factor of M, the kinematics
  if (!data.qdd.allFinite()) return false;
  inverseDynamicsDerivativesAtKinematics(model, data, v, data.qdd, t);
  actuationJacobian(model, data, q, t);
  dr_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  dr_dv = -model.D - data.dtau_dv;
  return true;
}

void forwardDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  if (!forceBalanceDerivatives(model, data, q, v, tau_actuation, t, data.dqdd_dq, data.dqdd_dv)) {
    data.dqdd_dq.setConstant(std::numeric_limits<double>::quiet_NaN());
    data.dqdd_dv.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  solveMassMatrix(data, data.dqdd_dq);
  solveMassMatrix(data, data.dqdd_dv);
}

}  // namespace tendril
