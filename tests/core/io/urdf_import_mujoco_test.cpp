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
#include "tests/support/mujoco_checks.hpp"
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

TEST(UrdfImportMujocoTest, InverseDynamicsMatchesMjInverseOnTheSameFile) {
  for (const Robot& robot : kRobots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(importUrdf(robot.urdf));
    ASSERT_EQ(model.nv, robot.nv);
    Data data(model);
    MujocoTwin twin(model, robot.urdf.string());
    ASSERT_EQ(twin.nv(), model.nv);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      test::expectInverseDynamicsTermsMatch(model, data, twin, x, kTol);
    }
  }
}

TEST(UrdfImportMujocoTest, MassMatrixMatchesMjFullMOnTheSameFile) {
  for (const Robot& robot : kRobots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(importUrdf(robot.urdf));
    Data data(model);
    MujocoTwin twin(model, robot.urdf.string());
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      EXPECT_LT(relativeError(massMatrix(model, data, x.q), test::mujocoMassMatrix(twin, x.q)),
                kTol);
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
                          test::mujocoInverseDynamics(twin, x.q, x.v, x.a)),
            100.0 * kTol);
}

}  // namespace
}  // namespace tendril
