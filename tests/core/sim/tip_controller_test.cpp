// Tests for tip positions as controlled outputs (ControlledVariableDesc::Kind::TipPosition): a
// PFBL on the three world coordinates of the controlled arm's tip makes each error follow
// e'' + K_D e' + K_P e = 0 from its initial value, on both dynamics families (J-dot v by a
// central difference of the tip's Jacobian along v); bad references name their JSON pointer.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "core/algorithm/data.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/controller_checks.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

constexpr double kTipStart = 0.01;  // [m] the set-points start this far from the tip

// the controlled arm from q0, its computed torque replaced by a PFBL on its tip's x, y, z through
// its three motors: each set-point a cubic from the tip + kTipStart to the tip + 0.05 m in 1 s
RobotDescription armTrackingItsTip(const Eigen::Vector3d& q0) {
  RobotDescription robot = test::example("controlled_arm");
  const Model model = buildModel(robot);
  Data data(model);
  Eigen::Matrix3Xd J(3, model.nv);
  modelAgnosticDistalFrames(model, data.agnostic, q0);
  const Eigen::Vector3d tip = modelAgnosticTipPosition(model, data.agnostic, 2, J);
  ControllerDesc& controller = robot.controllers.at(0);
  controller.type = ControllerDesc::Type::CollocatedPfbl;
  for (int axis = 0; axis < 3; ++axis) {
    ControlledVariableDesc& variable = controller.controlled.at(static_cast<std::size_t>(axis));
    variable.kind = ControlledVariableDesc::Kind::TipPosition;
    variable.name = "fore";
    variable.axis = axis;
    variable.setpoint = test::cubic(tip(axis) + kTipStart, tip(axis) + 0.05, 0.0, 1.0);
  }
  for (ControllerInputDesc& input : controller.inputs) input.min = input.max = std::nullopt;
  controller.kp = {test::kKp};
  controller.kd = {test::kKd};
  return robot;
}

class TipPfbl : public ::testing::TestWithParam<DynamicsFamily> {};

TEST_P(TipPfbl, TipErrorsFollowTheLinearClosedLoop) {
  const Eigen::Vector3d q0(0.3, -0.6, 1.1);  // away from the straight arm's singularity
  const Model model = buildModel(armTrackingItsTip(q0));
  const SimulationResult run =
      simulate(model, q0, Eigen::VectorXd::Zero(model.nv), test::tightBdf(1.5, GetParam()));
  ASSERT_TRUE(run.completed) << run.message;
  ASSERT_GT(run.samples.size(), 100u);
  double worst = 0.0, moved = 0.0;
  for (const Sample& sample : run.samples) {
    const double expected =
        test::linearClosedLoopError(kTipStart, 0.0, test::kKp, test::kKd, sample.t);
    for (Eigen::Index k = 0; k < 3; ++k) {
      const double error = sample.control.setpoints(k) - sample.control.values(k);
      worst = std::max(worst, std::abs(error - expected));
    }
    moved = std::max(moved, (sample.q - q0).norm());
  }
  EXPECT_GT(moved, 0.05);  // the arm really moves (rad)
  EXPECT_LT(worst, 1e-8);  // m, of a 10 mm initial error and a 40 mm motion
  EXPECT_EQ(model.controllers[0].variables[2].label, "fore tip z");
}

INSTANTIATE_TEST_SUITE_P(Families, TipPfbl,
                         ::testing::Values(DynamicsFamily::Engine, DynamicsFamily::ModelAgnostic));

TEST(TipPfbl, SavedAndReadAgain) {
  const RobotDescription robot = armTrackingItsTip(Eigen::Vector3d(0.3, -0.6, 1.1));
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
}

// an unknown link, an unknown axis, a tip on a law that drives coordinates: each names its pointer
TEST(TipPfbl, BadTipOutputsNameTheirPointer) {
  const auto pointerOf = [](const RobotDescription& robot) {
    try {
      (void)buildModel(parseRobot(serializeRobot(robot)));
    } catch (const ParseError& error) {
      return error.pointer();
    }
    return std::string("(accepted)");
  };
  RobotDescription robot = armTrackingItsTip(Eigen::Vector3d(0.3, -0.6, 1.1));
  robot.controllers[0].controlled[1].name = "elbow";
  EXPECT_EQ(pointerOf(robot), "/controllers/0/controlled/1/tip_position");
  robot = armTrackingItsTip(Eigen::Vector3d(0.3, -0.6, 1.1));
  robot.controllers[0].type = ControllerDesc::Type::PdGravityCompensation;
  EXPECT_EQ(pointerOf(robot), "/controllers/0/controlled/0/tip_position");
  std::string text = serializeRobot(armTrackingItsTip(Eigen::Vector3d(0.3, -0.6, 1.1)));
  const std::size_t at = text.find("\"axis\": \"y\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 11, "\"axis\": \"w\"");
  try {
    (void)parseRobot(text);
    FAIL() << "axis w accepted";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/1/axis");
  }
}

}  // namespace
}  // namespace tendril
