// Tests for core/algorithm/external_loads.cpp: contact and hydrodynamic loads
// (docs/theory/gvs.md §13.2, §13.3), their sensitivities, and the added mass in the inverse
// dynamics and the mass matrix.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "core/algorithm/external_loads.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/statics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the environment wrench on every frame for the poses and twists now in data: -F after
// subtracting from a zero F (the models here carry no point loads)
Vector6d environmentWrench(const Model& model, Data& data, int j) {
  for (Vector6d& F : data.F) F.setZero();
  subtractExternalWrenches(model, data, 0.0);
  return -data.F[j];
}

// the sum of the sensitivity entries of frame j
void sensitivitiesOf(const Model& model, Data& data, int j, Matrix6d& d_pose, Matrix6d& d_twist) {
  externalWrenchSensitivities(model, data, 0.0);
  d_pose.setZero();
  d_twist.setZero();
  for (const WrenchSensitivity& entry : data.load_sensitivities) {
    if (entry.joint != j) continue;
    d_pose += entry.d_pose;
    d_twist += entry.d_twist;
  }
}

struct FdResult {
  Matrix6d d_pose_fd, d_twist_fd, d_pose, d_twist;
};

// central differences of the wrench of frame j at pose g and twist eta: the pose perturbed as
// g exp(h e_i), the twist as eta + h e_i. h = 1e-6: the loads vary on scales >= 1e-2 (penetration,
// radii, slip velocity 0.05), so the truncation error (h / scale)^2 stays below 1e-8 and the
// round-off eps |F| / h below 1e-9 relative
FdResult differentiate(const Model& model, Data& data, int j, const SE3& g, const Vector6d& eta) {
  const double h = 1e-6;
  FdResult r;
  data.g[j] = g;
  data.eta[j] = eta;
  sensitivitiesOf(model, data, j, r.d_pose, r.d_twist);
  for (int i = 0; i < 6; ++i) {
    const Vector6d e = Vector6d::Unit(i);
    data.g[j] = g * exp(h * e);
    const Vector6d plus = environmentWrench(model, data, j);
    data.g[j] = g * exp(-h * e);
    const Vector6d minus = environmentWrench(model, data, j);
    r.d_pose_fd.col(i) = (plus - minus) / (2 * h);
    data.g[j] = g;
    data.eta[j] = eta + h * e;
    const Vector6d plus_v = environmentWrench(model, data, j);
    data.eta[j] = eta - h * e;
    const Vector6d minus_v = environmentWrench(model, data, j);
    r.d_twist_fd.col(i) = (plus_v - minus_v) / (2 * h);
    data.eta[j] = eta;
  }
  return r;
}

// a free rigid body (a sphere of radius 0.1 around its centre of mass, off the frame origin)
// carrying a soft rod
RobotDescription bodyWithRod() {
  RobotDescription robot;
  LinkDesc body = test::rigidLink("body", "world", JointType::Free);
  body.rigid().shape.type = ShapeType::Sphere;
  body.rigid().shape.size = {0.1, 0.0, 0.0};
  robot.links.push_back(body);
  RobotDescription rod = test::uniformRod(0.4, 0.02, StrainBasisDesc{}, 4);
  rod.links[0].parent = "body";
  robot.links.push_back(rod.links[0]);
  return robot;
}

// a pose whose origin is at p, with an arbitrary rotation
SE3 poseAt(const Eigen::Vector3d& p) {
  SE3 g = exp((Vector6d() << 0.3, -0.7, 0.5, 0, 0, 0).finished());
  g.p = p;
  return g;
}

// a pose that puts the point `offset` of the frame at p
SE3 poseWithPointAt(const Eigen::Vector3d& p, const Eigen::Vector3d& offset) {
  SE3 g = poseAt(p);
  g.p = p - g.R * offset;
  return g;
}

void expectSensitivitiesMatch(const FdResult& r) {
  EXPECT_LT(test::relativeError(r.d_pose, r.d_pose_fd), 1e-6) << "analytic\n"
                                                              << r.d_pose << "\nfd\n"
                                                              << r.d_pose_fd;
  EXPECT_LT(test::relativeError(r.d_twist, r.d_twist_fd), 1e-6) << "analytic\n"
                                                                << r.d_twist << "\nfd\n"
                                                                << r.d_twist_fd;
  EXPECT_GT(r.d_pose.norm(), 0.1);  // not zero against zero
  EXPECT_NE(r.d_pose, r.d_pose_fd);
}

// one obstacle of each kind, damped, with friction; each test places a sphere 3 cm deep in one
ContactDesc dampedFrictionalContact() {
  ContactDesc contact;
  contact.stiffness = 1e5;
  contact.exponent = 1.5;
  contact.smoothing = 0.01;  // inactive at 3 cm
  contact.damping = 0.3;
  contact.friction = 0.6;
  contact.slip_velocity = 0.05;
  return contact;
}

struct ContactCase {
  const char* name;
  int kind;  // 0 plane, 1 sphere, 2 cylinder
};

class ContactSensitivityTest : public ::testing::TestWithParam<ContactCase> {};

TEST_P(ContactSensitivityTest, MatchCentralDifferences) {
  RobotDescription robot = bodyWithRod();
  ContactDesc contact = dampedFrictionalContact();
  const double depth = 0.03;
  // where a sphere of radius r must sit to penetrate by `depth`, and the push direction
  std::function<Eigen::Vector3d(double)> centreAt;
  switch (GetParam().kind) {
    case 0:
      contact.planes.push_back({{0.1, 0.2, -0.3}, {0.0, 0.6, 0.8}});
      centreAt = [&](double r) -> Eigen::Vector3d {
        return Eigen::Vector3d(0.1, 0.2, -0.3) + (r - depth) * Eigen::Vector3d(0, 0.6, 0.8);
      };
      break;
    case 1:
      contact.spheres.push_back({{0.5, -0.2, 0.1}, 0.3});
      centreAt = [&](double r) -> Eigen::Vector3d {
        return Eigen::Vector3d(0.5, -0.2, 0.1) +
               (0.3 + r - depth) * Eigen::Vector3d(1, 2, -2).normalized();
      };
      break;
    default:
      contact.cylinders.push_back({{0.1, 0.1, 0.0}, {0.0, 0.0, 1.0}, 0.15});
      centreAt = [&](double r) -> Eigen::Vector3d {
        return Eigen::Vector3d(0.1, 0.1, 0.7) +
               (0.15 - r + depth) * Eigen::Vector3d(0.6, -0.8, 0.0);
      };
  }
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  // twists with a sliding and a penetrating component
  const Vector6d eta = (Vector6d() << 0.4, -1.1, 0.7, 0.9, -0.5, 0.3).finished();
  // the rigid body: its bounding sphere sits at the centre of mass, off the frame origin
  const int body = model.links[0].joint;
  const Eigen::Vector3d com(robot.links[0].rigid().com.data());
  SCOPED_TRACE("rigid body");
  expectSensitivitiesMatch(
      differentiate(model, data, body, poseWithPointAt(centreAt(0.1), com), eta));
  // a point of the rod
  const int point = model.links[1].first_interval + 1;
  SCOPED_TRACE("rod point");
  expectSensitivitiesMatch(differentiate(model, data, point, poseAt(centreAt(0.02)), eta));
}

INSTANTIATE_TEST_SUITE_P(Obstacles, ContactSensitivityTest,
                         ::testing::Values(ContactCase{"plane", 0}, ContactCase{"sphere", 1},
                                           ContactCase{"cylinder", 2}),
                         [](const ::testing::TestParamInfo<ContactCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(ContactTest, SensitivitiesInsideTheSmoothingWidthMatchCentralDifferences) {
  RobotDescription robot = bodyWithRod();
  ContactDesc contact = dampedFrictionalContact();
  contact.exponent = 1.0;
  contact.smoothing = 0.05;  // the 3 cm penetration lies in the blend
  contact.planes.push_back({{0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}});
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  const Vector6d eta = (Vector6d() << 0.4, -1.1, 0.7, 0.9, -0.5, 0.3).finished();
  const int point = model.links[1].first_interval + 1;
  expectSensitivitiesMatch(
      differentiate(model, data, point, poseAt(Eigen::Vector3d(0.1, 0.2, 0.02 - 0.03)), eta));
}

TEST(ContactTest, SmoothedForceIsC1AndExactBeyondTheWidth) {
  RobotDescription robot = bodyWithRod();
  ContactDesc contact;
  contact.stiffness = 1e4;
  contact.exponent = 1.0;  // a linear spring: a kink at delta = 0 without smoothing
  contact.smoothing = 0.004;
  contact.planes.push_back({{0, 0, 0}, {0, 0, 1}});
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  const int point = model.links[1].first_interval + 1;
  const auto force = [&](double delta) {  // vertical force at penetration delta
    data.g[point] = poseAt(Eigen::Vector3d(0, 0, 0.02 - delta));
    data.eta[point].setZero();
    return (data.g[point].R * environmentWrench(model, data, point).tail<3>()).z();
  };
  EXPECT_DOUBLE_EQ(force(-1e-3), 0.0);
  EXPECT_NEAR(force(0.006), 1e4 * 0.006, 1e-9);  // exact beyond the width
  // slope continuous at 0 (zero on both sides) and at the width
  const double h = 1e-7;
  EXPECT_NEAR((force(h) - force(0.0)) / h, 0.0, 1e-2);
  // (the second derivative jumps there by 6 k / width: the difference errs by ~h 6 k / width / 4)
  EXPECT_NEAR((force(0.004 + h) - force(0.004 - h)) / (2 * h), 1e4, 1.0);
}

TEST(ContactTest, PointPressedIntoASphereGetsTheHertzForceAlongTheNormal) {
  RobotDescription robot = bodyWithRod();
  ContactDesc contact;
  contact.stiffness = 2e5;
  contact.exponent = 1.5;
  contact.spheres.push_back({{0.3, 0.1, -0.2}, 0.25});
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  const int body = model.links[0].joint;
  const Eigen::Vector3d com(robot.links[0].rigid().com.data());
  const Eigen::Vector3d n = Eigen::Vector3d(-1, 2, 2).normalized();
  const double delta = 0.012, r = 0.1;
  const Eigen::Vector3d centre = Eigen::Vector3d(0.3, 0.1, -0.2) + (0.25 + r - delta) * n;
  data.g[body] = poseWithPointAt(centre, com);
  data.eta[body].setZero();
  const Vector6d F = environmentWrench(model, data, body);
  const Eigen::Vector3d f_world = data.g[body].R * F.tail<3>();
  EXPECT_LT((f_world - 2e5 * std::pow(delta, 1.5) * n).norm(), 1e-9 * f_world.norm());
  // through the sphere's centre: no moment about it
  EXPECT_LT((F.head<3>() - com.cross(F.tail<3>())).norm(), 1e-12 * f_world.norm());
}

TEST(ContactTest, HollowCylinderPushesTowardTheAxis) {
  // docs/theory/gvs.md (57), corrected: the force on the robot points inward, magnitude k delta^p
  RobotDescription robot = bodyWithRod();
  ContactDesc contact;
  contact.stiffness = 1e5;
  contact.exponent = 1.5;
  contact.cylinders.push_back({{0, 0, 0}, {0, 0, 1}, 0.15});
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  const int point = model.links[1].first_interval + 2;
  const double r = model.joints[point].radius, delta = 0.005;
  const Eigen::Vector3d u = Eigen::Vector3d(0.8, 0.6, 0.0);
  data.g[point] = poseAt((0.15 - r + delta) * u + Eigen::Vector3d(0, 0, -0.4));
  data.eta[point].setZero();
  const Eigen::Vector3d f = data.g[point].R * environmentWrench(model, data, point).tail<3>();
  EXPECT_LT((f + 1e5 * std::pow(delta, 1.5) * u).norm(), 1e-9 * f.norm());
}

TEST(ContactTest, RodOnAPlaneCarriesItsWeight) {
  // a rod on a vertical prismatic joint lies on the floor: at equilibrium the contact forces
  // add up to its weight
  RobotDescription robot = test::uniformRod(0.5, 0.01, StrainBasisDesc{}, 5);
  robot.links[0].joint.type = JointType::Prismatic;
  robot.links[0].joint.axis = {0, 0, 1};
  robot.links[0].origin.position = {0, 0, 0.01};
  robot.links[0].soft().divisions[0].basis.order = {0, 2, 2, -1, -1, -1};
  ContactDesc contact;
  contact.stiffness = 1e4;
  contact.exponent = 1.5;
  contact.planes.push_back({{0, 0, 0}, {0, 0, 1}});
  robot.environment.contact = contact;
  const Model model = buildModel(robot);
  Data data(model);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  q0(0) = -5e-4;  // pressed in a little: the Hertz law has no stiffness at first touch
  StaticsOptions options;
  options.analytic_jacobian = false;
  const StaticsResult result = solveStatics(model, data, q0, options);
  ASSERT_TRUE(result.converged) << result.message;
  forwardKinematics(model, data, result.q, Eigen::VectorXd::Zero(model.nv));
  double weight = 0.0, lift = 0.0;
  for (Vector6d& F : data.F) F.setZero();
  subtractExternalWrenches(model, data, 0.0);
  for (int j = 0; j < model.n_vjoints(); ++j) {
    weight += model.joints[j].mass * 9.81;
    lift += (data.g[j].R * -data.F[j].tail<3>()).z();
  }
  EXPECT_GT(weight, 1.0);
  EXPECT_NEAR(lift, weight, 1e-8 * weight);
  EXPECT_LT(result.q(0), 0.0);  // sunk into the floor by the penetration that carries it
}

// fluid with buoyancy, drag and added mass on a body (off-centre) and a rod
RobotDescription bodyWithRodInWater(double density_ratio) {
  RobotDescription robot = bodyWithRod();
  FluidDesc fluid;
  fluid.density = 1000.0;
  fluid.drag_normal = 1.2;
  fluid.drag_tangential = 0.05;
  fluid.added_mass_coefficient = 1.0;
  FluidBodyDesc body;
  body.link = "body";
  body.volume = robot.links[0].rigid().mass / fluid.density * density_ratio;
  body.drag = {0.01, 0.02, 0.03, 2.0, 3.0, 4.0};
  body.added_mass = {1e-3, 2e-3, 3e-3, 0.3, 0.5, 0.4};
  fluid.bodies.push_back(body);
  robot.environment.fluid = fluid;
  robot.links[1].soft().divisions[0].material.density = fluid.density * density_ratio;
  return robot;
}

TEST(FluidTest, SensitivitiesMatchCentralDifferences) {
  const Model model = buildModel(bodyWithRodInWater(1.3));
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  const Vector6d eta = (Vector6d() << 0.4, -1.1, 0.7, 0.9, -0.5, 0.3).finished();
  SCOPED_TRACE("rigid body");
  expectSensitivitiesMatch(differentiate(model, data, model.links[0].joint,
                                         poseAt(Eigen::Vector3d(0.1, 0.2, 0.3)), eta));
  SCOPED_TRACE("rod point");
  const int point = model.links[1].first_interval + 1;
  const FdResult r = differentiate(model, data, point, poseAt(Eigen::Vector3d(0.1, 0.2, 0.3)), eta);
  expectSensitivitiesMatch(r);
  EXPECT_GT(r.d_twist.norm(), 1e-3);  // the drag
}

TEST(FluidTest, DragSensitivityVanishesAtRest) {
  const Model model = buildModel(bodyWithRodInWater(1.0));
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv));
  externalWrenchSensitivities(model, data, 0.0);
  for (const WrenchSensitivity& entry : data.load_sensitivities)
    EXPECT_EQ(entry.d_twist, Matrix6d::Zero());
}

TEST(FluidTest, NeutrallyBuoyantBodyStaysAtRest) {
  // gravity, buoyancy and the weightless added mass balance at every point
  const Model model = buildModel(bodyWithRodInWater(1.0));
  Data data(model);
  const test::State x = test::randomState(model, 3, 0.4);
  Eigen::VectorXd q = x.q;
  q.tail(model.nq - 6).setZero();  // an unbent rod: no elastic force
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd& qdd = forwardDynamics(model, data, q, zero, zero);
  EXPECT_LT(qdd.norm(), 1e-10);
  // not neutrally buoyant: it moves
  const Model heavy = buildModel(bodyWithRodInWater(1.1));
  Data heavy_data(heavy);
  EXPECT_GT(forwardDynamics(heavy, heavy_data, q, zero, zero).norm(), 1e-2);
}

TEST(FluidTest, FallingBodyReachesTheClosedFormTerminalVelocity) {
  // (m - rho V) g = d |v| v at terminal velocity, whatever the added mass
  RobotDescription robot;
  LinkDesc body = test::rigidLink("body", "world", JointType::Free);
  body.rigid().mass = 1.0;
  body.rigid().com = {0, 0, 0};
  robot.links.push_back(body);
  FluidDesc fluid;
  fluid.density = 1000.0;
  FluidBodyDesc entry;
  entry.link = "body";
  entry.volume = 5e-4;
  entry.drag = {0, 0, 0, 2.0, 2.0, 2.0};
  entry.added_mass = {0, 0, 0, 0.5, 0.5, 0.5};
  fluid.bodies.push_back(entry);
  robot.environment.fluid = fluid;
  const Model model = buildModel(robot);
  SimulationOptions options;
  options.integrator = IntegratorKind::Rk4;
  options.step = 1e-3;
  options.t_end = 5.0;  // v = u tanh(t / tau), tau = (m + m_A) u / (net weight) = 0.48 s
  options.output_interval = 0.5;
  options.jacobian = JacobianKind::FiniteDifference;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), options);
  ASSERT_TRUE(result.completed) << result.message;
  const double terminal = std::sqrt((1.0 - 0.5) * 9.81 / 2.0);
  Data data(model);
  forwardKinematics(model, data, result.samples.back().q, result.samples.back().v);
  const Eigen::Vector3d velocity = data.g[0].R * data.eta[0].tail<3>();
  EXPECT_NEAR(velocity.z(), -terminal, 1e-6 * terminal);
  EXPECT_LT(velocity.head<2>().norm(), 1e-9);
}

TEST(AddedMassTest, MassMatrixGainsTheJacobianSumAndStaysPositiveDefinite) {
  RobotDescription robot = test::randomHybrid(5);
  FluidDesc fluid;
  fluid.added_mass_coefficient = 0.8;
  for (const LinkDesc& link : robot.links) {
    if (link.kind() != BodyKind::Rigid) continue;
    FluidBodyDesc body;
    body.link = link.name;
    body.added_mass = {1e-3, 2e-3, 3e-3, 0.3, 0.5, 0.4};
    fluid.bodies.push_back(body);
  }
  robot.environment.fluid = fluid;
  const Model with = buildModel(robot);
  robot.environment.fluid.reset();
  const Model without = buildModel(robot);
  ASSERT_TRUE(with.has_added_mass);
  Data data(with), data_without(without);
  const test::State x = test::randomState(with, 11, 0.5);
  const Eigen::MatrixXd M = massMatrix(with, data, x.q);
  const Eigen::MatrixXd M0 = massMatrix(without, data_without, x.q);
  // brute force: sum over frames of J^T M_A J
  forwardKinematics(with, data, x.q);
  Eigen::MatrixXd added = Eigen::MatrixXd::Zero(with.nv, with.nv);
  Eigen::MatrixXd J(6, with.nv);
  int frames = 0;
  for (int j = 0; j < with.n_vjoints(); ++j) {
    if (!with.joints[j].has_added_mass) continue;
    frameJacobian(with, data, j, J);
    added += J.transpose() * with.joints[j].added_mass * J;
    ++frames;
  }
  EXPECT_GT(frames, 5);
  EXPECT_GT(added.norm(), 1e-3 * M0.norm());
  EXPECT_LT(test::relativeError(M - M0, added), 1e-12);
  EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(M).info(), Eigen::Success);
}

TEST(AddedMassTest, InverseDynamicsAgreesWithTheMassMatrixAndAddsNoWeight) {
  RobotDescription robot = bodyWithRodInWater(1.2);
  robot.environment.fluid->bodies[0].drag = {0, 0, 0, 0, 0, 0};
  robot.environment.fluid->drag_normal = robot.environment.fluid->drag_tangential = 0.0;
  const Model model = buildModel(robot);
  Data data(model);
  const test::State x = test::randomState(model, 4, 0.5);
  // ID is linear in the acceleration with slope M (gravity, Coriolis and buoyancy cancel)
  const Eigen::VectorXd bias = inverseDynamics(model, data, x.q, x.v, 0 * x.a, 0.0);
  const Eigen::VectorXd tau = inverseDynamics(model, data, x.q, x.v, x.a, 0.0);
  const Eigen::MatrixXd M = massMatrix(model, data, x.q);
  EXPECT_LT(test::relativeError(tau - bias, M * x.a), 1e-12);
  // at rest, the added mass changes nothing: the same static forces with or without it
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd static_with = inverseDynamics(model, data, x.q, zero, zero, 0.0);
  robot.environment.fluid->bodies[0].added_mass = {0, 0, 0, 0, 0, 0};
  robot.environment.fluid->added_mass_coefficient = 0.0;
  const Model plain = buildModel(robot);
  ASSERT_FALSE(plain.has_added_mass);
  Data plain_data(plain);
  const Eigen::VectorXd static_without = inverseDynamics(plain, plain_data, x.q, zero, zero, 0.0);
  EXPECT_LT(test::relativeError(static_with, static_without), 1e-12);
  EXPECT_GT(static_with.norm(), 0.1);
  // Coriolis: passivity of the added-mass terms, v^T (ID(q, v, 0) - ID(q, 0, 0)) = 1/2 v^T Mdot v
  const double h = 1e-6;
  const Eigen::MatrixXd M_plus = massMatrix(model, data, x.q + h * x.v);
  const Eigen::MatrixXd M_minus = massMatrix(model, data, x.q - h * x.v);
  // (inverseDynamics returns a reference into data: copy before the second call)
  const Eigen::VectorXd moving = inverseDynamics(model, data, x.q, x.v, zero, 0.0);
  const Eigen::VectorXd nle = moving - inverseDynamics(model, data, x.q, zero, zero, 0.0);
  const double power = x.v.dot(nle), expected = 0.5 * x.v.dot((M_plus - M_minus) / (2 * h) * x.v);
  EXPECT_NEAR(power, expected, 1e-6 * std::abs(expected) + 1e-9);
}

TEST(EnvironmentJsonTest, RoundTripKeepsEveryField) {
  RobotDescription robot = bodyWithRodInWater(1.0);
  ContactDesc contact = dampedFrictionalContact();
  contact.rigid_bodies = false;
  contact.planes.push_back({{0.1, 0.2, -0.3}, {0.0, 0.6, 0.8}});
  contact.spheres.push_back({{0.5, -0.2, 0.1}, 0.3});
  contact.cylinders.push_back({{0.1, 0.1, 0.0}, {0.0, 0.0, 1.0}, 0.15});
  robot.environment.contact = contact;
  robot.environment.fluid->bodies.push_back({"body2", std::nullopt, {}, {}});
  robot.links.push_back(test::rigidLink("body2", "body", JointType::Revolute));
  const std::string text = serializeRobot(robot);
  const RobotDescription back = parseRobot(text);
  EXPECT_EQ(back.environment, robot.environment);
  EXPECT_EQ(serializeRobot(back), text);
  EXPECT_FALSE(back.environment.fluid->bodies[1].volume.has_value());
  // no environment, no key
  robot.environment = {};
  EXPECT_EQ(serializeRobot(robot).find("environment"), std::string::npos);
}

TEST(EnvironmentJsonTest, RigidBodyVolumeDefaultsToItsShape) {
  RobotDescription robot = bodyWithRodInWater(1.0);
  robot.environment.fluid->bodies[0].volume.reset();
  const Model model = buildModel(robot);
  const auto& frames = model.environment.fluid_frames;
  const auto body = std::find_if(frames.begin(), frames.end(),
                                 [&](const auto& f) { return f.joint == model.links[0].joint; });
  ASSERT_NE(body, frames.end());
  EXPECT_DOUBLE_EQ(body->displaced_mass, 1000.0 * 4.0 / 3.0 * std::numbers::pi * 1e-3);
}

}  // namespace
}  // namespace tendril
