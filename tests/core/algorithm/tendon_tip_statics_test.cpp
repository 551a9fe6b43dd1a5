// Tests for core/algorithm/tendon_tip_statics.cpp on the seed paper's Simulation 1 robot
// (resources/examples/helicoid_statics.json, written by tools/helicoid_reference.cpp): the solved
// tips on the example's circles (computed here from their formula and the file's base placement),
// the equilibrium re-checked with ID(q, 0, 0) and the tendon gradients outside the solver, tensions
// that pull, and the example's tables equal to what the solver gives at their points.

#include "core/algorithm/tendon_tip_statics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {
namespace {

const std::filesystem::path kExample =
    std::filesystem::path(TENDRIL_EXAMPLES_DIR) / "helicoid_statics.json";

// the example's circles in the world, through the file's base placement: the paper's (digest
// §4.1: radii 0.02/0.025/0.03 m at heights 0.08/0.15/0.24 m, period 5 s) with the radii scaled by
// 0.2 and the heights at 97 % of the rest lengths (docs/REPRODUCTION.md, Simulation 1: the paper's
// are out of reach with pulling tendons)
std::vector<TipTarget> exampleCircles(const RobotDescription& robot, const Model& model, double t) {
  const double radius[3] = {0.2 * 0.02, 0.2 * 0.025, 0.2 * 0.03};
  const double height[3] = {0.97 * 0.1, 0.97 * 0.2, 0.97 * 0.3};
  const double omega = 2.0 * std::numbers::pi / 5.0;
  const Placement& base = robot.links.front().origin;
  const Eigen::Matrix3d R = rpyToRotation(base.rpy[0], base.rpy[1], base.rpy[2]);
  const Eigen::Vector3d origin(base.position[0], base.position[1], base.position[2]);
  std::vector<TipTarget> targets;
  for (int i = 0; i < 3; ++i) {
    TipTarget target;
    target.link = i;  // the file lists body1, body2, body3 in order
    EXPECT_EQ(model.links[static_cast<std::size_t>(i)].name, "body" + std::to_string(i + 1));
    target.position = origin + R * Eigen::Vector3d(radius[i] * std::cos(omega * t),
                                                   radius[i] * std::sin(omega * t), height[i]);
    targets.push_back(target);
  }
  return targets;
}

class HelicoidStatics : public ::testing::Test {
 protected:
  void SetUp() override {
    robot_ = loadRobot(kExample);
    tabled_ = robot_;
    for (LvpTendonDesc& tendon : robot_.lvp_tendons) tendon.tension = TimeFunction::constant(0.0);
    model_ = std::make_unique<Model>(buildModel(robot_));
    data_ = std::make_unique<Data>(*model_);
  }

  // the equilibrium residual ID(q, 0, 0) + sum_k T_k dl_k/dq, formed here from the public calls
  Eigen::VectorXd equilibriumResidual(const Eigen::VectorXd& q, const Eigen::VectorXd& tensions) {
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model_->nv);
    Eigen::VectorXd r = modelAgnosticID(*model_, *data_, q, zero, zero);
    Eigen::VectorXd gradient;
    for (Eigen::Index k = 0; k < tensions.size(); ++k) {
      lvpTendonLength(*model_, *data_, static_cast<int>(k), q, &gradient);
      r += tensions(k) * gradient;
    }
    return r;
  }

  RobotDescription robot_, tabled_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Data> data_;
};

TEST_F(HelicoidStatics, TipsOnTheCirclesInEquilibriumWithPullingTendons) {
  for (const LinkDesc& link : robot_.links) ASSERT_DOUBLE_EQ(link.lvp().length, 0.1);
  ASSERT_EQ(model_->nv, 24);
  ASSERT_EQ(model_->lvp_tendons.size(), 9u);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model_->nq), tensions = Eigen::VectorXd::Zero(9);
  bool first = true;
  for (double t : {0.0, 1.3, 3.7}) {
    const std::vector<TipTarget> targets = exampleCircles(robot_, *model_, t);
    const TendonTipStaticsResult result =
        first ? tendonTipStaticsByContinuation(*model_, *data_, targets, q, tensions, 20)
              : tendonTipStaticsByContinuation(*model_, *data_, targets, q, tensions, 4);
    first = false;
    ASSERT_TRUE(result.converged) << result.message;
    q = result.q;
    tensions = result.tensions;
    const Eigen::VectorXd tips = tipPositions(*model_, *data_, {0, 1, 2}, q);
    for (int i = 0; i < 3; ++i) {
      EXPECT_LT((tips.segment<3>(3 * i) - targets[static_cast<std::size_t>(i)].position).norm(),
                1e-9)
          << "tip " << i + 1 << " at t = " << t;
    }
    // 1e-9 N against forces of tens of newtons
    EXPECT_LT(equilibriumResidual(q, tensions).cwiseAbs().maxCoeff(), 1e-9) << "t = " << t;
    EXPECT_GT(tensions.minCoeff(), 0.0) << "t = " << t;
    // the example's open-loop tensions are these equilibria (t on the tables' 0.1 s grid)
    for (std::size_t k = 0; k < 9; ++k) {
      EXPECT_NEAR(tabled_.lvp_tendons[k].tension(t), tensions(static_cast<Eigen::Index>(k)),
                  1e-7 * tensions.cwiseAbs().maxCoeff())
          << tabled_.lvp_tendons[k].name << " at t = " << t;
    }
  }
}

TEST_F(HelicoidStatics, AStretchModeThatKeepsTheEndsCannotLowerTheFirstTip) {
  // why the example reads Table 4's stretch mode s (1 - s) as the strain: taken as the axial
  // displacement (Tendril's stretch parameter), it moves no tip along the body's axis
  RobotDescription displacement = robot_;
  for (LinkDesc& link : displacement.links) link.lvp().primitives = lvpTable4Primitives();
  const Model model = buildModel(displacement);
  Data data(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const double rest_height = tipPositions(model, data, {0}, q)(2);
  q(0) = -0.6;  // body 1's stretch coordinate alone
  EXPECT_NEAR(tipPositions(model, data, {0}, q)(2), rest_height, 1e-15);
  const Eigen::VectorXd q_example = Eigen::VectorXd::Unit(model_->nq, 0) * -0.6;
  EXPECT_GT(std::abs(tipPositions(*model_, *data_, {0}, q_example)(2) - rest_height), 5e-3);
}

TEST_F(HelicoidStatics, ANonSquareSystemIsRefused) {
  std::vector<TipTarget> two = exampleCircles(robot_, *model_, 0.0);
  two.pop_back();
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model_->nq), tensions = Eigen::VectorXd::Zero(9);
  EXPECT_THROW((void)tendonTipStatics(*model_, *data_, two, q, tensions), std::invalid_argument);
}

}  // namespace
}  // namespace tendril
