#pragma once
// What the MuJoCo comparisons (tendril_mujoco_tests) share: MuJoCo's ID and M pulled back to our
// coordinates, and the term-by-term check of the inverse dynamics.

#include <gtest/gtest.h>

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "tests/support/mujoco_bridge.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::test {

/// \brief Our ID through MuJoCo: J^T qfrc_inverse at the image of (q, v, a) (same power).
inline Eigen::VectorXd mujocoInverseDynamics(MujocoTwin& twin, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& v, const Eigen::VectorXd& a) {
  return twin.velocityMap(q).transpose() * twin.inverseDynamics(twin.toMujoco(q, v, a));
}

/// \brief Our M through MuJoCo: J^T M_mj J (same kinetic energy).
inline Eigen::MatrixXd mujocoMassMatrix(MujocoTwin& twin, const Eigen::VectorXd& q) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(q.size());
  const Eigen::MatrixXd J = twin.velocityMap(q);
  return J.transpose() * twin.massMatrix(twin.toMujoco(q, zero, zero).qpos) * J;
}

/// \brief Expects our ID to equal MuJoCo's at x to a relative tol, its gravity, velocity and
///        acceleration terms each on its own (so that a small term cannot hide), and each term
///        to be present (so that each comparison has something to compare).
inline void expectInverseDynamicsTermsMatch(const Model& model, Data& data, MujocoTwin& twin,
                                            const State& x, double tol) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd gravity = inverseDynamics(model, data, x.q, zero, zero);
  const Eigen::VectorXd bias = inverseDynamics(model, data, x.q, x.v, zero);
  const Eigen::VectorXd full = inverseDynamics(model, data, x.q, x.v, x.a);
  const Eigen::VectorXd mj_gravity = mujocoInverseDynamics(twin, x.q, zero, zero);
  const Eigen::VectorXd mj_bias = mujocoInverseDynamics(twin, x.q, x.v, zero);
  const Eigen::VectorXd mj_full = mujocoInverseDynamics(twin, x.q, x.v, x.a);
  EXPECT_LT(relativeError(gravity, mj_gravity), tol);
  EXPECT_LT(relativeError(bias - gravity, mj_bias - mj_gravity), tol);
  EXPECT_LT(relativeError(full - bias, mj_full - mj_bias), tol);
  EXPECT_LT(relativeError(full, mj_full), tol);
  EXPECT_GT(mj_gravity.norm(), 1e-3);
  EXPECT_GT((mj_bias - mj_gravity).norm(), 1e-3);
  EXPECT_GT((mj_full - mj_bias).norm(), 1e-3);
}

}  // namespace tendril::test
