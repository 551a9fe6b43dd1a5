// Tests for core/algorithm/statics.cpp.

#include "core/algorithm/statics.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "core/algorithm/kinematics.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

Eigen::Vector3d tipPosition(const Model& model, const Eigen::VectorXd& q, int link = 0) {
  Data data(model);
  forwardKinematics(model, data, q);
  return linkTipPose(model, data, link).p;
}

TEST(StaticsTest, SoRoSimCantileverReference) {
  // the field survey's SoRoSim reference: L 0.5 m, r 0.02 m, E 1 MPa, nu 0.5, rho 1000, monomial
  // torsion + two bendings of order 3 (12 dof), 5 Gauss points, Magnus 4: tip (0.29617, 0,
  // -0.37359)
  const Model model = buildModel(test::example("soft_cantilever"));
  ASSERT_EQ(model.nq, 12);
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const StaticsResult result = solveStatics(model, data, zero);
  ASSERT_TRUE(result.converged) << result.message;
  const Eigen::Vector3d tip = tipPosition(model, result.q);
  RecordProperty("tip", std::to_string(tip.x()) + " " + std::to_string(tip.z()));
  EXPECT_NEAR(tip.x(), 0.29617, 5e-6);
  EXPECT_NEAR(tip.y(), 0.0, 1e-9);
  EXPECT_NEAR(tip.z(), -0.37359, 5e-6);
  EXPECT_GT(result.load_steps, 0);
}

TEST(StaticsTest, SmallSelfWeightDeflectionMatchesEulerBernoulli) {
  // w L^4 / (8 E I) with a load small enough that geometric nonlinearity is below 1e-4
  StrainBasisDesc basis;
  basis.family = BasisFamily::Legendre;
  basis.order = {-1, 3, 3, -1, -1, -1};
  RobotDescription robot = test::uniformRod(0.5, 0.02, basis, 8);
  robot.gravity = {0.0, 0.0, -0.01};
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const StaticsResult result = solveStatics(model, data, zero);
  ASSERT_TRUE(result.converged) << result.message;
  const DivisionDesc& d = robot.links[0].soft().divisions[0];
  const double r = d.section.radius_start, A = M_PI * r * r, I = M_PI * std::pow(r, 4) / 4;
  const double w = d.material.density * A * 0.01;
  const double expected = w * std::pow(d.length, 4) / (8.0 * d.material.youngs_modulus * I);
  EXPECT_NEAR(-tipPosition(model, result.q).z(), expected, 1e-3 * expected);
}

TEST(StaticsTest, PrescribedCoordinatesStayAndReportTheirReaction) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  Data data(model);
  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  q0(0) = M_PI / 4;
  q0(1) = -M_PI / 6;
  StaticsOptions options;
  options.prescribed = {0, 1};
  const StaticsResult result = solveStatics(model, data, q0, options);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_EQ(result.q(0), q0(0));
  EXPECT_EQ(result.q(1), q0(1));
  // the reactions are the joint torques that hold the pose: applying them, the pose is free
  // equilibrium
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nq);
  tau(0) = result.reactions(0);
  tau(1) = result.reactions(1);
  Eigen::VectorXd R(model.nq);
  staticResidual(model, data, result.q, 0.0, tau, 1.0, R);
  EXPECT_LT(R.norm(), 1e-7);
  EXPECT_GT(result.reactions.norm(), 0.1);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

StrainBasisDesc basisWith(std::array<int, 6> order, BasisFamily family = BasisFamily::Legendre) {
  StrainBasisDesc basis;
  basis.family = family;
  basis.order = order;
  return basis;
}

PointLoadDesc tipLoad(std::array<double, 6> wrench, LoadFrame frame) {
  PointLoadDesc load;
  load.name = "tip";
  load.link = "rod";
  load.abscissa = -1.0;
  load.frame = frame;
  load.wrench = wrench;
  return load;
}

struct RodConstants {
  double L, E, G, A, I, J;
};

RodConstants constantsOf(const RobotDescription& robot) {
  const DivisionDesc& d = robot.links[0].soft().divisions[0];
  const double r = d.section.radius_start;
  const double nu = *d.material.poisson_ratio;
  return {d.length,     d.material.youngs_modulus, d.material.youngs_modulus / (2 * (1 + nu)),
          M_PI * r * r, M_PI * std::pow(r, 4) / 4, M_PI * std::pow(r, 4) / 2};
}

StaticsResult solve(const Model& model) {
  Data data(model);
  StaticsResult result = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  EXPECT_TRUE(result.converged) << result.message;
  return result;
}

SE3 tipPose(const Model& model, const Eigen::VectorXd& q) {
  Data data(model);
  forwardKinematics(model, data, q);
  return linkTipPose(model, data, 0);
}

class EndMomentTest : public ::testing::TestWithParam<int> {};

TEST_P(EndMomentTest, BendsIntoAnArcOfCurvatureMOverEI) {
  // exact at any amplitude: a follower end moment gives a constant curvature, in the span of any
  // basis containing constants (order 0 and higher)
  RobotDescription robot = test::uniformRod(0.4, 0.01, basisWith({-1, GetParam(), -1, -1, -1, -1}));
  robot.gravity = {0, 0, 0};
  const RodConstants c = constantsOf(robot);
  const double kappa = 3.0 / c.L;  // a 3 rad arc
  robot.point_loads = {tipLoad({0, kappa * c.E * c.I, 0, 0, 0, 0}, LoadFrame::Local)};
  const Model model = buildModel(robot);
  const SE3 tip = tipPose(model, solve(model).q);
  // rotation about +y turns x toward -z
  EXPECT_NEAR(tip.p.x(), std::sin(kappa * c.L) / kappa, 1e-9);
  EXPECT_NEAR(tip.p.z(), -(1 - std::cos(kappa * c.L)) / kappa, 1e-9);
  EXPECT_NEAR(tip.p.y(), 0.0, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(BasisOrders, EndMomentTest, ::testing::Values(0, 1, 3));

TEST(StaticsTest, SmallTipLoadMatchesEulerBernoulli) {
  RobotDescription robot = test::uniformRod(0.5, 0.02, basisWith({-1, 3, 3, -1, -1, -1}), 6);
  robot.gravity = {0, 0, 0};
  const RodConstants c = constantsOf(robot);
  const double P =
      1e-4 * c.E * c.I / (c.L * c.L);  // P L^2 / EI = 1e-4: geometric nonlinearity ~1e-8
  robot.point_loads = {tipLoad({0, 0, 0, 0, 0, -P}, LoadFrame::Global)};
  const Model model = buildModel(robot);
  const SE3 tip = tipPose(model, solve(model).q);
  const double expected = P * std::pow(c.L, 3) / (3 * c.E * c.I);
  EXPECT_NEAR(-tip.p.z(), expected, 1e-6 * expected);
}

TEST(StaticsTest, EndTorqueTwistsByMLOverGJ) {
  RobotDescription robot = test::uniformRod(0.3, 0.01, basisWith({0, -1, -1, -1, -1, -1}));
  robot.gravity = {0, 0, 0};
  const RodConstants c = constantsOf(robot);
  const double torque = 2.0 * c.G * c.J / c.L;  // 2 rad of twist: large rotation, still exact
  robot.point_loads = {tipLoad({torque, 0, 0, 0, 0, 0}, LoadFrame::Local)};
  const Model model = buildModel(robot);
  const SE3 tip = tipPose(model, solve(model).q);
  EXPECT_NEAR(std::atan2(tip.R(2, 1), tip.R(1, 1)), torque * c.L / (c.G * c.J), 1e-9);
  EXPECT_NEAR(tip.p.x(), c.L, 1e-12);
}

TEST(StaticsTest, AxialForceStretchesByFOverEA) {
  RobotDescription robot = test::uniformRod(0.3, 0.01, basisWith({-1, -1, -1, 0, -1, -1}));
  robot.gravity = {0, 0, 0};
  const RodConstants c = constantsOf(robot);
  const double force = 0.2 * c.E * c.A;  // 20 % strain
  robot.point_loads = {tipLoad({0, 0, 0, force, 0, 0}, LoadFrame::Local)};
  const Model model = buildModel(robot);
  const SE3 tip = tipPose(model, solve(model).q);
  EXPECT_NEAR(tip.p.x(), c.L * (1 + force / (c.E * c.A)), 1e-12);
}

TEST(StaticsTest, StraightCableBendsTowardItselfAndShortens) {
  // docs/theory/gvs.md (O9): a cable at d = r z with tension T gives kappa_y = -T r / EI and axial
  // strain -T / EA exactly; the rod curves toward +z, the cable's side
  RobotDescription robot = test::uniformRod(0.4, 0.02, basisWith({-1, 1, -1, 0, -1, -1}));
  robot.gravity = {0, 0, 0};
  const RodConstants c = constantsOf(robot);
  const double r = 0.015, T = 5.0;
  CableDesc cable;
  cable.name = "cable";
  cable.link = "rod";
  cable.path = {CableSegmentDesc{0, {0.0}, {r}}};
  cable.tension = TimeFunction::constant(T);
  robot.cables = {cable};
  const Model model = buildModel(robot);
  const SE3 tip = tipPose(model, solve(model).q);
  const double kappa = -T * r / (c.E * c.I), stretch = 1 - T / (c.E * c.A);
  EXPECT_GT(tip.p.z(), 0.01);
  EXPECT_NEAR(tip.p.x(), stretch * std::sin(kappa * c.L) / kappa, 1e-10);
  EXPECT_NEAR(tip.p.z(), -stretch * (1 - std::cos(kappa * c.L)) / kappa, 1e-10);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

// a free-floating robot has no static equilibrium to find: the failure names a coordinate that
// nothing holds, instead of a bare "did not converge"
TEST(StaticsTest, FloatingBaseFailsNamingTheUnrestrainedCoordinate) {
  const Model model = buildModel(test::example("underwater_robot"));
  Data data(model);
  const StaticsResult result = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  EXPECT_FALSE(result.converged);
  EXPECT_NE(result.message.find("singular"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("body/joint/"), std::string::npos) << result.message;
}

// a cancel already requested stops both solvers before their first iteration, without a result
// that claims convergence, and says why
TEST(StaticsTest, CancelStopsTheSolveAndSaysSo) {
  for (const RobotDescription& robot :
       {test::example("soft_cantilever"), test::example("parallel_robot")}) {
    const Model model = buildModel(robot);
    Data data(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
    std::atomic<bool> cancel{true};
    StaticsOptions options;
    options.cancel = &cancel;
    const StaticsResult cancelled = solveStatics(model, data, zero, options);
    EXPECT_FALSE(cancelled.converged) << robot.name;
    EXPECT_EQ(cancelled.iterations, 0) << robot.name;
    EXPECT_NE(cancelled.message.find("cancelled"), std::string::npos) << cancelled.message;
    cancel = false;  // the same options, not cancelled, converge
    EXPECT_TRUE(solveStatics(model, data, zero, options).converged) << robot.name;
  }
}

}  // namespace
}  // namespace tendril
