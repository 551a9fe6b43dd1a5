// Tests for core/algorithm/inverse_statics.cpp.

#include "core/algorithm/inverse_statics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "core/algorithm/kinematics.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// a 0.3 m rod along x under gravity with three cables 120 degrees apart at 12 mm from the axis:
// bending about y and z and stretch, so three tensions reach a three-dimensional set of tips
RobotDescription cableCantilever() {
  StrainBasisDesc basis;
  basis.order = {1, 2, 2, 1, -1, -1};
  RobotDescription robot = test::uniformRod(0.3, 0.015, basis);
  robot.gravity = {0, 0, -9.81};
  for (int k = 0; k < 3; ++k) {
    const double angle = std::numbers::pi / 2 + 2 * std::numbers::pi * k / 3;
    CableDesc cable;
    cable.name = "c" + std::to_string(k + 1);
    cable.link = "rod";
    cable.path = {CableSegmentDesc{0, {0.012 * std::cos(angle)}, {0.012 * std::sin(angle)}}};
    robot.cables.push_back(cable);
  }
  return robot;
}

// the cantilever hung from a rigid pendulum (revolute about y) driven by a torque input
RobotDescription drivenCableCantilever() {
  RobotDescription robot = cableCantilever();
  LinkDesc base = test::rigidLink("base", "world", JointType::Revolute, {0, 1, 0});
  robot.links.front().parent = "base";
  robot.links.insert(robot.links.begin(), base);
  JointInputDesc torque;
  torque.link = "base";
  torque.value = TimeFunction::constant(0.2);
  robot.joint_inputs = {torque};
  return robot;
}

// where the forward statics from q = 0 of a freshly built model puts the tip of `link`, with the
// actuators' inputs set to u in its description
Eigen::Vector3d forwardTip(const RobotDescription& robot, const std::vector<Actuator>& actuators,
                           const Eigen::VectorXd& u, int link, Eigen::VectorXd* q_out = nullptr) {
  RobotDescription with_u = robot;
  setActuatorValues(with_u, actuators, u);
  const Model model = buildModel(with_u);
  Data data(model);
  const StaticsResult statics = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  EXPECT_TRUE(statics.converged) << statics.message;
  forwardKinematics(model, data, statics.q);
  if (q_out != nullptr) *q_out = statics.q;
  return linkTipPose(model, data, link).p;
}

int linkIndex(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    if (model.links[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// dq*/du and the tip's sensitivity against central differences of the whole statics solve:
// Richardson-extrapolated at h = 1e-2 N, truncation O(h^4) ~ 1e-8 relative, round-off of the
// 1e-12-relative solves 1e-12 / h ~ 1e-10: 1e-6 relative leaves margin for both
void expectSensitivitiesMatchDifferences(const RobotDescription& robot, const Eigen::VectorXd& u,
                                         const InverseStaticsTarget& target) {
  const Model model = buildModel(robot);
  InverseStaticsSolver solver(model);
  const StaticsResult statics = solver.equilibrium(u, Eigen::VectorXd::Zero(model.nq));
  ASSERT_TRUE(statics.converged) << statics.message;
  const Eigen::VectorXd q_star = statics.q;

  const Eigen::MatrixXd dq_du = solver.equilibriumSensitivity(u, q_star);
  const Eigen::MatrixXd dq_du_fd = test::extrapolatedCentralDifference(
      [&](const Eigen::VectorXd& up) -> Eigen::VectorXd {
        const StaticsResult at = solver.equilibrium(up, q_star);
        EXPECT_TRUE(at.converged);
        return at.q;
      },
      u, 1e-2);
  EXPECT_LT(test::relativeError(dq_du, dq_du_fd), 1e-6);
  EXPECT_NE(dq_du, dq_du_fd);

  const Eigen::MatrixXd dtip_du = solver.tipSensitivity(target, u, q_star);
  const int link = linkIndex(model, target.link);
  const Eigen::MatrixXd dtip_du_fd = test::extrapolatedCentralDifference(
      [&](const Eigen::VectorXd& up) -> Eigen::VectorXd {
        const StaticsResult at = solver.equilibrium(up, q_star);
        Data data(model);
        forwardKinematics(model, data, at.q);
        const SE3 tip = linkTipPose(model, data, link);
        Eigen::VectorXd out(target.orientation ? 6 : 3);
        out.head<3>() = tip.act(target.offset);
        if (target.orientation) {
          SE3 error;
          error.R = tip.R * target.orientation->transpose();
          out.tail<3>() = log(error).head<3>();
        }
        return out;
      },
      u, 1e-2);
  EXPECT_LT(test::relativeError(dtip_du, dtip_du_fd), 1e-6) << "analytic\n"
                                                            << dtip_du << "\ndifferences\n"
                                                            << dtip_du_fd;
}

TEST(InverseStaticsTest, SensitivitiesMatchCentralDifferencesOfTheSolve) {
  InverseStaticsTarget target;
  target.link = "rod";
  target.offset = {0.01, -0.02, 0.005};
  target.orientation =
      Eigen::Matrix3d(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()));
  expectSensitivitiesMatchDifferences(cableCantilever(), Eigen::Vector3d(2.0, 1.0, 0.5), target);
}

TEST(InverseStaticsTest, SensitivitiesWithAJointTorqueMatchCentralDifferences) {
  InverseStaticsTarget target;
  target.link = "rod";
  target.orientation = Eigen::Matrix3d::Identity();
  Eigen::VectorXd u(4);
  u << 1.5, 0.5, 2.0, 0.3;
  expectSensitivitiesMatchDifferences(drivenCableCantilever(), u, target);
}

TEST(InverseStaticsTest, SensitivitiesOnTheCableManipulatorMatchCentralDifferences) {
  InverseStaticsTarget target;
  target.link = "arm";
  Eigen::VectorXd u(6);
  u << 5.0, 3.0, 0.5, 2.0, 1.0, 1.5;
  expectSensitivitiesMatchDifferences(test::example("cable_manipulator"), u, target);
}

// round trip: the tip of the forward statics at u_true is the target; the inverse statics from
// another start lands on it, and the forward statics of a fresh model at the returned u does too
void expectRoundTrip(const RobotDescription& robot, const std::string& link_name,
                     const Eigen::VectorXd& u_true, const InverseStaticsOptions& options = {},
                     const std::optional<Eigen::VectorXd>& u_start = std::nullopt) {
  const Model model = buildModel(robot);
  const std::vector<Actuator> actuators = resolveActuators(model, options);
  const int link = linkIndex(model, link_name);
  InverseStaticsTarget target;
  target.link = link_name;
  target.position = forwardTip(robot, actuators, u_true, link);

  InverseStaticsSolver solver(model, options);
  const InverseStaticsResult result =
      u_start ? solver.solve(target, *u_start, Eigen::VectorXd::Zero(model.nq))
              : solver.solve(target);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_NE(result.message.find("converged"), std::string::npos);
  EXPECT_GT(result.iterations, 0);
  for (std::size_t i = 0; i < actuators.size(); ++i) {
    EXPECT_GE(result.u(static_cast<Eigen::Index>(i)), actuators[i].lower);
  }
  EXPECT_LE(result.position_error, 1e-9);
  const Eigen::Vector3d reached = forwardTip(robot, actuators, result.u, link);
  EXPECT_LE((reached - target.position).norm(), 1e-9)
      << "u = " << result.u.transpose() << ", u_true = " << u_true.transpose();
}

TEST(InverseStaticsTest, RoundTripOnTheCableCantilever) {
  expectRoundTrip(cableCantilever(), "rod", Eigen::Vector3d(3.0, 0.5, 1.2));
}

TEST(InverseStaticsTest, RoundTripWithAJointTorque) {
  // the pendulum has two equilibria per torque (hanging and standing): a local method reaches
  // the one on the branch it starts from, so the start hangs too, with other values
  Eigen::VectorXd u(4), u_start(4);
  u << 1.0, 2.5, 0.2, -0.1;
  u_start << 0.5, 2.0, 0.5, 0.0;
  expectRoundTrip(drivenCableCantilever(), "rod", u, {}, u_start);
}

TEST(InverseStaticsTest, RoundTripOnTheCableManipulator) {
  Eigen::VectorXd u(6);
  u << 6.0, 0.0, 2.0, 3.0, 0.0, 4.0;
  expectRoundTrip(test::example("cable_manipulator"), "arm", u);
}

TEST(InverseStaticsTest, RoundTripWithChosenActuatorsAndBounds) {
  InverseStaticsOptions options;
  options.actuators = {"long1", "long3", "short2"};
  options.bounds = {{0.0, 20.0}, {0.0, 20.0}, {0.0, 20.0}};
  expectRoundTrip(test::example("cable_manipulator"), "arm", Eigen::Vector3d(4.0, 1.0, 6.0),
                  options);
}

TEST(InverseStaticsTest, PoseTargetOnTheCableManipulator) {
  const RobotDescription robot = test::example("cable_manipulator");
  const Model model = buildModel(robot);
  const std::vector<Actuator> actuators = availableActuators(model);
  Eigen::VectorXd u_true(6), q_true;
  u_true << 6.0, 1.0, 2.0, 3.0, 0.5, 4.0;
  InverseStaticsTarget target;
  target.link = "arm";
  target.position = forwardTip(robot, actuators, u_true, 0, &q_true);
  Data data(model);
  forwardKinematics(model, data, q_true);
  target.orientation = linkTipPose(model, data, 0).R;
  const InverseStaticsResult result = inverseStatics(model, target);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_LE((forwardTip(robot, actuators, result.u, 0) - target.position).norm(), 1e-9);
  EXPECT_LE(result.orientation_error, 1e-9);
}

// a target that needs a pushing cable: the cable stays at 0 and the answer names the closest
// point, a stationary point of the distance under the bound
TEST(InverseStaticsTest, ActiveBoundGivesTheClosestPoint) {
  const RobotDescription robot = cableCantilever();
  const Model model = buildModel(robot);
  const std::vector<Actuator> actuators = availableActuators(model);
  InverseStaticsTarget target;
  target.link = "rod";
  target.position = forwardTip(robot, actuators, Eigen::Vector3d(-2.0, 1.0, 1.0), 0);
  InverseStaticsSolver solver(model);
  const InverseStaticsResult result = solver.solve(target);
  ASSERT_FALSE(result.converged);
  EXPECT_EQ(result.message.rfind("unreachable: closest point (", 0), 0u) << result.message;
  EXPECT_NE(result.message.find("c1 = 0 N"), std::string::npos) << result.message;
  EXPECT_EQ(result.u(0), 0.0);
  EXPECT_NEAR(result.position_error, (result.point - target.position).norm(), 1e-15);
  EXPECT_GT(result.position_error, 1e-4);
  // KKT: the error r = p - p_t is orthogonal to the tip's motion under each free tension, and
  // c1 would pull it closer only by pushing (J_1 . r > 0). A cosine c left between r and a free
  // column means a distance of d (1 - c^2 / 2) is within reach: at c = 1e-6 that is d * 5e-13,
  // below the statics' own accuracy of the tip
  const Eigen::MatrixXd J = solver.tipSensitivity(target, result.u, result.q);
  const Eigen::Vector3d r = result.point - target.position;
  const auto cosine = [&](int i) { return J.col(i).dot(r) / (J.col(i).norm() * r.norm()); };
  EXPECT_GT(cosine(0), 1e-3);
  EXPECT_LT(std::abs(cosine(1)), 1e-6);
  EXPECT_LT(std::abs(cosine(2)), 1e-6);
  RecordProperty("free_cosines", std::to_string(cosine(1)) + " " + std::to_string(cosine(2)));
}

TEST(InverseStaticsTest, ConvergesOnTheBoundWhenTheTargetNeedsZeroTension) {
  const RobotDescription robot = cableCantilever();
  const Model model = buildModel(robot);
  const std::vector<Actuator> actuators = availableActuators(model);
  InverseStaticsTarget target;
  target.link = "rod";
  target.position = forwardTip(robot, actuators, Eigen::Vector3d(0.0, 1.0, 2.0), 0);
  InverseStaticsSolver solver(model);
  const InverseStaticsResult result =
      solver.solve(target, Eigen::Vector3d(1.0, 1.0, 1.0), Eigen::VectorXd::Zero(model.nq));
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_NEAR(result.u(0), 0.0, 1e-6);
  EXPECT_LE((forwardTip(robot, actuators, result.u, 0) - target.position).norm(), 1e-9);
}

TEST(InverseStaticsTest, TargetFarOutsideTheWorkspaceIsUnreachable) {
  const Model model = buildModel(cableCantilever());
  InverseStaticsTarget target;
  target.link = "rod";
  target.position = {5.0, 0.0, 0.0};
  const InverseStaticsResult result = inverseStatics(model, target);
  EXPECT_FALSE(result.converged);
  EXPECT_EQ(result.message.rfind("unreachable: closest point (", 0), 0u) << result.message;
  EXPECT_GT(result.position_error, 4.0);
  EXPECT_NEAR(result.position_error, (result.point - target.position).norm(), 1e-12);
}

// a small target move from the last solution: the warm start needs few iterations
TEST(InverseStaticsTest, WarmStartFollowsASmallMove) {
  const RobotDescription robot = test::example("cable_manipulator");
  const Model model = buildModel(robot);
  const std::vector<Actuator> actuators = availableActuators(model);
  Eigen::VectorXd u(6);
  u << 6.0, 0.0, 2.0, 3.0, 0.0, 4.0;
  InverseStaticsTarget target;
  target.link = "arm";
  target.position = forwardTip(robot, actuators, u, 0);
  InverseStaticsSolver solver(model);
  ASSERT_TRUE(solver.solve(target).converged);
  target.position += Eigen::Vector3d(0.005, 0.0, 0.0);
  const InverseStaticsResult moved = solver.solve(target);
  ASSERT_TRUE(moved.converged) << moved.message;
  EXPECT_LE(moved.iterations, 6);
  EXPECT_LE((forwardTip(robot, actuators, moved.u, 0) - target.position).norm(), 1e-9);
}

void expectInvalid(const std::function<void()>& call, const std::string& words) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying: " << words;
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
  }
}

TEST(InverseStaticsTest, BadInputsGiveClearErrors) {
  RobotDescription robot = cableCantilever();
  PointLoadDesc load;
  load.name = "weight";
  load.link = "rod";
  robot.point_loads = {load};
  const Model model = buildModel(robot);
  InverseStaticsTarget target;
  target.link = "rod";
  target.position = {0.25, 0.0, -0.05};
  const auto with = [](std::vector<std::string> names,
                       std::vector<std::pair<double, double>> bounds = {}) {
    InverseStaticsOptions options;
    options.actuators = std::move(names);
    options.bounds = std::move(bounds);
    return options;
  };
  expectInvalid([&] { InverseStaticsSolver(model, with({"c9"})); },
                "unknown actuator 'c9' (actuators: c1, c2, c3)");
  expectInvalid([&] { InverseStaticsSolver(model, with({"rod"})); },
                "'rod' is a link whose joint has no force input");
  expectInvalid([&] { InverseStaticsSolver(model, with({"weight"})); },
                "'weight' is a point load, not an input");
  expectInvalid([&] { InverseStaticsSolver(model, with({"c1", "c1"})); }, "named twice");
  expectInvalid(
      [&] {
        InverseStaticsSolver(model, with({"c1", "c2"}, {{2.0, 1.0}, {0.0, 1.0}}));
      },
      "bounds of actuator 'c1': lower 2 > upper 1 N");
  expectInvalid([&] { InverseStaticsSolver(model, with({"c1"}, {{-1.0, 1.0}})); }, "a cable pulls");
  expectInvalid(
      [&] {
        InverseStaticsSolver(model, with({"c1", "c2"}, {{0.0, 1.0}}));
      },
      "1 bounds for 2 actuators");
  expectInvalid([&] { InverseStaticsSolver(model, with({"c1"}, {{std::nan(""), 1.0}})); }, "NaN");

  InverseStaticsSolver solver(model);
  InverseStaticsTarget unknown_link = target;
  unknown_link.link = "tentacle";
  expectInvalid([&] { solver.solve(unknown_link); }, "unknown link 'tentacle' (links: rod)");
  InverseStaticsTarget nan_target = target;
  nan_target.position.y() = std::nan("");
  expectInvalid([&] { solver.solve(nan_target); }, "target position is not finite");
  InverseStaticsTarget skewed = target;
  skewed.orientation = Eigen::Matrix3d::Constant(0.5);
  expectInvalid([&] { solver.solve(skewed); }, "not a rotation matrix");

  // a position-mode input is not a force, and a prescribed coordinate is refused
  RobotDescription driven = drivenCableCantilever();
  driven.joint_inputs.front().mode = JointInputDesc::Mode::Position;
  expectInvalid([&] { InverseStaticsSolver(buildModel(driven), with({"base"})); },
                "position-mode joint input");
  expectInvalid([&] { InverseStaticsSolver(buildModel(driven), with({"c1"})); },
                "prescribed coordinates");
  expectInvalid([&] { InverseStaticsSolver(buildModel(test::example("parallel_robot"))); },
                "no cable or force joint input");
}

TEST(InverseStaticsTest, AJointInputIsNamedByItsCoordinateOrItsLink) {
  const Model model = buildModel(drivenCableCantilever());
  InverseStaticsOptions options;
  options.actuators = {"base", "c2"};
  const std::vector<Actuator> by_link = resolveActuators(model, options);
  ASSERT_EQ(by_link.size(), 2u);
  EXPECT_EQ(by_link[0].name, "base/joint/0");
  EXPECT_EQ(by_link[0].unit, "N m");
  EXPECT_EQ(by_link[0].kind, Actuator::Kind::JointInput);
  EXPECT_TRUE(std::isinf(by_link[0].lower));
  options.actuators = {"base/joint/0"};
  EXPECT_EQ(resolveActuators(model, options).front().name, "base/joint/0");
}

}  // namespace
}  // namespace tendril
