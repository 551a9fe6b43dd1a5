// Tests for the constrained simulation: closed chains (Baumgarte index-1 for BDF, index-3 Newmark,
// statics) and prescribed coordinates (core/algorithm/constrained_dynamics.cpp,
// core/algorithm/constrained_statics.cpp, core/sim/newmark.cpp).

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/constraints.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/statics.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/closed_chain_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

double mechanical(const Energies& e) {
  return e.kinetic + e.gravitational + e.elastic;
}

struct Start {
  Eigen::VectorXd q, v;
};

// the four-bar assembled at crank angle 1.2 rad, moving along its one free direction
Start fourBarStart(const Model& model, double speed) {
  Start s;
  s.q = Eigen::VectorXd(3);
  s.q << 1.2, -1.4, -1.0;
  EXPECT_LT(test::assemble(model, s.q, /*held=*/0), 1e-13);
  Data data(model);
  ConstraintData cd(model);
  forwardKinematics(model, data, s.q);
  constraintJacobian(model, data, cd);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(cd.A);
  const Eigen::MatrixXd kernel = lu.kernel();
  EXPECT_EQ(kernel.cols(), 1);
  s.v = speed * kernel.col(0) / kernel(0, 0);  // crank speed = `speed`
  return s;
}

double maxConstraintError(const SimulationResult& result) {
  double worst = 0.0;
  for (const Sample& sample : result.samples) worst = std::max(worst, sample.constraint_error);
  return worst;
}

TEST(ConstrainedSimulationTest, FourBarBdfConservesEnergyAndDriftStaysBounded) {
  const Model model = buildModel(test::fourBar());
  const Start start = fourBarStart(model, 6.0);
  SimulationOptions options;
  options.t_end = 10.0;
  options.output_interval = 0.01;
  options.relative_tolerance = 1e-9;
  options.absolute_tolerance = 1e-11;
  const SimulationResult result = simulate(model, start.q, start.v, options);
  ASSERT_TRUE(result.completed) << result.message;
  const double E0 = mechanical(result.samples.front().energy);
  const double scale = result.samples.front().energy.kinetic;
  double worst = 0.0, crank_turns = 0.0;
  for (const Sample& s : result.samples)
    worst = std::max(worst, std::abs(mechanical(s.energy) - E0) / scale);
  crank_turns = std::abs(result.samples.back().q(0) - start.q(0)) / (2.0 * M_PI);
  // no damping: energy kept to the integration tolerance; the crank keeps turning round
  EXPECT_LT(worst, 1e-5);
  EXPECT_GT(crank_turns, 2.0);
  // Baumgarte drift bound over 10 s at these tolerances: |e| < 1e-7 m
  EXPECT_LT(maxConstraintError(result), 1e-7);
}

TEST(ConstrainedSimulationTest, FourBarNewmarkIndexThreeStaysAssembled) {
  const Model model = buildModel(test::fourBar());
  const Start start = fourBarStart(model, 6.0);
  SimulationOptions options;
  options.integrator = IntegratorKind::Newmark;
  options.t_end = 2.0;
  options.step = 1e-3;
  options.output_interval = 0.01;
  options.relative_tolerance = 1e-10;
  options.absolute_tolerance = 1e-10;
  const SimulationResult result = simulate(model, start.q, start.v, options);
  ASSERT_TRUE(result.completed) << result.message;
  // index 3: e(q) is solved for at every step, to the Newton (absolute) tolerance
  EXPECT_LE(maxConstraintError(result), options.absolute_tolerance);
  // trapezoidal Newmark: the energy oscillates at O(h^2) without drift
  const double E0 = mechanical(result.samples.front().energy);
  const double scale = result.samples.front().energy.kinetic;
  for (const Sample& s : result.samples)
    EXPECT_LT(std::abs(mechanical(s.energy) - E0) / scale, 5e-3) << s.t;
  // and it agrees with the BDF run (same trajectory to the step's accuracy)
  SimulationOptions bdf = options;
  bdf.integrator = IntegratorKind::Bdf;
  bdf.step = 0.0;
  const SimulationResult reference = simulate(model, start.q, start.v, bdf);
  ASSERT_TRUE(reference.completed) << reference.message;
  EXPECT_NEAR(result.samples.back().q(0), reference.samples.back().q(0), 1e-2);
}

TEST(ConstrainedSimulationTest, SoftLoopSettlesOnItsStaticEquilibrium) {
  const Model model = buildModel(test::softLoop(/*damping=*/2e3));
  ASSERT_EQ(model.n_constraints, 3);
  Data data(model);
  // statics: e = 0 and the constrained residual vanish at the solution
  const StaticsResult statics = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  ASSERT_TRUE(statics.converged) << statics.message;
  EXPECT_LE(statics.constraint_error, 1e-10);
  const SE3 tip = linkTipPose(model, data, 0);
  forwardKinematics(model, data, statics.q);
  EXPECT_LT((linkTipPose(model, data, 0).p - Eigen::Vector3d(0.3, 0, 0)).norm(), 1e-10);
  (void)tip;
  ConstraintData cd(model);
  constraintJacobian(model, data, cd);
  Eigen::VectorXd R(model.nv);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  actuationForces(model, statics.q, 0.0, R);
  R -= model.K * statics.q;
  R -= inverseDynamics(model, data, statics.q, zero, zero);
  const double load = (model.K * statics.q).norm();
  R += cd.A.transpose() * statics.lambda;
  EXPECT_LT(R.norm(), 1e-9 * load);
  // the pin carries weight: the loop is really closed, and sags less than the free cantilever
  ASSERT_GT(statics.lambda.norm(), 1e-3);
  // dynamics from rest settles there (BDF, Baumgarte)
  SimulationOptions options;
  options.t_end = 3.0;
  options.output_interval = 0.05;
  options.relative_tolerance = 1e-8;
  options.absolute_tolerance = 1e-10;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), options);
  ASSERT_TRUE(result.completed) << result.message;
  EXPECT_LT(maxConstraintError(result), 1e-6);
  EXPECT_LT((result.samples.back().q - statics.q).norm(), 1e-3 * statics.q.norm());
}

// a double pendulum about y whose first joint is prescribed, q_0 = 0.5 sin(2 pi 0.5 t) + 0.2
RobotDescription drivenPendulum() {
  RobotDescription robot;
  robot.links.push_back(test::rigidLink("upper", "world", JointType::Revolute, {0, 1, 0}));
  robot.links.push_back(test::rigidLink("lower", "upper", JointType::Revolute, {0, 1, 0}));
  JointInputDesc drive;
  drive.link = "upper";
  drive.mode = JointInputDesc::Mode::Position;
  drive.value.kind = TimeFunction::Kind::Sine;
  drive.value.amplitude = 0.5;
  drive.value.frequency = 0.5;
  drive.value.offset = 0.2;
  robot.joint_inputs.push_back(drive);
  JointInputDesc push;  // a force input on the free joint as well
  push.link = "lower";
  push.value = TimeFunction::constant(0.3);
  robot.joint_inputs.push_back(push);
  return robot;
}

class JointControlTest : public ::testing::TestWithParam<IntegratorKind> {};

TEST_P(JointControlTest, PrescribedJointFollowsItsFunctionAndEffortMatchesInverseDynamics) {
  const Model model = buildModel(drivenPendulum());
  ASSERT_EQ(model.prescribed.size(), 1u);
  const TimeFunction& f = model.prescribed[0].position;
  SimulationOptions options;
  options.integrator = GetParam();
  options.t_end = 2.0;
  options.step = 1e-3;
  options.output_interval = 0.02;
  options.relative_tolerance = 1e-9;
  options.absolute_tolerance = 1e-11;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(2), options);
  ASSERT_TRUE(result.completed) << result.message;
  Data data(model);
  Eigen::VectorXd tau(2), a(2);
  double largest_effort = 0.0;
  for (const Sample& s : result.samples) {
    EXPECT_EQ(s.q(0), f(s.t));
    EXPECT_EQ(s.v(0), f.derivative(s.t, 1));
    // the free acceleration from its own row, then the effort from the prescribed row
    actuationForces(model, s.q, s.t, tau);
    tau -= model.K * s.q + model.D * s.v;
    a << f.derivative(s.t, 2), 0.0;
    const double bias = inverseDynamics(model, data, s.q, s.v, a)(1);
    a(1) = 1.0;
    const double unit = inverseDynamics(model, data, s.q, s.v, a)(1) - bias;
    a(1) = (tau(1) - bias) / unit;
    const double expected = inverseDynamics(model, data, s.q, s.v, a)(0) - tau(0);
    ASSERT_EQ(s.efforts.size(), 1);
    EXPECT_NEAR(s.efforts(0), expected, 1e-9 * std::max(1.0, std::abs(expected))) << s.t;
    largest_effort = std::max(largest_effort, std::abs(expected));
  }
  EXPECT_GT(largest_effort, 0.1);  // the drive works against gravity
}

INSTANTIATE_TEST_SUITE_P(Integrators, JointControlTest,
                         ::testing::Values(IntegratorKind::Bdf, IntegratorKind::Newmark,
                                           IntegratorKind::ImplicitEuler, IntegratorKind::Rk4,
                                           IntegratorKind::Ida));

TEST(ConstrainedSimulationTest, DrivenFourBarFollowsTheCrank) {
  // joint control and a closed chain together: the crank turns at a prescribed rate
  const RobotDescription robot = test::drivenFourBar(1.2);
  const JointInputDesc& drive = robot.joint_inputs.back();
  const Model model = buildModel(robot);
  // start on the constraint manifold, the crank at its prescribed speed
  const Start start = fourBarStart(model, drive.value.derivative(0.0, 1));
  const Eigen::VectorXd v0 = start.v;
  for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Newmark}) {
    SimulationOptions options;
    options.integrator = kind;
    options.t_end = 2.0;
    options.step = 1e-3;
    options.output_interval = 0.02;
    options.relative_tolerance = 1e-9;
    options.absolute_tolerance = 1e-10;
    const SimulationResult result = simulate(model, start.q, v0, options);
    ASSERT_TRUE(result.completed) << result.message;
    EXPECT_LT(maxConstraintError(result), kind == IntegratorKind::Newmark ? 1e-10 : 1e-7);
    for (const Sample& s : result.samples) EXPECT_EQ(s.q(0), drive.value(s.t));
  }
}

TEST(ConstrainedSimulationTest, ClosedChainExamplesAreAssembledAndRun) {
  struct Case {
    const char* stem;
    int nq, constraints;
    IntegratorKind integrator;
    double t_end;
  };
  for (const Case c : {Case{"parallel_robot", 57, 6, IntegratorKind::Bdf, 0.2},
                       Case{"finray_finger", 74, 13, IntegratorKind::Newmark, 0.02}}) {
    const Model model = buildModel(test::example(c.stem));
    EXPECT_EQ(model.nq, c.nq) << c.stem;
    EXPECT_EQ(model.n_constraints, c.constraints) << c.stem;
    Data data(model);
    ConstraintData cd(model);
    const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
    forwardKinematics(model, data, q0);
    constraintJacobian(model, data, cd);
    EXPECT_LT(cd.e.norm(), 1e-12) << c.stem;  // the rest configuration closes every loop
    SimulationOptions options;
    options.integrator = c.integrator;
    options.t_end = c.t_end;
    options.output_interval = c.t_end / 4;
    options.relative_tolerance = 1e-6;
    options.absolute_tolerance = 1e-8;
    const SimulationResult result = simulate(model, q0, Eigen::VectorXd::Zero(model.nv), options);
    ASSERT_TRUE(result.completed) << c.stem << ": " << result.message;
    EXPECT_LT(maxConstraintError(result), 1e-6) << c.stem;
  }
}

// The fin-ray finger (cond(M) ~ 1e15: thin ribs with shear coordinates) under BDF at the paper's
// tolerances. With a Newton matrix built from dFD = M^-1 dr, stiff components were left
// unconverged and CVODE stopped at t = 2.21 s on repeated error-test failures (h ~ 3e-7); the
// force-space Newton matrix (second_order_linear_solver.hpp) carries it past that point.
SimulationResult finRayBdf(SimulationOptions options) {
  const Model model = buildModel(test::example("finray_finger"));
  options.integrator = IntegratorKind::Bdf;
  return simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), options);
}

TEST(ConstrainedSimulationTest, FinRayBdfAtThePaperTolerancesGetsPastTheOldFailure) {
  SimulationOptions options;
  options.t_end = 2.4;
  options.output_interval = 0.1;
  options.relative_tolerance = 1e-3;
  options.absolute_tolerance = 1e-6;
  const SimulationResult result = finRayBdf(options);
  ASSERT_TRUE(result.completed) << result.message;
  // Near the old failure the step may nearly collapse, and the loops open by the integration
  // error of those steps: 5.8e-7 at t = 2.1 s in the AVX-512 build, nothing visible (1.5e-9) with
  // AVX2; either way below atol
  EXPECT_LT(maxConstraintError(result), options.absolute_tolerance);
  // Baumgarte closes them again: 1.2e-9 to 1.5e-9 over the last 0.1 s in both builds, against
  // 4.8e-8 to 2.8e-7 with T_B slowed to 1 s and 6e-7 to 1e-6 without stabilisation
  for (const Sample& sample : result.samples) {
    if (sample.t > options.t_end - 0.15) {
      EXPECT_LT(sample.constraint_error, 1e-8) << sample.t;
    }
  }
}

// At rtol of a few 1e-3 the fin-ray finger's multistep history can collapse the step (a mode at
// -2e8 /s left in it outruns the error estimate); the BDF stepper starts afresh from the last
// accepted step and completes the run. Whether and where a collapse arises depends on the rounding:
// a change of the order of floating-point operations in the derivatives moved it from rtol 3e-3 to
// 2e-3. So three tolerances are run: each must complete with its loops closed, and at least one
// must have restarted. The Debug build with the sanitizers (installer/bootstrap.sh) leaves this
// test to the Release suite.
TEST(ConstrainedSimulationTest, FinRayBdfRestartsAfterAStepSizeCollapseAndCompletes) {
  long restarts = 0;
  for (double rtol : {2e-3, 3e-3, 4e-3}) {
    SimulationOptions options;
    options.t_end = 3.0;
    options.output_interval = 0.01;
    options.step = 0.0;  // no maximum step, as tendril-cli
    options.relative_tolerance = rtol;
    options.absolute_tolerance = 1e-5;
    const SimulationResult result = finRayBdf(options);
    ASSERT_TRUE(result.completed) << "rtol " << rtol << ": " << result.message;
    restarts += result.statistics.restarts;
    // The loops stay closed across a restart. The drift follows the integration error, about
    // atol + rtol |q| ~ 1e-5 per step in the strains, times lever arms of a few cm: below atol (it
    // was 1.1e-6 at rtol 3e-3; with Baumgarte slowed to T_B = 1 s, 2.3e-5). Over these 3 s even no
    // stabilisation stays below atol (2.9e-6): the 10 s tests above hold Baumgarte to account
    EXPECT_LT(maxConstraintError(result), options.absolute_tolerance) << "rtol " << rtol;
  }
  EXPECT_GE(restarts, 1);  // the case the test is about still arises
}

}  // namespace
}  // namespace tendril
