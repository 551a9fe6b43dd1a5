#include "core/algorithm/model_agnostic_forward_dynamics.hpp"

#include <limits>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"

namespace tendril {

namespace {

// q̈ = M⁻¹ qdd, with M from the MID pass just run (NaN where M is not positive definite)
const Eigen::VectorXd& solveWithPassMass(const Model& model, Data& data) {
  data.M = data.agnostic.M;
  if (!factorMassMatrix(model, data)) {
    data.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
    return data.qdd;
  }
  solveMassMatrix(data, data.qdd);
  return data.qdd;
}

}  // namespace

const Eigen::VectorXd& modelAgnosticForwardDynamics(const Model& model, Data& data,
                                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                                    double t) {
  data.qdd.setZero();
  // ID at a = 0 is the bias h; the same pass gives M
  data.qdd = -modelAgnosticMID(model, data, q, v, data.qdd, t);
  return solveWithPassMass(model, data);
}

const Eigen::VectorXd& modelAgnosticForwardDynamics(const Model& model, Data& data,
                                                    const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                                    const Eigen::Ref<const Eigen::VectorXd>& tau,
                                                    double t) {
  data.qdd.setZero();
  const Eigen::VectorXd& bias = modelAgnosticMID(model, data, q, v, data.qdd, t);
  data.qdd = tau - bias;
  return solveWithPassMass(model, data);
}

const Eigen::MatrixXd& modelAgnosticMassMatrix(const Model& model, Data& data,
                                               const Eigen::Ref<const Eigen::VectorXd>& q) {
  data.qdd.setZero();
  modelAgnosticMIID(model, data, q, data.qdd, data.qdd);
  data.M = data.agnostic.M;
  return data.M;
}

}  // namespace tendril
