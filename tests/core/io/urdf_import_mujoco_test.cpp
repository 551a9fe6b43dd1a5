// Tests for core/io/urdf_import.cpp against MuJoCo 2.2: the imported robots' inverse dynamics
// and mass matrix equal mj_inverse and mj_fullM with MuJoCo loading the SAME URDF file (its own
// URDF parser; the <mujoco> element in each file keeps the inertias as written and drops the
// visuals). Coordinates are mapped by tests/support/mujoco_bridge.hpp: hinges and slides one to
// one, the humanoid's floating joint through the exact map between our exponential coordinates
// and MuJoCo's position and quaternion. The files' inertia tensors are diagonal in their rotated
// inertial frames: MuJoCo 2.2 diagonalises a full tensor only to ~1e-8 relative (seen: 2.6e-9 in
// ID with one full tensor on the arm), which a 1e-9 comparison would mistake for an import error;
// urdf_import_test.cpp checks full tensors. Built into tendril_mujoco_tests only.

#include <gtest/gtest.h>

#include <filesystem>

#include "core/algorithm/data.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/io/urdf_import.hpp"
#include "tests/support/mujoco_bridge.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

namespace fs = std::filesystem;
using test::MujocoTwin;
using test::relativeError;

constexpr double kTol = 1e-9;  // both engines are exact up to rounding
constexpr unsigned kStateSeeds[] = {1, 2, 3, 4, 5};
constexpr double kStateScale = 1.5;  // angles up to 1.5 rad; the free joint's rotation below pi

const fs::path kUrdfDir = fs::path(TENDRIL_TEST_DATA_DIR) / "urdf";

struct Robot {
  const char* name;
  fs::path urdf;
  int nv;
};

const Robot kRobots[] = {{"arm6", kUrdfDir / "arm6" / "arm6.urdf", 6},
                         {"humanoid", kUrdfDir / "humanoid" / "humanoid.urdf", 38}};

Eigen::VectorXd mujocoInverseDynamics(MujocoTwin& twin, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& v, const Eigen::VectorXd& a) {
  return twin.velocityMap(q).transpose() * twin.inverseDynamics(twin.toMujoco(q, v, a));
}

TEST(UrdfImportMujocoTest, InverseDynamicsMatchesMjInverseOnTheSameFile) {
  for (const Robot& robot : kRobots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(importUrdf(robot.urdf));
    ASSERT_EQ(model.nv, robot.nv);
    Data data(model);
    MujocoTwin twin(model, robot.urdf.string());
    ASSERT_EQ(twin.nv(), model.nv);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      // gravity, velocity and acceleration terms separately, so that a small one cannot hide
      const Eigen::VectorXd gravity = inverseDynamics(model, data, x.q, zero, zero);
      const Eigen::VectorXd bias = inverseDynamics(model, data, x.q, x.v, zero);
      const Eigen::VectorXd full = inverseDynamics(model, data, x.q, x.v, x.a);
      const Eigen::VectorXd mj_gravity = mujocoInverseDynamics(twin, x.q, zero, zero);
      const Eigen::VectorXd mj_bias = mujocoInverseDynamics(twin, x.q, x.v, zero);
      const Eigen::VectorXd mj_full = mujocoInverseDynamics(twin, x.q, x.v, x.a);
      EXPECT_LT(relativeError(gravity, mj_gravity), kTol);
      EXPECT_LT(relativeError(bias - gravity, mj_bias - mj_gravity), kTol);
      EXPECT_LT(relativeError(full - bias, mj_full - mj_bias), kTol);
      EXPECT_LT(relativeError(full, mj_full), kTol);
      EXPECT_GT(mj_gravity.norm(), 1e-3);
      EXPECT_GT((mj_bias - mj_gravity).norm(), 1e-3);
      EXPECT_GT((mj_full - mj_bias).norm(), 1e-3);
    }
  }
}

TEST(UrdfImportMujocoTest, MassMatrixMatchesMjFullMOnTheSameFile) {
  for (const Robot& robot : kRobots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(importUrdf(robot.urdf));
    Data data(model);
    MujocoTwin twin(model, robot.urdf.string());
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      const Eigen::MatrixXd J = twin.velocityMap(x.q);
      const Eigen::MatrixXd mj_M =
          J.transpose() * twin.massMatrix(twin.toMujoco(x.q, zero, zero).qpos) * J;
      EXPECT_LT(relativeError(massMatrix(model, data, x.q), mj_M), kTol);
    }
  }
}

// a twin whose file differs from the import (a heavier link) is caught: the comparison can fail
TEST(UrdfImportMujocoTest, ADifferentInertiaIsDetected) {
  const Robot& arm = kRobots[0];
  RobotDescription robot = importUrdf(arm.urdf);
  robot.links[3].rigid().mass *= 1.0 + 1e-4;
  const Model model = buildModel(robot);
  Data data(model);
  MujocoTwin twin(model, arm.urdf.string());
  const test::State x = test::randomState(model, 1, kStateScale);
  EXPECT_GT(relativeError(inverseDynamics(model, data, x.q, x.v, x.a),
                          mujocoInverseDynamics(twin, x.q, x.v, x.a)),
            100.0 * kTol);
}

}  // namespace
}  // namespace tendril
