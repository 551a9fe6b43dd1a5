// The frame the viewport draws: rod samples and the per-interval colour-map quantities, against
// closed forms for a tapered circular rod under uniform bending and stretch.

#include "core/sim/make_frame.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/algorithm/statics.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

constexpr double kRodLength = 0.4, kRadiusBase = 0.02, kRadiusTip = 0.01;
constexpr double kCurvature = 2.5, kStretch = 0.03;  // [1/m], [-]

// constant bend_z and stretch modes: the strain is uniform, so each interval's Magnus Omega is
// exactly h xi and every quantity has a closed form at the interval's middle
struct BentRod {
  Model model = buildModel(description());
  Data data{model};
  FramePtr frame;

  static RobotDescription description() {
    StrainBasisDesc basis;
    basis.order = {-1, -1, 0, 0, -1, -1};  // bend_z, stretch: constants
    RobotDescription robot = test::uniformRod(kRodLength, kRadiusBase, basis, 4);
    robot.links[0].soft().divisions[0].section.radius_end = kRadiusTip;
    robot.gravity = {0.0, 0.0, 0.0};
    return robot;
  }

  BentRod() {
    Eigen::VectorXd q(2);
    q << kCurvature, kStretch;
    frame = makeFrame(model, data, q, Eigen::VectorXd::Zero(2), 0.0);
  }
};

double radiusAt(double X) {
  return kRadiusBase + (kRadiusTip - kRadiusBase) * X / kRodLength;
}

TEST(MakeFrameTest, RodQuantitiesMatchTheClosedFormsOfATaperedRod) {
  const BentRod rod;
  const LinkInfo& info = rod.model.links[0];
  ASSERT_EQ(rod.model.joints[info.first_interval].basis_rows, (std::vector<int>{2, 3}));
  ASSERT_EQ(rod.frame->rods.size(), 1u);
  const RodShape& shape = rod.frame->rods[0];
  const int intervals = info.last_interval - info.first_interval + 1;
  ASSERT_EQ(static_cast<int>(shape.interval_values.size()), intervals);
  ASSERT_EQ(shape.points.size(), static_cast<std::size_t>(intervals * kSamplesPerInterval + 1));
  const double E = rod.model.description.links[0].soft().divisions[0].material.youngs_modulus;
  double X = 0.0;
  for (int k = 0; k < intervals; ++k) {
    const double h = rod.model.joints[info.first_interval + k].h;
    const double r = radiusAt(X + 0.5 * h);
    const double J = std::numbers::pi * std::pow(r, 4) / 4.0, A = std::numbers::pi * r * r;
    const auto& values = shape.interval_values[k];
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::Curvature)], kCurvature, 1e-12 * kCurvature);
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::AxialStrain)], kStretch, 1e-12);
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::BendingMoment)], E * J * kCurvature,
                1e-12 * E * J * kCurvature);
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::AxialForce)], E * A * kStretch,
                1e-12 * E * A * kStretch);
    X += h;
  }
  EXPECT_NEAR(X, kRodLength, 1e-12);
}

TEST(MakeFrameTest, EverySampleTakesItsIntervalsValue) {
  const BentRod rod;
  const RodShape& shape = rod.frame->rods[0];
  const auto moment = [&](std::size_t interval) {
    return shape.interval_values[interval][static_cast<int>(RodQuantity::BendingMoment)];
  };
  EXPECT_EQ(shape.value(0, RodQuantity::BendingMoment), moment(0));  // the base: first interval
  for (std::size_t sample = 1; sample < shape.points.size(); ++sample) {
    EXPECT_EQ(shape.value(sample, RodQuantity::BendingMoment),
              moment((sample - 1) / kSamplesPerInterval))
        << "sample " << sample;
  }
  // the taper makes the moment fall from base to tip, so a wrong interval would show
  EXPECT_GT(moment(0), moment(shape.interval_values.size() - 1));
}

// The same tapered rod while it bends and stretches further at constant rates, in a viscous
// material: the internal wrench adds Upsilon xi' to Sigma (xi - xi*), with Upsilon = eta (3 J, 3 A)
// for bending and stretch (Kelvin-Voigt with an incompressible material, as in the dynamics' D)
TEST(MakeFrameTest, InternalForcesOfAMovingViscousRodAddTheViscousPart) {
  constexpr double kEta = 2.0e4;                               // [Pa s]
  constexpr double kCurvatureRate = -0.8, kStretchRate = 0.5;  // [1/(m s)], [1/s]
  RobotDescription robot = BentRod::description();
  robot.links[0].soft().divisions[0].material.damping = kEta;
  const Model model = buildModel(robot);
  Data data(model);
  Eigen::VectorXd q(2), v(2);
  q << kCurvature, kStretch;
  v << kCurvatureRate, kStretchRate;
  const FramePtr frame = makeFrame(model, data, q, v, 0.0);
  const RodShape& shape = frame->rods.at(0);
  const double E = robot.links[0].soft().divisions[0].material.youngs_modulus;
  const LinkInfo& info = model.links[0];
  double X = 0.0;
  for (std::size_t k = 0; k < shape.interval_values.size(); ++k) {
    const double h = model.joints[info.first_interval + static_cast<int>(k)].h;
    const double r = radiusAt(X + 0.5 * h);
    const double J = std::numbers::pi * std::pow(r, 4) / 4.0, A = std::numbers::pi * r * r;
    const double moment = E * J * kCurvature + 3.0 * kEta * J * kCurvatureRate;
    const double force = E * A * kStretch + 3.0 * kEta * A * kStretchRate;
    const auto& values = shape.interval_values[k];
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::BendingMoment)], std::abs(moment),
                1e-12 * E * J * kCurvature);
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::AxialForce)], force, 1e-12 * E * A * kStretch);
    // the strain itself does not depend on the rate
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::Curvature)], kCurvature, 1e-12 * kCurvature);
    X += h;
  }
}

// A horizontal uniform cantilever at rest under gravity: the bending moment at X is that of the
// load beyond it, rho g A (L - X)^2 / 2, quadratic in X, so a quadratic bend_y basis holds it and
// the interval means (Magnus: the two-point Gauss mean, exact for it) match the closed form up to
// the geometric nonlinearity, O(theta^2) with theta the tip slope
TEST(MakeFrameTest, BendingMomentOfACantileverBalancesItsWeight) {
  constexpr double kL = 0.5, kRadius = 0.01, kE = 1e9, kRho = 1000.0, kG = 9.81;
  StrainBasisDesc basis;
  basis.order = {-1, 2, -1, -1, -1, -1};  // bend_y: Legendre up to quadratic
  RobotDescription robot = test::uniformRod(kL, kRadius, basis, 5);
  robot.links[0].soft().divisions[0].material.youngs_modulus = kE;
  robot.links[0].soft().divisions[0].material.density = kRho;
  robot.gravity = {0.0, 0.0, -kG};  // the rod lies along x
  const Model model = buildModel(robot);
  Data data(model);
  const StaticsResult statics = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  ASSERT_TRUE(statics.converged);
  const FramePtr frame = makeFrame(model, data, statics.q, Eigen::VectorXd::Zero(model.nv), 0.0);
  const RodShape& shape = frame->rods.at(0);
  const double A = std::numbers::pi * kRadius * kRadius;
  const double I = std::numbers::pi * std::pow(kRadius, 4) / 4.0;
  const double w = kRho * A * kG;                                 // weight per length [N/m]
  const double tip_slope = w * std::pow(kL, 3) / (6.0 * kE * I);  // small-deflection theory
  ASSERT_LT(tip_slope, 0.01);
  const LinkInfo& info = model.links[0];
  double a = 0.0;  // interval start
  for (std::size_t k = 0; k < shape.interval_values.size(); ++k) {
    const double h = model.joints[info.first_interval + static_cast<int>(k)].h;
    const double b = a + h;
    // mean of w (L - X)^2 / 2 over [a, b]
    const double expected = w * (std::pow(kL - a, 3) - std::pow(kL - b, 3)) / (6.0 * h);
    const double moment = shape.interval_values[k][static_cast<int>(RodQuantity::BendingMoment)];
    EXPECT_NEAR(moment, expected, 10.0 * tip_slope * tip_slope * w * kL * kL / 2.0)
        << "interval " << k;
    a = b;
  }
}

}  // namespace
}  // namespace tendril
