#include "core/algorithm/derivative_check.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/math/central_difference.hpp"

namespace tendril {
namespace {

using VectorFunction = std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>;

// df/dx by central differences; f writes its value into its second argument
Eigen::MatrixXd centralDifference(const VectorFunction& f, const Eigen::VectorXd& x, int rows,
                                  double h) {
  Eigen::MatrixXd J(rows, x.size());
  Eigen::VectorXd xp = x, plus(rows), minus(rows);
  centralDifferenceJacobian(
      xp, h, [&](Eigen::VectorXd& out) { f(xp, out); }, plus, minus, J);
  return J;
}

// a zero finite-difference block (dID/dv at v = 0) is matched by a zero analytical one; against
// a zero reference any non-zero entry is a mismatch of 1 (no scale to compare it with)
double relativeTo(double error, double reference) {
  if (error == 0.0) return 0.0;
  return reference > 0.0 ? error / reference : 1.0;
}

DerivativeBlockCheck compare(const std::string& name, const Eigen::MatrixXd& analytic,
                             const Eigen::MatrixXd& fd) {
  DerivativeBlockCheck block;
  block.name = name;
  block.rows = static_cast<int>(fd.rows());
  block.cols = static_cast<int>(fd.cols());
  block.norm = fd.norm();
  const Eigen::MatrixXd error = analytic - fd;
  block.max_abs_error = error.size() > 0 ? error.cwiseAbs().maxCoeff() : 0.0;
  block.relative_mismatch = relativeTo(error.norm(), block.norm);
  return block;
}

// dFD = M^{-1}(...): the error of the generalised forces the derivative stands for, M (J_an -
// J_fd), against M J_fd (docs/theory/gvs.md (O2); forward_dynamics_derivatives_test)
DerivativeBlockCheck compareInForceSpace(const std::string& name, const Eigen::MatrixXd& M,
                                         const Eigen::MatrixXd& analytic,
                                         const Eigen::MatrixXd& fd) {
  DerivativeBlockCheck block = compare(name, analytic, fd);
  block.force_space = true;
  block.relative_mismatch = relativeTo((M * (analytic - fd)).norm(), (M * fd).norm());
  return block;
}

DerivativeBlockCheck notComputed(const std::string& name, int rows, int cols) {
  DerivativeBlockCheck block;
  block.name = name;
  block.rows = rows;
  block.cols = cols;
  block.relative_mismatch = block.max_abs_error = block.norm =
      std::numeric_limits<double>::quiet_NaN();
  return block;
}

}  // namespace

double DerivativeCheck::worst() const {
  double worst = 0.0;
  for (const DerivativeBlockCheck& block : blocks) {
    if (std::isnan(block.relative_mismatch)) return block.relative_mismatch;
    worst = std::max(worst, block.relative_mismatch);
  }
  return worst;
}

double automaticVelocityStep(const Model& model) {
  const CompiledEnvironment& env = model.environment;
  const bool damped_contact = env.has_contact && (env.damping > 0.0 || env.friction > 0.0);
  return env.has_fluid || damped_contact ? 1e-4 : 1.0;
}

DerivativeCheck checkDerivatives(const Model& model, Data& data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& a, double t,
                                 const DerivativeCheckOptions& options) {
  if (q.size() != model.nq || v.size() != model.nv || a.size() != model.nv)
    throw std::invalid_argument("checkDerivatives: state of the wrong size");
  if (!(options.q_step > 0.0) || !(options.v_step >= 0.0))
    throw std::invalid_argument("checkDerivatives: steps must be positive");
  const double hq = options.q_step;
  const double hv = options.v_step > 0.0 ? options.v_step : automaticVelocityStep(model);
  const Eigen::VectorXd q0 = q, v0 = v, a0 = a;
  const int n = model.nv;
  DerivativeCheck check;

  // inverse dynamics: one analytical pass against 2 n evaluations per block
  inverseDynamicsDerivatives(model, data, q0, v0, a0, t);
  const Eigen::MatrixXd dID_dq = data.dtau_dq, dID_dv = data.dtau_dv;
  const Eigen::MatrixXd M = massMatrix(model, data, q0);
  const auto id = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv,
                      const Eigen::VectorXd& aa,
                      Eigen::VectorXd& out) { out = inverseDynamics(model, data, qq, vv, aa, t); };
  check.blocks.push_back(compare(
      "dID/dq", dID_dq,
      centralDifference([&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { id(x, v0, a0, out); },
                        q0, n, hq)));
  check.blocks.push_back(compare(
      "dID/dv", dID_dv,
      centralDifference([&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { id(q0, x, a0, out); },
                        v0, n, hv)));
  // ID is linear in a: the central difference is exact but for round-off at any step
  check.blocks.push_back(compare(
      "dID/da", M,
      centralDifference([&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { id(q0, v0, x, out); },
                        a0, n, hv)));

  // cable actuation (the only part of B u that depends on q)
  if (!model.cables.empty()) {
    actuationJacobian(model, data, q0, t);
    const Eigen::MatrixXd dBu_dq = data.dtau_applied_dq;
    check.blocks.push_back(
        compare("dBu/dq", dBu_dq,
                centralDifference([&](const Eigen::VectorXd& x,
                                      Eigen::VectorXd& out) { actuationForces(model, x, t, out); },
                                  q0, n, hq)));
  }

  if (!options.forward_dynamics) return check;
  Eigen::VectorXd tau(n);
  actuationForces(model, q0, t, tau);
  forwardDynamicsDerivatives(model, data, q0, v0, tau, t);
  if (!data.qdd.allFinite()) {  // M not positive definite: no forward dynamics to differentiate
    check.blocks.push_back(notComputed("dFD/dq", n, model.nq));
    check.blocks.push_back(notComputed("dFD/dv", n, n));
    return check;
  }
  const Eigen::MatrixXd dFD_dq = data.dqdd_dq, dFD_dv = data.dqdd_dv;
  const auto fd = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, Eigen::VectorXd& out) {
    actuationForces(model, qq, t, tau);
    out = forwardDynamics(model, data, qq, vv, tau, t);
  };
  check.blocks.push_back(compareInForceSpace(
      "dFD/dq", M, dFD_dq,
      centralDifference([&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { fd(x, v0, out); }, q0,
                        n, hq)));
  check.blocks.push_back(compareInForceSpace(
      "dFD/dv", M, dFD_dv,
      centralDifference([&](const Eigen::VectorXd& x, Eigen::VectorXd& out) { fd(q0, x, out); }, v0,
                        n, hv)));
  return check;
}

}  // namespace tendril
