#include "core/algorithm/dynamics_residual.hpp"

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"

namespace tendril {

void dynamicsResidual(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& a, double t,
                      Eigen::Ref<Eigen::VectorXd> r) {
  // r = ID - B u + K q + D v
  actuationForces(model, q, t, r);
  r = inverseDynamicsWithoutSubspaces(model, data, q, v, a, t) - r;
  addInternalForces(model, q, v, r, -1.0);
}

void dynamicsResidualDerivatives(const Model& model, Data& data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& a, double t,
                                 Eigen::Ref<Eigen::MatrixXd> dr_dq,
                                 Eigen::Ref<Eigen::MatrixXd> dr_dv) {
  inverseDynamicsDerivatives(model, data, q, v, a, t);
  actuationJacobian(model, data, q, t);
  dr_dq = data.dtau_dq - data.dtau_applied_dq + model.K;
  dr_dv = data.dtau_dv + model.D;
  massMatrix(model, data, q);
}

}  // namespace tendril
