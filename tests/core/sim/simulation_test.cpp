// Tests for core/sim/simulation.cpp and its integrators (rk4, implicit_euler, newmark, bdf, ida).

#include "core/sim/simulation.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

double totalMechanical(const Energies& e) {
  return e.kinetic + e.gravitational + e.elastic;
}

// a rod with bending, torsion and stretch, optionally damped and under gravity
Model softRod(double damping, bool gravity) {
  StrainBasisDesc basis;
  basis.order = {1, 2, 2, 0, -1, -1};
  RobotDescription robot = test::uniformRod(0.3, 0.015, basis, 4);
  robot.links[0].soft().divisions[0].material.damping = damping;
  if (!gravity) robot.gravity = {0, 0, 0};
  return buildModel(robot);
}

Eigen::VectorXd releaseVelocity(const Model& model) {
  return Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.5);
}

std::string testName(const ::testing::TestParamInfo<IntegratorKind>& info) {
  std::string name = integratorName(info.param);
  std::erase(name, '-');
  return name;
}

// the variable-step methods at a tight tolerance: the drift is the tolerance's
class UndampedEnergyTest : public ::testing::TestWithParam<IntegratorKind> {};

TEST_P(UndampedEnergyTest, UndampedRodKeepsItsEnergy) {
  const Model model = softRod(0.0, false);
  SimulationOptions options;
  options.integrator = GetParam();
  options.t_end = 1.0;
  options.output_interval = 0.05;
  options.relative_tolerance = 1e-11;
  options.absolute_tolerance = 1e-13;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), releaseVelocity(model), options);
  ASSERT_TRUE(result.completed) << result.message;
  const double E0 = totalMechanical(result.samples.front().energy);
  ASSERT_GT(E0, 1e-6);
  double worst = 0.0;
  for (const Sample& s : result.samples)
    worst = std::max(worst, std::abs(totalMechanical(s.energy) - E0) / E0);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(result.samples.back().energy.elastic, 1e-3 * E0);  // the energy really moved around
}

INSTANTIATE_TEST_SUITE_P(Integrators, UndampedEnergyTest,
                         ::testing::Values(IntegratorKind::Bdf, IntegratorKind::Ida), testName);

class DampedEnergyTest : public ::testing::TestWithParam<IntegratorKind> {};

TEST_P(DampedEnergyTest, EnergyDecreasesAndBalancesTheDissipatedWork) {
  const Model model = softRod(5e3, true);
  SimulationOptions options;
  options.integrator = GetParam();
  options.t_end = 0.3;
  options.output_interval = 0.01;
  options.step = GetParam() == IntegratorKind::Rk4 ? 2e-5 : 2e-4;
  options.relative_tolerance = 1e-9;
  options.absolute_tolerance = 1e-11;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), releaseVelocity(model), options);
  ASSERT_TRUE(result.completed) << result.message;
  const double E0 = totalMechanical(result.samples.front().energy);
  for (std::size_t k = 1; k < result.samples.size(); ++k) {
    EXPECT_LT(totalMechanical(result.samples[k].energy),
              totalMechanical(result.samples[k - 1].energy) + 1e-12)
        << "at t = " << result.samples[k].t;
  }
  const Energies& end = result.samples.back().energy;
  EXPECT_GT(end.dissipated, 0.01 * std::abs(E0));
  // the damping work accounts for the lost energy (implicit Euler dissipates numerically as well)
  const double balance = std::abs(totalMechanical(end) + end.dissipated - E0);
  const double allowed = GetParam() == IntegratorKind::ImplicitEuler ? 0.05 : 1e-3;
  EXPECT_LT(balance, allowed * end.dissipated);
}

INSTANTIATE_TEST_SUITE_P(Integrators, DampedEnergyTest,
                         ::testing::Values(IntegratorKind::Bdf, IntegratorKind::Newmark,
                                           IntegratorKind::Rk4, IntegratorKind::ImplicitEuler,
                                           IntegratorKind::Ida),
                         testName);

// BDF at a tight tolerance, from rest over 0.05 s, as the reference of the other integrators: each
// must complete and put the tip of `link` within its tolerance [m] of the reference's
struct IntegratorCase {
  IntegratorKind kind;
  double step, tolerance;
};

void expectIntegratorsAgree(const Model& model, int link, std::vector<IntegratorCase> cases) {
  SimulationOptions options;
  options.t_end = 0.05;
  options.output_interval = 0.025;
  options.relative_tolerance = 1e-10;
  options.absolute_tolerance = 1e-12;
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq), v0 = Eigen::VectorXd::Zero(model.nv);
  const SimulationResult reference = simulate(model, q0, v0, options);
  ASSERT_TRUE(reference.completed) << reference.message;
  const auto tip = [&](const Eigen::VectorXd& q) {
    Data data(model);
    forwardKinematics(model, data, q);
    return linkTipPose(model, data, link).p;
  };
  const Eigen::Vector3d tip_ref = tip(reference.samples.back().q);
  EXPECT_GT((tip_ref - tip(reference.samples.front().q)).norm(), 1e-3);  // it moved
  for (const IntegratorCase& c : cases) {
    SCOPED_TRACE(integratorName(c.kind));
    options.integrator = c.kind;
    if (c.step > 0.0) options.step = c.step;
    const SimulationResult run = simulate(model, q0, v0, options);
    ASSERT_TRUE(run.completed) << run.message;
    EXPECT_LT((tip(run.samples.back().q) - tip_ref).norm(), c.tolerance);
  }
}

TEST(SimulationTest, IntegratorsAgreeOnTheHybridRobot) {
  expectIntegratorsAgree(buildModel(test::example("hybrid_serial_robot")), 2,
                         {{IntegratorKind::Rk4, 1e-5, 1e-6},
                          {IntegratorKind::Newmark, 2e-4, 1e-3},
                          {IntegratorKind::ImplicitEuler, 2e-4, 2e-2}});
}

TEST(SimulationTest, EveryIntegratorRunsTheThreeBodyKinds) {
  // rigid links on prescribed joints, a spatial constant-curvature segment pulled by its tendons
  // (3 to 6 N at t = 0) and a GVS rod at the tip
  const Model model = buildModel(test::example("pcc_hybrid_robot"));
  expectIntegratorsAgree(model, static_cast<int>(model.links.size()) - 1,
                         {{IntegratorKind::Ida, 0.0, 1e-6},
                          {IntegratorKind::Rk4, 1e-5, 1e-6},
                          {IntegratorKind::Newmark, 2e-4, 1e-3},
                          {IntegratorKind::ImplicitEuler, 2e-4, 2e-2}});
}

TEST(SimulationTest, DivergenceStopsWithMessageAndKeepsSamples) {
  const Model model = softRod(0.0, true);
  const SimulationOptions options = test::divergingRk4Options();
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), releaseVelocity(model), options);
  EXPECT_FALSE(result.completed);
  EXPECT_NE(result.message.find("diverged after t ="), std::string::npos) << result.message;
  ASSERT_GE(result.samples.size(), 1u);
  for (const Sample& s : result.samples) EXPECT_TRUE(s.q.allFinite() && s.v.allFinite());
}

// a tip force switched on within a nanosecond at t = 0.053 s and a minimum step of 1e-5 s: BDF
// collapses onto the jump; the fresh start from the last accepted step fails there again without
// progress, so the run stops (no endless restarts) naming the time, every earlier sample kept
TEST(SimulationTest, BdfStopsOnAStepSizeCollapseThatARestartCannotPass) {
  const Model model = buildModel(test::rodKickedAtTheTip(0.053));
  SimulationOptions options = test::kickedRodOptions(IntegratorKind::Bdf);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const SimulationResult result = simulate(model, zero, zero, options);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.message.rfind("diverged after t = 0.05 s: ", 0), 0u) << result.message;
  EXPECT_EQ(result.samples.size(), 6u);
  EXPECT_EQ(result.statistics.restarts, 1);
  options.min_step = 0.0;  // the default, no floor: the same run passes the jump with small steps
  const SimulationResult passing = simulate(model, zero, zero, options);
  EXPECT_TRUE(passing.completed) << passing.message;
  EXPECT_EQ(passing.statistics.restarts, 0);
}

// the tip of the last link at q
Eigen::Vector3d lastTip(const Model& model, const Eigen::VectorXd& q) {
  Data data(model);
  forwardKinematics(model, data, q);
  return linkTipPose(model, data, static_cast<int>(model.links.size()) - 1).p;
}

// a tapered, damped rod of two divisions (36 coordinates) pulled from rest by one cable at 20 N
// (../shared/cases/tight_tolerance_cable.json). Its damped fast modes ask for steps near 1e-12 s
// at t = 0 at atol 1e-12: a fixed 1e-10 s floor on the step once stopped BDF and IDA there
TEST(SimulationTest, TighterTolerancesGiveMoreAccurateTipsOnADampedCable) {
  const Model model = buildModel(
      loadRobot(std::filesystem::path(TENDRIL_TEST_DATA_DIR) / "tight_tolerance_cable.json"));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  SimulationOptions options;
  options.t_end = options.output_interval = 0.01;
  // an independent reference: explicit RK4 at a fixed 1 us step, stable here, its truncation
  // (h^4) far below the tightest tolerance (at 0.2 us the tip moves by 1e-15 m)
  options.integrator = IntegratorKind::Rk4;
  options.step = 1e-6;
  const SimulationResult reference = simulate(model, zero, zero, options);
  ASSERT_TRUE(reference.completed) << reference.message;
  const Eigen::Vector3d tip = lastTip(model, reference.samples.back().q);
  const double moved = (tip - lastTip(model, zero)).norm();
  ASSERT_GT(moved, 1e-4);
  for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Ida}) {
    SCOPED_TRACE(integratorName(kind));
    options = SimulationOptions{};
    options.t_end = options.output_interval = 0.01;
    options.integrator = kind;
    double looser_error = std::numeric_limits<double>::infinity();
    for (double rtol : {1e-6, 1e-8, 1e-10}) {
      options.relative_tolerance = rtol;
      options.absolute_tolerance = 1e-2 * rtol;
      const SimulationResult run = simulate(model, zero, zero, options);
      ASSERT_TRUE(run.completed) << "rtol " << rtol << ": " << run.message;
      // the tip to the tolerance, and closer than at the looser one (seen: 3 to 50 times inside)
      const double error = (lastTip(model, run.samples.back().q) - tip).norm();
      EXPECT_LT(error, rtol * moved) << "rtol " << rtol;
      EXPECT_LT(error, looser_error) << "rtol " << rtol;
      looser_error = error;
    }
  }
}

// every example from rest over 10 ms at rtol 1e-10 / atol 1e-12: BDF and IDA (where it applies:
// no closed chains) complete and their tips agree to the tolerance on a metre (seen: 7e-14 m)
TEST(SimulationTest, EveryExampleHoldsATightTolerance) {
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().stem().string());
    const Model model = buildModel(loadRobot(entry.path()));
    if (model.agnostic_only) continue;  // LVP bodies: the simulator runs the GVS engine
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
    SimulationOptions options;
    options.t_end = options.output_interval = 0.01;
    options.relative_tolerance = 1e-10;
    options.absolute_tolerance = 1e-12;
    const SimulationResult bdf = simulate(model, zero, zero, options);
    ASSERT_TRUE(bdf.completed) << bdf.message;
    if (unsupportedModel(model, IntegratorKind::Ida)) continue;
    options.integrator = IntegratorKind::Ida;
    const SimulationResult ida = simulate(model, zero, zero, options);
    ASSERT_TRUE(ida.completed) << ida.message;
    EXPECT_LT(maxTipDistance(model, bdf.samples, ida.samples), 1e-10);
  }
}

TEST(SimulationTest, RejectsStepsThatCannotAdvance) {
  const Model model = softRod(0.0, true);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  SimulationOptions options;
  options.t_end = 0.01;
  for (IntegratorKind kind :
       {IntegratorKind::Rk4, IntegratorKind::ImplicitEuler, IntegratorKind::Newmark}) {
    options.integrator = kind;
    for (double step : {0.0, -1e-3}) {
      options.step = step;
      EXPECT_THROW(simulate(model, zero, zero, options), std::invalid_argument)
          << integratorName(kind);
    }
  }
  for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Ida}) {
    options.integrator = kind;
    options.step = 0.0;  // no maximum step: valid
    EXPECT_TRUE(simulate(model, zero, zero, options).completed) << integratorName(kind);
    options.step = -1.0;
    EXPECT_THROW(simulate(model, zero, zero, options), std::invalid_argument)
        << integratorName(kind);
  }
}

TEST(SimulationTest, CallbackCancelsAndOutputsAreOnTheGrid) {
  const Model model = softRod(1e4, true);
  SimulationOptions options;
  options.t_end = 1.0;
  options.output_interval = 0.1;
  for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Ida}) {
    SCOPED_TRACE(integratorName(kind));
    options.integrator = kind;
    int calls = 0;
    const SimulationResult result =
        simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), options,
                 nullptr, [&](const Sample&) { return ++calls < 4; });
    EXPECT_TRUE(result.cancelled);
    EXPECT_FALSE(result.completed);
    EXPECT_EQ(result.message, "cancelled at t = 0.3 s");
    ASSERT_EQ(result.samples.size(), 4u);
    for (std::size_t k = 0; k < result.samples.size(); ++k)
      EXPECT_NEAR(result.samples[k].t, 0.1 * k, 1e-12);
    EXPECT_GT(result.samples.back().energy.elastic, 0.0);  // it moved
  }
}

}  // namespace
}  // namespace tendril
