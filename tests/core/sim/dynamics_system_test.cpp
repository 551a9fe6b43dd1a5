// Tests for core/sim/dynamics_system.cpp and core/sim/second_order_linear_solver.cpp.

#include "core/sim/dynamics_system.hpp"

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/LU>
#include <random>

#include "core/algorithm/mass_matrix.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "tests/support/closed_chain_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the kinetic energy summed frame by frame equals v^T M v / 2, added mass included
TEST(DynamicsSystemTest, KineticEnergyIsHalfVTransposeMV) {
  for (const char* name : {"hybrid_serial_robot", "cable_manipulator", "underwater_robot"}) {
    const Model model = buildModel(test::example(name));
    DynamicsSystem system(model, std::make_unique<FiniteDifferenceJacobian>());
    const test::State s = test::randomState(model, 4, 0.5);
    Data data(model);
    const double expected = 0.5 * s.v.dot(massMatrix(model, data, s.q) * s.v);
    EXPECT_NEAR(system.energies(s.q, s.v).kinetic, expected, 1e-12 * expected) << name;
  }
}

// the reduced solve of [[I, -g I], [A21, A22]] x = b equals a full LU solve
TEST(SecondOrderLinearSolverTest, MatchesAFullLuSolve) {
  const int n = 7;
  const double gamma = 0.013;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto randomMatrix = [&](int rows, int cols) {
    return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return uniform(random); }).eval();
  };
  Eigen::MatrixXd full(2 * n, 2 * n);
  full << Eigen::MatrixXd::Identity(n, n), -gamma * Eigen::MatrixXd::Identity(n, n),
      -gamma * 1e3 * randomMatrix(n, n),
      Eigen::MatrixXd::Identity(n, n) - gamma * 10.0 * randomMatrix(n, n);
  const Eigen::VectorXd b = randomMatrix(2 * n, 1);

  SUNContext context = nullptr;
  SUNContext_Create(nullptr, &context);
  SUNMatrix matrix = SUNDenseMatrix(2 * n, 2 * n, context);
  Eigen::Map<Eigen::MatrixXd>(SUNDenseMatrix_Data(matrix), 2 * n, 2 * n) = full;
  N_Vector x = N_VNew_Serial(2 * n, context), rhs = N_VNew_Serial(2 * n, context);
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(rhs), 2 * n) = b;
  SUNLinearSolver solver = makeSecondOrderLinearSolver(n, context);
  ASSERT_EQ(SUNLinSolSetup(solver, matrix), SUNLS_SUCCESS);
  ASSERT_EQ(SUNLinSolSolve(solver, matrix, x, rhs, 0.0), SUNLS_SUCCESS);
  const Eigen::VectorXd expected = full.partialPivLu().solve(b);
  EXPECT_LT((Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(x), 2 * n) - expected).norm(),
            1e-12 * expected.norm());
  SUNLinSolFree(solver);
  N_VDestroy(x);
  N_VDestroy(rhs);
  SUNMatDestroy(matrix);
  SUNContext_Free(&context);
}

// a driven four-bar: a closed chain and a prescribed coordinate
RobotDescription drivenFourBar() {
  RobotDescription robot = test::fourBar();
  JointInputDesc drive;
  drive.link = "crank";
  drive.mode = JointInputDesc::Mode::Position;
  drive.value.kind = TimeFunction::Kind::Sine;
  drive.value.amplitude = 0.6;
  drive.value.frequency = 1.0;
  robot.joint_inputs.push_back(drive);
  return robot;
}

// the force-space Newton solve (analytical derivatives) equals the solve of CVODE's 2n x 2n
// I - gamma [[0, I], [dFD/dq, dFD/dv]] built from the acceleration-space Jacobian, for an
// unconstrained robot, a soft rod pinned in a loop and a driven closed chain
TEST(SecondOrderLinearSolverTest, ForceSpaceSolveMatchesTheAccelerationSpaceSystem) {
  struct Case {
    const char* name;
    RobotDescription robot;
  };
  for (const Case& c :
       {Case{"hybrid_serial_robot", test::example("hybrid_serial_robot")},
        Case{"soft_loop", test::softLoop(0.02)}, Case{"driven_four_bar", drivenFourBar()}}) {
    const Model model = buildModel(c.robot);
    const int n = model.nv;
    DynamicsSystem system(model, std::make_unique<AnalyticJacobian>());
    const test::State s = test::randomState(model, 11, 0.3);
    const double t = 0.3, gamma = 2e-3;
    Eigen::MatrixXd dqdd_dq, dqdd_dv;
    system.jacobian(t, s.q, s.v, dqdd_dq, dqdd_dv);
    Eigen::MatrixXd full = Eigen::MatrixXd::Identity(2 * n, 2 * n);
    full.topRightCorner(n, n) -= gamma * Eigen::MatrixXd::Identity(n, n);
    full.bottomLeftCorner(n, n) -= gamma * dqdd_dq;
    full.bottomRightCorner(n, n) -= gamma * dqdd_dv;
    std::mt19937 random(5);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(2 * n, [&] { return uniform(random); });

    SUNContext context = nullptr;
    SUNContext_Create(nullptr, &context);
    SUNMatrix matrix = makeForceSpaceMatrix(n, context);
    ForceSpaceBlocks& blocks = forceSpaceBlocks(matrix);
    ASSERT_TRUE(system.forceSpaceJacobian(t, s.q, s.v, blocks)) << c.name;
    blocks.gamma = gamma;
    N_Vector x = N_VNew_Serial(2 * n, context), rhs = N_VNew_Serial(2 * n, context);
    Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(rhs), 2 * n) = b;
    SUNLinearSolver solver = makeSecondOrderLinearSolver(n, context);
    ASSERT_EQ(SUNLinSolSetup(solver, matrix), SUNLS_SUCCESS) << c.name;
    ASSERT_EQ(SUNLinSolSolve(solver, matrix, x, rhs, 0.0), SUNLS_SUCCESS) << c.name;
    const Eigen::VectorXd expected = full.partialPivLu().solve(b);
    const Eigen::Map<Eigen::VectorXd> solution(N_VGetArrayPointer(x), 2 * n);
    EXPECT_LT((solution - expected).norm(), 1e-9 * expected.norm()) << c.name;
    SUNLinSolFree(solver);
    N_VDestroy(x);
    N_VDestroy(rhs);
    SUNMatDestroy(matrix);
    SUNContext_Free(&context);
  }
}

// the central-difference force-space blocks (the fd Jacobian of BDF) match the analytical ones.
// What separates them is the round-off of central differences at h = 1e-6, which scales with the
// forces differenced, not with the block: on the hybrid serial robot dr/dv (13) is off by 2.4e-5
// while dr/dq is 8.6e4, and the error grows as 1/h (checked from h = 1e-5 to 1e-7). So each block
// is held to 1e-6 of its whole Jacobian, [dr/dq | dr/dv] or [dc/dq | dc/dv]; a missing or wrong
// term would be of the block's own size
TEST(DynamicsSystemTest, ForceSpaceDifferencesMatchTheAnalyticalBlocks) {
  const auto error = [](const Eigen::MatrixXd& x, const Eigen::MatrixXd& reference) {
    return (x - reference).norm();
  };
  for (const auto& [name, robot] :
       {std::pair{"hybrid_serial_robot", test::example("hybrid_serial_robot")},
        std::pair{"soft_loop", test::softLoop(0.02)},
        std::pair{"driven_four_bar", drivenFourBar()}}) {
    const Model model = buildModel(robot);
    const test::State s = test::randomState(model, 12, 0.3);
    DynamicsSystem analytic(model, std::make_unique<AnalyticJacobian>());
    DynamicsSystem differences(model, std::make_unique<FiniteDifferenceJacobian>());
    ForceSpaceBlocks a, d;
    ASSERT_TRUE(analytic.forceSpaceJacobian(0.3, s.q, s.v, a)) << name;
    ASSERT_TRUE(differences.forceSpaceJacobian(0.3, s.q, s.v, d)) << name;
    EXPECT_EQ(a.free, d.free) << name;
    EXPECT_EQ(a.mass, d.mass) << name;  // the same forward dynamics, exactly
    EXPECT_EQ(a.A, d.A) << name;
    EXPECT_EQ(a.dc_dq.rows(), model.n_constraints) << name;
    const double r_scale = 1e-6 * (a.dr_dq.norm() + a.dr_dv.norm());
    const double c_scale = 1e-6 * (a.dc_dq.norm() + a.dc_dv.norm());
    EXPECT_LE(error(d.dr_dq, a.dr_dq), r_scale) << name;
    EXPECT_LE(error(d.dr_dv, a.dr_dv), r_scale) << name;
    EXPECT_LE(error(d.dc_dq, a.dc_dq), c_scale) << name;
    EXPECT_LE(error(d.dc_dv, a.dc_dv), c_scale) << name;
  }
}

}  // namespace
}  // namespace tendril
