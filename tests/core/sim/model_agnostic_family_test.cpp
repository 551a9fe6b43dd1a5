// Tests for running a model on the model-agnostic family (core/algorithm/dynamics_family.cpp,
// model_agnostic_forward_dynamics.cpp, model_agnostic_kinematics.cpp, and the family switch of
// DynamicsSystem, simulate() and solveStatics()): on the bundled examples the two families agree
// (the engine being the independent reference: a different recursion over virtual joints), the
// Jacobians are reported as central differences, and a load the family would drop is refused.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "core/algorithm/dynamics_family.hpp"
#include "core/algorithm/statics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/make_agnostic_frame.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::relativeError;

RobotDescription exampleRobot(const std::string& name) {
  return loadRobot(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / (name + ".json"));
}

// the example with its force inputs and cables, but without position inputs (prescribed
// coordinates), which the model-agnostic family refuses (see the rejection test below)
Model example(const std::string& name) {
  RobotDescription robot = exampleRobot(name);
  std::erase_if(robot.joint_inputs, [](const JointInputDesc& input) {
    return input.mode == JointInputDesc::Mode::Position;
  });
  return buildModel(robot);
}

class FamilyAgreement : public ::testing::TestWithParam<std::string> {};

// one evaluation at a random state: the agnostic acceleration (MID + Cholesky), residual and
// energies against the engine's to rounding; the central-difference Jacobian against the
// analytical one to the differences' truncation and cancellation error
TEST_P(FamilyAgreement, EvaluationsMatchTheEngine) {
  const Model model = example(GetParam());
  DynamicsSystem engine(model, makeJacobian(JacobianKind::Analytic), DynamicsFamily::Engine);
  DynamicsSystem agnostic(model, makeJacobian(JacobianKind::Analytic),
                          DynamicsFamily::ModelAgnostic);
  ASSERT_EQ(agnostic.family(), DynamicsFamily::ModelAgnostic);
  EXPECT_EQ(agnostic.derivativeSource(), DerivativeSource::CentralDifferences);
  EXPECT_EQ(engine.derivativeSource(), DerivativeSource::Analytical);
  for (unsigned seed : {1u, 2u}) {
    const test::State s = test::randomState(model, seed, 0.4);
    const double t = 0.1 * seed;
    const Eigen::VectorXd qdd_engine = engine.acceleration(t, s.q, s.v);
    const Eigen::VectorXd qdd_agnostic = agnostic.acceleration(t, s.q, s.v);
    EXPECT_LT(relativeError(qdd_agnostic, qdd_engine), 1e-10) << "seed " << seed;

    const Eigen::VectorXd r_engine = engine.residual(t, s.q, s.v, s.a);
    const Eigen::VectorXd r_agnostic = agnostic.residual(t, s.q, s.v, s.a);
    EXPECT_LT(relativeError(r_agnostic, r_engine), 1e-10) << "seed " << seed;

    const Energies e_engine = engine.energies(s.q, s.v), e_agnostic = agnostic.energies(s.q, s.v);
    EXPECT_NEAR(e_agnostic.kinetic, e_engine.kinetic, 1e-10 * (1.0 + std::abs(e_engine.kinetic)));
    EXPECT_NEAR(e_agnostic.gravitational, e_engine.gravitational,
                1e-10 * (1.0 + std::abs(e_engine.gravitational)));
    EXPECT_EQ(e_agnostic.elastic, e_engine.elastic);

    Eigen::MatrixXd dq_engine, dv_engine, dq_agnostic, dv_agnostic;
    engine.jacobian(t, s.q, s.v, dq_engine, dv_engine);
    agnostic.jacobian(t, s.q, s.v, dq_agnostic, dv_agnostic);
    // step 1e-6 on O(1) coordinates: truncation ~1e-12, cancellation ~1e-16 |r| / 1e-6
    EXPECT_LT(relativeError(dq_agnostic, dq_engine), 1e-6) << "seed " << seed;
    EXPECT_LT(relativeError(dv_agnostic, dv_engine), 1e-6) << "seed " << seed;
  }
}

SimulationResult run(const Model& model, IntegratorKind kind, DynamicsFamily family, double t_end) {
  SimulationOptions options;
  options.integrator = kind;
  options.t_end = t_end;
  options.output_interval = 0.05;
  options.family = family;
  if (variableStep(kind)) {
    options.step = 0.0;
    options.relative_tolerance = 1e-10;
    options.absolute_tolerance = 1e-12;
  } else {
    // RK4 within its stability limit on the stiffest rods (the hybrid robot's)
    options.step = kind == IntegratorKind::Rk4 ? 2e-5 : 2e-4;
    options.relative_tolerance = 1e-12;  // Newton of the implicit steps converged to rounding
  }
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  const Eigen::VectorXd v0 = Eigen::VectorXd::LinSpaced(model.nv, 0.3, -0.3);
  return simulate(model, q0, v0, options);
}

double maxStateDifference(const SimulationResult& a, const SimulationResult& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < a.samples.size() && k < b.samples.size(); ++k) {
    worst = std::max(worst, (a.samples[k].q - b.samples[k].q).lpNorm<Eigen::Infinity>());
    worst = std::max(worst, (a.samples[k].v - b.samples[k].v).lpNorm<Eigen::Infinity>());
  }
  return worst;
}

// fixed-step runs take the same steps on both families: RK4 evaluates the same accelerations (to
// rounding), so the runs agree to rounding accumulated over the steps
TEST_P(FamilyAgreement, FixedStepRunsAgree) {
  if (GetParam() == "hybrid_serial_robot")
    GTEST_SKIP() << "its rods are too stiff for RK4 at 2e-5 s; implicit Euler covers it";
  const Model model = example(GetParam());
  const SimulationResult engine = run(model, IntegratorKind::Rk4, DynamicsFamily::Engine, 0.2);
  const SimulationResult agnostic =
      run(model, IntegratorKind::Rk4, DynamicsFamily::ModelAgnostic, 0.2);
  ASSERT_TRUE(engine.completed) << engine.message;
  ASSERT_TRUE(agnostic.completed) << agnostic.message;
  EXPECT_EQ(agnostic.family, DynamicsFamily::ModelAgnostic);
  EXPECT_EQ(engine.family, DynamicsFamily::Engine);
  EXPECT_LT(maxStateDifference(engine, agnostic), 1e-9);
}

// implicit Euler solves each step by Newton with a different Jacobian on each family (analytical,
// central differences): both converge to the same step solution, to the Newton tolerance
TEST_P(FamilyAgreement, ImplicitEulerRunsAgree) {
  const Model model = example(GetParam());
  const SimulationResult engine =
      run(model, IntegratorKind::ImplicitEuler, DynamicsFamily::Engine, 0.2);
  const SimulationResult agnostic =
      run(model, IntegratorKind::ImplicitEuler, DynamicsFamily::ModelAgnostic, 0.2);
  ASSERT_TRUE(engine.completed) << engine.message;
  ASSERT_TRUE(agnostic.completed) << agnostic.message;
  EXPECT_EQ(agnostic.derivatives, DerivativeSource::CentralDifferences);
  EXPECT_LT(maxStateDifference(engine, agnostic), 1e-8);
}

// BDF (force-space Newton matrix) and IDA (residual form) vary their steps by error control;
// with different Newton matrices the step sequences may part, so the runs agree to the error
// control's tolerance (rtol 1e-10 on O(1) states), not to rounding
TEST_P(FamilyAgreement, VariableStepRunsAgreeToTheirTolerance) {
  const Model model = example(GetParam());
  for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Ida}) {
    const SimulationResult engine = run(model, kind, DynamicsFamily::Engine, 0.2);
    const SimulationResult agnostic = run(model, kind, DynamicsFamily::ModelAgnostic, 0.2);
    ASSERT_TRUE(engine.completed) << integratorName(kind) << ": " << engine.message;
    ASSERT_TRUE(agnostic.completed) << integratorName(kind) << ": " << agnostic.message;
    EXPECT_LT(maxStateDifference(engine, agnostic), 1e-7) << integratorName(kind);
  }
}

class StaticsFamilyAgreement : public ::testing::TestWithParam<std::string> {};

TEST_P(StaticsFamilyAgreement, EquilibriaAgree) {
  const Model model = example(GetParam());
  Data data(model);
  StaticsOptions options;
  // hold what nothing restores (the PCC hybrid's rigid joints, driven by position inputs)
  for (int k = 0; k < model.nv; ++k) {
    if (model.K(k, k) == 0.0) options.prescribed.push_back(k);
  }
  options.family = DynamicsFamily::Engine;
  const StaticsResult engine = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq), options);
  options.family = DynamicsFamily::ModelAgnostic;
  const StaticsResult agnostic =
      solveStatics(model, data, Eigen::VectorXd::Zero(model.nq), options);
  ASSERT_TRUE(engine.converged) << engine.message;
  ASSERT_TRUE(agnostic.converged) << agnostic.message;
  EXPECT_EQ(agnostic.family, DynamicsFamily::ModelAgnostic);
  EXPECT_EQ(agnostic.derivatives, DerivativeSource::CentralDifferences);
  // both meet |R| <= 1e-12 |load|; the equilibria differ by that residual through K^-1
  EXPECT_LT((agnostic.q - engine.q).lpNorm<Eigen::Infinity>(), 1e-9 * (1.0 + engine.q.norm()));
}

INSTANTIATE_TEST_SUITE_P(Examples, FamilyAgreement,
                         ::testing::Values("rigid_7dof_arm", "soft_cantilever", "pcc_planar_arm",
                                           "pcc_spatial_arm", "hybrid_serial_robot",
                                           "pcc_hybrid_robot"));
// the rigid arm has no static equilibrium (nothing holds its joints)
INSTANTIATE_TEST_SUITE_P(Examples, StaticsFamilyAgreement,
                         ::testing::Values("soft_cantilever", "pcc_planar_arm", "pcc_spatial_arm",
                                           "hybrid_serial_robot", "pcc_hybrid_robot"));

// the frames drawn from the bodies' reports against the engine's: rigid bodies where the engine
// puts them, rod samples at the engine's computational points (every kSamplesPerInterval-th of its
// samples; the engine also samples inside each interval), base and tip included
TEST(FamilyFrames, PosesMatchTheEngine) {
  for (const char* name : {"rigid_7dof_arm", "soft_cantilever", "hybrid_serial_robot"}) {
    SCOPED_TRACE(name);
    const Model model = example(name);
    Data data(model);
    const test::State s = test::randomState(model, 3, 0.4);
    const FramePtr engine = makeFrame(model, data, s.q, s.v, 0.0);
    ModelAgnosticPoses poses(model, data);
    const FramePtr agnostic = makeModelAgnosticFrame(model, data, poses, s.q, s.v, 0.0);
    ASSERT_EQ(agnostic->bodies.size(), engine->bodies.size());
    ASSERT_EQ(agnostic->rods.size(), engine->rods.size());
    for (const BodyShape& body : agnostic->bodies) {
      const auto match = std::find_if(engine->bodies.begin(), engine->bodies.end(),
                                      [&](const BodyShape& e) { return e.link == body.link; });
      ASSERT_NE(match, engine->bodies.end());
      EXPECT_LT((body.pose_W.matrix() - match->pose_W.matrix()).norm(), 1e-10) << body.link;
    }
    for (const RodShape& rod : agnostic->rods) {
      const auto match = std::find_if(engine->rods.begin(), engine->rods.end(),
                                      [&](const RodShape& e) { return e.link == rod.link; });
      ASSERT_NE(match, engine->rods.end());
      // base to tip through computational points, in order (an interval frame without inertia
      // reports no element and is skipped)
      std::size_t e = 0;
      for (std::size_t k = 0; k < rod.points.size(); ++k) {
        while (e < match->points.size() && (rod.points[k] - match->points[e]).norm() > 1e-10)
          e += kSamplesPerInterval;
        ASSERT_LT(e, match->points.size()) << rod.link << ": sample " << k << " is no point";
        EXPECT_LT((rod.orientations[k] - match->orientations[e]).norm(), 1e-10);
      }
      EXPECT_LT((rod.points.front() - match->points.front()).norm(), 1e-10);
      EXPECT_EQ(e + 1, match->points.size());  // the last sample is the tip
    }
  }
}

// an LVP body is drawn from its outer surface: at rest the undeformed cylinder (the straight
// configuration once drew nothing: the axis of a source is singular); inflated by its source
// coordinate P (docs/theory/lvp.md §2.5: r^2 -> r^2 + r_c^2 P s^2), the tip's section is drawn
// sqrt(R^2 + r_c^2 P) wide
TEST(FamilyFrames, LvpBodiesAreDrawnFromTheirOuterSurface) {
  const Model model = example("lvp_single_body");
  Data data(model);
  ModelAgnosticPoses poses(model, data);
  const LvpBodyDesc& body = model.description.links[0].lvp();
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const FramePtr rest = makeModelAgnosticFrame(model, data, poses, q, q, 0.0);
  ASSERT_EQ(rest->rods.size(), 1u);
  const RodShape& tube = rest->rods[0];
  ASSERT_GE(tube.points.size(), 2u);
  for (std::size_t k = 0; k < tube.points.size(); ++k) {
    ASSERT_TRUE(tube.points[k].allFinite()) << k;
    ASSERT_TRUE(tube.orientations[k].allFinite()) << k;
    EXPECT_NEAR(tube.radii[k], body.radius, 1e-12);
  }
  EXPECT_NEAR((tube.points.back() - tube.points.front()).norm(), body.length, 1e-12);
  EXPECT_LT((tube.points.back() - rest->tips_W[0]).norm(), 1e-12);

  const double P = 0.5;
  q(model.nq - 1) = P;  // body/lvp/source/0, modes [[0, 0, 1]]: s^2
  const FramePtr inflated = makeModelAgnosticFrame(model, data, poses, q, q, 0.0);
  const std::vector<double>& radii = inflated->rods[0].radii;
  EXPECT_NEAR(radii.front(), body.radius, 1e-12);
  const double a = body.cavity_radius * body.cavity_radius * P;
  EXPECT_NEAR(radii.back(), std::sqrt(body.radius * body.radius + a), 1e-12);
}

TEST(DynamicsFamily, AutoPicksTheEngineUnlessTheModelIsAgnosticOnly) {
  Model model = example("soft_cantilever");
  EXPECT_EQ(resolveFamily(model, DynamicsFamily::Auto), DynamicsFamily::Engine);
  model.agnostic_only = true;
  EXPECT_EQ(resolveFamily(model, DynamicsFamily::Auto), DynamicsFamily::ModelAgnostic);
  EXPECT_THROW(resolveFamily(model, DynamicsFamily::Engine), std::invalid_argument);
}

TEST(DynamicsFamily, JacobianSourceIsLabelled) {
  EXPECT_EQ(derivativeSourceLabel(DerivativeSource::CentralDifferences),
            "central differences (no analytical derivatives for this body kind)");
  EXPECT_EQ(derivativeSourceLabel(derivativeSource(DynamicsFamily::ModelAgnostic)),
            "central differences (no analytical derivatives for this body kind)");
  EXPECT_EQ(derivativeSourceLabel(derivativeSource(DynamicsFamily::Engine)), "analytical");
}

// a point load the model-agnostic inverse dynamics would drop: refused, naming it, before a run
TEST(DynamicsFamily, UnsupportedLoadIsRefusedWithAClearMessage) {
  RobotDescription robot =
      loadRobot(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / "soft_cantilever.json");
  PointLoadDesc load;
  load.name = "push";
  load.link = robot.links.back().name;
  load.abscissa = -1.0;
  load.wrench = {0, 0, 0, 0, 0, -1};
  robot.point_loads.push_back(load);
  const Model model = buildModel(robot);
  try {
    simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv),
             SimulationOptions{.t_end = 0.1, .family = DynamicsFamily::ModelAgnostic});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("point loads (/point_loads)"), std::string::npos)
        << e.what();
  }
  Data data(model);
  StaticsOptions options;
  options.family = DynamicsFamily::ModelAgnostic;
  EXPECT_THROW(solveStatics(model, data, Eigen::VectorXd::Zero(model.nq), options),
               std::invalid_argument);
  // the engine runs it
  EXPECT_EQ(resolveFamily(model, DynamicsFamily::Auto), DynamicsFamily::Engine);
}

TEST(DynamicsFamily, PositionInputsAreRefusedWithAClearMessage) {
  const Model model = buildModel(exampleRobot("pcc_hybrid_robot"));
  try {
    DynamicsSystem system(model, makeJacobian(JacobianKind::Analytic),
                          DynamicsFamily::ModelAgnostic);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("position inputs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tendril
