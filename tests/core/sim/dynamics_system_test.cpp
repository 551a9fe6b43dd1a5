// Tests for core/sim/dynamics_system.cpp and core/sim/second_order_linear_solver.cpp.

#include "core/sim/dynamics_system.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "tests/support/block_linear_solver.hpp"
#include "tests/support/closed_chain_models.hpp"
#include "tests/support/rigid_models.hpp"
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

// the acceleration takes the articulated-body recursion where the coordinates lie deep enough
// (long chains, the humanoid) and the factor of M elsewhere (short chains, branched trees, rods
// whose intervals share coordinates), the routes measured in docs/PERFORMANCE.md; the recursion
// leaves M unformed, the factor forms it, and both give the forward dynamics
TEST(DynamicsSystemTest, AccelerationTakesTheRecursionOnlyWhereItIsFaster) {
  struct Case {
    const char* name;
    RobotDescription robot;
    bool recursion;
  };
  const Case cases[] = {{"chain of 7", test::benchmarkChain(7), false},
                        {"chain of 10", test::benchmarkChain(10), false},
                        {"chain of 15", test::benchmarkChain(15), true},
                        {"chain of 30", test::benchmarkChain(30), true},
                        {"arm", test::benchmarkArm(), false},
                        {"tree bf 2", test::branchedTree(31, 2), false},
                        {"tree bf 5", test::branchedTree(31, 5), false},
                        {"tree of 63", test::branchedTree(63, 2), false},
                        {"humanoid", test::benchmarkHumanoid(), true},
                        {"soft_cantilever", test::example("soft_cantilever"), false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    EXPECT_EQ(articulatedBodyIsFaster(model), c.recursion);
    DynamicsSystem system(model, std::make_unique<AnalyticJacobian>());
    const test::State s = test::randomState(model, 8);
    const Eigen::VectorXd qdd = system.acceleration(0.0, s.q, s.v);
    EXPECT_EQ(system.data().M.isZero(0.0), c.recursion);
    Data data(model);
    const Eigen::VectorXd reference =
        forwardDynamics(model, data, s.q, s.v, Eigen::VectorXd::Zero(model.nv));
    EXPECT_LT((qdd - reference).norm(), 1e-9 * (1.0 + reference.norm()));
  }
  // a chain of n joints: mean depth (n + 1) / 2, so the threshold falls between 14 and 15 joints
  EXPECT_FALSE(articulatedBodyIsFaster(buildModel(test::benchmarkChain(14))));
}

// the force-space Newton solve (analytical derivatives) equals the solve of CVODE's 2n x 2n
// I - gamma [[0, I], [dFD/dq, dFD/dv]] built from the acceleration-space Jacobian, for an
// unconstrained robot, one with prescribed coordinates, a soft rod pinned in a loop and a driven
// closed chain
TEST(SecondOrderLinearSolverTest, ForceSpaceSolveMatchesTheAccelerationSpaceSystem) {
  struct Case {
    const char* name;
    RobotDescription robot;
  };
  for (const Case& c :
       {Case{"hybrid_serial_robot", test::example("hybrid_serial_robot")},
        Case{"paper_hybrid_serial_robot", test::example("paper_hybrid_serial_robot")},
        Case{"soft_loop", test::softLoop(0.02)}, Case{"driven_four_bar", test::drivenFourBar()}}) {
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

    test::BlockLinearSolver solver(makeForceSpaceMatrix, n);
    ForceSpaceBlocks& blocks = forceSpaceBlocks(solver.matrix());
    ASSERT_TRUE(system.forceSpaceJacobian(t, s.q, s.v, blocks)) << c.name;
    blocks.gamma = gamma;
    solver.rhs() = b;
    ASSERT_EQ(solver.setup(), SUNLS_SUCCESS) << c.name;
    ASSERT_EQ(solver.solve(), SUNLS_SUCCESS) << c.name;
    const Eigen::VectorXd expected = full.partialPivLu().solve(b);
    EXPECT_LT((solver.solution() - expected).norm(), 1e-9 * expected.norm()) << c.name;
  }
}

// the central-difference force-space blocks (the fd Jacobian of BDF) match the analytical ones.
// Both halves of each Jacobian difference the same function (r, or c) with the same step, so they
// share one round-off floor, which scales with the forces differenced, not with the block: on the
// hybrid serial robot dr/dq (8.6e4) is off by 3.3e-5 and dr/dv (13) by 2.4e-5, both growing as
// 1/h (checked from h = 1e-5 to 1e-7). So the q half is held to 1e-6 of itself and the v half to
// 1e-6 of itself plus 4 times the q half's error; a missing damping or velocity term would exceed
// that
TEST(DynamicsSystemTest, ForceSpaceDifferencesMatchTheAnalyticalBlocks) {
  for (const auto& [name, robot] :
       {std::pair{"hybrid_serial_robot", test::example("hybrid_serial_robot")},
        std::pair{"paper_hybrid_serial_robot", test::example("paper_hybrid_serial_robot")},
        std::pair{"soft_loop", test::softLoop(0.02)},
        std::pair{"driven_four_bar", test::drivenFourBar()}}) {
    const Model model = buildModel(robot);
    const test::State s = test::randomState(model, 12, 0.3);
    DynamicsSystem analytic(model, std::make_unique<AnalyticJacobian>());
    DynamicsSystem differences(model, std::make_unique<FiniteDifferenceJacobian>());
    ForceSpaceBlocks a, d;
    ASSERT_TRUE(analytic.forceSpaceJacobian(0.3, s.q, s.v, a)) << name;
    ASSERT_TRUE(differences.forceSpaceJacobian(0.3, s.q, s.v, d)) << name;
    EXPECT_EQ(a.free, d.free) << name;
    EXPECT_EQ(a.mass, d.mass) << name;  // the same forward dynamics, exactly
    for (const auto* b : {&a, &d}) {
      EXPECT_EQ(b->A.rows(), model.n_constraints) << name;
      EXPECT_EQ(b->A.cols(), static_cast<Eigen::Index>(b->free.size())) << name;
      EXPECT_EQ(b->dc_dq.rows(), model.n_constraints) << name;
      EXPECT_EQ(b->dc_dv.cols(), static_cast<Eigen::Index>(b->free.size())) << name;
    }
    EXPECT_EQ(a.A, d.A) << name;
    const double r_q = (d.dr_dq - a.dr_dq).norm(), c_q = (d.dc_dq - a.dc_dq).norm();
    EXPECT_LE(r_q, 1e-6 * a.dr_dq.norm()) << name;
    EXPECT_LE((d.dr_dv - a.dr_dv).norm(), 1e-6 * a.dr_dv.norm() + 4.0 * r_q) << name;
    EXPECT_LE(c_q, 1e-6 * a.dc_dq.norm()) << name;
    EXPECT_LE((d.dc_dv - a.dc_dv).norm(), 1e-6 * a.dc_dv.norm() + 4.0 * c_q) << name;
  }
}

}  // namespace
}  // namespace tendril
