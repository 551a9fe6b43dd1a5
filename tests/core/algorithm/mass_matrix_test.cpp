// Tests for core/algorithm/mass_matrix.cpp: the rigid-tree route (one column per coordinate, run
// over the ancestors) against the grouped route every model can take, on random rigid trees of
// every joint type, the robots of issue 28 and every bundled example the route applies to. The
// physics of M (columns of ID differences, kinetic energy) is tested in inverse_dynamics_test.cpp
// and against MuJoCo in mujoco_comparison_test.cpp.

#include "core/algorithm/mass_matrix.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/rigid_tree_workspace.hpp"
#include "core/io/json_io.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the two routes add the same products in other orders: they differ by rounding only, some 1e-16
// of the largest entry; a wrong or missing term (a transport, a composite) moves entries by 1e-3
// of it or more
constexpr double kMassMatrixTolerance = 1e-12;

double largestDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

void expectMassMatrixRoutesAgree(const RobotDescription& robot, unsigned seed) {
  const Model model = buildModel(robot);
  ASSERT_TRUE(supportsRigidTreeRoutes(model)) << robot.name;
  Data rigid(model), grouped(model);
  ASSERT_TRUE(rigid.rigid.supported);
  for (unsigned k = 0; k < 3; ++k) {
    const test::State s = test::randomState(model, seed * 17 + k, 1.0);
    const Eigen::MatrixXd M = massMatrix(model, rigid, s.q);
    forwardKinematics(model, grouped, s.q);
    const Eigen::MatrixXd& reference = groupedMassMatrixFromKinematics(model, grouped);
    ASSERT_TRUE(M.allFinite()) << robot.name;
    EXPECT_LT(largestDifference(M, reference), kMassMatrixTolerance)
        << robot.name << " state " << k;
    EXPECT_EQ(M, M.transpose()) << robot.name;
  }
}

TEST(MassMatrixTest, RigidTreeRouteEqualsTheGroupedRouteOnRandomTreesOfEveryJoint) {
  for (unsigned seed = 1; seed <= 8; ++seed)
    expectMassMatrixRoutesAgree(test::randomRigidTree(seed, 4 + 3 * static_cast<int>(seed)), seed);
}

TEST(MassMatrixTest, RigidTreeRouteEqualsTheGroupedRouteOnTheBenchmarkRobots) {
  expectMassMatrixRoutesAgree(test::benchmarkArm(), 1);
  expectMassMatrixRoutesAgree(test::benchmarkChain(30), 2);
  expectMassMatrixRoutesAgree(test::branchedTree(31, 2), 3);
  expectMassMatrixRoutesAgree(test::branchedTree(31, 5), 4);
  expectMassMatrixRoutesAgree(test::benchmarkHumanoid(), 5);
}

// the humanoid's base (coordinates 0..5) is a run of its own for every joint below it, so dID forms
// its entries as fixed-size 6 x 6 products (M takes its own, merged runs); the waist's
// coordinates 6, 7, which follow it, are a separate run for the arms and the neck (merged, the
// base and waist were one run of 8)
TEST(MassMatrixTest, AFreeBaseIsARunOfItsOwnInTheRigidTreeWorkspace) {
  const Model model = buildModel(test::benchmarkHumanoid());
  const RigidTreeWorkspace w(model);
  int below_the_base = 0, with_the_waist = 0;
  for (int j = 1; j < model.n_vjoints(); ++j) {
    if (w.run_begin[j] == w.run_begin[j + 1]) continue;
    const CoordinateBlock& first = w.ancestor_runs[w.run_begin[j]];
    EXPECT_EQ(first.idx, 0) << "joint " << j;
    EXPECT_EQ(first.n, RigidTreeWorkspace::kFreeBaseRun) << "joint " << j;
    ++below_the_base;
    for (int run = w.run_begin[j] + 1; run < w.run_begin[j + 1]; ++run)
      if (w.ancestor_runs[run].idx == RigidTreeWorkspace::kFreeBaseRun) ++with_the_waist;
  }
  EXPECT_EQ(below_the_base, model.n_vjoints() - 1);
  EXPECT_GE(with_the_waist, 1 + 1 + 14);  // waist1 (only 6), neck, two arms of seven
}

// the mass matrix forms every entry alike, so its runs merge wherever one ends as the next begins,
// across the free base too; together they hold exactly the ancestors' coordinates
TEST(MassMatrixTest, MassRunsAreTheAncestorsCoordinatesMergedAcrossTheFreeBase) {
  for (const RobotDescription& robot : {test::benchmarkHumanoid(), test::benchmarkChain(30)}) {
    const Model model = buildModel(robot);
    const RigidTreeWorkspace w(model);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      int ancestors = 0;
      for (int a = model.joints[j].parent; a >= 0; a = model.joints[a].parent)
        ancestors += model.joints[a].nq;
      int covered = 0;
      for (int run = w.mass_run_begin[j]; run < w.mass_run_begin[j + 1]; ++run) {
        const CoordinateBlock& block = w.mass_runs[run];
        covered += block.n;
        if (run > w.mass_run_begin[j]) {
          const CoordinateBlock& before = w.mass_runs[run - 1];
          EXPECT_GT(block.idx, before.idx + before.n) << robot.name << " joint " << j;
        }
      }
      EXPECT_EQ(covered, ancestors) << robot.name << " joint " << j;
    }
  }
  // an arm's last joint sees the base and the waist as one run
  const Model humanoid = buildModel(test::benchmarkHumanoid());
  const RigidTreeWorkspace w(humanoid);
  int base_and_waist = 0, hand = -1;
  for (int j = 0; j < humanoid.n_vjoints(); ++j) {
    const std::string& name = humanoid.links[humanoid.joints[j].link].name;
    if (j == 0 || name.rfind("waist", 0) == 0) base_and_waist += humanoid.joints[j].nq;
    if (name.rfind("left_arm", 0) == 0) hand = j;
  }
  ASSERT_GE(hand, 0);
  EXPECT_EQ(w.mass_runs[w.mass_run_begin[hand]].n, base_and_waist);
}

// rigid robots own their coordinates; the others (rods of several intervals, added mass) must keep
// the grouped route
TEST(MassMatrixTest, RigidTreeRouteEqualsTheGroupedRouteOnEveryExampleItAppliesTo) {
  int applied = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const RobotDescription robot = loadRobot(entry.path());
    const Model model = buildModel(robot);
    if (model.agnostic_only) continue;  // an LVP body: no engine mass matrix
    if (!supportsRigidTreeRoutes(model)) {
      EXPECT_FALSE(Data(model).rigid.supported) << entry.path();
      continue;
    }
    expectMassMatrixRoutesAgree(robot, 6);
    ++applied;
  }
  EXPECT_GE(applied, 1);  // rigid_7dof_arm
}

TEST(MassMatrixTest, ModelsWhoseRodsShareCoordinatesTakeTheGroupedRoute) {
  const Model model = buildModel(test::example("soft_cantilever"));
  EXPECT_FALSE(supportsRigidTreeRoutes(model));
  EXPECT_FALSE(Data(model).rigid.supported);
}

}  // namespace
}  // namespace tendril
