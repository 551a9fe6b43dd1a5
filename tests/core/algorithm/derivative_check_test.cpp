// Tests for core/algorithm/derivative_check.cpp: the block-by-block comparison of the analytical
// derivatives with central finite differences (docs/theory/gvs.md (O1, O2, O3, O5)).

#include "core/algorithm/derivative_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

std::vector<std::string> names(const DerivativeCheck& check) {
  std::vector<std::string> out;
  for (const DerivativeBlockCheck& block : check.blocks) out.push_back(block.name);
  return out;
}

const DerivativeBlockCheck& block(const DerivativeCheck& check, const std::string& name) {
  for (const DerivativeBlockCheck& b : check.blocks) {
    if (b.name == name) return b;
  }
  throw std::out_of_range("no block " + name);
}

class ExampleCheck : public ::testing::TestWithParam<std::string> {};

// every block of every example within the oracles' 1e-6, at a random state and (but for the
// underwater robot, see below) at rest, where the rods take the series branch of theta -> 0
TEST_P(ExampleCheck, AnalyticalDerivativesMatchAtRandomAndZeroStates) {
  const Model model = buildModel(test::example(GetParam()));
  Data data(model);
  const test::State s = test::randomState(model, 2, 0.5);
  std::vector<DerivativeCheck> checks = {checkDerivatives(model, data, s.q, s.v, s.a, 0.4)};
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  if (!model.environment.has_fluid)
    checks.push_back(checkDerivatives(model, data, zero, zero, zero, 0.4));
  const DerivativeCheck& random = checks.front();
  for (const DerivativeCheck* check = checks.data(); check != checks.data() + checks.size();
       ++check) {
    ASSERT_GE(check->blocks.size(), 5u);
    for (const DerivativeBlockCheck& b : check->blocks) {
      EXPECT_LT(b.relative_mismatch, 1e-6) << b.name << (check != checks.data() ? " at rest" : "");
      EXPECT_EQ(b.rows, model.nv) << b.name;
      EXPECT_EQ(b.cols, model.nq) << b.name;
      EXPECT_EQ(b.force_space, b.name.rfind("dFD", 0) == 0) << b.name;
    }
    EXPECT_LT(check->worst(), 1e-6);
  }
  // dID/da is the mass matrix, never zero; dFD/dv = -M^{-1}(D + dID/dv) is not either
  EXPECT_GT(block(random, "dID/da").norm, 0.0);
  EXPECT_GT(block(random, "dFD/dv").norm, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleCheck,
                         ::testing::Values("soft_cantilever", "hybrid_serial_robot",
                                           "cable_manipulator", "underwater_robot"));

TEST(DerivativeCheck, BlocksInOrderCableBlockOnlyWithCables) {
  const Model cables = buildModel(test::example("cable_manipulator"));
  ASSERT_FALSE(cables.cables.empty());
  Data cable_data(cables);
  const test::State s = test::randomState(cables, 1, 0.3);
  EXPECT_EQ(names(checkDerivatives(cables, cable_data, s.q, s.v, s.a, 1.0)),
            (std::vector<std::string>{"dID/dq", "dID/dv", "dID/da", "dBu/dq", "dFD/dq", "dFD/dv"}));
  // with the tensions ramped up at t = 1 s the cable Jacobian is not zero
  EXPECT_GT(block(checkDerivatives(cables, cable_data, s.q, s.v, s.a, 1.0), "dBu/dq").norm, 0.0);

  const Model rod = buildModel(test::example("soft_cantilever"));
  ASSERT_TRUE(rod.cables.empty());
  Data rod_data(rod);
  const test::State r = test::randomState(rod, 1);
  DerivativeCheckOptions options;
  options.forward_dynamics = false;
  EXPECT_EQ(names(checkDerivatives(rod, rod_data, r.q, r.v, r.a, 0.0, options)),
            (std::vector<std::string>{"dID/dq", "dID/dv", "dID/da"}));
}

// the reported figures are those of an independent comparison: the analytical derivatives of
// inverseDynamicsDerivatives and massMatrix against test::centralDifference of inverseDynamics
TEST(DerivativeCheck, ReportsTheMismatchOfAnIndependentComparison) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  const test::State s = test::randomState(model, 5, 0.5);
  Data data(model), reference(model);
  DerivativeCheckOptions options;
  options.forward_dynamics = false;
  const DerivativeCheck check = checkDerivatives(model, data, s.q, s.v, s.a, 0.0, options);

  inverseDynamicsDerivatives(model, reference, s.q, s.v, s.a);
  const Eigen::MatrixXd dq = reference.dtau_dq, dv = reference.dtau_dv;
  const Eigen::MatrixXd M = massMatrix(model, reference, s.q);
  const double hv = automaticVelocityStep(model);
  const Eigen::MatrixXd fd_q = test::centralDifference(
      [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
        return inverseDynamics(model, reference, x, s.v, s.a);
      },
      s.q, options.q_step);
  const Eigen::MatrixXd fd_v = test::centralDifference(
      [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
        return inverseDynamics(model, reference, s.q, x, s.a);
      },
      s.v, hv);
  const Eigen::MatrixXd fd_a = test::centralDifference(
      [&](const Eigen::VectorXd& x) -> Eigen::VectorXd {
        return inverseDynamics(model, reference, s.q, s.v, x);
      },
      s.a, hv);
  const std::pair<const char*, std::pair<Eigen::MatrixXd, Eigen::MatrixXd>> cases[] = {
      {"dID/dq", {dq, fd_q}}, {"dID/dv", {dv, fd_v}}, {"dID/da", {M, fd_a}}};
  for (const auto& [name, pair] : cases) {
    const DerivativeBlockCheck& b = block(check, name);
    const double expected = test::relativeError(pair.first, pair.second);
    EXPECT_GT(expected, 0.0) << name << ": analytical and FD are never bitwise equal";
    EXPECT_NEAR(b.relative_mismatch, expected, 1e-6 * expected) << name;
    EXPECT_NEAR(b.norm, pair.second.norm(), 1e-12 * pair.second.norm()) << name;
    EXPECT_NEAR(b.max_abs_error, (pair.first - pair.second).cwiseAbs().maxCoeff(),
                1e-6 * b.max_abs_error)
        << name;
  }
}

// the check sees a wrong reference: with a step of 0.3 the central difference of the
// transcendental dependence on q is off by its h^2 truncation, and the check reports it, while
// ID stays exactly quadratic in v and linear in a, where the same step changes nothing
TEST(DerivativeCheck, DetectsTheTruncationOfACoarseStepInQOnly) {
  const Model model = buildModel(test::example("soft_cantilever"));
  Data data(model);
  const test::State s = test::randomState(model, 3, 0.5);
  DerivativeCheckOptions coarse;
  coarse.q_step = 0.3;
  coarse.v_step = 0.3;
  const DerivativeCheck check = checkDerivatives(model, data, s.q, s.v, s.a, 0.0, coarse);
  EXPECT_GT(block(check, "dID/dq").relative_mismatch, 1e-4);
  EXPECT_GT(block(check, "dFD/dq").relative_mismatch, 1e-4);
  EXPECT_GT(check.worst(), 1e-4);
  EXPECT_LT(block(check, "dID/dv").relative_mismatch, 1e-9);
  EXPECT_LT(block(check, "dID/da").relative_mismatch, 1e-9);
  // and the default step brings dID/dq back within the oracle
  const DerivativeCheck fine = checkDerivatives(model, data, s.q, s.v, s.a);
  EXPECT_LT(block(fine, "dID/dq").relative_mismatch, 1e-6);
  EXPECT_LT(block(fine, "dID/dq").relative_mismatch,
            1e-3 * block(check, "dID/dq").relative_mismatch);
}

// drag -D |v| eta at rest: the analytical dID/dv is exactly zero (D* = 0 at |v| = 0,
// docs/theory/gvs.md (63-65)), while |v| v is not twice differentiable there and a central
// difference keeps an O(h) error: the check reports it as a relative mismatch of 1 against the zero
// analytical block, and the absolute error shrinks with the step as truncation does (what a user
// sees at --state zero)
TEST(DerivativeCheck, DragAtRestShowsTheDifferencesTruncationNotTheDerivative) {
  const Model model = buildModel(test::example("underwater_robot"));
  ASSERT_TRUE(model.environment.has_fluid);
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  DerivativeCheckOptions options;
  options.forward_dynamics = false;
  options.v_step = 1e-4;
  const DerivativeBlockCheck coarse =
      block(checkDerivatives(model, data, zero, zero, zero, 0.0, options), "dID/dv");
  options.v_step = 1e-6;
  const DerivativeBlockCheck fine =
      block(checkDerivatives(model, data, zero, zero, zero, 0.0, options), "dID/dv");
  EXPECT_EQ(coarse.relative_mismatch, 1.0);  // the analytical block is exactly zero
  EXPECT_GT(coarse.norm, 0.0);
  EXPECT_NEAR(coarse.max_abs_error / fine.max_abs_error, 100.0, 1.0);  // O(h)
}

// a non-positive-definite M (a non-finite state) leaves the dFD blocks NaN, and worst() says so
TEST(DerivativeCheck, NonFiniteStateGivesNaNThatWorstPropagates) {
  DerivativeCheck synthetic;
  synthetic.blocks.resize(3);
  synthetic.blocks[0].relative_mismatch = 1e-9;
  synthetic.blocks[1].relative_mismatch = std::numeric_limits<double>::quiet_NaN();
  synthetic.blocks[2].relative_mismatch = 1e-8;
  EXPECT_TRUE(std::isnan(synthetic.worst()));
  synthetic.blocks.erase(synthetic.blocks.begin() + 1);
  EXPECT_EQ(synthetic.worst(), 1e-8);
  EXPECT_EQ(DerivativeCheck{}.worst(), 0.0);
}

TEST(DerivativeCheck, RejectsWrongSizesAndSteps) {
  const Model model = buildModel(test::example("soft_cantilever"));
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  const Eigen::VectorXd short_q = Eigen::VectorXd::Zero(model.nq - 1);
  EXPECT_THROW(checkDerivatives(model, data, short_q, zero, zero), std::invalid_argument);
  DerivativeCheckOptions options;
  options.q_step = 0.0;
  EXPECT_THROW(checkDerivatives(model, data, zero, zero, zero, 0.0, options),
               std::invalid_argument);
}

TEST(DerivativeCheck, VelocityStepFollowsTheVelocityDependentLoads) {
  EXPECT_EQ(automaticVelocityStep(buildModel(test::example("soft_cantilever"))), 1.0);
  EXPECT_EQ(automaticVelocityStep(buildModel(test::example("underwater_robot"))), 1e-4);
}

}  // namespace
}  // namespace tendril
