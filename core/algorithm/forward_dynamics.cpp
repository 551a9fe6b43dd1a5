#include "core/algorithm/forward_dynamics.hpp"

#include <limits>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"

namespace tendril {

const Eigen::VectorXd& forwardDynamics(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                       double t) {
  data.qdd.setZero();
  data.bias = inverseDynamics(model, data, q, v, data.qdd, t);
  massMatrixFromKinematics(model, data);  // inverseDynamics left the kinematics of q in data
  data.M_factor.compute(data.M);
  if (data.M_factor.info() != Eigen::Success) {
    data.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
    return data.qdd;
  }
  data.qdd = tau_actuation;
  data.qdd.noalias() -= model.K * q;
  data.qdd.noalias() -= model.D * v;
  data.qdd -= data.bias;
  data.M_factor.solveInPlace(data.qdd);
  return data.qdd;
}

}  // namespace tendril
