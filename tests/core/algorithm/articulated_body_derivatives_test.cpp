// Tests for core/algorithm/articulated_body_derivatives.cpp: Kim's chain rule on the articulated
// recursion (Tables 6 and 7) against the two other analytic routes (dFD by the dense factor, DMM;
// the hybrid derivatives by the partitioned chain rule; docs/theory/rigid.md §5)
// and against central differences through the exponential coordinates of every joint type.

#include "core/algorithm/articulated_body_derivatives.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/hybrid_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/hybrid_dynamics_checks.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::randomRigidTree;  // every joint type, random branching, full inertia tensors

// Two analytic routes differ by rounding only, amplified by the conditioning of M when compared
// in acceleration space. So they are compared where the integrator uses them, in force space, as
// a backward error |M (A - B)| / (|M| |A|): free of cond(M), a few eps for a right formula, O(1)
// for a wrong term. Measured against DMM: dFD/dq 5e-17 (the trees of 31 links) to 3e-14 (random
// trees), 1.7e-13 on the 30-chain, 7e-12 on the 100-chain (the recursion's subtractions
// Î - U Psi U^T along a long chain, which AZA shares: see ...OnLongChains); dFD/dv below 4e-16.
// Plain relative differences: 1e-14 to 4e-12 (7e-12 on the 30-chain), the hybrid Jacobians 1e-17
// to 7e-13 (30-chain)
constexpr double kRoutesAgree = 1e-12;

double normwiseForceMismatch(const Eigen::MatrixXd& M, const Eigen::MatrixXd& a,
                             const Eigen::MatrixXd& b) {
  return (M * (a - b)).norm() / (M.norm() * a.norm());
}

// Table 6 against the dense factor (DMM), with gravity and a random nonzero velocity; also
// dFD/dtau against M^-1
void expectForwardRoutesAgree(const Model& model, unsigned seed, const std::string& label) {
  ASSERT_TRUE(supportsArticulatedDerivatives(model)) << label;
  ASSERT_GT(model.gravity.norm(), 0.0) << label;
  Data dense(model), kim(model);
  Eigen::MatrixXd M_inverse(model.nv, model.nv);
  for (unsigned k = 0; k < 2; ++k) {
    const test::State s = test::randomState(model, seed * 17 + k);
    ASSERT_GT(s.v.norm(), 0.0);
    const double t = 0.2 * k;
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, t);
    forwardDynamicsDerivatives(model, dense, s.q, s.v, tau, t, ForwardDerivativeRoute::DenseFactor);
    articulatedBodyForwardDynamicsDerivatives(model, kim, s.q, s.v, tau, t, M_inverse);
    const Eigen::MatrixXd M = massMatrix(model, dense, s.q);
    EXPECT_LT((kim.qdd - dense.qdd).norm(), 1e-10 * dense.qdd.norm()) << label;
    EXPECT_LT(normwiseForceMismatch(M, kim.dqdd_dq, dense.dqdd_dq), kRoutesAgree)
        << label << " dq " << k;
    EXPECT_LT(normwiseForceMismatch(M, kim.dqdd_dv, dense.dqdd_dv), kRoutesAgree)
        << label << " dv " << k;
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(model.nv, model.nv);
    EXPECT_LT((M * M_inverse - identity).norm() / (M.norm() * M_inverse.norm()), kRoutesAgree)
        << label << " dtau " << k;
  }
}

TEST(ArticulatedBodyDerivativesTest, Table6EqualsTheDenseFactorRouteOnRandomRigidTrees) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    expectForwardRoutesAgree(buildModel(randomRigidTree(seed, 12)), seed,
                             "random tree " + std::to_string(seed));
  }
}

TEST(ArticulatedBodyDerivativesTest, Table6EqualsTheDenseFactorRouteOnTheBenchmarkRobots) {
  expectForwardRoutesAgree(buildModel(test::benchmarkArm()), 1, "arm7");
  expectForwardRoutesAgree(buildModel(test::benchmarkChain(7)), 2, "chain7");
  expectForwardRoutesAgree(buildModel(test::benchmarkChain(30)), 3, "chain30");
  expectForwardRoutesAgree(buildModel(test::branchedTree(31, 2)), 4, "tree31_bf2");
  expectForwardRoutesAgree(buildModel(test::branchedTree(31, 5)), 5, "tree31_bf5");
  expectForwardRoutesAgree(buildModel(test::benchmarkHumanoid()), 6, "humanoid35");
}

// Table 6 against the articulated solve (AZA) on long chains: the two articulated routes agree to
// 1e-16 in force space where both differ from the dense factor by 7e-12 (the 100-chain, above):
// that difference is the recursion's rounding, not the chain rule's
TEST(ArticulatedBodyDerivativesTest, Table6EqualsTheArticulatedSolveRouteOnLongChains) {
  for (const int n : {60, 100}) {
    const Model model = buildModel(test::benchmarkChain(n));
    const test::State s = test::randomState(model, 3);
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
    Data aza(model), kim(model);
    forwardDynamicsDerivatives(model, aza, s.q, s.v, tau, 0.0,
                               ForwardDerivativeRoute::ArticulatedBody);
    articulatedBodyForwardDynamicsDerivatives(model, kim, s.q, s.v, tau, 0.0);
    const Eigen::MatrixXd M = massMatrix(model, aza, s.q);
    EXPECT_LT(normwiseForceMismatch(M, kim.dqdd_dq, aza.dqdd_dq), kRoutesAgree) << "chain" << n;
    EXPECT_LT(normwiseForceMismatch(M, kim.dqdd_dv, aza.dqdd_dv), kRoutesAgree) << "chain" << n;
  }
}

// the route's entry in forwardDynamicsDerivatives() is this file's function
TEST(ArticulatedBodyDerivativesTest, TheForwardDerivativeRouteDispatchesToTable6) {
  const Model model = buildModel(randomRigidTree(4, 9));
  const test::State s = test::randomState(model, 4);
  const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
  Data routed(model), direct(model);
  forwardDynamicsDerivatives(model, routed, s.q, s.v, tau, 0.0,
                             ForwardDerivativeRoute::ArticulatedChainRule);
  articulatedBodyForwardDynamicsDerivatives(model, direct, s.q, s.v, tau, 0.0);
  EXPECT_EQ(routed.dqdd_dq, direct.dqdd_dq);
  EXPECT_EQ(routed.dqdd_dv, direct.dqdd_dv);
}

// every external wrench of external_loads.cpp (buoyancy, drag, added mass, contact, a point load)
// on a free-floating tree: their pose and twist sensitivities enter the bias derivative
TEST(ArticulatedBodyDerivativesTest, Table6WithLoadsThatDependOnTheState) {
  const RobotDescription robot = test::floatingTreeWithEveryLoad(LoadFrame::Global);
  const Model model = buildModel(robot);
  ASSERT_TRUE(model.has_added_mass);
  expectForwardRoutesAgree(model, 11, "loaded tree");
}

// Table 6 against central differences of FD through the exponential coordinates (q_j = the
// joint's exp coordinates, spherical and free included), in force space for the reason
// forward_dynamics_derivatives_test.cpp gives (cond(M) amplifies the round-off of a difference of
// FD); step 1e-5 in q (truncation ~1e-10), test::velocityStep in v (FD is quadratic in v)
TEST(ArticulatedBodyDerivativesTest, Table6MatchesCentralDifferencesOnEveryJointType) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 60, 10));
    const test::State s = test::randomState(model, seed, 0.8);
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
    Data data(model), reference(model);
    Eigen::MatrixXd M_inverse(model.nv, model.nv);
    articulatedBodyForwardDynamicsDerivatives(model, data, s.q, s.v, tau, 0.0, M_inverse);
    const auto fd = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        const Eigen::VectorXd& f) -> Eigen::VectorXd {
      return forwardDynamics(model, reference, q, v, f, 0.0);
    };
    const Eigen::MatrixXd dq = test::centralDifference(
        [&](const Eigen::VectorXd& q) { return fd(q, s.v, tau); }, s.q, 1e-5);
    const Eigen::MatrixXd dv = test::centralDifference(
        [&](const Eigen::VectorXd& v) { return fd(s.q, v, tau); }, s.v, test::velocityStep(model));
    const Eigen::MatrixXd dtau = test::centralDifference(
        [&](const Eigen::VectorXd& f) { return fd(s.q, s.v, f); }, tau, 1e-2);  // linear in tau
    const Eigen::MatrixXd M = massMatrix(model, reference, s.q);
    const auto mismatch = [&](const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& numeric) {
      return (M * (analytic - numeric)).norm() / (M * analytic).norm();
    };
    EXPECT_LT(mismatch(data.dqdd_dq, dq), 1e-6) << "seed " << seed;
    EXPECT_LT(mismatch(data.dqdd_dv, dv), 1e-6) << "seed " << seed;
    EXPECT_LT(mismatch(M_inverse, dtau), 1e-6) << "seed " << seed;
  }
}

// the arm's M is well conditioned: there the plain relative error in acceleration holds too
TEST(ArticulatedBodyDerivativesTest, Table6MatchesCentralDifferencesOnTheArmInAccelerationSpace) {
  const Model model = buildModel(test::benchmarkArm());
  const test::State s = test::randomState(model, 3, 1.0);
  const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
  Data data(model), reference(model);
  articulatedBodyForwardDynamicsDerivatives(model, data, s.q, s.v, tau, 0.0);
  const auto fd = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) -> Eigen::VectorXd {
    return forwardDynamics(model, reference, q, v, tau, 0.0);
  };
  const Eigen::MatrixXd dq =
      test::centralDifference([&](const Eigen::VectorXd& q) { return fd(q, s.v); }, s.q, 1e-5);
  const Eigen::MatrixXd dv = test::centralDifference(
      [&](const Eigen::VectorXd& v) { return fd(s.q, v); }, s.v, test::velocityStep(model));
  EXPECT_LT(test::relativeError(data.dqdd_dq, dq), 1e-8);
  EXPECT_LT(test::relativeError(data.dqdd_dv, dv), 1e-8);
}

Eigen::VectorXd hybridTau(const Model& model, const test::State& s,
                          const std::vector<char>& prescribed, const Eigen::VectorXd& w) {
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, 0.3, tau);
  for (int i = 0; i < model.nv; ++i) {
    if (prescribed[i] == 0) tau(i) += w(i);
  }
  return tau;
}

// some coordinates prescribed, at random: whole joints and parts of multi-coordinate ones
std::vector<char> randomPrescription(const Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<char> prescribed(model.nv, 0);
  for (char& p : prescribed) p = static_cast<char>(rng() % 3 == 0);
  return prescribed;
}

// Table 7 against the partitioned chain rule (hybrid_dynamics_derivatives.cpp): the free rows in
// force space (M_uu (A - B), whose relative size is the backward error of the free solve), the
// effort rows as they are (forces already)
void expectHybridRoutesAgree(const Model& model, unsigned seed, const std::string& label) {
  ASSERT_TRUE(supportsArticulatedDerivatives(model)) << label;
  const test::State s = test::randomState(model, seed);
  const std::vector<char> prescribed = randomPrescription(model, seed);
  const Eigen::VectorXd tau = hybridTau(model, s, prescribed, s.a);
  Data partitioned_data(model), kim_data(model);
  HybridDynamicsDerivatives partitioned(model), kim(model);
  hybridDynamicsDerivatives(model, partitioned_data, s.q, s.v, tau, prescribed, s.a, 0.3,
                            partitioned);
  articulatedHybridDynamicsDerivatives(model, kim_data, s.q, s.v, tau, prescribed, s.a, 0.3, kim);
  const Eigen::MatrixXd M = massMatrix(model, partitioned_data, s.q);
  // the free block of M, zero elsewhere, plus the identity on the effort rows
  Eigen::MatrixXd weight = Eigen::MatrixXd::Zero(model.nv, model.nv);
  for (int r = 0; r < model.nv; ++r) {
    for (int c = 0; c < model.nv; ++c) {
      if (prescribed[r] == 0 && prescribed[c] == 0) weight(r, c) = M(r, c);
    }
    if (prescribed[r] != 0) weight(r, r) = M.norm();
  }
  EXPECT_LT(normwiseForceMismatch(weight, kim.dy_dq, partitioned.dy_dq), kRoutesAgree) << label;
  EXPECT_LT(normwiseForceMismatch(weight, kim.dy_dv, partitioned.dy_dv), kRoutesAgree) << label;
  EXPECT_LT(normwiseForceMismatch(weight, kim.dy_dw, partitioned.dy_dw), kRoutesAgree) << label;
  EXPECT_EQ(kim_data.qdd, partitioned_data.qdd) << label;
}

TEST(ArticulatedBodyDerivativesTest, Table7EqualsThePartitionedChainRule) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    expectHybridRoutesAgree(buildModel(randomRigidTree(seed + 20, 12)), seed,
                            "random tree " + std::to_string(seed));
  }
  expectHybridRoutesAgree(buildModel(test::benchmarkArm()), 1, "arm7");
  expectHybridRoutesAgree(buildModel(test::benchmarkChain(30)), 2, "chain30");
  expectHybridRoutesAgree(buildModel(test::branchedTree(31, 2)), 3, "tree31_bf2");
  expectHybridRoutesAgree(buildModel(test::benchmarkHumanoid()), 4, "humanoid35");
}

// Table 7 against central differences of hybridDynamics(): in q extrapolated (truncation h^4 ~
// 1e-12 at h = 1e-3), in v at test::velocityStep; y is linear in w, so its difference is exact at
// any step (1e-2 keeps round-off out)
TEST(ArticulatedBodyDerivativesTest, Table7MatchesCentralDifferencesOnEveryJointType) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 80, 10));
    const test::State s = test::randomState(model, seed, 0.8);
    const std::vector<char> prescribed = randomPrescription(model, seed);
    const Eigen::VectorXd w = s.a;
    Data data(model);
    HybridDynamicsDerivatives analytic(model);
    articulatedHybridDynamicsDerivatives(model, data, s.q, s.v, hybridTau(model, s, prescribed, w),
                                         prescribed, w, 0.3, analytic);
    test::HybridFunction f{model, prescribed, Data(model)};
    const Eigen::MatrixXd dq = test::extrapolatedCentralDifference(
        [&](const Eigen::VectorXd& q) { return f.y(q, s.v, w); }, s.q, 1e-3);
    const Eigen::MatrixXd dv = test::centralDifference(
        [&](const Eigen::VectorXd& v) { return f.y(s.q, v, w); }, s.v, test::velocityStep(model));
    const Eigen::MatrixXd dw = test::centralDifference(
        [&](const Eigen::VectorXd& x) { return f.y(s.q, s.v, x); }, w, 1e-2);
    EXPECT_LT(test::relativeError(analytic.dy_dq, dq), 1e-7) << "seed " << seed;
    EXPECT_LT(test::relativeError(analytic.dy_dv, dv), 1e-7) << "seed " << seed;
    EXPECT_LT(test::relativeError(analytic.dy_dw, dw), 1e-7) << "seed " << seed;
  }
}

// with every coordinate prescribed Table 7 is the derivative of the inverse dynamics: dy/dqdd = M
TEST(ArticulatedBodyDerivativesTest, Table7WithEveryCoordinatePrescribedGivesTheMassMatrix) {
  const Model model = buildModel(randomRigidTree(7, 10));
  const test::State s = test::randomState(model, 7);
  const std::vector<char> prescribed(model.nv, 1);
  Data data(model);
  HybridDynamicsDerivatives kim(model);
  articulatedHybridDynamicsDerivatives(model, data, s.q, s.v, hybridTau(model, s, prescribed, s.a),
                                       prescribed, s.a, 0.3, kim);
  const Eigen::MatrixXd M = massMatrix(model, data, s.q);
  EXPECT_LT((kim.dy_dw - M).norm(), 1e-13 * M.norm());
}

// one direction equals the Jacobians applied to it (the columns are such directions, so this
// checks the general entry: dense dq, dv and a mixed dw)
TEST(ArticulatedBodyDerivativesTest, ADirectionalDerivativeIsTheJacobiansTimesTheDirection) {
  const Model model = buildModel(randomRigidTree(12, 10));
  const test::State s = test::randomState(model, 12);
  const std::vector<char> prescribed = randomPrescription(model, 12);
  Data data(model);
  HybridDynamicsDerivatives kim(model);
  articulatedHybridDynamicsDerivatives(model, data, s.q, s.v, hybridTau(model, s, prescribed, s.a),
                                       prescribed, s.a, 0.3, kim);
  const Eigen::VectorXd dq = Eigen::VectorXd::Random(model.nq);
  const Eigen::VectorXd dv = Eigen::VectorXd::Random(model.nv);
  const Eigen::VectorXd dw = Eigen::VectorXd::Random(model.nv);
  Eigen::VectorXd dy(model.nv);
  articulatedBodyDirectionalDerivative(model, data, dq, dv, dw, dy);
  const Eigen::VectorXd expected = kim.dy_dq * dq + kim.dy_dv * dv + kim.dy_dw * dw;
  EXPECT_LT((dy - expected).norm(), 1e-12 * expected.norm());
}

TEST(ArticulatedBodyDerivativesTest, ModelsWithRodIntervalsAreRefusedWithAReason) {
  const Model model = buildModel(test::example("soft_cantilever"));
  EXPECT_FALSE(supportsArticulatedDerivatives(model));
  Data data(model);
  const test::State s = test::randomState(model, 1);
  try {
    articulatedBodyForwardDynamicsDerivatives(model, data, s.q, s.v, s.a, 0.0);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rod intervals"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tendril
