// Tests for core/algorithm/articulated_body.cpp: the articulated-body forward dynamics against the
// factorisation of M (forward_dynamics.cpp), and the hybrid dynamics against its two limits (all
// free: the forward dynamics; all prescribed: the inverse dynamics) and the partitioned solve
// between them.

#include "core/algorithm/articulated_body.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// Both routes are exact: they differ by rounding, amplified by the conditioning of M (up to 1e8
// on the examples with light distal links); 1e-10 relative on qdd leaves room for that and none
// for a wrong term (a missing velocity product or external load moves qdd by 1e-3 or more)
constexpr double kTolerance = 1e-10;

// a tree of rigid links on every joint type, branching at random, with full inertia tensors
RobotDescription randomRigidTree(unsigned seed, int n_links) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const JointType types[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                             JointType::Cylindrical, JointType::Universal, JointType::Planar,
                             JointType::Spherical,   JointType::Free,      JointType::Fixed};
  RobotDescription robot;
  robot.name = "random rigid tree";
  std::vector<std::string> names;
  for (int i = 0; i < n_links; ++i) {
    const std::string parent = names.empty() ? "world" : names[rng() % names.size()];
    const std::string name = "link" + std::to_string(i);
    LinkDesc link = test::rigidLink(name, parent, types[(i + seed) % 9],
                                    {unit(rng), unit(rng), unit(rng) + 2.0});
    link.origin.position = {0.05 * unit(rng), 0.05 * unit(rng), 0.05 * unit(rng)};
    link.origin.rpy = {unit(rng), unit(rng), unit(rng)};
    RigidBodyDesc& body = link.rigid();
    body.mass = 0.5 + 0.5 * (unit(rng) + 1.0);
    body.com = {0.05 * unit(rng), 0.05 * unit(rng), 0.05 * unit(rng)};
    body.inertia = {2e-3, 3e-3, 4e-3, 2e-4 * unit(rng), 2e-4 * unit(rng), 2e-4 * unit(rng)};
    names.push_back(name);
    robot.links.push_back(link);
  }
  return robot;
}

Eigen::VectorXd actuation(const Model& model, const test::State& s, double t) {
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, t, tau);
  return tau + 0.3 * s.a;  // joint efforts on every coordinate besides the model's own inputs
}

double relative(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-12);
}

void expectForwardDynamicsAgree(const Model& model, unsigned seed, const std::string& label) {
  ASSERT_TRUE(supportsArticulatedBody(model)) << label;
  Data factored(model), articulated(model);
  for (unsigned k = 0; k < 5; ++k) {
    const test::State s = test::randomState(model, seed * 31 + k);
    const double t = 0.1 * k;
    const Eigen::VectorXd tau = actuation(model, s, t);
    const Eigen::VectorXd reference = forwardDynamics(model, factored, s.q, s.v, tau, t);
    const Eigen::VectorXd qdd =
        articulatedBodyForwardDynamics(model, articulated, s.q, s.v, tau, t);
    ASSERT_TRUE(reference.allFinite()) << label;
    EXPECT_LT(relative(qdd, reference), kTolerance) << label << " state " << k;
  }
}

TEST(ArticulatedBodyTest, ForwardDynamicsEqualsTheFactorisationOfMOnRandomRigidTrees) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const Model model = buildModel(randomRigidTree(seed, 12));
    expectForwardDynamicsAgree(model, seed, "random tree " + std::to_string(seed));
  }
}

TEST(ArticulatedBodyTest, ForwardDynamicsEqualsTheFactorisationOfMOnEveryExampleItApplies) {
  std::vector<std::string> supported;
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const std::string stem = entry.path().stem().string();
    const Model model = buildModel(test::example(stem));
    if (!supportsArticulatedBody(model)) continue;
    supported.push_back(stem);
    expectForwardDynamicsAgree(model, 7, stem);
  }
  // the arm (rigid joints only); the others carry rods of several intervals per division
  EXPECT_EQ(supported, std::vector<std::string>{"rigid_7dof_arm"});
}

TEST(ArticulatedBodyTest, LoadsThatDependOnTheStateEnterTheBias) {
  // a free-floating body in water (buoyancy, drag, added mass) hit by a point load, with a
  // contact plane under a chain hanging from it: every external wrench of external_loads.cpp
  RobotDescription robot = randomRigidTree(3, 6);
  robot.links[0].joint.type = JointType::Free;
  FluidDesc fluid;
  for (const LinkDesc& link : robot.links) {
    FluidBodyDesc body;
    body.link = link.name;
    body.drag = {0.02, 0.03, 0.01, 2.0, 3.0, 1.0};
    body.added_mass = {1e-3, 2e-3, 1e-3, 0.2, 0.3, 0.1};
    fluid.bodies.push_back(body);
  }
  robot.environment.fluid = fluid;
  ContactDesc contact;
  contact.damping = 0.5;
  contact.friction = 0.3;
  contact.planes.push_back({{0.0, 0.0, 0.02}, {0.0, 0.2, 1.0}});  // through the bodies
  robot.environment.contact = contact;
  PointLoadDesc load;
  load.name = "push";
  load.link = robot.links.back().name;
  load.offset = {0.01, 0.02, 0.0};
  load.wrench = {0.1, 0.0, -0.2, 1.0, -2.0, 0.5};
  robot.point_loads.push_back(load);
  const Model model = buildModel(robot);
  ASSERT_TRUE(model.has_added_mass);
  expectForwardDynamicsAgree(model, 11, "loaded tree");
}

// qdd and efforts of hybridDynamics() with the given coordinates prescribed at qdd_k
struct HybridResult {
  Eigen::VectorXd qdd, efforts;
};

HybridResult hybrid(const Model& model, const test::State& s, const std::vector<char>& prescribed,
                    const Eigen::VectorXd& tau) {
  Data data(model);
  hybridDynamics(model, data, s.q, s.v, tau, prescribed, s.a);
  return {data.qdd, data.articulated.efforts};
}

TEST(ArticulatedBodyTest, HybridDynamicsWithEveryCoordinateFreeIsTheForwardDynamics) {
  const Model model = buildModel(randomRigidTree(5, 10));
  const test::State s = test::randomState(model, 5);
  const Eigen::VectorXd tau = actuation(model, s, 0.0);
  const HybridResult result = hybrid(model, s, std::vector<char>(model.nv, 0), tau);
  Data data(model);
  EXPECT_LT(relative(result.qdd, forwardDynamics(model, data, s.q, s.v, tau)), kTolerance);
  EXPECT_EQ(result.efforts.norm(), 0.0);
}

TEST(ArticulatedBodyTest, HybridDynamicsWithEveryCoordinatePrescribedIsTheInverseDynamics) {
  const Model model = buildModel(randomRigidTree(6, 10));
  const test::State s = test::randomState(model, 6);
  const Eigen::VectorXd tau = actuation(model, s, 0.0);
  const HybridResult result = hybrid(model, s, std::vector<char>(model.nv, 1), tau);
  EXPECT_EQ(result.qdd, s.a);
  Data data(model);
  Eigen::VectorXd expected = inverseDynamics(model, data, s.q, s.v, s.a);
  Eigen::VectorXd applied = tau;
  addInternalForces(model, s.q, s.v, applied);
  expected -= applied;  // the efforts are what the joints must add to the applied forces
  EXPECT_LT(relative(result.efforts, expected), 1e-12);
}

TEST(ArticulatedBodyTest, HybridDynamicsEqualsThePartitionedSolve) {
  // M_uu qdd_u = tau_u - ID_u(q, v, [0; qdd_k]), efforts_k = ID_k(q, v, qdd) - tau_k, with some
  // joints wholly prescribed and some multi-coordinate joints split between the two sets
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 20, 12));
    const test::State s = test::randomState(model, seed);
    Eigen::VectorXd tau = actuation(model, s, 0.0);
    std::vector<char> prescribed(model.nv, 0);
    std::mt19937 rng(seed);
    for (char& p : prescribed) p = static_cast<char>(rng() % 3 == 0);
    const HybridResult result = hybrid(model, s, prescribed, tau);

    std::vector<int> free;
    Eigen::VectorXd known = Eigen::VectorXd::Zero(model.nv);
    for (int i = 0; i < model.nv; ++i) {
      if (prescribed[i] != 0) {
        known(i) = s.a(i);
      } else {
        free.push_back(i);
      }
    }
    Data data(model);
    Eigen::VectorXd applied = tau;
    addInternalForces(model, s.q, s.v, applied);
    const Eigen::VectorXd rhs = applied - inverseDynamics(model, data, s.q, s.v, known);
    const Eigen::MatrixXd M = massMatrix(model, data, s.q);
    const auto n_u = static_cast<Eigen::Index>(free.size());
    Eigen::MatrixXd M_uu(n_u, n_u);
    Eigen::VectorXd rhs_u(n_u);
    for (Eigen::Index r = 0; r < n_u; ++r) {
      rhs_u(r) = rhs(free[r]);
      for (Eigen::Index c = 0; c < n_u; ++c) M_uu(r, c) = M(free[r], free[c]);
    }
    Eigen::VectorXd qdd = known;
    const Eigen::VectorXd qdd_u = M_uu.llt().solve(rhs_u);
    for (Eigen::Index r = 0; r < n_u; ++r) qdd(free[r]) = qdd_u(r);
    Eigen::VectorXd efforts = inverseDynamics(model, data, s.q, s.v, qdd) - applied;
    for (const int i : free) efforts(i) = 0.0;

    EXPECT_LT(relative(result.qdd, qdd), kTolerance) << "seed " << seed;
    EXPECT_LT(relative(result.efforts, efforts), kTolerance) << "seed " << seed;
  }
}

TEST(ArticulatedBodyTest, PrescribedJointsTakeTheHybridRouteAndMatchThePartitionedSolve) {
  // the arm with joints 2 and 5 under position control: the simulator's constrained dynamics
  // (hybrid dynamics here) against the partitioned solve it replaces
  RobotDescription robot = test::example("rigid_7dof_arm");
  for (const int link : {1, 4}) {
    JointInputDesc input;
    input.link = robot.links[static_cast<std::size_t>(link)].name;
    input.mode = JointInputDesc::Mode::Position;
    input.value.kind = TimeFunction::Kind::Sine;
    input.value.amplitude = 0.4;
    input.value.frequency = 0.7;
    input.value.offset = 0.1 * link;
    robot.joint_inputs.push_back(input);
  }
  const Model model = buildModel(robot);
  ASSERT_EQ(model.prescribed.size(), 2u);
  ConstrainedDynamicsData hybrid_cdd(model), factorised_cdd(model);
  Data hybrid_data(model), factorised_data(model);
  for (unsigned k = 0; k < 4; ++k) {
    const test::State s = test::randomState(model, 40 + k);
    const double t = 0.37 * k;
    const Eigen::VectorXd tau = actuation(model, s, t);
    const Eigen::VectorXd qdd =
        constrainedForwardDynamics(model, hybrid_data, hybrid_cdd, s.q, s.v, tau, t);
    const Eigen::VectorXd reference =
        factorisedConstrainedDynamics(model, factorised_data, factorised_cdd, s.q, s.v, tau, t);
    EXPECT_LT(relative(qdd, reference), kTolerance) << "state " << k;
    EXPECT_LT(relative(hybrid_cdd.efforts, factorised_cdd.efforts), kTolerance) << "state " << k;
    EXPECT_EQ(hybrid_cdd.q, factorised_cdd.q);
  }
}

TEST(ArticulatedBodyTest, ModelsWhoseRodsShareCoordinatesAreRefusedWithAReason) {
  const Model model = buildModel(test::example("soft_cantilever"));
  EXPECT_FALSE(supportsArticulatedBody(model));
  Data data(model);
  const test::State s = test::randomState(model, 1);
  EXPECT_THROW(articulatedBodyForwardDynamics(model, data, s.q, s.v, s.a), std::invalid_argument);
}

}  // namespace
}  // namespace tendril
