// Tests for core/algorithm/controller.cpp and core/sim/controllers.cpp: each law against the
// closed form of its closed loop, saturation, zero-order hold, bad input and divergence.

#include "core/algorithm/controller.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/controller_checks.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::criticallyDampedError;
using test::cubic;
using test::kKd;
using test::kKp;
using test::sine;
using test::tightBdf;

using test::rigidLink;

// prefix + i + suffix (appended, not "a" + std::to_string(i): GCC 12 warns a false -Wrestrict
// on that at -O3)
std::string indexed(const char* prefix, std::size_t i, const char* suffix = "") {
  std::string name(prefix);
  name += std::to_string(i);
  name += suffix;
  return name;
}

// three revolute links (two pitch axes, one roll) under gravity, each joint driven by a named
// force input "m<i>"
RobotDescription threeJointArm() {
  RobotDescription robot;
  robot.name = "arm";
  robot.links = {rigidLink("l0", "world", JointType::Revolute, {0, 1, 0}),
                 rigidLink("l1", "l0", JointType::Revolute, {0, 1, 0}),
                 rigidLink("l2", "l1", JointType::Revolute, {1, 0, 0})};
  for (int i = 0; i < 3; ++i) {
    JointInputDesc input;
    input.name = indexed("m", i);
    input.link = indexed("l", i);
    input.value = TimeFunction::constant(5.0);  // replaced by the controller
    robot.joint_inputs.push_back(input);
  }
  return robot;
}

// a controller of the arm's joints (the first n) with gains kp, kd and the given set-points
ControllerDesc armController(ControllerDesc::Type type, const std::vector<TimeFunction>& setpoints,
                             double kp = kKp, double kd = kKd) {
  ControllerDesc controller;
  controller.name = "ctl";
  controller.type = type;
  for (std::size_t i = 0; i < setpoints.size(); ++i) {
    controller.controlled.push_back(
        {ControlledVariableDesc::Kind::Coordinate, indexed("l", i, "/joint/0"), setpoints[i]});
    controller.inputs.push_back({indexed("m", i), std::nullopt, std::nullopt});
  }
  controller.kp = {kp};
  controller.kd = {kd};
  return controller;
}

SimulationOptions rk4(double t_end, double step = 1e-3) {
  SimulationOptions options;
  options.integrator = IntegratorKind::Rk4;
  options.t_end = t_end;
  options.step = step;
  options.output_interval = 0.01;
  return options;
}

// smooth set-points: a jump of y_d'' (a cubic's ends) on an RK4 stage would cost O(h) there
TEST(ControllerTest, ComputedTorqueErrorObeysTheLinearClosedLoopExactly) {
  RobotDescription robot = threeJointArm();
  robot.controllers = {
      armController(ControllerDesc::Type::ComputedTorque,
                    {sine(0.6, 0.5, 0.3), sine(-0.4, 0.8, 0.0), TimeFunction::constant(0.3)})};
  const Model model = buildModel(robot);
  const Eigen::Vector3d q0(0.2, -0.1, 0.0);
  const SimulationResult run = simulate(model, q0, Eigen::VectorXd::Zero(3), rk4(1.5));
  ASSERT_TRUE(run.completed) << run.message;
  double worst = 0.0;
  for (const Sample& sample : run.samples) {
    ASSERT_EQ(sample.control.setpoints.size(), 3);
    for (int i = 0; i < 3; ++i) {
      const TimeFunction& setpoint = model.controllers[0].variables[i].setpoint;
      const double e0 = setpoint(0.0) - q0(i), e0_rate = setpoint.derivative(0.0, 1);
      const double expected = criticallyDampedError(e0, e0_rate, 10.0, sample.t);
      const double actual = sample.control.setpoints(i) - sample.control.values(i);
      worst = std::max(worst, std::abs(actual - expected));
    }
  }
  // RK4 at 1 ms on a 10 rad/s loop: a local error of (10 h)^5 / 120 ~ 1e-12 per step
  EXPECT_LT(worst, 1e-9);
}

TEST(ControllerTest, PdWithGravityCompensationOnOneJointFollowsItsLinearOscillator) {
  RobotDescription robot = threeJointArm();
  robot.links.resize(1);
  robot.joint_inputs.resize(1);
  const double kp = 2.0, kd = 0.1, q_d = 0.6;
  robot.controllers = {armController(ControllerDesc::Type::PdGravityCompensation,
                                     {TimeFunction::constant(q_d)}, kp, kd)};
  const Model model = buildModel(robot);
  // one revolute joint: M is the constant inertia I about the axis, and the cancelled gravity
  // leaves I e'' + K_D e' + K_P e = 0
  Data data(model);
  massMatrix(model, data, Eigen::VectorXd::Zero(1));
  const double inertia = data.M(0, 0);
  const double sigma = kd / (2.0 * inertia), wd = std::sqrt(kp / inertia - sigma * sigma);
  const SimulationResult run =
      simulate(model, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), rk4(2.0, 5e-4));
  ASSERT_TRUE(run.completed) << run.message;
  double worst = 0.0;
  for (const Sample& sample : run.samples) {
    const double t = sample.t;
    const double expected =
        std::exp(-sigma * t) * q_d * (std::cos(wd * t) + sigma / wd * std::sin(wd * t));
    worst = std::max(worst, std::abs(q_d - sample.q(0) - expected));
  }
  EXPECT_LT(worst, 1e-9);
}

TEST(ControllerTest, PdWithGravityCompensationDrivesTheArmToRestAtItsSetPoint) {
  RobotDescription robot = threeJointArm();
  const Eigen::Vector3d q_d(0.7, -0.4, 0.5);
  robot.controllers = {
      armController(ControllerDesc::Type::PdGravityCompensation,
                    {TimeFunction::constant(q_d(0)), TimeFunction::constant(q_d(1)),
                     TimeFunction::constant(q_d(2))},
                    2.0, 0.3)};
  const Model model = buildModel(robot);
  const SimulationResult run =
      simulate(model, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), rk4(20.0));
  ASSERT_TRUE(run.completed) << run.message;
  // V = 1/2 v^T M v + 1/2 e^T K_P e has V' = -v^T K_D v <= 0 under exact cancellation
  Data data(model);
  double previous = std::numeric_limits<double>::infinity();
  for (const Sample& sample : run.samples) {
    massMatrix(model, data, sample.q);
    const Eigen::Vector3d e = q_d - sample.q;
    const double V = 0.5 * sample.v.dot(data.M * sample.v) + 0.5 * 2.0 * e.squaredNorm();
    EXPECT_LE(V, previous + 1e-12) << "t = " << sample.t;
    previous = V;
  }
  EXPECT_LT((q_d - run.samples.back().q).norm(), 1e-4);
  EXPECT_LT(run.samples.back().v.norm(), 1e-3);
}

// a rod hanging along gravity, bending in two planes (two modes each) and stretching, with three
// tendons at 120 degrees: 5 coordinates, 3 inputs (underactuated by 2)
RobotDescription tendonRod() {
  StrainBasisDesc basis;
  basis.order = {-1, 1, 1, 0, -1, -1};
  RobotDescription robot = test::uniformRod(0.3, 0.02, basis, 5);
  robot.gravity = {9.81, 0.0, 0.0};
  robot.links[0].soft().divisions[0].material.damping = 50.0;
  for (int k = 0; k < 3; ++k) {
    const double angle = 2.0 * M_PI * k / 3.0;
    CableDesc cable;
    cable.name = indexed("c", k);
    cable.link = "rod";
    cable.path = {{0, {0.012 * std::cos(angle)}, {0.012 * std::sin(angle)}}};
    robot.cables.push_back(cable);
  }
  return robot;
}

ControllerDesc tendonLengthController(const Model& model, double from_shortening,
                                      double to_shortening) {
  ControllerDesc controller;
  controller.name = "pfbl";
  controller.type = ControllerDesc::Type::CollocatedPfbl;
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(model.nq);
  for (int k = 0; k < 3; ++k) {
    const double l0 = cableLength(model.cables[k], rest);
    controller.controlled.push_back(
        {ControlledVariableDesc::Kind::CableLength, indexed("c", k),
         cubic(l0 - from_shortening, l0 - to_shortening * (1.0 + 0.5 * k), 0.0, 0.5)});
    controller.inputs.push_back({indexed("c", k), std::nullopt, std::nullopt});
  }
  controller.kp = {kKp};
  controller.kd = {kKd};
  return controller;
}

TEST(ControllerTest, CollocatedPfblMakesTendonLengthsTrackACubicWithLinearErrorDynamics) {
  RobotDescription robot = tendonRod();
  const Model uncontrolled = buildModel(robot);
  robot.controllers = {tendonLengthController(uncontrolled, 1e-3, 3e-3)};
  const Model model = buildModel(robot);
  const SimulationResult run = simulate(model, Eigen::VectorXd::Zero(model.nq),
                                        Eigen::VectorXd::Zero(model.nv), tightBdf(0.8));
  ASSERT_TRUE(run.completed) << run.message;
  double worst = 0.0;
  for (const Sample& sample : run.samples) {
    ASSERT_EQ(sample.control.values.size(), 3);
    for (int k = 0; k < 3; ++k) {
      // y(0) = l0 and y_d(0) = l0 - 1e-3: e0 = -1e-3, e0' = 0
      const double expected = criticallyDampedError(-1e-3, 0.0, 10.0, sample.t);
      const double actual = sample.control.setpoints(k) - sample.control.values(k);
      worst = std::max(worst, std::abs(actual - expected));
      EXPECT_GT(sample.control.inputs(k), 0.0) << "the law must stay unsaturated to be exact";
    }
  }
  // BDF's global error stays within about 100 rtol of the 0.3 m lengths
  EXPECT_LT(worst, 1e-8);
}

TEST(ControllerTest, CableLengthCurvatureIsTheSecondDerivativeAlongTheVelocity) {
  const Model model = buildModel(tendonRod());
  const test::State state = test::randomState(model, 7, 0.5);
  const CompiledCable& cable = model.cables[1];
  // d^2/ds^2 l(q + s v) at s = 0
  const double h = 1e-4;
  const double expected =
      (cableLength(cable, state.q + h * state.v) - 2.0 * cableLength(cable, state.q) +
       cableLength(cable, state.q - h * state.v)) /
      (h * h);
  EXPECT_NEAR(cableLengthCurvature(cable, state.q, state.v), expected,
              1e-6 * std::max(1.0, std::abs(expected)));
}

TEST(ControllerTest, TendonsOnlyPullAndJointInputsStayWithinTheirLimits) {
  RobotDescription robot = tendonRod();
  const Model uncontrolled = buildModel(robot);
  robot.controllers = {tendonLengthController(uncontrolled, -2e-3, -2e-3)};  // lengthen: push
  const Model model = buildModel(robot);
  const SimulationResult run = simulate(model, Eigen::VectorXd::Zero(model.nq),
                                        Eigen::VectorXd::Zero(model.nv), tightBdf(0.2));
  ASSERT_TRUE(run.completed) << run.message;
  double lowest = std::numeric_limits<double>::infinity();
  for (const Sample& sample : run.samples)
    lowest = std::min(lowest, sample.control.inputs.minCoeff());
  EXPECT_EQ(lowest, 0.0);  // saturated at 0, never below

  RobotDescription arm = threeJointArm();
  arm.controllers = {armController(
      ControllerDesc::Type::PdGravityCompensation,
      {TimeFunction::constant(1.0), TimeFunction::constant(1.0), TimeFunction::constant(1.0)})};
  for (ControllerInputDesc& input : arm.controllers[0].inputs) {
    input.min = -1.5;
    input.max = 1.5;
  }
  const Model arm_model = buildModel(arm);
  const SimulationResult arm_run =
      simulate(arm_model, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), rk4(0.5));
  ASSERT_TRUE(arm_run.completed) << arm_run.message;
  double largest = 0.0;
  for (const Sample& sample : arm_run.samples)
    largest = std::max(largest, sample.control.inputs.cwiseAbs().maxCoeff());
  EXPECT_EQ(largest, 1.5);
}

TEST(ControllerTest, ASampledControllerHoldsItsInputsBetweenSampleInstants) {
  RobotDescription robot = threeJointArm();
  robot.controllers = {armController(
      ControllerDesc::Type::PdGravityCompensation,
      {cubic(0.0, 0.8, 0.0, 0.5), TimeFunction::constant(-0.3), TimeFunction::constant(0.2)}, 0.5,
      0.02)};
  // gains soft enough for a 50 ms hold on the light roll joint (K_D T / I ~ 0.5)
  robot.controllers[0].sample_period = 0.05;
  const Model model = buildModel(robot);
  for (const IntegratorKind integrator : {IntegratorKind::Rk4, IntegratorKind::Bdf}) {
    SimulationOptions options = integrator == IntegratorKind::Rk4 ? rk4(0.3) : tightBdf(0.3);
    options.relative_tolerance = 1e-6;  // every held input is a jump of the right-hand side
    options.absolute_tolerance = 1e-8;
    const SimulationResult run =
        simulate(model, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), options);
    ASSERT_TRUE(run.completed) << run.message;
    Data data(model);
    ControllerWorkspace workspace(model, model.controllers[0]);
    Eigen::VectorXd u(3);
    for (const Sample& sample : run.samples) {
      const long k = std::lround(std::floor(sample.t / 0.05 + 1e-9));
      const Sample& held_from = run.samples[static_cast<std::size_t>(k * 5)];  // t = k T
      // within a period the inputs are those computed at its start, from the state there
      EXPECT_EQ(sample.control.inputs, held_from.control.inputs) << "t = " << sample.t;
      controllerInputs(model, data, model.controllers[0], workspace, held_from.t, held_from.q,
                       held_from.v, u);
      EXPECT_LT((u - held_from.control.inputs).norm(), 1e-12) << "t = " << sample.t;
    }
    EXPECT_NE(run.samples[4].control.inputs, run.samples[5].control.inputs);
  }
}

TEST(ControllerTest, AbsurdGainsStopTheRunWithTheTimeReachedAndKeepTheFrames) {
  RobotDescription robot = threeJointArm();
  TimeFunction step;
  step.kind = TimeFunction::Kind::Ramp;
  step.value = 0.5;
  step.start = 0.05;
  step.duration = 0.0;
  robot.controllers = {
      armController(ControllerDesc::Type::ComputedTorque,
                    {step, TimeFunction::constant(0.0), TimeFunction::constant(0.0)}, 4e7, 0.0)};
  const Model model = buildModel(robot);
  const SimulationResult run =
      simulate(model, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), rk4(2.0));
  EXPECT_FALSE(run.completed);
  ASSERT_GE(run.samples.size(), 2u);
  const double reached = run.samples.back().t;
  EXPECT_LT(reached, 2.0);
  std::ostringstream expected;
  expected << "diverged after t = " << reached << " s";
  EXPECT_THAT(run.message, ::testing::HasSubstr(expected.str()));
  for (const Sample& sample : run.samples) EXPECT_TRUE(sample.q.allFinite());
}

TEST(ControllerTest, BuildingRejectsUnknownCoordinatesAndComputedTorqueOnSomeCoordinates) {
  RobotDescription robot = threeJointArm();
  robot.controllers = {armController(ControllerDesc::Type::PdGravityCompensation,
                                     {TimeFunction::constant(0.0), TimeFunction::constant(0.0)})};
  robot.controllers[0].controlled[1].name = "l1/joint/3";
  try {
    (void)buildModel(robot);
    FAIL() << "an unknown coordinate must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/1");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("unknown coordinate \"l1/joint/3\""));
    EXPECT_THAT(error.what(), ::testing::HasSubstr("l0/joint/0, l1/joint/0, l2/joint/0"));
  }
  robot.controllers = {armController(ControllerDesc::Type::ComputedTorque,
                                     {TimeFunction::constant(0.0), TimeFunction::constant(0.0)})};
  try {
    (void)buildModel(robot);
    FAIL() << "computed torque on two of three coordinates must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("every coordinate"));
  }
}

TEST(ControllerTest, ControllersRoundTripThroughJsonAndTheWrittenInputsLoseTheirTimeFunctions) {
  RobotDescription robot = threeJointArm();
  robot.controllers = {armController(ControllerDesc::Type::PdGravityCompensation,
                                     {cubic(0.1, 0.4, 0.5, 1.0), TimeFunction::constant(0.0)})};
  robot.controllers[0].inputs[0].max = 3.0;
  robot.controllers[0].kp = {10.0, 20.0};
  robot.controllers[0].sample_period = 0.01;
  EXPECT_EQ(serializeRobot(parseRobot(serializeRobot(robot))), serializeRobot(robot));
  EXPECT_EQ(parseRobot(serializeRobot(robot)).controllers, robot.controllers);
  const Model model = buildModel(robot);
  Eigen::VectorXd tau(3);
  actuationForces(model, Eigen::VectorXd::Zero(3), 0.0, tau);
  EXPECT_EQ(tau, Eigen::Vector3d(0.0, 0.0, 5.0));  // m0, m1 written by the controller
}

TEST(ControllerTest, IdaRefusesControllers) {
  RobotDescription robot = threeJointArm();
  robot.controllers = {armController(
      ControllerDesc::Type::ComputedTorque,
      {TimeFunction::constant(0.0), TimeFunction::constant(0.0), TimeFunction::constant(0.0)})};
  const Model model = buildModel(robot);
  const auto reason = unsupportedModel(model, IntegratorKind::Ida);
  ASSERT_TRUE(reason.has_value());
  EXPECT_THAT(*reason, ::testing::HasSubstr("does not run controllers"));
}

}  // namespace
}  // namespace tendril
