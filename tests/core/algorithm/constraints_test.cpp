// Tests for core/algorithm/constraints.cpp (and the closed-chain parts of the description,
// JSON and model compilation).

#include "core/algorithm/constraints.hpp"

#include <gtest/gtest.h>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/closed_chain_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the random hybrid tree with two loops: a fixed joint between a point inside a soft link and a
// rigid link, and a spherical joint from a rigid link to the world
RobotDescription loopedHybrid(unsigned seed) {
  RobotDescription robot = test::randomHybrid(seed);
  ClosedChainDesc weld;
  weld.name = "weld";
  weld.joint.type = JointType::Fixed;
  weld.a.link = "link5";
  weld.a.abscissa = 0.25;
  weld.a.placement = {{0.01, -0.02, 0.03}, {0.2, -0.1, 0.4}};
  weld.b.link = "link7";
  weld.b.placement = {{0.05, 0.02, 0.0}, {-0.3, 0.2, 0.1}};
  robot.closed_chains.push_back(weld);
  ClosedChainDesc ball;
  ball.name = "ball";
  ball.joint.type = JointType::Spherical;
  ball.a.link = "link4";
  ball.a.placement.position = {0.1, 0.0, 0.02};
  ball.b.link = "world";
  ball.b.placement = {{0.3, 0.1, -0.2}, {0.1, 0.2, 0.3}};
  robot.closed_chains.push_back(ball);
  return robot;
}

Eigen::VectorXd errorAt(const Model& model, Data& data, ConstraintData& cd,
                        const Eigen::VectorXd& q) {
  forwardKinematics(model, data, q);
  constraintError(model, data, cd);
  return cd.e;
}

TEST(ConstraintsTest, PhiPerpSpansTheComplementOfTheFreeMotions) {
  struct Case {
    JointType type;
    bool planar;
    int m;
  };
  for (const Case c : {Case{JointType::Fixed, false, 6}, Case{JointType::Revolute, false, 5},
                       Case{JointType::Prismatic, false, 5}, Case{JointType::Universal, false, 4},
                       Case{JointType::Planar, false, 3}, Case{JointType::Spherical, false, 3},
                       Case{JointType::Revolute, true, 2}, Case{JointType::Fixed, true, 3}}) {
    RobotDescription robot = test::fourBar();
    robot.closed_chains[0].joint.type = c.type;
    robot.closed_chains[0].joint.axis = {0, 0, 1};
    robot.closed_chains[0].planar = c.planar;
    const Model model = buildModel(robot);
    const Matrix6Xd& Phi = model.closed_chains[0].Phi_perp;
    ASSERT_EQ(Phi.cols(), c.m) << static_cast<int>(c.type);
    EXPECT_LT((Phi.transpose() * Phi - Eigen::MatrixXd::Identity(c.m, c.m)).norm(), 1e-12);
    EXPECT_LT((Phi.transpose() * jointBasis(robot.closed_chains[0].joint)).norm(), 1e-12);
    EXPECT_EQ(model.n_constraints, c.m);
  }
}

TEST(ConstraintsTest, PlanarJointMustLieInThePlane) {
  RobotDescription robot = test::fourBar();
  robot.closed_chains[0].joint.axis = {1, 0, 1};  // a hinge neither normal to nor in the plane
  try {
    buildModel(robot);
    FAIL() << "expected a ParseError";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/closed_chains/0/planar") << error.what();
  }
}

TEST(ConstraintsTest, ErrorJacobianMatchesCentralDifferences) {
  const Model model = buildModel(loopedHybrid(3));
  ASSERT_EQ(model.n_constraints, 9);
  Data data(model), data_fd(model);
  ConstraintData cd(model), cd_fd(model);
  const test::State x = test::randomState(model, 11, 0.4);
  forwardKinematics(model, data, x.q);
  constraintErrorJacobian(model, data, cd);
  ASSERT_GT(cd.e.norm(), 1e-2);  // far from assembled: T^-1(eps) matters
  const Eigen::MatrixXd fd = test::centralDifference(
      [&](const Eigen::VectorXd& q) { return errorAt(model, data_fd, cd_fd, q); }, x.q, 1e-6);
  EXPECT_LT(test::relativeError(cd.de_dq, fd), 1e-6);
  // A differs from de/dq away from e = 0 (the index-3 Jacobian is not symmetric)
  constraintJacobian(model, data, cd);
  EXPECT_GT(test::relativeError(cd.A, fd), 1e-3);
}

TEST(ConstraintsTest, JacobianEqualsErrorDerivativeWhenAssembled) {
  RobotDescription robot = loopedHybrid(5);
  Model model = buildModel(robot);
  Data data(model);
  const test::State x = test::randomState(model, 17, 0.4);
  forwardKinematics(model, data, x.q);
  // move frame B of the world-anchored joint onto frame A, and frame B of the weld onto its A
  // (in link7's frame): the loops are then assembled at x.q
  const CompiledClosedChain& ball = model.closed_chains[1];
  const SE3 g_A = closedChainFrameA(ball, data);
  const Eigen::Vector3d rpy = rotationToRpy(g_A.R);
  robot.closed_chains[1].b.placement = {{g_A.p(0), g_A.p(1), g_A.p(2)}, {rpy(0), rpy(1), rpy(2)}};
  const CompiledClosedChain& weld = model.closed_chains[0];
  const SE3 g_7A = data.g[weld.joint_b].inverse() * closedChainFrameA(weld, data);
  const Eigen::Vector3d rpy7 = rotationToRpy(g_7A.R);
  robot.closed_chains[0].b.placement = {{g_7A.p(0), g_7A.p(1), g_7A.p(2)},
                                        {rpy7(0), rpy7(1), rpy7(2)}};
  model = buildModel(robot);
  Data data2(model), data_fd(model);
  ConstraintData cd(model), cd_fd(model);
  forwardKinematics(model, data2, x.q);
  constraintJacobian(model, data2, cd);
  ASSERT_LT(cd.e.norm(), 1e-12);
  const Eigen::MatrixXd fd = test::centralDifference(
      [&](const Eigen::VectorXd& q) { return errorAt(model, data_fd, cd_fd, q); }, x.q, 1e-6);
  EXPECT_LT(test::relativeError(cd.A, fd), 1e-7);
  EXPECT_NE(cd.A, fd);
}

TEST(ConstraintsTest, BiasIsTheTimeDerivativeOfAVAlongATrajectory) {
  const Model model = buildModel(loopedHybrid(7));
  Data data(model), data_fd(model);
  ConstraintData cd(model), cd_fd(model);
  const test::State x = test::randomState(model, 23, 0.4);
  inverseDynamics(model, data, x.q, x.v, x.a);
  constraintBias(model, data, cd);
  // d/ds [A(q(s)) v(s)] at s = 0 with q(s) = q + s v + s^2/2 a, v(s) = v + s a
  const auto Av = [&](double s) -> Eigen::VectorXd {
    const Eigen::VectorXd q = x.q + s * x.v + 0.5 * s * s * x.a;
    forwardKinematics(model, data_fd, q);
    constraintJacobian(model, data_fd, cd_fd);
    return cd_fd.A * (x.v + s * x.a);
  };
  const double h = 1e-6;
  const Eigen::VectorXd fd = (Av(h) - Av(-h)) / (2.0 * h);
  EXPECT_LT(test::relativeError(cd.bias, fd), 1e-6);
  // without the erratum's middle term the bias would be off
  ASSERT_GT(fd.norm(), 1e-2);
}

TEST(ConstraintsTest, BiasWithGravityAndAWorldFrameB) {
  // gravity is carried as a base acceleration by inverseDynamics; it must cancel in the bias
  RobotDescription robot = loopedHybrid(7);
  robot.gravity = {0, 0, 0};
  const Model without = buildModel(robot);
  const Model with = buildModel(loopedHybrid(7));
  Data d1(without), d2(with);
  ConstraintData c1(without), c2(with);
  const test::State x = test::randomState(with, 29, 0.4);
  inverseDynamics(without, d1, x.q, x.v, x.a);
  constraintBias(without, d1, c1);
  inverseDynamics(with, d2, x.q, x.v, x.a);
  constraintBias(with, d2, c2);
  EXPECT_LT((c1.bias - c2.bias).norm(), 1e-10 * c1.bias.norm());
}

// models for the derivative tests: the random hybrid with its two loops, the small loops of
// tests/support and the bundled closed-chain examples
struct DerivativeCase {
  std::string name;
  RobotDescription robot;
  double q_scale;
};

std::vector<DerivativeCase> derivativeCases() {
  return {{"looped_hybrid_3", loopedHybrid(3), 0.4},
          {"looped_hybrid_9", loopedHybrid(9), 0.4},
          {"four_bar", test::fourBar(), 0.5},
          {"soft_loop", test::softLoop(1e3), 0.5},
          {"parallel_robot", test::example("parallel_robot"), 0.2},
          {"finray_finger", test::example("finray_finger"), 0.05}};
}

TEST(ConstraintsTest, DerivativesMatchCentralDifferences) {
  for (const DerivativeCase& c : derivativeCases()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    Data data(model), data_fd(model);
    ConstraintData cd(model), cd_fd(model);
    const test::State x = test::randomState(model, 31, c.q_scale);
    const Eigen::VectorXd lambda = Eigen::VectorXd::LinSpaced(model.n_constraints, -2.0, 3.0);
    inverseDynamicsDerivatives(model, data, x.q, x.v, x.a);
    constraintDerivatives(model, data, lambda, cd);

    // e, A, de/dq and the bias are those of the plain functions
    ConstraintData plain(model);
    forwardKinematics(model, data_fd, x.q);
    constraintErrorJacobian(model, data_fd, plain);
    EXPECT_LT(test::relativeError(cd.de_dq, plain.de_dq), 1e-12);
    constraintJacobian(model, data_fd, plain);
    EXPECT_LT(test::relativeError(cd.A, plain.A), 1e-12);
    EXPECT_LT(test::relativeError(cd.e, plain.e), 1e-12);
    inverseDynamics(model, data_fd, x.q, x.v, x.a);
    constraintBias(model, data_fd, plain);
    EXPECT_LT(test::relativeError(cd.bias, plain.bias), 1e-12);

    // q-derivatives: kinematic quantities of order one, central step 1e-6 (truncation ~1e-12)
    const auto A_at = [&](const Eigen::VectorXd& q) -> const Eigen::MatrixXd& {
      forwardKinematics(model, data_fd, q, x.v);
      constraintJacobian(model, data_fd, cd_fd);
      return cd_fd.A;
    };
    const auto Av = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd { return A_at(q) * x.v; };
    const auto At_lambda = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
      return A_at(q).transpose() * lambda;
    };
    const auto bias = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) -> Eigen::VectorXd {
      inverseDynamics(model, data_fd, q, v, x.a);
      constraintBias(model, data_fd, cd_fd);
      return cd_fd.bias;
    };
    const Eigen::MatrixXd dAv_dq = test::centralDifference(Av, x.q, 1e-6);
    const Eigen::MatrixXd dAtl_dq = test::centralDifference(At_lambda, x.q, 1e-6);
    const Eigen::MatrixXd dbias_dq =
        test::centralDifference([&](const Eigen::VectorXd& q) { return bias(q, x.v); }, x.q, 1e-6);
    // the bias is quadratic in v: a central difference is exact at any step, 1e-2 keeps round-off
    // out
    const Eigen::MatrixXd dbias_dv = test::centralDifference(
        [&](const Eigen::VectorXd& v) { return bias(x.q, v); }, x.v, test::velocityStep(model));
    EXPECT_LT(test::relativeError(cd.dAv_dq, dAv_dq), 1e-6);
    EXPECT_LT(test::relativeError(cd.dAtlambda_dq, dAtl_dq), 1e-6);
    EXPECT_LT(test::relativeError(cd.dbias_dq, dbias_dq), 1e-6);
    EXPECT_LT(test::relativeError(cd.dbias_dv, dbias_dv), 1e-6);
    // guard against comparing a thing to itself, and against vanishing derivatives
    EXPECT_NE(cd.dbias_dq, dbias_dq);
    EXPECT_GT(dAv_dq.norm(), 1e-3);
    EXPECT_GT(dAtl_dq.norm(), 1e-3);
    EXPECT_GT(dbias_dq.norm(), 1e-3);
  }
}

TEST(ConstraintsTest, RedundantConstraintIsReported) {
  // a planar four-bar closed by a spatial revolute joint: the out-of-plane rows of A vanish
  const Model model = buildModel(test::fourBar(/*planar=*/false));
  Data data(model);
  ConstraintData cd(model);
  Eigen::VectorXd q(3);
  q << 1.2, -1.0, -1.4;
  forwardKinematics(model, data, q);
  constraintJacobian(model, data, cd);
  const auto problem = findRedundantConstraint(model, cd);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("ground_pin"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("redundant"), std::string::npos) << *problem;
  SimulationOptions options;
  options.t_end = 0.1;
  EXPECT_THROW(simulate(model, q, Eigen::VectorXd::Zero(3), options), std::invalid_argument);
  // the planar closure has full row rank
  const Model planar = buildModel(test::fourBar());
  Data data_planar(planar);
  ConstraintData cd_planar(planar);
  forwardKinematics(planar, data_planar, q);
  constraintJacobian(planar, data_planar, cd_planar);
  EXPECT_FALSE(findRedundantConstraint(planar, cd_planar).has_value());
}

TEST(ConstraintsTest, SoftFrameGetsItsOwnComputationalPoint) {
  const Model model = buildModel(loopedHybrid(3));
  const CompiledClosedChain& weld = model.closed_chains[0];
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq));
  // the frame's joint is a rod interval of link5 ending at X = 0.25 of the rod
  const VirtualJoint& joint = model.joints[weld.joint_a];
  EXPECT_EQ(joint.kind, VirtualJointKind::RodInterval);
  EXPECT_EQ(model.links[joint.link].name, "link5");
  double X = 0.0;
  for (int j = model.links[joint.link].first_interval; j <= weld.joint_a; ++j)
    X += model.joints[j].h;
  EXPECT_NEAR(X, 0.25, 1e-12);
}

TEST(ConstraintsTest, JsonRoundTripKeepsClosedChainsAndPositionInputs) {
  for (RobotDescription robot : {test::fourBar(), test::softLoop(10.0)}) {
    robot.constraint_time_constant = 0.05;
    robot.links[0].joint.type = JointType::Revolute;  // (the rod's is fixed)
    JointInputDesc input;
    input.link = robot.links[0].name;
    input.mode = JointInputDesc::Mode::Position;
    input.value.kind = TimeFunction::Kind::Sine;
    input.value.amplitude = 0.3;
    robot.joint_inputs.push_back(input);
    const std::string text = serializeRobot(robot);
    const RobotDescription back = parseRobot(text);
    EXPECT_EQ(back, robot);
    EXPECT_EQ(serializeRobot(back), text);
    EXPECT_NE(text.find("\"mode\": \"position\""), std::string::npos);
    const Model model = buildModel(back);
    EXPECT_EQ(model.prescribed.size(), 1u);
    EXPECT_TRUE(model.joint_inputs.empty());
  }
  // an unconstrained model writes neither key
  EXPECT_EQ(serializeRobot(test::example("soft_cantilever")).find("constraint"), std::string::npos);
}

TEST(ConstraintsTest, TimeFunctionDerivativesMatchDifferences) {
  TimeFunction sine;
  sine.kind = TimeFunction::Kind::Sine;
  sine.amplitude = 0.4;
  sine.frequency = 0.7;
  sine.phase = 0.3;
  sine.offset = 0.1;
  TimeFunction ramp;
  ramp.kind = TimeFunction::Kind::Ramp;
  ramp.value = 2.0;
  ramp.start = 0.5;
  ramp.duration = 2.0;
  TimeFunction table;
  table.kind = TimeFunction::Kind::Table;
  table.table = {{0.0, 0.0}, {1.0, 2.0}, {3.0, 1.0}};
  const double h = 1e-5;
  for (const TimeFunction& f : {sine, ramp, table}) {
    for (double t : {0.25, 0.9, 1.7, 2.6}) {
      EXPECT_NEAR(f.derivative(t, 1), (f(t + h) - f(t - h)) / (2 * h), 1e-6) << t;
      EXPECT_NEAR(f.derivative(t, 2), (f.derivative(t + h, 1) - f.derivative(t - h, 1)) / (2 * h),
                  1e-5)
          << t;
    }
  }
  EXPECT_NE(sine.derivative(0.25, 2), 0.0);
}

}  // namespace
}  // namespace tendril
