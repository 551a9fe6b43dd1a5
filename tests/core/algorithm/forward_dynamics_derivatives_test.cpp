// Tests for core/algorithm/forward_dynamics_derivatives.cpp and actuationJacobian(): dFD/dq,
// dFD/dv and d(B u)/dq against central finite differences (docs/theory/gvs.md (O2, O5)), the
// statics Jacobian (O10) and the solvers that use them (O15).

#include "core/algorithm/forward_dynamics_derivatives.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/statics.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// FD = M^{-1}(...) inherits the conditioning of M, 1e11-1e12 on the random trees (rods of
// centimetre sections next to heavy bodies): the round-off of a central difference of FD in q is
// about cond(M) eps |FD| / h, which measured 4e-4 relative at h = 1e-6 and falls tenfold per
// tenfold step (the mark of round-off, not of a wrong derivative). So the mismatch is measured
// where it is not amplified, in force space: |M (J_an - J_fd)| / |M J_an|, the error of the
// generalised forces the integrator's Newton step actually balances (1e-9 to 1e-10 measured).
// Step 1e-5 in q: truncation ~h^2 ~ 1e-10; in v, test::velocityStep.
constexpr double kFdStep = 1e-5;
constexpr double kFdTolerance = 1e-6;

double forceSpaceMismatch(const Eigen::MatrixXd& M, const Eigen::MatrixXd& analytic,
                          const Eigen::MatrixXd& reference) {
  return (M * (analytic - reference)).norm() / (M * analytic).norm();
}

struct Jacobians {
  Eigen::MatrixXd dq, dv, M;
};

Jacobians analytic(const Model& model, const test::State& s, double t) {
  Data data(model);
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, t, tau);
  forwardDynamicsDerivatives(model, data, s.q, s.v, tau, t);
  const Jacobians out{data.dqdd_dq, data.dqdd_dv, {}};
  return {out.dq, out.dv, massMatrix(model, data, s.q)};  // the articulated route forms no M
}

Jacobians differences(const Model& model, const test::State& s, double t) {
  Data data(model);
  Eigen::VectorXd tau(model.nv);
  const auto fd = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) -> Eigen::VectorXd {
    actuationForces(model, q, t, tau);
    return forwardDynamics(model, data, q, v, tau, t);
  };
  return {
      test::centralDifference([&](const Eigen::VectorXd& q) { return fd(q, s.v); }, s.q, kFdStep),
      test::centralDifference([&](const Eigen::VectorXd& v) { return fd(s.q, v); }, s.v,
                              test::velocityStep(model)),
      {}};
}

class ForwardDerivatives : public ::testing::TestWithParam<std::string> {};

TEST_P(ForwardDerivatives, MatchCentralDifferences) {
  const Model model = buildModel(test::example(GetParam()));
  for (unsigned seed = 1; seed <= 2; ++seed) {
    const test::State s = test::randomState(model, seed, 0.3);
    const Jacobians a = analytic(model, s, 0.7), d = differences(model, s, 0.7);
    EXPECT_LT(forceSpaceMismatch(a.M, a.dq, d.dq), kFdTolerance) << "seed " << seed;
    EXPECT_LT(forceSpaceMismatch(a.M, a.dv, d.dv), kFdTolerance) << "seed " << seed;
  }
}

// the rigid arm's M is well conditioned: there the plain relative error in acceleration holds too
TEST(ForwardDerivatives, RigidArmInAccelerationSpace) {
  const Model model = buildModel(test::example("rigid_7dof_arm"));
  const test::State s = test::randomState(model, 3, 1.0);
  const Jacobians a = analytic(model, s, 0.2), d = differences(model, s, 0.2);
  EXPECT_LT(test::relativeError(a.dq, d.dq), 1e-8);
  EXPECT_LT(test::relativeError(a.dv, d.dv), 1e-8);
}

INSTANTIATE_TEST_SUITE_P(Examples, ForwardDerivatives,
                         ::testing::Values("soft_cantilever", "hybrid_serial_robot",
                                           "rigid_7dof_arm", "cable_manipulator",
                                           "contact_cylinder", "underwater_robot",
                                           "paper_cable_manipulator", "paper_hybrid_serial_robot"));

TEST(ForwardDerivatives, RandomTreesWithDamping) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Model model = buildModel(test::randomHybrid(seed));
    const test::State s = test::randomState(model, seed, 0.8);
    const Jacobians a = analytic(model, s, 0.0), d = differences(model, s, 0.0);
    EXPECT_LT(forceSpaceMismatch(a.M, a.dq, d.dq), kFdTolerance) << "seed " << seed;
    EXPECT_LT(forceSpaceMismatch(a.M, a.dv, d.dv), kFdTolerance) << "seed " << seed;
  }
}

// the cable Jacobian alone (D63), with the tensions of the example at t = 1 s
TEST(ActuationJacobian, CablesMatchCentralDifferences) {
  const Model model = buildModel(test::example("cable_manipulator"));
  ASSERT_FALSE(model.cables.empty());
  const test::State s = test::randomState(model, 4, 0.5);
  Data data(model);
  actuationJacobian(model, data, s.q, 1.0);
  Eigen::VectorXd tau(model.nv);
  const Eigen::MatrixXd reference = test::centralDifference(
      [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
        actuationForces(model, q, 1.0, tau);
        return tau;
      },
      s.q, kFdStep);
  ASSERT_GT(reference.norm(), 0.0);
  EXPECT_LT(test::relativeError(data.dtau_applied_dq, reference), kFdTolerance);
  // a cable force is a gradient (-T dl/dq): its Jacobian is symmetric
  EXPECT_LT(test::relativeError(data.dtau_applied_dq, data.dtau_applied_dq.transpose()), 1e-14);
}

// statics with the analytical and with the finite-difference Jacobian reach the same equilibrium
TEST(StaticsJacobian, AnalyticAndFiniteDifferenceSolversAgree) {
  for (const char* stem : {"cable_manipulator", "hybrid_serial_robot"}) {
    const Model model = buildModel(test::example(stem));
    Data data(model);
    StaticsOptions options;
    options.time = 3.0;
    const StaticsResult with = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq), options);
    options.analytic_jacobian = false;
    const StaticsResult without =
        solveStatics(model, data, Eigen::VectorXd::Zero(model.nq), options);
    ASSERT_TRUE(with.converged) << stem << ": " << with.message;
    ASSERT_TRUE(without.converged) << stem << ": " << without.message;
    // e_q of docs/theory/gvs.md (O10)
    EXPECT_LT((with.q - without.q).norm() / with.q.norm(), 1e-9) << stem;
    EXPECT_LE(with.iterations, without.iterations + 1) << stem;
  }
}

// O15 / the acceptance test: 1 s of the cable manipulator with either Jacobian
TEST(DynamicsJacobian, CableManipulatorTipsAgreeWithEitherJacobian) {
  const Model model = buildModel(test::example("cable_manipulator"));
  SimulationOptions options;
  options.t_end = 1.0;
  options.output_interval = 0.05;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  options.jacobian = JacobianKind::Analytic;
  const SimulationResult with = simulate(model, zero, zero, options);
  options.jacobian = JacobianKind::FiniteDifference;
  const SimulationResult without = simulate(model, zero, zero, options);
  ASSERT_TRUE(with.completed && without.completed);
  ASSERT_EQ(with.samples.size(), without.samples.size());
  Data a(model), b(model);
  double worst = 0.0, travel = 0.0;
  for (std::size_t i = 0; i < with.samples.size(); ++i) {
    forwardKinematics(model, a, with.samples[i].q);
    forwardKinematics(model, b, without.samples[i].q);
    const Eigen::Vector3d pa = linkTipPose(model, a, 0).p, pb = linkTipPose(model, b, 0).p;
    worst = std::max(worst, (pa - pb).norm());
    if (i == 0) travel = pa.norm();
    travel = std::max(travel, (pa - linkTipPose(model, a, 0).p).norm());
  }
  EXPECT_LT(worst, 1e-5) << "worst tip distance " << worst << " m";
}

}  // namespace
}  // namespace tendril
