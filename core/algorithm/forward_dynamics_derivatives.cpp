#include "core/algorithm/forward_dynamics_derivatives.hpp"

#include <limits>
#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/articulated_body_derivatives.hpp"
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

namespace {

void setNaN(Data& data) {
  data.qdd.setConstant(std::numeric_limits<double>::quiet_NaN());
  data.dqdd_dq.setConstant(std::numeric_limits<double>::quiet_NaN());
  data.dqdd_dv.setConstant(std::numeric_limits<double>::quiet_NaN());
}

// AZA: qdd by the articulated recursion (which forms the position stage the derivatives of ID
// read), the force-balance derivatives at it, and M^-1 through the recursion's inertia sweep
void articulatedRoute(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t) {
  articulatedBodyForwardDynamics(model, data, q, v, tau_actuation, t);
  if (!data.qdd.allFinite()) return setNaN(data);
  inverseDynamicsDerivativesAtKinematics(model, data, v, data.qdd, t);
  actuationJacobian(model, data, q, t);
  data.dqdd_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  data.dqdd_dv = -model.D - data.dtau_dv;
  articulatedBodySolveInPlace(model, data, data.dqdd_dq);
  articulatedBodySolveInPlace(model, data, data.dqdd_dv);
}

}  // namespace

// The crossover, measured (docs/PERFORMANCE.md, "The rigid line", "dFD: three routes":
// BM_Rigid_Tendril_dFD_DMM and _AZA in one run): the articulated route took
// 2.1x (7 dof) to 6.3x (63-link tree) the time of the factor on every benchmark robot up to 100
// dof, chains, trees and the humanoid alike (5.0x on the 100-chain: no crossover in sight). The
// factor's triangular solves run on blocks of 8 and 16 columns; the recursion's per-column 6-vector
// sweeps do not vectorise across columns. So Automatic takes the factor on every model.
ForwardDerivativeRoute preferredForwardDerivativeRoute(const Model& /*model*/) {
  return ForwardDerivativeRoute::DenseFactor;
}

void forwardDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t,
                                ForwardDerivativeRoute route) {
  if (route == ForwardDerivativeRoute::Automatic) route = preferredForwardDerivativeRoute(model);
  if (route == ForwardDerivativeRoute::ArticulatedChainRule)
    return articulatedBodyForwardDynamicsDerivatives(model, data, q, v, tau_actuation, t);
  if (route == ForwardDerivativeRoute::ArticulatedBody) {
    if (!data.articulated.supported)
      throw std::invalid_argument(
          "the articulated-body route of dFD needs every joint to own its coordinates");
    return articulatedRoute(model, data, q, v, tau_actuation, t);
  }
  if (model.cables.empty() && model.elastic_blocks.empty()) {
    // no actuation Jacobian (data.dtau_applied_dq stays zero without cables), stiffness or
    // damping: the force balance is -dID, so M^-1 is applied to dID itself with the sign folded
    // into the copy back (three dense n x n passes fewer)
    forwardDynamics(model, data, q, v, tau_actuation, t);
    if (!data.qdd.allFinite()) return setNaN(data);
    inverseDynamicsDerivativesAtKinematics(model, data, v, data.qdd, t);
    solveMassMatrixPair(data, data.dtau_dq, data.dtau_dv, -1.0, data.dqdd_dq, data.dqdd_dv);
    return;
  }
  if (!forceBalanceDerivatives(model, data, q, v, tau_actuation, t, data.dqdd_dq, data.dqdd_dv))
    return setNaN(data);
  solveMassMatrixPair(data, data.dqdd_dq, data.dqdd_dv, 1.0, data.dqdd_dq, data.dqdd_dv);
}

}  // namespace tendril
