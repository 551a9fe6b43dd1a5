// Helpers shared by the articulated-body and hybrid-dynamics tests (and their derivatives).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::test {

// the model's own inputs at t plus joint efforts on every coordinate (0.3 s.a), so that every
// coordinate carries a force
inline Eigen::VectorXd actuationWithJointEfforts(const Model& model, const State& s, double t) {
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, t, tau);
  return tau + 0.3 * s.a;
}

// y = [qdd_u; e_k] of the hybrid dynamics as a function of (q, v, w), w = [tau_u; qdd_k]
struct HybridFunction {
  const Model& model;
  const std::vector<char>& prescribed;
  Data data;
  Eigen::VectorXd y(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& w) {
    Eigen::VectorXd tau(model.nv);
    actuationForces(model, q, 0.3, tau);
    for (int i = 0; i < model.nv; ++i) {
      if (prescribed[i] == 0) tau(i) += w(i);
    }
    hybridDynamics(model, data, q, v, tau, prescribed, w, 0.3);
    Eigen::VectorXd out = data.qdd;
    for (int i = 0; i < model.nv; ++i) {
      if (prescribed[i] != 0) out(i) = data.articulated.efforts(i);
    }
    return out;
  }
};

}  // namespace tendril::test
