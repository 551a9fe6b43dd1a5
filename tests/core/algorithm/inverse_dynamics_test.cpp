// Tests for core/algorithm/inverse_dynamics.cpp, mass_matrix.cpp, forward_dynamics.cpp and
// kinematics.cpp: identities between independent algorithms and finite differences of poses.

#include "core/algorithm/inverse_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>
#include <random>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/model/strain_basis.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::randomState;
using test::relativeError;

std::vector<std::pair<std::string, RobotDescription>> modelsUnderTest() {
  std::vector<std::pair<std::string, RobotDescription>> models;
  for (const char* stem :
       {"soft_cantilever", "tapered_free_fall", "hybrid_serial_robot", "rigid_7dof_arm"}) {
    models.emplace_back(stem, test::example(stem));
  }
  for (unsigned seed : {1u, 2u, 3u})
    models.emplace_back("random" + std::to_string(seed), test::randomHybrid(seed));
  return models;
}

// d/dt of a pose along a velocity, as a body twist: vee(g^-1 dg/dt)
Vector6d twistByFiniteDifference(const SE3& minus, const SE3& plus, const SE3& g, double dt) {
  const Eigen::Matrix4d g_dot = (plus.matrix() - minus.matrix()) / (2.0 * dt);
  return vee(g.inverse().matrix() * g_dot);
}

TEST(KinematicsTest, TwistsMatchFiniteDifferencesOfPoses) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), data_minus(model), data_plus(model);
    const test::State x = randomState(model, 11);
    const double dt = 1e-6;  // central differences: truncation O(dt^2) ~ 1e-12, rounding ~ 1e-10
    forwardKinematics(model, data, x.q, x.v);
    forwardKinematics(model, data_minus, x.q - dt * x.v);
    forwardKinematics(model, data_plus, x.q + dt * x.v);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      const Vector6d expected =
          twistByFiniteDifference(data_minus.g[j], data_plus.g[j], data.g[j], dt);
      EXPECT_LT((data.eta[j] - expected).norm(), 1e-7 * std::max(1.0, expected.norm()))
          << "frame " << j;
    }
  }
}

TEST(KinematicsTest, FrameAxisRevolutesTakeThePlaneRotationOfTheGeneralExponential) {
  // the arm's joints turn about z and y: each is found when the model is built, and the plane
  // rotation the kinematics then take equals the screw's general exponential
  const RobotDescription arm = test::example("rigid_7dof_arm");
  const Model model = buildModel(arm);
  Data data(model);
  const test::State x = randomState(model, 13);
  forwardKinematics(model, data, x.q);
  int revolutes = 0;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (!joint.single_screw) continue;
    ++revolutes;
    const int k = joint.screw_frame_axis;
    ASSERT_GE(k, 0) << "frame " << j;
    EXPECT_EQ(std::abs(joint.screw(k)), 1.0);
    const SE3 expected = singleScrewExp(joint.screw, x.q(joint.idx_q));
    EXPECT_LT((data.g_local[j].matrix() - expected.matrix()).cwiseAbs().maxCoeff(), 1e-15)
        << "frame " << j;
  }
  ASSERT_GT(revolutes, 0);
  EXPECT_EQ(revolutes, std::count_if(arm.links.begin(), arm.links.end(), [](const LinkDesc& link) {
              return link.joint.type == JointType::Revolute;
            }));
  // a screw off every frame axis keeps the general exponential
  RobotDescription tilted = arm;
  tilted.links[0].joint.axis = {0.0, 0.6, 0.8};
  EXPECT_EQ(buildModel(tilted).joints[0].screw_frame_axis, -1);
}

TEST(KinematicsTest, RotatingSingleScrewsTakeTheirSinesFromOneBatch) {
  // every rotating single screw (revolute, helical, about any axis) has a slot in the batch of
  // angles, nothing else has; each pose pass's local pose equals Rodrigues' formula with libm's
  // sine and cosine to rounding (one ulp of each, a few ulps of 1 in the sum), also on a Data
  // that saw other angles before
  const double rounding = 4.0 * std::numeric_limits<double>::epsilon();
  std::vector<RobotDescription> robots = {test::benchmarkHumanoid()};
  for (unsigned seed = 1; seed <= 9; ++seed) robots.push_back(test::randomRigidTree(seed, 12));
  int rotating = 0, translating = 0;
  for (const RobotDescription& robot : robots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(robot);
    Data forward(model), poses_and_twists(model), id_poses(model);
    const test::State before = randomState(model, 17), x = randomState(model, 16);
    for (const test::State* state : {&before, &x}) {
      forwardKinematics(model, forward, state->q);
      posesAndTwists(model, poses_and_twists, state->q, state->v);
      inverseDynamicsWithoutSubspaces(model, id_poses, state->q, state->v, state->a);
    }
    std::vector<int> slots_seen;
    for (int j = 0; j < model.n_vjoints(); ++j) {
      const VirtualJoint& joint = model.joints[j];
      const bool rotates = joint.single_screw && !joint.screw.head<3>().isZero(0.0);
      ASSERT_EQ(joint.screw_angle_slot >= 0, rotates) << "frame " << j;
      if (joint.single_screw) ++(rotates ? rotating : translating);
      if (!rotates) continue;
      slots_seen.push_back(joint.screw_angle_slot);
      EXPECT_EQ(model.screw_angle_coordinates[joint.screw_angle_slot], joint.idx_q);
      const double q = x.q(joint.idx_q);
      const Eigen::Vector3d a = joint.screw.head<3>();
      const Eigen::Matrix3d rodrigues = std::cos(q) * Eigen::Matrix3d::Identity() +
                                        std::sin(q) * skew(a) +
                                        (1.0 - std::cos(q)) * (a * a.transpose());
      for (const Data* data : {&forward, &poses_and_twists, &id_poses}) {
        EXPECT_LT((data->g_local[j].R - rodrigues).cwiseAbs().maxCoeff(), rounding)
            << "frame " << j;
      }
    }
    std::sort(slots_seen.begin(), slots_seen.end());
    for (int i = 0; i < static_cast<int>(slots_seen.size()); ++i) EXPECT_EQ(slots_seen[i], i);
    EXPECT_EQ(slots_seen.size(), model.screw_angle_coordinates.size());
  }
  EXPECT_GT(rotating, 0);
  EXPECT_GT(translating, 0);  // prismatic joints: no slot, no sine
}

TEST(KinematicsTest, WorldPosesOfFrameAxisRevolutesEqualTheComposedProducts) {
  // a frame-axis revolute whose placement only translates takes its world rotation by turning two
  // columns of the parent's: it must equal g_parent g_fixed exp(screw q); the humanoid's placements
  // translate, a copy with rolled and pitched placements takes the full product
  RobotDescription rotated = test::benchmarkHumanoid();
  for (std::size_t i = 1; i < rotated.links.size(); i += 2)
    rotated.links[i].origin.rpy = {0.3, -0.2, 0.1};
  int turned = 0, composed = 0, turned_negative = 0;
  RobotDescription reversed = test::benchmarkHumanoid();  // about -e_k: the turn's sign
  for (std::size_t i = 1; i < reversed.links.size(); i += 2) {
    for (double& component : reversed.links[i].joint.axis) component = -component;
  }
  for (const RobotDescription& robot : {test::benchmarkHumanoid(), rotated, reversed}) {
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 14);
    forwardKinematics(model, data, x.q);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      const VirtualJoint& joint = model.joints[j];
      if (!joint.single_screw || joint.parent < 0) continue;
      ASSERT_GE(joint.screw_frame_axis, 0) << "frame " << j;
      ++(joint.placement_rotates ? composed : turned);
      if (!joint.placement_rotates && joint.screw(joint.screw_frame_axis) < 0.0) ++turned_negative;
      const SE3 g_pc = joint.g_fixed * singleScrewExp(joint.screw, x.q(joint.idx_q));
      const SE3 expected = data.g[joint.parent] * g_pc;
      EXPECT_LT((data.g_pc[j].matrix() - g_pc.matrix()).cwiseAbs().maxCoeff(), 1e-15) << j;
      EXPECT_LT((data.g[j].matrix() - expected.matrix()).cwiseAbs().maxCoeff(), 4e-15) << j;
    }
  }
  EXPECT_GT(turned, 0);
  EXPECT_GT(composed, 0);
  EXPECT_GT(turned_negative, 0);
}

TEST(KinematicsTest, AFreeJointsSubspaceIsTheTangentOperator) {
  // Phi = 1 for a free joint: S = T(Omega) is taken without the product T Phi
  const Model model = buildModel(test::benchmarkHumanoid());
  Data data(model);
  forwardKinematics(model, data, randomState(model, 15).q);
  const VirtualJoint& base = model.joints[0];
  ASSERT_TRUE(base.identity_basis);
  EXPECT_FALSE(model.joints[1].identity_basis);
  ASSERT_FALSE(data.Omega[0].isZero(0.0));
  EXPECT_EQ(Matrix6d(data.S[0]), dexp(data.Omega[0]));
  EXPECT_EQ(Matrix6d(data.Z[0]), Matrix6d::Identity());
}

TEST(KinematicsTest, SubspaceRateTimesVelocityMatchesFiniteDifferencesOfS) {
  // S-dot v is formed as a vector (T' Omega' + T Z-dot v): check it against (S(q + dt v) -
  // S(q - dt v)) v / 2 dt, which never forms T' or Z-dot
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), data_minus(model), data_plus(model);
    const test::State x = randomState(model, 12);
    const double dt = 1e-6;
    forwardKinematics(model, data, x.q, x.v);
    forwardKinematics(model, data_minus, x.q - dt * x.v);
    forwardKinematics(model, data_plus, x.q + dt * x.v);
    int varying = 0;
    for (int j = 0; j < model.n_vjoints(); ++j) {
      const VirtualJoint& joint = model.joints[j];
      const auto v_j = x.v.segment(joint.idx_q, joint.nq);
      const Vector6d expected = (data_plus.S[j] - data_minus.S[j]) * v_j / (2.0 * dt);
      EXPECT_LT((data.S_dot_v[j] - expected).norm(), 1e-7 * std::max(1.0, expected.norm()))
          << "frame " << j;
      if (expected.norm() > 1e-3) ++varying;
    }
    if (name != "rigid_7dof_arm") {
      EXPECT_GT(varying, 0);  // the check is not vacuous
    }
  }
}

TEST(KinematicsTest, PosesAndTwistsWithoutSubspacesMatchTheFullKinematics) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data full(model), light(model);
    const test::State x = randomState(model, 13);
    forwardKinematics(model, full, x.q, x.v);
    posesAndTwists(model, light, x.q, x.v);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      EXPECT_LT((light.g[j].matrix() - full.g[j].matrix()).norm(), 1e-13) << "frame " << j;
      EXPECT_LT((light.eta[j] - full.eta[j]).norm(), 1e-12 * std::max(1.0, full.eta[j].norm()))
          << "frame " << j;
    }
  }
}

TEST(KinematicsTest, FrameJacobiansMapVelocitiesToTwists) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 19);
    forwardKinematics(model, data, x.q, x.v);
    Eigen::MatrixXd J(6, model.nv);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      frameJacobian(model, data, j, J);
      EXPECT_LT((J * x.v - data.eta[j]).norm(), 1e-12 * std::max(1.0, data.eta[j].norm()))
          << "frame " << j;
    }
  }
}

TEST(KinematicsTest, AccelerationsMatchFiniteDifferencesOfTwists) {
  for (auto [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    robot.gravity = {0.0, 0.0, 0.0};  // then eta_dot is the pure kinematic acceleration
    const Model model = buildModel(robot);
    Data data(model), data_minus(model), data_plus(model);
    const test::State x = randomState(model, 12);
    const double dt = 1e-5;
    inverseDynamics(model, data, x.q, x.v, x.a);
    // along q(t) = q + t v + t^2/2 a, v(t) = v + t a
    forwardKinematics(model, data_minus, x.q - dt * x.v + 0.5 * dt * dt * x.a, x.v - dt * x.a);
    forwardKinematics(model, data_plus, x.q + dt * x.v + 0.5 * dt * dt * x.a, x.v + dt * x.a);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      const Vector6d expected = (data_plus.eta[j] - data_minus.eta[j]) / (2.0 * dt);
      EXPECT_LT((data.eta_dot[j] - expected).norm(), 1e-6 * std::max(1.0, expected.norm()))
          << "frame " << j;
    }
  }
}

TEST(MassMatrixTest, ColumnsEqualInverseDynamicsDifferences) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), data_id(model);
    const test::State x = randomState(model, 13);
    const Eigen::MatrixXd M = massMatrix(model, data, x.q);
    const Eigen::VectorXd bias =
        inverseDynamics(model, data_id, x.q, x.v, Eigen::VectorXd::Zero(model.nv));
    Eigen::MatrixXd M_from_id(model.nv, model.nv);
    for (int i = 0; i < model.nv; ++i) {
      M_from_id.col(i) =
          inverseDynamics(model, data_id, x.q, x.v, Eigen::VectorXd::Unit(model.nv, i)) - bias;
    }
    EXPECT_LT(relativeError(M, M_from_id), 1e-10);
    EXPECT_LT(relativeError(M, M.transpose()), 1e-12);
    EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(M).info(), Eigen::Success);
  }
}

TEST(InternalForcesTest, BlockwiseProductsEqualTheDenseOnes) {
  // one block per division with strain modes, holding every non-zero of K and D, on every bundled
  // example (multi-division rods, closed chains, rigid-only arms) and the random hybrids
  auto models = modelsUnderTest();
  for (const char* stem : {"finray_finger", "parallel_robot", "paper_cable_manipulator",
                           "underwater_robot", "paper_contact_cylinder", "cable_manipulator"})
    models.emplace_back(stem, test::example(stem));
  for (const auto& [name, robot] : models) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    const test::State x = randomState(model, 15);
    std::size_t divisions = 0;
    for (const LinkDesc& link : robot.links) {
      if (link.kind() != BodyKind::Soft) continue;
      for (const auto& division : link.soft().divisions)
        divisions += strainBasisDof(division.basis) > 0 ? 1 : 0;
    }
    EXPECT_EQ(model.elastic_blocks.size(), divisions);
    Eigen::MatrixXd outside = model.K.cwiseAbs() + model.D.cwiseAbs();
    int previous_end = 0;
    for (const CoordinateBlock& b : model.elastic_blocks) {
      EXPECT_GE(b.idx, previous_end) << "blocks overlap or are out of order";
      previous_end = b.idx + b.n;
      outside.block(b.idx, b.idx, b.n, b.n).setZero();
    }
    EXPECT_EQ(outside.maxCoeff(), 0.0);
    // the same sums in another order: rounding of n terms of size |K||q| + |D||v|
    const Eigen::VectorXd dense = -(model.K * x.q) - model.D * x.v;
    const double rounding = model.nv * std::numeric_limits<double>::epsilon() *
                            (model.K.norm() * x.q.norm() + model.D.norm() * x.v.norm());
    EXPECT_LE((internalForces(model, x.q, x.v) - dense).norm(), rounding);
    // it adds to what is there: one more rounding per entry, of the sum's size
    const Eigen::VectorXd start = Eigen::VectorXd::Ones(model.nv);
    Eigen::VectorXd scaled = start;
    addInternalForces(model, x.q, x.v, scaled, -2.0);
    const Eigen::VectorXd expected = start - 2.0 * dense;
    EXPECT_LE((scaled - expected).norm(),
              2.0 * rounding + std::numeric_limits<double>::epsilon() * expected.norm());
  }
}

TEST(MassMatrixTest, KineticEnergyEqualsSumOverLumpedInertias) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 14);
    const Eigen::MatrixXd M = massMatrix(model, data, x.q);
    forwardKinematics(model, data, x.q, x.v);
    double kinetic = 0.0;
    for (int j = 0; j < model.n_vjoints(); ++j)
      kinetic += 0.5 * data.eta[j].dot(model.joints[j].M * data.eta[j]);
    EXPECT_NEAR(0.5 * x.v.dot(M * x.v), kinetic, 1e-12 * std::max(1.0, kinetic));
  }
}

// gravitational potential V(q) = -sum_k m_k a_g . r_k; ID(q, 0, 0) = dV/dq
double gravitationalPotential(const Model& model, Data& data, const Eigen::VectorXd& q) {
  forwardKinematics(model, data, q);
  double V = 0.0;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    V -= joint.mass * model.gravity.tail<3>().dot(data.g[j].act(joint.com));
  }
  return V;
}

TEST(InverseDynamicsTest, GravityForcesAreTheGradientOfThePotential) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 15);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    const Eigen::VectorXd gravity_forces = inverseDynamics(model, data, x.q, zero, zero);
    const auto potential = [&](const Eigen::VectorXd& q) {
      return Eigen::VectorXd::Constant(1, gravitationalPotential(model, data, q));
    };
    const Eigen::VectorXd gradient = test::centralDifference(potential, x.q, 1e-6).transpose();
    EXPECT_LT(relativeError(gravity_forces, gradient), 1e-7);
    EXPECT_GT(gravity_forces.norm(), 1e-3);  // the test would be empty without gravity
  }
}

TEST(InverseDynamicsTest, IsAffineInAcceleration) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 16);
    const Eigen::VectorXd full = inverseDynamics(model, data, x.q, x.v, x.a);
    const Eigen::VectorXd bias =
        inverseDynamics(model, data, x.q, x.v, Eigen::VectorXd::Zero(model.nv));
    const Eigen::MatrixXd M = massMatrix(model, data, x.q);
    EXPECT_LT(relativeError(full, M * x.a + bias), 1e-11);
  }
}

TEST(InverseDynamicsTest, PowerOfVelocityTermsIsHalfTheMassMatrixRate) {
  // passivity (docs/theory/gvs.md (O7)): v^T [ID(q, v, 0) - ID(q, 0, 0)] = 1/2 v^T dM/dt v
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 17);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    // copies: inverseDynamics returns a reference into data that the next call overwrites
    const Eigen::VectorXd with_velocity = inverseDynamics(model, data, x.q, x.v, zero);
    const Eigen::VectorXd without_velocity = inverseDynamics(model, data, x.q, zero, zero);
    const double power = x.v.dot(with_velocity - without_velocity);
    const double dt = 1e-6;
    const Eigen::MatrixXd M_plus = massMatrix(model, data, x.q + dt * x.v);
    const Eigen::MatrixXd M_minus = massMatrix(model, data, x.q - dt * x.v);
    const double expected = 0.5 * x.v.dot((M_plus - M_minus) / (2.0 * dt) * x.v);
    EXPECT_NEAR(power, expected, 1e-6 * std::max(1.0, std::abs(expected)));
  }
}

TEST(ForwardDynamicsTest, InvertsInverseDynamics) {
  for (const auto& [name, robot] : modelsUnderTest()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 18);
    // the actuation that produces a: ID(q, v, a) + K q + D v
    const Eigen::VectorXd tau =
        inverseDynamics(model, data, x.q, x.v, x.a) + model.K * x.q + model.D * x.v;
    const Eigen::VectorXd qdd = forwardDynamics(model, data, x.q, x.v, tau);
    // backward error: qdd reproduces tau to rounding
    const Eigen::VectorXd tau_back =
        inverseDynamics(model, data, x.q, x.v, qdd) + model.K * x.q + model.D * x.v;
    EXPECT_LT(relativeError(tau_back, tau), 1e-12);
    // forward error: bounded by the conditioning of M (soft modes make M ill-conditioned)
    const Eigen::VectorXd eigenvalues =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(data.M).eigenvalues();
    const double condition = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
    EXPECT_LT(relativeError(qdd, x.a), 1e-14 * condition) << "cond(M) = " << condition;
  }
}

// The vector-only ID applies T, T', Z and Z^T through brackets and the basis instead of forming
// them: the same quantity by a different route, on every bundled example (hydrodynamics, contact,
// cables, closed chains' open trees), the random trees of every joint type and basis family, and
// a 2nd-order Magnus rod; poses and twists too, which IDA reads afterwards, and the subspaces
// localSubspaces() forms from what it leaves
TEST(InverseDynamicsTest, WithoutSubspacesEqualsTheRecursionWithSubspaces) {
  std::vector<std::pair<std::string, RobotDescription>> robots;
  for (const char* stem : {"paper_cable_manipulator", "cable_manipulator", "paper_contact_cylinder",
                           "paper_hybrid_serial_robot", "finray_finger", "parallel_robot",
                           "underwater_robot", "tapered_free_fall", "rigid_7dof_arm"})
    robots.emplace_back(stem, test::example(stem));
  for (unsigned seed = 1; seed <= 6; ++seed)
    robots.emplace_back("random" + std::to_string(seed), test::randomHybrid(seed));
  StrainBasisDesc basis;
  basis.family = BasisFamily::Legendre;
  basis.order = {2, 2, 2, 1, 1, 1};
  robots.emplace_back("magnus2 rod", test::uniformRod(0.4, 0.02, basis, 4, 2));
  for (const auto& [name, robot] : robots) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data with(model), without(model);
    for (const unsigned seed : {31u, 32u}) {
      const test::State x = randomState(model, seed);
      const Eigen::VectorXd expected = inverseDynamics(model, with, x.q, x.v, x.a, 0.3);
      const Eigen::VectorXd tau =
          inverseDynamicsWithoutSubspaces(model, without, x.q, x.v, x.a, 0.3);
      EXPECT_LT(relativeError(tau, expected), 1e-12);
      // the subspaces that IDA's mass-matrix refresh forms afterwards, from the same strains
      localSubspaces(model, without);
      for (int j = 0; j < model.n_vjoints(); ++j) {
        EXPECT_LT((without.g[j].matrix() - with.g[j].matrix()).norm(), 1e-13) << "frame " << j;
        EXPECT_LT((without.eta[j] - with.eta[j]).norm(), 1e-12 * (1.0 + with.eta[j].norm()));
        EXPECT_EQ(without.S[j], with.S[j]) << "frame " << j;
      }
    }
  }
}

TEST(ForwardDynamicsTest, TreeFactorSolvesBranchedMassMatrices) {
  // the underwater robot's six flagella hang off two shafts: M is tree-sparse and the tree factor
  // (forward_dynamics.cpp) is chosen; one and many right-hand sides take different paths (21 of
  // them: a chunk of 16 columns, then one of 8 padded with 3 zero columns), and a second
  // factorisation reuses L, whose entries outside the pattern were zeroed once
  const Model model = buildModel(test::example("underwater_robot"));
  Data data(model);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (const unsigned seed : {19u, 20u}) {
    SCOPED_TRACE(seed);
    const test::State x = randomState(model, seed);
    forwardDynamics(model, data, x.q, x.v, x.a);
    ASSERT_EQ(data.mass_factor_kind, 2) << "the tree factor was not chosen";
    const Eigen::MatrixXd B =
        Eigen::MatrixXd::NullaryExpr(model.nv, 21, [&] { return uniform(random); });
    Eigen::MatrixXd X = B;
    solveMassMatrix(data, X);
    Eigen::VectorXd x0 = B.col(0);
    solveMassMatrix(data, x0);
    // residuals against those of Eigen's dense Cholesky on the same M (cond(M) ~ 5e11 here, so
    // both are ~1e-10 of B; a wrong or stale entry in the factor leaves O(1))
    const Eigen::MatrixXd dense = Eigen::LLT<Eigen::MatrixXd>(data.M).solve(B);
    EXPECT_LT(relativeError(data.M * X, B), 10.0 * relativeError(data.M * dense, B));
    EXPECT_LT(relativeError(data.M * x0, B.col(0)),
              10.0 * relativeError(data.M * dense.col(0), B.col(0)));
    const Eigen::VectorXd eigenvalues =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(data.M).eigenvalues();
    const double condition = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
    EXPECT_LT(relativeError(X, dense), condition * std::numeric_limits<double>::epsilon());
  }
}

// solveMassMatrixPair() (dFD's dq and dv columns in one pass, scaled) against two solveMassMatrix()
// calls, with the tree factor (the underwater robot), the dense one (the soft cantilever) and too
// few columns for the many-column kernels (one and one)
TEST(ForwardDynamicsTest, PairSolveMatchesTwoSingleSolves) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (const char* name : {"underwater_robot", "soft_cantilever"}) {
    SCOPED_TRACE(name);
    const Model model = buildModel(test::example(name));
    Data data(model);
    const test::State x = randomState(model, 5);
    forwardDynamics(model, data, x.q, x.v, x.a);
    for (const Eigen::Index columns : {Eigen::Index{1}, Eigen::Index{model.nv}}) {
      const Eigen::MatrixXd B1 =
          Eigen::MatrixXd::NullaryExpr(model.nv, columns, [&] { return uniform(random); });
      const Eigen::MatrixXd B2 =
          Eigen::MatrixXd::NullaryExpr(model.nv, columns, [&] { return uniform(random); });
      Eigen::MatrixXd expected1 = B1, expected2 = B2;
      solveMassMatrix(data, expected1);
      solveMassMatrix(data, expected2);
      Eigen::MatrixXd X1(model.nv, columns), X2(model.nv, columns);
      solveMassMatrixPair(data, B1, B2, -2.0, X1, X2);
      EXPECT_LT(relativeError(X1, -2.0 * expected1), 1e-12) << columns << " columns";
      EXPECT_LT(relativeError(X2, -2.0 * expected2), 1e-12) << columns << " columns";
      Eigen::MatrixXd Y1 = B1, Y2 = B2;  // in place
      solveMassMatrixPair(data, Y1, Y2, 1.0, Y1, Y2);
      EXPECT_LT(relativeError(Y1, expected1), 1e-12) << columns << " columns";
      EXPECT_LT(relativeError(Y2, expected2), 1e-12) << columns << " columns";
    }
  }
}

TEST(InverseDynamicsTest, SinglePendulumMatchesClosedForm) {
  RobotDescription robot;
  LinkDesc link = test::rigidLink("pendulum", "world", JointType::Revolute, {0, 0, 1});
  link.rigid().com = {0.3, 0.0, 0.0};
  link.rigid().inertia = {3.5e-3, 2e-3, 5e-3, 0, 0, 0};
  robot.links = {link};
  robot.gravity = {0.0, -9.81, 0.0};
  const Model model = buildModel(robot);
  Data data(model);
  const double m = link.rigid().mass, l = 0.3, I_zz = 5e-3;
  for (double angle : {-2.0, 0.0, 0.7, 2.5}) {
    Eigen::VectorXd q(1), v(1), a(1);
    q << angle;
    v << 1.3;
    a << -0.4;
    const double expected = (I_zz + m * l * l) * a(0) + m * 9.81 * l * std::cos(angle);
    EXPECT_NEAR(inverseDynamics(model, data, q, v, a)(0), expected, 1e-12);
  }
}

}  // namespace
}  // namespace tendril
