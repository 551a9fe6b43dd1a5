// Tests for core/sim/ida.cpp, the residual form of DynamicsSystem,
// core/algorithm/dynamics_residual.cpp and the residual matrices of
// core/sim/second_order_linear_solver.cpp.

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <random>

#include "core/algorithm/dynamics_residual.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/block_linear_solver.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the residual vanishes at the forward-dynamics acceleration, prescribed coordinates included
TEST(DynamicsResidualTest, VanishesAtTheForwardDynamicsAcceleration) {
  for (const char* name :
       {"underwater_robot", "paper_hybrid_serial_robot", "cable_manipulator", "contact_cylinder"}) {
    SCOPED_TRACE(name);
    const Model model = buildModel(test::example(name));
    DynamicsSystem system(model, makeJacobian(JacobianKind::Analytic));
    const test::State s = test::randomState(model, 5, 0.2);
    const Eigen::VectorXd a = system.acceleration(0.3, s.q, s.v);
    const Eigen::VectorXd r = system.residual(0.3, s.q, s.v, a);
    const Eigen::VectorXd r_other = system.residual(0.3, s.q, s.v, s.a);
    EXPECT_LT(r.norm(), 1e-9 * r_other.norm());
  }
}

// the residual form's Jacobian: analytical against central differences of the residual, and
// both against the forward-dynamics derivatives (at a = FD(q, v) they are dFD/dq, dFD/dv)
TEST(DynamicsResidualTest, JacobianMatchesCentralDifferencesAndForwardDynamicsDerivatives) {
  for (const char* name :
       {"underwater_robot", "paper_hybrid_serial_robot", "cable_manipulator", "contact_cylinder"}) {
    SCOPED_TRACE(name);
    const Model model = buildModel(test::example(name));
    DynamicsSystem analytic(model, makeJacobian(JacobianKind::Analytic));
    DynamicsSystem fd(model, makeJacobian(JacobianKind::FiniteDifference));
    const test::State s = test::randomState(model, 6, 0.2);
    const int n = model.nv;
    const Eigen::VectorXd a = analytic.acceleration(0.4, s.q, s.v);
    Eigen::MatrixXd dq(n, n), dv(n, n), dq_fd(n, n), dv_fd(n, n), dq_fdd(n, n), dv_fdd(n, n);
    ASSERT_TRUE(analytic.residualJacobian(0.4, s.q, s.v, a, dq, dv));
    ASSERT_TRUE(fd.residualJacobian(0.4, s.q, s.v, a, dq_fd, dv_fd));
    analytic.jacobian(0.4, s.q, s.v, dq_fdd, dv_fdd);
    EXPECT_LT(test::relativeError(dq, dq_fd), 1e-6);
    EXPECT_LT(test::relativeError(dv, dv_fd), 1e-6);
    EXPECT_NE(dq, dq_fd);
    EXPECT_LT(test::relativeError(dq, dq_fdd), 1e-9);
    EXPECT_LT(test::relativeError(dv, dv_fdd), 1e-9);
  }
}

// the residual solve equals a full LU solve of [[c I, -I], [-M dFD/dq, M (c I - dFD/dv)]]
TEST(SecondOrderLinearSolverTest, ResidualBlocksMatchAFullLuSolve) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  const int n = model.nv;
  Data data(model);
  const test::State s = test::randomState(model, 8, 0.3);
  forwardDynamics(model, data, s.q, s.v, Eigen::VectorXd::Zero(n));  // factors M
  const Eigen::MatrixXd M = data.M;
  const double c = 3.7e3;
  std::mt19937 random(4);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto randomMatrix = [&](int rows, int cols) {
    return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return uniform(random); }).eval();
  };
  test::BlockLinearSolver solver(makeResidualMatrix, n);
  ResidualBlocks& blocks = residualBlocks(solver.matrix());
  blocks.c = c;
  blocks.dqdd_dq = 1e6 * randomMatrix(n, n);
  blocks.dqdd_dv = 1e2 * randomMatrix(n, n);
  blocks.mass = &data;
  Eigen::MatrixXd full(2 * n, 2 * n);
  full << c * Eigen::MatrixXd::Identity(n, n), -Eigen::MatrixXd::Identity(n, n),
      -M * blocks.dqdd_dq, M * (c * Eigen::MatrixXd::Identity(n, n) - blocks.dqdd_dv);
  const Eigen::VectorXd b = randomMatrix(2 * n, 1);
  solver.rhs() = b;
  ASSERT_EQ(SUNMatZero(solver.matrix()), 0);  // IDA zeroes the matrix: the blocks stay
  ASSERT_EQ(solver.setup(), SUNLS_SUCCESS);
  ASSERT_EQ(solver.solve(), SUNLS_SUCCESS);
  const Eigen::VectorXd expected = full.partialPivLu().solve(b);
  EXPECT_LT((solver.solution() - expected).norm(), 1e-10 * expected.norm());
}

SimulationResult run(const Model& model, IntegratorKind kind, double tolerance, double t_end,
                     JacobianKind jacobian = JacobianKind::Analytic) {
  SimulationOptions options;
  options.integrator = kind;
  options.t_end = t_end;
  options.output_interval = 0.05;
  options.step = 0.0;
  options.relative_tolerance = tolerance;
  options.absolute_tolerance = 1e-2 * tolerance;
  options.jacobian = jacobian;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  return simulate(model, zero, zero, options);
}

// ida and bdf solve the same equations to the same tolerance: their tips part by the sum of their
// global errors, a few times the tolerance in metres for these robots (coordinates of order one,
// tips within 1.5 m), and the distance falls with the tolerance (measured: 1e-10 to 2e-8 m at
// 1e-8, 0.1 to 8 um at 1e-5). How fast it falls: a variable-step method of order p that keeps its
// local errors at the tolerance has a global error ~ tol^(p / (p + 1)), so a 1000 times tighter
// tolerance brings the runs at least sqrt(1000) ~ 32 times closer, order 1 being the worst case
// (measured 170-1340 times, the contact robot 96 times: the earlier bound of 100 sat on its edge
// and broke with a change of rounding). A difference between the equations the two solve would
// not fall at all
TEST(IdaTest, AgreesWithBdfWithinTheTolerance) {
  for (const char* stem :
       {"soft_cantilever", "tapered_free_fall", "cable_manipulator", "hybrid_serial_robot",
        "contact_cylinder", "paper_cable_manipulator", "paper_hybrid_serial_robot",
        "paper_contact_cylinder", "underwater_robot"}) {
    SCOPED_TRACE(stem);
    const Model model = buildModel(test::example(stem));
    double coarse_distance = 0.0;
    for (const double tolerance : {1e-5, 1e-8}) {
      const SimulationResult bdf = run(model, IntegratorKind::Bdf, tolerance, 1.0);
      const SimulationResult ida = run(model, IntegratorKind::Ida, tolerance, 1.0);
      ASSERT_TRUE(bdf.completed && ida.completed) << bdf.message << " / " << ida.message;
      ASSERT_EQ(ida.samples.size(), bdf.samples.size());
      const double distance = maxTipDistance(model, bdf.samples, ida.samples);
      EXPECT_LT(distance, 5.0 * tolerance) << "tolerance " << tolerance;
      if (tolerance < 1e-5) {
        EXPECT_LT(distance, coarse_distance / std::sqrt(1e-5 / tolerance));
      }
      coarse_distance = distance;
    }
  }
}

// the Jacobian steers the Newton iterations only: either one gives the same trajectory, and, both
// being the derivatives of the same residual, the same work, up to the integrator's sensitivity to
// rounding: its discrete choices (order, step, Jacobian reuse) move the counts of a run by up to
// ~10 % when only the last digits change (the underwater robot's 10 s bdf run took 640-784 steps
// across builds of the same equations), so the counts may differ by twice that
TEST(IdaTest, AnalyticAndFiniteDifferenceJacobiansGiveTheSameRun) {
  for (const char* stem : {"paper_cable_manipulator", "hybrid_serial_robot",
                           "paper_hybrid_serial_robot", "underwater_robot"}) {
    SCOPED_TRACE(stem);
    const Model model = buildModel(test::example(stem));
    const SimulationResult analytic = run(model, IntegratorKind::Ida, 1e-9, 0.5);
    const SimulationResult fd =
        run(model, IntegratorKind::Ida, 1e-9, 0.5, JacobianKind::FiniteDifference);
    ASSERT_TRUE(analytic.completed && fd.completed) << analytic.message << " / " << fd.message;
    EXPECT_LT(maxTipDistance(model, analytic.samples, fd.samples), 1e-8);
    const SimulationStatistics &a = analytic.statistics, &f = fd.statistics;
    EXPECT_NEAR(static_cast<double>(f.steps), static_cast<double>(a.steps), 0.2 * a.steps);
    EXPECT_NEAR(static_cast<double>(f.rhs_evaluations), static_cast<double>(a.rhs_evaluations),
                0.2 * a.rhs_evaluations);
    EXPECT_NEAR(static_cast<double>(f.jacobian_evaluations),
                static_cast<double>(a.jacobian_evaluations), 0.2 * a.jacobian_evaluations + 2);
  }
}

// a tip force switched on within a nanosecond at t = 0.053 s: the step that holds the jump is
// below the minimum step, and the run stops there with every earlier sample
TEST(IdaTest, DivergenceKeepsTheSamplesAndNamesTheTime) {
  const Model model = buildModel(test::rodKickedAtTheTip(0.053));
  SimulationOptions options = test::kickedRodOptions(IntegratorKind::Ida);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const SimulationResult result = simulate(model, zero, zero, options);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.message.rfind("diverged after t = 0.05 s: ", 0), 0u) << result.message;
  ASSERT_EQ(result.samples.size(), 6u);
  for (const Sample& s : result.samples) EXPECT_TRUE(s.q.allFinite() && s.v.allFinite());
  options.min_step = 0.0;  // the default, no floor: the same run passes the jump with small steps
  EXPECT_TRUE(simulate(model, zero, zero, options).completed);
}

TEST(IdaTest, RejectsClosedChainsNamingTheIntegratorsThatHandleThem) {
  const Model model = buildModel(test::example("parallel_robot"));
  ASSERT_FALSE(model.closed_chains.empty());
  const auto reason = unsupportedModel(model, IntegratorKind::Ida);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("use bdf or newmark"), std::string::npos) << *reason;
  EXPECT_FALSE(unsupportedModel(model, IntegratorKind::Bdf).has_value());
  SimulationOptions options;
  options.integrator = IntegratorKind::Ida;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  EXPECT_THROW(simulate(model, zero, zero, options), std::invalid_argument);
}

}  // namespace
}  // namespace tendril
