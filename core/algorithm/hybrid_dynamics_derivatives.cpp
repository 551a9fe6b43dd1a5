#include "core/algorithm/hybrid_dynamics_derivatives.hpp"

#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"

namespace tendril {

HybridDynamicsDerivatives::HybridDynamicsDerivatives(const Model& model)
    : dy_dq(Eigen::MatrixXd::Zero(model.nv, model.nq)),
      dy_dv(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dy_dw(Eigen::MatrixXd::Zero(model.nv, model.nv)) {}

void HybridDynamicsDerivatives::setNaN() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  dy_dq.setConstant(nan);
  dy_dv.setConstant(nan);
  dy_dw.setConstant(nan);
}

void hybridDynamicsDerivatives(const Model& model, Data& data,
                               const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v,
                               const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                               const std::vector<char>& prescribed,
                               const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed, double t,
                               HybridDynamicsDerivatives& out) {
  hybridDynamics(model, data, q, v, tau_actuation, prescribed, qdd_prescribed, t);
  if (!data.qdd.allFinite()) {
    out.setNaN();
    return;
  }
  // the position stage is hybridDynamics()'s, at this q; its inertia sweep stays in
  // data.articulated for the solves below (neither call here writes it)
  inverseDynamicsDerivativesAtKinematics(model, data, v, data.qdd, t);
  actuationJacobian(model, data, q, t);
  out.dy_dq = data.dtau_applied_dq - model.K - data.dtau_dq;
  out.dy_dv = -model.D - data.dtau_dv;
  bool any_prescribed = false;
  for (int i = 0; i < model.nv; ++i) any_prescribed |= prescribed[static_cast<std::size_t>(i)] != 0;
  if (any_prescribed) massMatrixFromKinematics(model, data);
  for (int i = 0; i < model.nv; ++i) {
    if (prescribed[static_cast<std::size_t>(i)] != 0) {
      out.dy_dw.col(i) = -data.M.col(i);
    } else {
      out.dy_dw.col(i).setZero();
      out.dy_dw(i, i) = 1.0;
    }
  }
  articulatedBodySolveInPlace(model, data, out.dy_dq);
  articulatedBodySolveInPlace(model, data, out.dy_dv);
  articulatedBodySolveInPlace(model, data, out.dy_dw);
}

}  // namespace tendril
