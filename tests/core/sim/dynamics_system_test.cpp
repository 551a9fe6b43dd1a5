// Tests for core/sim/dynamics_system.cpp and core/sim/second_order_linear_solver.cpp.

#include "core/sim/dynamics_system.hpp"

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/LU>
#include <random>

#include "core/algorithm/mass_matrix.hpp"
#include "core/sim/second_order_linear_solver.hpp"
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

}  // namespace
}  // namespace tendril
