// Tests for controllers on the model-agnostic family (core/algorithm/controller.cpp with LVP
// tendons, core/sim/controllers.cpp, the closed loop of DynamicsSystem on that family): each law
// against the exact solution of its closed loop on PCC and LVP bodies, the two families against
// each other on models both run, and bad input naming its JSON pointer.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/controller.hpp"
#include "core/algorithm/dynamics_family.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/controllers.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/controller_checks.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::criticallyDampedError;
using test::cubic;
using test::kKd;
using test::kKp;
using test::relativeError;
using test::sine;

SimulationOptions tightAgnosticBdf(double t_end) {
  return test::tightBdf(t_end, DynamicsFamily::ModelAgnostic);
}

SimulationOptions rk4(double t_end, double step, DynamicsFamily family) {
  SimulationOptions options;
  options.integrator = IntegratorKind::Rk4;
  options.family = family;
  options.t_end = t_end;
  options.step = step;
  options.output_interval = 0.01;
  return options;
}

// the set-point error of every recorded variable against the critically damped error from
// the set-point error of every recorded variable against the critically damped error from
// (e0, 0), e0 = y_d(0) - y(q0) for each (a start at rest, set-points at rest at t = 0); the inputs
// must stay unsaturated for the law to be exact
double worstTrackingError(const Model& model, const SimulationResult& run,
                          const Eigen::VectorXd& q0) {
  ControllerWorkspace w(model, model.controllers[0]);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  controlledVariables(model, model.controllers[0], w, q0, zero, false);
  const Eigen::VectorXd y0 = w.y;
  double worst = 0.0;
  for (const Sample& sample : run.samples) {
    for (Eigen::Index k = 0; k < y0.size(); ++k) {
      const double e0 = model.controllers[0].variables[k].setpoint(0.0) - y0(k);
      const double expected = criticallyDampedError(e0, 0.0, 10.0, sample.t);
      const double actual = sample.control.setpoints(k) - sample.control.values(k);
      worst = std::max(worst, std::abs(actual - expected));
      EXPECT_GT(sample.control.inputs(k), 0.0) << "t = " << sample.t << ": saturated";
    }
  }
  return worst;
}

// PFBL of the lengths of the given cables or LVP tendons (at the rest lengths l0: from l0 -
// from_shortening to l0 - to_shortening (1 + k / 2) by a cubic over 0.5 s), each pulled by itself
ControllerDesc lengthPfbl(ControlledVariableDesc::Kind kind, const std::vector<std::string>& names,
                          const Eigen::VectorXd& rest_lengths, double from_shortening,
                          double to_shortening) {
  ControllerDesc controller;
  controller.name = "pfbl";
  controller.type = ControllerDesc::Type::CollocatedPfbl;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const double l0 = rest_lengths(static_cast<Eigen::Index>(k));
    controller.controlled.push_back(
        {kind, names[k],
         cubic(l0 - from_shortening, l0 - to_shortening * (1.0 + 0.5 * k), 0.0, 0.5)});
    controller.inputs.push_back({names[k], std::nullopt, std::nullopt});
  }
  controller.kp = {kKp};
  controller.kd = {kKd};
  return controller;
}

// two Table 4 LVP bodies in series (16 coordinates), two tendons on each from base to tip, 120
// degrees apart: the seed paper's Simulation 1 bodies at a coarse quadrature. Not three: Table 4's
// stretch mode (s - s^2) leaves a base-to-tip length unchanged to first order, so three tendons at
// 120 degrees have lengths of rank 2 (their J M^-1 J^T is singular)
RobotDescription twoLvpBodies() {
  RobotDescription robot = test::lvpTable4Chain({3, 2, 5}, true);
  robot.links.resize(2);
  robot.lvp_tendons = {robot.lvp_tendons[0], robot.lvp_tendons[1], robot.lvp_tendons[3],
                       robot.lvp_tendons[4]};
  return robot;
}

std::vector<std::string> tendonNames(const RobotDescription& robot) {
  std::vector<std::string> names;
  for (const LvpTendonDesc& tendon : robot.lvp_tendons) names.push_back(tendon.name);
  return names;
}

std::vector<std::string> cableNames(const RobotDescription& robot) {
  std::vector<std::string> names;
  for (const CableDesc& cable : robot.cables) names.push_back(cable.name);
  return names;
}

Eigen::VectorXd restCableLengths(const Model& model) {
  Eigen::VectorXd lengths(static_cast<Eigen::Index>(model.cables.size()));
  for (std::size_t c = 0; c < model.cables.size(); ++c)
    lengths(static_cast<Eigen::Index>(c)) =
        cableLength(model.cables[c], Eigen::VectorXd::Zero(model.nq));
  return lengths;
}

// (a) the nine-tendon helicoid's law on two of its bodies: y'' = a makes e follow the linear
// closed loop, with J-dot v of the tendon lengths from the central difference of dl/dq
TEST(AgnosticController, PfblMakesLvpTendonLengthsFollowTheLinearClosedLoop) {
  RobotDescription robot = twoLvpBodies();
  const Model uncontrolled = buildModel(robot);
  Data data(uncontrolled);
  Eigen::VectorXd lengths(4);
  Eigen::MatrixXd gradients(uncontrolled.nv, 4);
  lvpTendonLengths(uncontrolled, data, Eigen::VectorXd::Zero(uncontrolled.nq), lengths, gradients);
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::TendonLength, tendonNames(robot),
                                  lengths, 1e-3, 2e-3)};
  const Model model = buildModel(robot);
  ASSERT_TRUE(model.agnostic_only);
  const SimulationResult run = simulate(model, Eigen::VectorXd::Zero(model.nq),
                                        Eigen::VectorXd::Zero(model.nv), tightAgnosticBdf(0.6));
  ASSERT_TRUE(run.completed) << run.message;
  EXPECT_EQ(run.family, DynamicsFamily::ModelAgnostic);
  // BDF at rtol 1e-10 on 0.1 m lengths; the curvature's difference adds ~1e-11 relative
  EXPECT_LT(worstTrackingError(model, run, Eigen::VectorXd::Zero(model.nq)), 1e-8);
}

// (a) the same law on the six cable lengths of the spatial PCC arm (the bundled
// pcc_controlled_arm, agnostic family), started stretched away from its set-points
TEST(AgnosticController, PfblMakesPccCableLengthsFollowTheLinearClosedLoop) {
  const Model model = buildModel(test::example("pcc_controlled_arm"));
  ASSERT_EQ(model.nq, 6);
  Eigen::VectorXd q0(6);
  q0 << 0.0, 0.0, 0.002, 0.0, 0.0, 0.001;  // (theta_y, theta_z, delta) per segment: stretched
  const SimulationResult run =
      simulate(model, q0, Eigen::VectorXd::Zero(model.nv), tightAgnosticBdf(2.5));
  ASSERT_TRUE(run.completed) << run.message;
  EXPECT_EQ(run.family, DynamicsFamily::ModelAgnostic);
  EXPECT_LT(worstTrackingError(model, run, q0), 1e-8);
}

// the bundled single LVP body with its cavity's pressure written by a PFBL on the body's source
// coordinate (the cavity's inflation), from rest to `inflation` by a cubic over 0.5 s; its tendon
// keeps pulling open loop
RobotDescription cavityInflatedByItsPressure(double inflation) {
  RobotDescription robot = test::example("lvp_single_body");
  ControllerDesc controller;
  controller.name = "inflate";
  controller.type = ControllerDesc::Type::CollocatedPfbl;
  controller.controlled = {{ControlledVariableDesc::Kind::Coordinate, "body/lvp/source/0",
                            cubic(0.0, inflation, 0.0, 0.5)}};
  controller.inputs = {{"chamber", std::nullopt, std::nullopt}};
  controller.kp = {kKp};
  controller.kd = {kKd};
  robot.controllers = {controller};
  return robot;
}

// (a) with a pressure as the input, B's column is the cavity's dV/dq: y'' = a holds exactly only
// if it is the pressure's generalised force, so the error follows the linear closed loop
TEST(AgnosticController, PfblInflatesAnLvpCavityThroughItsPressureAlongTheLinearClosedLoop) {
  const Model model = buildModel(cavityInflatedByItsPressure(1e-5));
  ASSERT_TRUE(model.cavity_pressures[0].controlled);
  EXPECT_EQ(model.controllers[0].inputs[0].kind, CompiledController::Input::Kind::CavityPressure);
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  const SimulationResult run =
      simulate(model, q0, Eigen::VectorXd::Zero(model.nv), tightAgnosticBdf(0.6));
  ASSERT_TRUE(run.completed) << run.message;
  EXPECT_LT(worstTrackingError(model, run, q0), 1e-8);
}

// a written pressure drops its time function from the model's own inputs, the others stay; the
// force the controller adds for a pressure p is applyInputs()' for p in that cavity
TEST(AgnosticController, ControlledPressureLosesItsTimeFunctionAndActsThroughTheVolumeGradient) {
  const Model model = buildModel(cavityInflatedByItsPressure(1e-5));
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q(0) = 0.05, q(8) = 4e-6;  // stretched and inflated
  const double t = 1.5;      // the pressure's own ramp is half-way (10 kPa)
  modelAgnosticID(model, data, q, zero, zero, t);
  const Eigen::VectorXd Bu = data.agnostic.Bu;
  Eigen::VectorXd u = inputValues(model, t);
  ASSERT_GT(u(1), 0.0);
  u(1) = 0.0;
  Eigen::VectorXd expected(model.nv);
  applyInputs(model, data, q, u, expected);
  EXPECT_LT((Bu - expected).norm(), 1e-12 * expected.norm());

  ControllerWorkspace w(model, model.controllers[0]);
  controllerTendonsAt(model, w, q);
  Eigen::VectorXd controlled = Eigen::VectorXd::Zero(model.nv), applied(model.nv);
  addControllerForces(model, model.controllers[0], w, q, Eigen::VectorXd::Constant(1, 2e4),
                      controlled);
  applyInputs(model, data, q, Eigen::Vector2d(0.0, 2e4), applied);
  EXPECT_GT(applied.norm(), 0.0);
  EXPECT_LT((controlled - applied).norm(), 1e-12 * applied.norm());
}

// a pressure is an input name like the others: unique among them, and found by controllers
TEST(AgnosticController, PressureNamesAreUniqueAmongTheInputs) {
  RobotDescription robot = cavityInflatedByItsPressure(1e-5);
  robot.cavity_pressures[0].name = "tendon_x";
  robot.controllers[0].inputs[0].name = "tendon_x";
  try {
    (void)buildModel(robot);
    FAIL() << "a pressure named like a tendon must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/cavity_pressures/0/name");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("also names /lvp_tendons/0/name"));
  }
  robot = cavityInflatedByItsPressure(1e-5);
  robot.controllers[0].inputs[0].name = "vent";
  try {
    (void)buildModel(robot);
    FAIL() << "an unknown input must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/inputs/0");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("or a cavity pressure"));
  }
}

// the tendon lengths' J-dot v (a central difference of dl/dq along v) against the second
// difference of l(q + s v) at a coarser step
TEST(AgnosticController, TendonLengthCurvatureIsTheSecondDerivativeAlongTheVelocity) {
  RobotDescription robot = twoLvpBodies();
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::TendonLength, tendonNames(robot),
                                  Eigen::VectorXd::Constant(4, 0.1), 0.0, 0.0)};
  const Model model = buildModel(robot);
  const test::State state = test::randomState(model, 11, 0.2);
  Data data(model);
  ControllerWorkspace w(model, model.controllers[0]);
  controlledVariables(model, model.controllers[0], w, state.q, state.v, true);
  const double h = 1e-4;
  for (int k = 0; k < 4; ++k) {
    const auto length = [&](double s) {
      return lvpTendonLength(model, data, k, state.q + s * state.v);
    };
    const double expected = (length(h) - 2.0 * length(0.0) + length(-h)) / (h * h);
    // the second difference's truncation (h^2 l'''') and rounding (1e-16 l / h^2 ~ 1e-9)
    EXPECT_NEAR(w.y_curvature(k), expected, 1e-6 * std::max(1.0, std::abs(expected))) << k;
    EXPECT_NE(w.y_curvature(k), 0.0);
  }
}

// The closed loop's central differences reuse the unmoved bodies' evaluations in the law's MID
// (and its tendon lengths are evaluated apart, so the shifted states of J-dot v do not spoil that):
// both Jacobians equal the same differences taken on fresh workspaces, to the last bit
TEST(AgnosticController, ClosedLoopDifferencesEqualThoseOfFreshEvaluations) {
  RobotDescription robot = twoLvpBodies();
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::TendonLength, tendonNames(robot),
                                  Eigen::VectorXd::Constant(4, 0.1), 0.0, 2e-3)};
  const Model model = buildModel(robot);
  const test::State x = test::randomState(model, 5, 0.2);
  const double t = 0.2, h = 1e-6;  // DynamicsSystem's step
  DynamicsSystem system(model, std::make_unique<FiniteDifferenceJacobian>());
  Eigen::MatrixXd dqdd_dq, dqdd_dv;
  system.jacobian(t, x.q, x.v, dqdd_dq, dqdd_dv);
  ForceSpaceBlocks blocks;
  system.acceleration(t, x.q, x.v);  // the controllers' forces there, as CVODE leaves them
  ASSERT_TRUE(system.forceSpaceJacobian(t, x.q, x.v, blocks));
  const Eigen::VectorXd qdd = system.data().qdd;  // the balance's fixed acceleration

  DynamicsSystem fresh(model, std::make_unique<FiniteDifferenceJacobian>());
  Data data(model);
  ControllerLoop laws(model);
  const auto balance = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    Eigen::VectorXd r = -modelAgnosticID(model, data, q, v, qdd, t);
    laws.addForces(t, q, v, r);
    return r;
  };
  Eigen::VectorXd q = x.q, v = x.v;
  for (int moved = 0; moved < 2; ++moved) {
    Eigen::VectorXd& y = moved == 0 ? q : v;
    for (int i = 0; i < model.nv; ++i) {
      SCOPED_TRACE((moved == 0 ? "q " : "v ") + std::to_string(i));
      const double base = y(i);
      y(i) = base + h;
      const Eigen::VectorXd qdd_plus = fresh.acceleration(t, q, v), r_plus = balance(q, v);
      y(i) = base - h;
      const Eigen::VectorXd qdd_minus = fresh.acceleration(t, q, v), r_minus = balance(q, v);
      y(i) = base;
      const Eigen::VectorXd d_qdd = (qdd_plus - qdd_minus) / (2.0 * h);
      const Eigen::VectorXd d_r = (r_plus - r_minus) / (2.0 * h);
      EXPECT_EQ(Eigen::VectorXd((moved == 0 ? dqdd_dq : dqdd_dv).col(i)), d_qdd);
      EXPECT_EQ(Eigen::VectorXd((moved == 0 ? blocks.dr_dq : blocks.dr_dv).col(i)), d_r);
    }
  }
}

// a planar PCC arm (three segments, one bending angle each) with one tendon per segment: the side
// whose pull bends the segment to positive theta (B(theta, cable) > 0)
struct PlanarArm {
  RobotDescription robot;
  std::vector<std::string> coordinates, cables;
};

PlanarArm planarPccArm() {
  PlanarArm arm{test::example("pcc_planar_arm"), {}, {}};
  const Model model = buildModel(arm.robot);
  Eigen::VectorXd column = Eigen::VectorXd::Zero(model.nv);
  for (int segment = 0; segment < 3; ++segment) {
    arm.coordinates.push_back(model.coordinate_names[segment]);
    for (std::size_t c = 0; c < model.cables.size(); ++c) {
      column.setZero();
      addCableForces(model.cables[c], Eigen::VectorXd::Zero(model.nq), 1.0, column);
      if (column(segment) > 0.0) {
        arm.cables.push_back(model.cables[c].name);
        break;
      }
    }
  }
  return arm;
}

ControllerDesc coordinateController(const PlanarArm& arm, ControllerDesc::Type type,
                                    const std::vector<TimeFunction>& setpoints, double kp,
                                    double kd) {
  ControllerDesc controller;
  controller.name = "ctl";
  controller.type = type;
  for (std::size_t k = 0; k < setpoints.size(); ++k) {
    controller.controlled.push_back(
        {ControlledVariableDesc::Kind::Coordinate, arm.coordinates[k], setpoints[k]});
    controller.inputs.push_back({arm.cables[k], std::nullopt, std::nullopt});
  }
  controller.kp = {kp};
  controller.kd = {kd};
  return controller;
}

// (b) PD with gravity and elastic cancellation: at the set-point at rest the closed loop is in
// equilibrium (u = A^-1 n(q_d, 0)), and a run from the straight arm settles there
TEST(AgnosticController, PdWithGravityAndElasticCancellationHoldsAPccArmAtItsSetPoint) {
  PlanarArm arm = planarPccArm();
  ASSERT_EQ(arm.cables.size(), 3u);
  const Eigen::Vector3d q_d(0.4, 0.3, 0.5);
  arm.robot.controllers = {
      coordinateController(arm, ControllerDesc::Type::PdGravityCompensation,
                           {TimeFunction::constant(q_d(0)), TimeFunction::constant(q_d(1)),
                            TimeFunction::constant(q_d(2))},
                           2.0, 1.0)};
  const Model model = buildModel(arm.robot);
  ASSERT_EQ(model.nq, 3);
  DynamicsSystem system(model, makeJacobian(JacobianKind::Analytic), DynamicsFamily::ModelAgnostic);
  const Eigen::VectorXd qdd = system.acceleration(0.0, q_d, Eigen::VectorXd::Zero(3));
  // the accelerations of gravity and elasticity alone, for scale
  EXPECT_LT(qdd.norm(), 1e-10);

  const SimulationResult run =
      simulate(model, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3), tightAgnosticBdf(10.0));
  ASSERT_TRUE(run.completed) << run.message;
  EXPECT_LT((run.samples.back().q - q_d).norm(), 1e-6);
  for (const Sample& sample : run.samples)
    EXPECT_GT(sample.control.inputs.minCoeff(), 0.0) << "t = " << sample.t;
}

// (c) computed torque on the planar PCC arm (every coordinate driven by its tendon): qdd = a, so
// each error follows e'' + K_D e' + K_P e = 0 exactly
TEST(AgnosticController, ComputedTorqueOnAPccArmGivesTheExactLinearErrorDynamics) {
  PlanarArm arm = planarPccArm();
  arm.robot.controllers = {coordinateController(
      arm, ControllerDesc::Type::ComputedTorque,
      {sine(0.1, 0.5, 0.5), sine(-0.1, 0.8, 0.4), TimeFunction::constant(0.3)}, kKp, kKd)};
  const Model model = buildModel(arm.robot);
  const Eigen::Vector3d q0(0.45, 0.35, 0.25);
  const SimulationResult run =
      simulate(model, q0, Eigen::VectorXd::Zero(3), rk4(1.5, 1e-3, DynamicsFamily::ModelAgnostic));
  ASSERT_TRUE(run.completed) << run.message;
  EXPECT_EQ(run.family, DynamicsFamily::ModelAgnostic);
  double worst = 0.0;
  for (const Sample& sample : run.samples) {
    for (int i = 0; i < 3; ++i) {
      const TimeFunction& setpoint = model.controllers[0].variables[i].setpoint;
      const double e0 = setpoint(0.0) - q0(i), e0_rate = setpoint.derivative(0.0, 1);
      const double expected = criticallyDampedError(e0, e0_rate, 10.0, sample.t);
      worst = std::max(worst,
                       std::abs(sample.control.setpoints(i) - sample.control.values(i) - expected));
      EXPECT_GT(sample.control.inputs(i), 0.0) << "t = " << sample.t << ": saturated";
    }
  }
  // RK4 at 1 ms on a 10 rad/s loop: a local error of (10 h)^5 / 120 ~ 1e-12 per step
  EXPECT_LT(worst, 1e-9);
}

// a PFBL evaluated at the state of the acceleration lends it M and n (no second MID pass): the
// closed-loop acceleration and its differenced Jacobian equal the engine's, which forms its own
TEST(AgnosticController, ClosedLoopAccelerationAndJacobianMatchTheEngine) {
  RobotDescription robot = test::example("pcc_spatial_arm");
  const Model uncontrolled = buildModel(robot);
  std::vector<std::string> four = cableNames(robot);
  four.resize(4);  // underactuated: two tendons keep their time functions
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::CableLength, four,
                                  restCableLengths(uncontrolled), 1e-3, 2e-3)};
  const Model model = buildModel(robot);
  DynamicsSystem engine(model, makeJacobian(JacobianKind::Analytic), DynamicsFamily::Engine);
  DynamicsSystem agnostic(model, makeJacobian(JacobianKind::Analytic),
                          DynamicsFamily::ModelAgnostic);
  for (unsigned seed : {3u, 4u}) {
    const test::State s = test::randomState(model, seed, 0.3);
    const double t = 0.3 + 0.4 * seed;  // the uncontrolled tendons ramping
    const Eigen::VectorXd qdd_engine = engine.acceleration(t, s.q, s.v);
    const Eigen::VectorXd qdd_agnostic = agnostic.acceleration(t, s.q, s.v);
    EXPECT_LT(relativeError(qdd_agnostic, qdd_engine), 1e-10) << "seed " << seed;
    Eigen::MatrixXd dq_engine, dv_engine, dq_agnostic, dv_agnostic;
    engine.jacobian(t, s.q, s.v, dq_engine, dv_engine);
    agnostic.jacobian(t, s.q, s.v, dq_agnostic, dv_agnostic);
    EXPECT_LT(relativeError(dq_agnostic, dq_engine), 1e-6) << "seed " << seed;
    EXPECT_LT(relativeError(dv_agnostic, dv_engine), 1e-6) << "seed " << seed;
  }
}

// (d) the bundled computed-torque arm on both families: the same run. Both evaluate the same law
// from the same agnostic ID; the plants' accelerations agree to ~1e-12 relative (FamilyAgreement),
// and the critically damped loop does not amplify that over 2.5 s of RK4 steps
TEST(AgnosticController, EngineAndAgnosticFamiliesRunTheControlledArmAlike) {
  const Model model = buildModel(test::example("controlled_arm"));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const SimulationResult engine =
      simulate(model, zero, zero, rk4(2.5, 1e-3, DynamicsFamily::Engine));
  const SimulationResult agnostic =
      simulate(model, zero, zero, rk4(2.5, 1e-3, DynamicsFamily::ModelAgnostic));
  ASSERT_TRUE(engine.completed) << engine.message;
  ASSERT_TRUE(agnostic.completed) << agnostic.message;
  EXPECT_EQ(engine.family, DynamicsFamily::Engine);
  EXPECT_EQ(agnostic.family, DynamicsFamily::ModelAgnostic);
  ASSERT_EQ(engine.samples.size(), agnostic.samples.size());
  double worst_q = 0.0, worst_u = 0.0;
  for (std::size_t k = 0; k < engine.samples.size(); ++k) {
    worst_q =
        std::max(worst_q, (engine.samples[k].q - agnostic.samples[k].q).cwiseAbs().maxCoeff());
    worst_u =
        std::max(worst_u, (engine.samples[k].control.inputs - agnostic.samples[k].control.inputs)
                              .cwiseAbs()
                              .maxCoeff());
  }
  EXPECT_LT(worst_q, 1e-10);  // rad
  EXPECT_LT(worst_u, 1e-8);   // N m, of inputs up to the 40 N m saturation
}

// (e) a controller naming a coordinate or output the agnostic model does not have
TEST(AgnosticController, UnknownCoordinatesAndOutputsOfAnLvpModelNameTheirPointer) {
  RobotDescription robot = twoLvpBodies();
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::TendonLength, {"body0_tendon0"},
                                  Eigen::VectorXd::Constant(1, 0.1), 0.0, 0.0)};
  robot.controllers[0].type = ControllerDesc::Type::PdGravityCompensation;
  robot.controllers[0].controlled[0] = {ControlledVariableDesc::Kind::Coordinate,
                                        "body0/lvp/bend_x9/0", TimeFunction::constant(0.0)};
  try {
    (void)buildModel(robot);
    FAIL() << "an unknown coordinate must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/0");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("unknown coordinate \"body0/lvp/bend_x9/0\""));
  }
  robot.controllers[0].type = ControllerDesc::Type::CollocatedPfbl;
  robot.controllers[0].controlled[0] = {ControlledVariableDesc::Kind::TendonLength, "nowhere",
                                        TimeFunction::constant(0.1)};
  const std::string json = serializeRobot(robot);
  try {
    (void)parseRobot(json);
    FAIL() << "an unknown tendon must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/0/tendon_length");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("unknown LVP tendon \"nowhere\""));
  }
  // a tendon's length under a law that drives coordinates
  robot.controllers[0].type = ControllerDesc::Type::ComputedTorque;
  robot.controllers[0].controlled[0].name = "body0_tendon0";
  try {
    (void)parseRobot(serializeRobot(robot));
    FAIL() << "a tendon length under computed torque must be rejected";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/0/tendon_length");
    EXPECT_THAT(error.what(), ::testing::HasSubstr("only a collocated_pfbl"));
  }
}

// a tendon a controller writes loses its time function in the ID; the law's tension replaces it
TEST(AgnosticController, ControlledTendonsRoundTripAndLoseTheirTimeFunctions) {
  RobotDescription robot = twoLvpBodies();
  robot.controllers = {lengthPfbl(ControlledVariableDesc::Kind::TendonLength, {"body1_tendon1"},
                                  Eigen::VectorXd::Constant(1, 0.1), 0.0, 0.0)};
  EXPECT_EQ(parseRobot(serializeRobot(robot)).controllers, robot.controllers);
  const Model model = buildModel(robot);
  EXPECT_TRUE(model.lvp_tendons[3].controlled);
  EXPECT_FALSE(model.lvp_tendons[2].controlled);
  EXPECT_EQ(model.controllers[0].inputs[0].min, 0.0);  // tendons only pull
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  modelAgnosticID(model, data, zero, zero, zero, 0.0);
  const Eigen::VectorXd Bu = data.agnostic.Bu;
  Eigen::VectorXd u = inputValues(model, 0.0);  // the time functions, 1 N each
  Eigen::VectorXd expected(model.nv);
  u(3) = 0.0;
  applyInputs(model, data, zero, u, expected);
  EXPECT_LT((Bu - expected).norm(), 1e-12 * expected.norm());
}

}  // namespace
}  // namespace tendril
