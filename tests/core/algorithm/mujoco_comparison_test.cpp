// Tests for core/algorithm/inverse_dynamics.cpp, mass_matrix.cpp and forward_dynamics.cpp against
// MuJoCo 2.2 (mj_inverse, mj_crb + mj_fullM, mj_forward) on rigid trees, through the exact
// coordinate map of tests/support/mujoco_bridge.hpp. Built into tendril_mujoco_tests only.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/mujoco_bridge.hpp"
#include "tests/support/mujoco_checks.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::mujocoInverseDynamics;
using test::mujocoMassMatrix;
using test::MujocoState;
using test::MujocoTwin;
using test::relativeError;

// both engines are exact up to rounding; 1e-9 leaves room for cond(M) on the long chain
constexpr double kTol = 1e-9;
// a perturbed twin must miss by a hundred times the tolerance
constexpr double kDetectable = 100.0 * kTol;
constexpr unsigned kStateSeeds[] = {1, 2, 3, 4};
// coordinate scale of random states: revolute angles up to 1.5 rad, |Phi| of ball/free < pi
constexpr double kStateScale = 1.5;

Vec3 randomVec3(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  return {scale * unit(rng), scale * unit(rng), scale * unit(rng)};
}

// principal moments in [s, 2s] always satisfy the triangle inequality; principal axes random
std::array<double, 6> randomInertia(std::mt19937& rng, double s) {
  std::uniform_real_distribution<double> moment(s, 2.0 * s);
  const Vec3 rpy = randomVec3(rng, std::numbers::pi);
  const Eigen::Matrix3d Q = (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *
                             Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
                             Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
                                .toRotationMatrix();
  const Eigen::Vector3d d{moment(rng), moment(rng), moment(rng)};  // braces: left to right
  const Eigen::Matrix3d I = Q * d.asDiagonal() * Q.transpose();
  return {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
}

LinkDesc randomRigidLink(std::mt19937& rng, const std::string& name, const std::string& parent,
                         JointType type) {
  std::uniform_real_distribution<double> mass(0.3, 2.0);
  LinkDesc link;
  link.name = name;
  link.parent = parent;
  link.joint.type = type;
  link.joint.axis = randomVec3(rng, 1.0);  // not normalised: both engines normalise
  link.origin.position = randomVec3(rng, 0.1);
  link.origin.rpy = randomVec3(rng, std::numbers::pi);
  link.rigid().mass = mass(rng);
  link.rigid().com = randomVec3(rng, 0.1);
  link.rigid().inertia = randomInertia(rng, 2e-3);
  link.rigid().tip.position = randomVec3(rng, 0.2);
  link.rigid().tip.rpy = randomVec3(rng, std::numbers::pi);
  return link;
}

// link i hangs from a random earlier link or, sometimes, the world (a forest)
RobotDescription randomRigidTree(unsigned seed, int n) {
  std::mt19937 rng(seed);
  RobotDescription robot;
  robot.name = "random_tree";
  robot.gravity = randomVec3(rng, 10.0);
  for (int i = 0; i < n; ++i) {
    const int parent = static_cast<int>(rng() % (i + 1)) - 1;
    const JointType type = rng() % 2 == 0 ? JointType::Revolute : JointType::Prismatic;
    robot.links.push_back(randomRigidLink(rng, "link" + std::to_string(i),
                                          parent < 0 ? "world" : "link" + std::to_string(parent),
                                          type));
  }
  return robot;
}

RobotDescription longChain(unsigned seed, int n) {
  std::mt19937 rng(seed);
  RobotDescription robot;
  robot.name = "long_chain";
  for (int i = 0; i < n; ++i) {
    const JointType type = i % 4 == 3 ? JointType::Prismatic : JointType::Revolute;
    robot.links.push_back(randomRigidLink(rng, "link" + std::to_string(i),
                                          i == 0 ? "world" : "link" + std::to_string(i - 1), type));
  }
  return robot;
}

// two floating roots carrying ball, cylindrical, fixed and scalar joints
RobotDescription ballAndFreeTree(unsigned seed) {
  std::mt19937 rng(seed);
  RobotDescription robot;
  robot.name = "ball_free_tree";
  const std::pair<const char*, JointType> links[] = {
      {"world", JointType::Free},      {"link0", JointType::Spherical},
      {"link1", JointType::Revolute},  {"link0", JointType::Cylindrical},
      {"link3", JointType::Spherical}, {"link4", JointType::Fixed},
      {"link5", JointType::Prismatic}, {"world", JointType::Free},
      {"link7", JointType::Spherical}};
  for (std::size_t i = 0; i < std::size(links); ++i) {
    robot.links.push_back(
        randomRigidLink(rng, "link" + std::to_string(i), links[i].first, links[i].second));
  }
  return robot;
}

struct Case {
  std::string name;
  RobotDescription robot;
  bool scalar_joints_only = true;  ///< hinge/slide only: the coordinate map is a permutation
};

std::vector<Case> casesUnderTest() {
  std::vector<Case> cases;
  cases.push_back({"rigid_7dof_arm", test::example("rigid_7dof_arm"), true});
  for (unsigned seed : {1u, 2u, 3u}) {
    cases.push_back({"random_tree" + std::to_string(seed), randomRigidTree(seed, 10), true});
  }
  cases.push_back({"long_chain", longChain(7, 40), true});
  for (unsigned seed : {1u, 2u}) {
    cases.push_back({"ball_free_tree" + std::to_string(seed), ballAndFreeTree(seed), false});
  }
  // the rigid line's benchmark robots (tests/benchmarks/rigid_benchmarks.cpp)
  cases.push_back({"benchmark_arm", test::benchmarkArm(), true});
  cases.push_back({"benchmark_chain_30", test::benchmarkChain(30), true});
  cases.push_back({"branched_tree_31_bf5", test::branchedTree(31, 5), true});
  cases.push_back({"benchmark_humanoid", test::benchmarkHumanoid(), false});
  return cases;
}

TEST(MujocoComparisonTest, TwinHasTheSameTreeAndCoordinates) {
  for (const Case& c : casesUnderTest()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    MujocoTwin twin(model);
    EXPECT_EQ(twin.model()->nbody, static_cast<int>(c.robot.links.size()) + 1);
    EXPECT_EQ(twin.nv(), model.nv);
    const Eigen::MatrixXd J = twin.velocityMap(test::randomState(model, 1, kStateScale).q);
    if (c.scalar_joints_only) {
      // a permutation: one unit entry per row and column
      EXPECT_TRUE((J.array() == 0.0 || J.array() == 1.0).all());
      EXPECT_TRUE((J.rowwise().sum().array() == 1.0).all());
      EXPECT_TRUE((J.colwise().sum().array() == 1.0).all());
    } else {
      EXPECT_GT(std::abs(J.determinant()), 1e-6);
    }
  }
}

TEST(MujocoComparisonTest, InverseDynamicsMatchesMjInverse) {
  for (const Case& c : casesUnderTest()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    Data data(model);
    MujocoTwin twin(model);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      test::expectInverseDynamicsTermsMatch(model, data, twin, x, kTol);
    }
  }
}

TEST(MujocoComparisonTest, MassMatrixMatchesMjFullM) {
  for (const Case& c : casesUnderTest()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    Data data(model);
    MujocoTwin twin(model);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      const Eigen::MatrixXd M = massMatrix(model, data, x.q);
      const Eigen::MatrixXd mj_M = mujocoMassMatrix(twin, x.q);
      EXPECT_LT(relativeError(M, mj_M), kTol);
      // the joints are coupled: off-diagonal blocks are not empty
      const Eigen::MatrixXd off_diagonal = mj_M - Eigen::MatrixXd(mj_M.diagonal().asDiagonal());
      EXPECT_GT(off_diagonal.norm(), 1e-3 * mj_M.norm());
    }
  }
}

TEST(MujocoComparisonTest, ForwardDynamicsInvertsInverseDynamics) {
  for (const Case& c : casesUnderTest()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    Data data(model);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      const Eigen::VectorXd tau = inverseDynamics(model, data, x.q, x.v, x.a);
      EXPECT_LT(relativeError(forwardDynamics(model, data, x.q, x.v, tau), x.a), kTol);
    }
  }
}

TEST(MujocoComparisonTest, ForwardDynamicsMatchesMjForward) {
  for (const Case& c : casesUnderTest()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    Data data(model);
    MujocoTwin twin(model);
    for (unsigned seed : kStateSeeds) {
      SCOPED_TRACE("state seed " + std::to_string(seed));
      const test::State x = test::randomState(model, seed, kStateScale);
      // a random force in MuJoCo's coordinates; ours is its pull-back J^T f (same power)
      const Eigen::VectorXd f = test::randomState(model, seed + 100).a;
      const MujocoState image = twin.toMujoco(x.q, x.v, Eigen::VectorXd::Zero(model.nv));
      const Eigen::VectorXd mj_qacc = twin.forwardDynamics(image.qpos, image.qvel, f);
      const Eigen::VectorXd qdd =
          forwardDynamics(model, data, x.q, x.v, twin.velocityMap(x.q).transpose() * f);
      EXPECT_LT(relativeError(twin.toMujoco(x.q, x.v, qdd).qacc, mj_qacc), kTol);
      EXPECT_GT(mj_qacc.norm(), 1e-3);
      // the articulated-body recursion, on the trees it takes (all of these: rigid joints only)
      ASSERT_TRUE(supportsArticulatedBody(model));
      const Eigen::VectorXd qdd_articulated = articulatedBodyForwardDynamics(
          model, data, x.q, x.v, twin.velocityMap(x.q).transpose() * f);
      EXPECT_LT(relativeError(twin.toMujoco(x.q, x.v, qdd_articulated).qacc, mj_qacc), kTol);
    }
  }
}

// the comparison is sharp: small edits of the MuJoCo side (mass properties, an axis, the rpy
// convention of an origin, gravity) are detected
TEST(MujocoComparisonTest, DetectsAPerturbedTwin) {
  const RobotDescription robot = randomRigidTree(1, 10);
  const Model model = buildModel(robot);
  Data data(model);
  const test::State x = test::randomState(model, 1, kStateScale);
  const Eigen::VectorXd tau = inverseDynamics(model, data, x.q, x.v, x.a);
  const Eigen::MatrixXd M = massMatrix(model, data, x.q);
  // a revolute link: its rotational inertia and centre of mass both matter
  std::size_t k = robot.links.size() - 1;
  while (robot.links[k].joint.type != JointType::Revolute) {
    --k;
  }

  const std::vector<std::pair<std::string, std::function<void(LinkDesc&, Vec3&)>>> edits = {
      {"com", [](LinkDesc& l, Vec3&) { l.rigid().com[1] += 1e-3; }},
      {"inertia Ixy", [](LinkDesc& l, Vec3&) { l.rigid().inertia[3] += 1e-5; }},
      {"mass", [](LinkDesc& l, Vec3&) { l.rigid().mass *= 1.001; }},
      {"axis", [](LinkDesc& l, Vec3&) { l.joint.axis[0] += 1e-3; }},
      {"roll and yaw swapped",
       [](LinkDesc& l, Vec3&) { std::swap(l.origin.rpy[0], l.origin.rpy[2]); }},
      {"gravity", [](LinkDesc&, Vec3& gravity) { gravity[2] += 1e-3; }},
  };
  for (const auto& [what, edit] : edits) {
    SCOPED_TRACE(what);
    RobotDescription perturbed = robot;
    edit(perturbed.links[k], perturbed.gravity);
    MujocoTwin twin(buildModel(perturbed));
    const double id_error = relativeError(tau, mujocoInverseDynamics(twin, x.q, x.v, x.a));
    const double m_error = relativeError(M, mujocoMassMatrix(twin, x.q));
    EXPECT_GT(std::max(id_error, m_error), kDetectable);
  }
}

}  // namespace
}  // namespace tendril
