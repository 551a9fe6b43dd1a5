// Tests for core/algorithm/constrained_dynamics.cpp: the analytical derivatives of the constrained
// forward dynamics (docs/theory/gvs.md (44, 50, 51)) and the index-3 Newmark Jacobian (52b).

#include "core/algorithm/constrained_dynamics.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/statics.hpp"
#include "core/sim/dynamics_system.hpp"
#include "tests/support/closed_chain_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// steps of the central differences of the accelerations. In q, Richardson-extrapolated central
// differences at 1e-3 and 5e-4: the mass matrices are badly conditioned (cond(M) ~ 1e15 on the
// fin-ray: curvature coordinates of stiff ABS ribs; ~6e8 on the serial robots), so the round-off
// of the accelerations, amplified by 1/h, reaches 1e-6 relative at h = 1e-5 on the paper's serial
// robot, while the truncation of a plain central difference already shows at 3e-4. Extrapolated
// (truncation O(h^4)) at 1e-3 every case's reference is within 4e-8 of the analytical values
// (probed over h = 1e-5 ... 3e-3). In v the accelerations are quadratic (Coriolis, A-dot v) plus
// linear (damping, Baumgarte): a central difference is exact at any step, so a large one
// (test::velocityStep, 1e-2) only removes round-off.
constexpr double kStepQ = 1e-3;
constexpr double kConstraintTolerance = 1e-6;

struct Case {
  std::string name;
  RobotDescription robot;
  double q_scale;  ///< random q in [-q_scale, q_scale]
};

JointInputDesc positionInput(const std::string& link, double amplitude, double offset) {
  JointInputDesc input;
  input.link = link;
  input.mode = JointInputDesc::Mode::Position;
  input.value.kind = TimeFunction::Kind::Sine;
  input.value.amplitude = amplitude;
  input.value.frequency = 0.7;
  input.value.phase = 0.3;
  input.value.offset = offset;
  return input;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"finray_finger", test::example("finray_finger"), 0.02});
  all.push_back({"parallel_robot", test::example("parallel_robot"), 0.1});
  all.push_back({"four_bar", test::fourBar(), 0.5});
  all.push_back({"soft_loop", test::softLoop(1e3), 0.5});
  // joint-coordinate control alone (3.4): the serial robot with its first joint prescribed
  RobotDescription serial = test::example("hybrid_serial_robot");
  serial.joint_inputs.push_back(positionInput(serial.links[0].name, 0.4, 0.2));
  all.push_back({"hybrid_serial_robot_position_input", serial, 0.3});
  all.push_back({"paper_hybrid_serial_robot", test::example("paper_hybrid_serial_robot"), 0.3});
  // both together: a driven four-bar
  RobotDescription driven = test::fourBar();
  driven.joint_inputs.push_back(positionInput("crank", 0.6, 1.2));
  all.push_back({"driven_four_bar", driven, 0.5});
  return all;
}

TEST(ConstrainedDynamicsTest, DerivativesMatchCentralDifferences) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const Model model = buildModel(c.robot);
    ASSERT_TRUE(hasConstraints(model));
    Data data(model), data_fd(model);
    ConstrainedDynamicsData cdd(model), cdd_fd(model);
    const test::State x = test::randomState(model, 41, c.q_scale);
    const double t = 0.37;
    Eigen::VectorXd tau(model.nv);
    actuationForces(model, x.q, t, tau);
    constrainedForwardDynamicsDerivatives(model, data, cdd, x.q, x.v, tau, t);
    ASSERT_TRUE(cdd.problem.empty()) << cdd.problem;
    ASSERT_TRUE(cdd.dqdd_dq.allFinite());
    ASSERT_TRUE(cdd.dqdd_dv.allFinite());

    const auto qdd = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) -> Eigen::VectorXd {
      Eigen::VectorXd tau_q(model.nv);
      actuationForces(model, q, t, tau_q);
      return constrainedForwardDynamics(model, data_fd, cdd_fd, q, v, tau_q, t);
    };
    const Eigen::MatrixXd dq = test::extrapolatedCentralDifference(
        [&](const Eigen::VectorXd& q) { return qdd(q, x.v); }, x.q, kStepQ);
    const Eigen::MatrixXd dv = test::centralDifference(
        [&](const Eigen::VectorXd& v) { return qdd(x.q, v); }, x.v, test::velocityStep(model));
    EXPECT_LT(test::relativeError(cdd.dqdd_dq, dq), kConstraintTolerance);
    EXPECT_LT(test::relativeError(cdd.dqdd_dv, dv), kConstraintTolerance);
    EXPECT_NE(cdd.dqdd_dq, dq);  // guard against comparing a thing to itself
    EXPECT_GT(dq.norm(), 1e-3);
    EXPECT_GT(dv.norm(), 1e-3);
    // the prescribed coordinates are no free states: zero rows and columns
    for (const CompiledPrescribedCoordinate& p : model.prescribed) {
      EXPECT_EQ(cdd.dqdd_dq.row(p.coordinate).norm(), 0.0);
      EXPECT_EQ(cdd.dqdd_dq.col(p.coordinate).norm(), 0.0);
      EXPECT_EQ(cdd.dqdd_dv.row(p.coordinate).norm(), 0.0);
      EXPECT_EQ(cdd.dqdd_dv.col(p.coordinate).norm(), 0.0);
    }
    // the accelerations themselves are those of constrainedForwardDynamics
    EXPECT_LT(test::relativeError(cdd.qdd, qdd(x.q, x.v)), 1e-12);
  }
}

TEST(ConstrainedDynamicsTest, DynamicsSystemAnalyticJacobianMatchesFiniteDifferences) {
  // the analytic kind uses the derivatives above, the finite-difference kind central differences
  // of the constrained accelerations: they agree (at the FD's own step, 1e-6, so loosely)
  const Model model = buildModel(test::example("parallel_robot"));
  DynamicsSystem analytic(model, std::make_unique<AnalyticJacobian>());
  DynamicsSystem finite(model, std::make_unique<FiniteDifferenceJacobian>());
  ASSERT_TRUE(analytic.analyticJacobian());
  ASSERT_FALSE(finite.analyticJacobian());
  const test::State x = test::randomState(model, 43, 0.1);
  Eigen::MatrixXd an_q, an_v, fd_q, fd_v;
  analytic.jacobian(0.2, x.q, x.v, an_q, an_v);
  finite.jacobian(0.2, x.q, x.v, fd_q, fd_v);
  EXPECT_LT(test::relativeError(an_q, fd_q), 1e-5);
  EXPECT_LT(test::relativeError(an_v, fd_v), 1e-5);
  EXPECT_NE(an_q, fd_q);
}

TEST(ConstrainedDynamicsTest, IndexThreeJacobianMatchesCentralDifferences) {
  // the Newmark residual (52a) with v and a following q through (10): v = v0 + v_rate (q - q0),
  // a = a0 + a_rate (q - q0). Rates 0 give the statics Jacobian and a velocity rate alone the
  // damping and dID/dv terms, where a_rate M does not dominate (and hide) the other terms; then
  // the rates of beta = 1/4, gamma = 1/2 and h = 1e-3
  struct Rates {
    double v, a;
  };
  const double v_rate = 0.5 / (0.25 * 1e-3), a_rate = 1.0 / (0.25 * 1e-6);
  for (const Rates rates : {Rates{0.0, 0.0}, Rates{v_rate, 0.0}, Rates{v_rate, a_rate}}) {
    for (const Case& c : cases()) {
      SCOPED_TRACE(c.name + " with rates " + std::to_string(rates.v) + ", " +
                   std::to_string(rates.a));
      const Model model = buildModel(c.robot);
      Data data(model), data_fd(model);
      ConstrainedDynamicsData cdd(model), cdd_fd(model);
      const std::vector<int>& free = cdd.free_coordinates;
      const int nu = static_cast<int>(free.size()), m = model.n_constraints;
      const test::State x = test::randomState(model, 47, c.q_scale);
      const Eigen::VectorXd lambda = Eigen::VectorXd::LinSpaced(m, -1.0, 2.0);
      const double t = 0.41;
      // the state at free coordinates q_u + z_u and constraint forces lambda + z_lambda
      const auto state = [&](const Eigen::VectorXd& z, Eigen::VectorXd& q, Eigen::VectorXd& v,
                             Eigen::VectorXd& a) {
        q = x.q;
        v = x.v;
        a = x.a;
        for (int i = 0; i < nu; ++i) {
          q(free[i]) += z(i);
          v(free[i]) += rates.v * z(i);
          a(free[i]) += rates.a * z(i);
        }
        applyPrescribed(model, t, q, v);
        for (const CompiledPrescribedCoordinate& p : model.prescribed)
          a(p.coordinate) = p.position.derivative(t, 2);
      };
      const auto residual = [&](const Eigen::VectorXd& z) -> Eigen::VectorXd {
        Eigen::VectorXd q, v, a, R(nu + m);
        state(z, q, v, a);
        indexThreeResidual(model, data_fd, cdd_fd, q, v, a, lambda + z.tail(m), t, R);
        return R;
      };
      Eigen::VectorXd q, v, a;
      state(Eigen::VectorXd::Zero(nu + m), q, v, a);
      Eigen::MatrixXd J(nu + m, nu + m);
      indexThreeJacobian(model, data, cdd, q, v, a, lambda, t, rates.v, rates.a, J);
      const Eigen::MatrixXd fd =
          test::centralDifference(residual, Eigen::VectorXd::Zero(nu + m), 1e-6);
      EXPECT_LT(test::relativeError(J.leftCols(nu), fd.leftCols(nu)), kConstraintTolerance);
      if (m > 0) {
        EXPECT_LT(test::relativeError(J.bottomLeftCorner(m, nu), fd.bottomLeftCorner(m, nu)),
                  kConstraintTolerance);
        EXPECT_LT(test::relativeError(J.topRightCorner(nu, m), fd.topRightCorner(nu, m)),
                  kConstraintTolerance);
        EXPECT_EQ(J.bottomRightCorner(m, m).norm(), 0.0);
      }
      EXPECT_NE(J, fd);
    }
  }
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

// constrained statics with the analytical (52b) Jacobian takes the Newton path of central
// differences: the same equilibrium and iterations (the parallel robot needs two load steps, so
// the load-scaled Jacobian is exercised too)
TEST(ConstrainedStaticsTest, AnalyticalJacobianFollowsTheDifferencePath) {
  for (const char* name : {"parallel_robot", "paper_hybrid_serial_robot"}) {
    SCOPED_TRACE(name);
    const Model model = buildModel(test::example(name));
    Data data(model);
    StaticsOptions options;
    options.time = 5.0;
    const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
    options.analytic_jacobian = true;
    const StaticsResult analytic = solveStatics(model, data, q0, options);
    options.analytic_jacobian = false;
    const StaticsResult fd = solveStatics(model, data, q0, options);
    ASSERT_TRUE(analytic.converged) << analytic.message;
    ASSERT_TRUE(fd.converged) << fd.message;
    EXPECT_LT((analytic.q - fd.q).norm(), 1e-9 * (1.0 + fd.q.norm()));
    EXPECT_EQ(analytic.iterations, fd.iterations);
    EXPECT_EQ(analytic.load_steps, fd.load_steps);
  }
}

}  // namespace
}  // namespace tendril
