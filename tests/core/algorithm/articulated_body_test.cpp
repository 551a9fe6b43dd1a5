// Tests for core/algorithm/articulated_body.cpp: the articulated-body forward dynamics against the
// factorisation of M (forward_dynamics.cpp), and the hybrid dynamics against its two limits (all
// free: the forward dynamics; all prescribed: the inverse dynamics) and the partitioned solve
// between them.

#include "core/algorithm/articulated_body.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/hybrid_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/hybrid_dynamics_checks.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// Both routes are exact: they differ by rounding, amplified by the conditioning of M (up to 1e8
// on the examples with light distal links); 1e-10 relative on qdd leaves room for that and none
// for a wrong term (a missing velocity product or external load moves qdd by 1e-3 or more)
constexpr double kArticulatedTolerance = 1e-10;

using test::randomRigidTree;  // every joint type, random branching, full inertia tensors

// the 7-joint arm with its joints 2 and 5 under position control (sines about different offsets)
RobotDescription armWithTwoPositionControlledJoints() {
  RobotDescription robot = test::example("rigid_7dof_arm");
  for (const int link : {1, 4}) {
    JointInputDesc input;
    input.link = robot.links[static_cast<std::size_t>(link)].name;
    input.mode = JointInputDesc::Mode::Position;
    input.value.kind = TimeFunction::Kind::Sine;
    input.value.amplitude = 0.4;
    input.value.frequency = 0.7;
    input.value.offset = 0.1 * link;
    robot.joint_inputs.push_back(input);
  }
  return robot;
}

double relative(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-12);
}

void expectForwardDynamicsAgree(const Model& model, unsigned seed, const std::string& label) {
  ASSERT_TRUE(supportsArticulatedBody(model)) << label;
  Data factored(model), articulated(model);
  for (unsigned k = 0; k < 5; ++k) {
    const test::State s = test::randomState(model, seed * 31 + k);
    const double t = 0.1 * k;
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, t);
    const Eigen::VectorXd reference = forwardDynamics(model, factored, s.q, s.v, tau, t);
    const Eigen::VectorXd qdd =
        articulatedBodyForwardDynamics(model, articulated, s.q, s.v, tau, t);
    ASSERT_TRUE(reference.allFinite()) << label;
    EXPECT_LT(relative(qdd, reference), kArticulatedTolerance) << label << " state " << k;
  }
}

TEST(ArticulatedBodyTest, ForwardDynamicsEqualsTheFactorisationOfMOnRandomRigidTrees) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const Model model = buildModel(randomRigidTree(seed, 12));
    expectForwardDynamicsAgree(model, seed, "random tree " + std::to_string(seed));
  }
}

TEST(ArticulatedBodyTest, ForwardDynamicsEqualsTheFactorisationOfMOnEveryExampleItApplies) {
  std::vector<std::string> supported;
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const std::string stem = entry.path().stem().string();
    const Model model = buildModel(test::example(stem));
    if (model.agnostic_only || !supportsArticulatedBody(model)) continue;
    supported.push_back(stem);
    expectForwardDynamicsAgree(model, 7, stem);
  }
  // the arms (rigid joints only); the others carry rods of several intervals per division
  std::sort(supported.begin(), supported.end());
  EXPECT_EQ(supported, (std::vector<std::string>{"controlled_arm", "rigid_7dof_arm"}));
}

TEST(ArticulatedBodyTest, LoadsThatDependOnTheStateEnterTheBias) {
  // a free-floating body in water (buoyancy, drag, added mass) hit by a point load, with a
  // contact plane under a chain hanging from it: every external wrench of external_loads.cpp
  const RobotDescription robot = test::floatingTreeWithEveryLoad(LoadFrame::Local);
  const Model model = buildModel(robot);
  ASSERT_TRUE(model.has_added_mass);
  expectForwardDynamicsAgree(model, 11, "loaded tree");
}

// qdd and efforts of hybridDynamics() with the given coordinates prescribed at qdd_k
struct HybridResult {
  Eigen::VectorXd qdd, efforts;
};

HybridResult hybrid(const Model& model, const test::State& s, const std::vector<char>& prescribed,
                    const Eigen::VectorXd& tau) {
  Data data(model);
  hybridDynamics(model, data, s.q, s.v, tau, prescribed, s.a);
  return {data.qdd, data.articulated.efforts};
}

TEST(ArticulatedBodyTest, HybridDynamicsWithEveryCoordinateFreeIsTheForwardDynamics) {
  const Model model = buildModel(randomRigidTree(5, 10));
  const test::State s = test::randomState(model, 5);
  const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
  const HybridResult result = hybrid(model, s, std::vector<char>(model.nv, 0), tau);
  Data data(model);
  EXPECT_LT(relative(result.qdd, forwardDynamics(model, data, s.q, s.v, tau)),
            kArticulatedTolerance);
  EXPECT_EQ(result.efforts.norm(), 0.0);
}

TEST(ArticulatedBodyTest, HybridDynamicsWithEveryCoordinatePrescribedIsTheInverseDynamics) {
  const Model model = buildModel(randomRigidTree(6, 10));
  const test::State s = test::randomState(model, 6);
  const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
  const HybridResult result = hybrid(model, s, std::vector<char>(model.nv, 1), tau);
  EXPECT_EQ(result.qdd, s.a);
  Data data(model);
  Eigen::VectorXd expected = inverseDynamics(model, data, s.q, s.v, s.a);
  Eigen::VectorXd applied = tau;
  addInternalForces(model, s.q, s.v, applied);
  expected -= applied;  // the efforts are what the joints must add to the applied forces
  EXPECT_LT(relative(result.efforts, expected), 1e-12);
}

TEST(ArticulatedBodyTest, HybridDynamicsEqualsThePartitionedSolve) {
  // M_uu qdd_u = tau_u - ID_u(q, v, [0; qdd_k]), efforts_k = ID_k(q, v, qdd) - tau_k, with some
  // joints wholly prescribed and some multi-coordinate joints split between the two sets
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 20, 12));
    const test::State s = test::randomState(model, seed);
    Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
    std::vector<char> prescribed(model.nv, 0);
    std::mt19937 rng(seed);
    for (char& p : prescribed) p = static_cast<char>(rng() % 3 == 0);
    const HybridResult result = hybrid(model, s, prescribed, tau);

    std::vector<int> free;
    Eigen::VectorXd known = Eigen::VectorXd::Zero(model.nv);
    for (int i = 0; i < model.nv; ++i) {
      if (prescribed[i] != 0) {
        known(i) = s.a(i);
      } else {
        free.push_back(i);
      }
    }
    Data data(model);
    Eigen::VectorXd applied = tau;
    addInternalForces(model, s.q, s.v, applied);
    const Eigen::VectorXd rhs = applied - inverseDynamics(model, data, s.q, s.v, known);
    const Eigen::MatrixXd M = massMatrix(model, data, s.q);
    const auto n_u = static_cast<Eigen::Index>(free.size());
    Eigen::MatrixXd M_uu(n_u, n_u);
    Eigen::VectorXd rhs_u(n_u);
    for (Eigen::Index r = 0; r < n_u; ++r) {
      rhs_u(r) = rhs(free[r]);
      for (Eigen::Index c = 0; c < n_u; ++c) M_uu(r, c) = M(free[r], free[c]);
    }
    Eigen::VectorXd qdd = known;
    const Eigen::VectorXd qdd_u = M_uu.llt().solve(rhs_u);
    for (Eigen::Index r = 0; r < n_u; ++r) qdd(free[r]) = qdd_u(r);
    Eigen::VectorXd efforts = inverseDynamics(model, data, s.q, s.v, qdd) - applied;
    for (const int i : free) efforts(i) = 0.0;

    EXPECT_LT(relative(result.qdd, qdd), kArticulatedTolerance) << "seed " << seed;
    EXPECT_LT(relative(result.efforts, efforts), kArticulatedTolerance) << "seed " << seed;
  }
}

TEST(ArticulatedBodyTest, PrescribedJointsTakeTheHybridRouteAndMatchThePartitionedSolve) {
  // the arm with joints 2 and 5 under position control: the simulator's constrained dynamics
  // (hybrid dynamics here) against the partitioned solve it replaces
  const Model model = buildModel(armWithTwoPositionControlledJoints());
  ASSERT_EQ(model.prescribed.size(), 2u);
  ConstrainedDynamicsData hybrid_cdd(model), factorised_cdd(model);
  Data hybrid_data(model), factorised_data(model);
  for (unsigned k = 0; k < 4; ++k) {
    const test::State s = test::randomState(model, 40 + k);
    const double t = 0.37 * k;
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, t);
    const Eigen::VectorXd qdd =
        constrainedForwardDynamics(model, hybrid_data, hybrid_cdd, s.q, s.v, tau, t);
    const Eigen::VectorXd reference =
        factorisedConstrainedDynamics(model, factorised_data, factorised_cdd, s.q, s.v, tau, t);
    EXPECT_LT(relative(qdd, reference), kArticulatedTolerance) << "state " << k;
    EXPECT_LT(relative(hybrid_cdd.efforts, factorised_cdd.efforts), kArticulatedTolerance)
        << "state " << k;
    EXPECT_EQ(hybrid_cdd.q, factorised_cdd.q);
  }
}

TEST(ArticulatedBodyTest, ModelsWhoseRodsShareCoordinatesAreRefusedWithAReason) {
  const Model model = buildModel(test::example("soft_cantilever"));
  EXPECT_FALSE(supportsArticulatedBody(model));
  Data data(model);
  const test::State s = test::randomState(model, 1);
  EXPECT_THROW(articulatedBodyForwardDynamics(model, data, s.q, s.v, s.a), std::invalid_argument);
}

// The normwise backward error |residual| / (|M| |Y|) of a solve M Y = X: a backward-stable solve
// makes it a small multiple of the machine epsilon whatever the conditioning of M (a wrong sign or
// a missing child wrench makes it O(1)), and of two such solves the difference M (A - B) too
double backwardError(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Y,
                     const Eigen::MatrixXd& residual) {
  return residual.norm() / (M.norm() * Y.norm());
}

// The articulated solve after the forward dynamics is M^-1, after the hybrid dynamics M_uu^-1 with
// the efforts on the prescribed coordinates
TEST(ArticulatedBodyTest, SolveInPlaceInvertsMAndItsFreeBlock) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 40, 12));
    const test::State s = test::randomState(model, seed);
    Data data(model);
    const Eigen::MatrixXd M = massMatrix(model, data, s.q);
    std::mt19937 rng(seed);
    std::vector<char> prescribed(model.nv, 0);
    for (char& p : prescribed) p = static_cast<char>(rng() % 3 == 0);
    for (const bool hybrid_route : {false, true}) {
      const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
      if (hybrid_route) {
        hybridDynamics(model, data, s.q, s.v, tau, prescribed, s.a);
      } else {
        articulatedBodyForwardDynamics(model, data, s.q, s.v, tau);
      }
      const Eigen::MatrixXd X = Eigen::MatrixXd::Random(model.nv, 5);
      Eigen::MatrixXd Y = X;
      articulatedBodySolveInPlace(model, data, Y);
      // prescribed rows: zero acceleration in M Y, the efforts M_ku y_u - x_k in Y
      Eigen::MatrixXd accelerations = Y;
      for (int i = 0; i < model.nv; ++i) {
        if (hybrid_route && prescribed[i] != 0) accelerations.row(i).setZero();
      }
      Eigen::MatrixXd residual = M * accelerations - X;
      for (int i = 0; i < model.nv; ++i) {
        if (hybrid_route && prescribed[i] != 0) residual.row(i) -= Y.row(i);
      }
      EXPECT_LT(backwardError(M, accelerations, residual), 1e-15)
          << "seed " << seed << " hybrid " << hybrid_route;
    }
  }
}

// dFD by the two routes of M^-1 (dense factor, articulated recursion). They share dID and differ
// by the solve only, so their difference is the rounding of two backward-stable solves: measured as
// a backward error, |M (A - B)| / (|M| |A|), it is free of the conditioning of M. Measured: 1e-14
// to 2e-14 on the random trees, up to 4.5e-13 on the 30-chain (the recursion's subtractions
// I_A - U D^-1 U^T along a long chain); a wrong term makes it O(1)
double forceSpace(const Eigen::MatrixXd& M, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return backwardError(M, a, M * (a - b));
}

void expectForwardDynamicsRoutesAgree(const Model& model, unsigned seed, const std::string& label) {
  Data dense(model), articulated(model);
  for (unsigned k = 0; k < 3; ++k) {
    const test::State s = test::randomState(model, seed * 17 + k);
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.2 * k);
    forwardDynamicsDerivatives(model, dense, s.q, s.v, tau, 0.2 * k,
                               ForwardDerivativeRoute::DenseFactor);
    forwardDynamicsDerivatives(model, articulated, s.q, s.v, tau, 0.2 * k,
                               ForwardDerivativeRoute::ArticulatedBody);
    const Eigen::MatrixXd M = massMatrix(model, dense, s.q);
    EXPECT_LT(relative(articulated.qdd, dense.qdd), kArticulatedTolerance) << label;
    EXPECT_LT(forceSpace(M, articulated.dqdd_dq, dense.dqdd_dq), 1e-12) << label << " dq " << k;
    EXPECT_LT(forceSpace(M, articulated.dqdd_dv, dense.dqdd_dv), 1e-12) << label << " dv " << k;
  }
}

TEST(ArticulatedBodyTest, DerivativeRoutesAgreeOnRandomTreesAndTheBenchmarkRobots) {
  for (unsigned seed = 1; seed <= 6; ++seed)
    expectForwardDynamicsRoutesAgree(buildModel(randomRigidTree(seed, 12)), seed,
                                     "tree " + std::to_string(seed));
  expectForwardDynamicsRoutesAgree(buildModel(test::benchmarkArm()), 1, "arm7");
  expectForwardDynamicsRoutesAgree(buildModel(test::benchmarkChain(30)), 2, "chain30");
  expectForwardDynamicsRoutesAgree(buildModel(test::branchedTree(31, 5)), 3, "tree31_bf5");
  expectForwardDynamicsRoutesAgree(buildModel(test::benchmarkHumanoid()), 4, "humanoid35");
}

// the articulated route against central differences of FD through the exponential coordinates of
// every joint type (spherical and free included), in force space for the reason
// forward_dynamics_derivatives_test.cpp gives; step 1e-5 in q (truncation ~1e-10)
TEST(ArticulatedBodyTest, ArticulatedDerivativeRouteMatchesCentralDifferences) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 60, 10));
    const test::State s = test::randomState(model, seed, 0.8);
    const Eigen::VectorXd tau = test::actuationWithJointEfforts(model, s, 0.0);
    Data data(model), reference(model);
    forwardDynamicsDerivatives(model, data, s.q, s.v, tau, 0.0,
                               ForwardDerivativeRoute::ArticulatedBody);
    const auto fd = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) -> Eigen::VectorXd {
      return forwardDynamics(model, reference, q, v, tau, 0.0);
    };
    const Eigen::MatrixXd dq =
        test::centralDifference([&](const Eigen::VectorXd& q) { return fd(q, s.v); }, s.q, 1e-5);
    const Eigen::MatrixXd dv = test::centralDifference(
        [&](const Eigen::VectorXd& v) { return fd(s.q, v); }, s.v, test::velocityStep(model));
    const Eigen::MatrixXd M = massMatrix(model, reference, s.q);
    const auto mismatch = [&](const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& reference) {
      return (M * (analytic - reference)).norm() / (M * analytic).norm();
    };
    EXPECT_LT(mismatch(data.dqdd_dq, dq), 1e-6) << "seed " << seed;
    EXPECT_LT(mismatch(data.dqdd_dv, dv), 1e-6) << "seed " << seed;
  }
}

HybridDynamicsDerivatives hybridDerivatives(const Model& model, const test::State& s,
                                            const std::vector<char>& prescribed,
                                            const Eigen::VectorXd& w, Data& data) {
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, 0.3, tau);
  for (int i = 0; i < model.nv; ++i) {
    if (prescribed[i] == 0) tau(i) += w(i);
  }
  HybridDynamicsDerivatives out(model);
  hybridDynamicsDerivatives(model, data, s.q, s.v, tau, prescribed, w, 0.3, out);
  return out;
}

// against central differences through the exponential coordinates of every joint type: in q
// extrapolated (truncation h^4 ~ 1e-12 at h = 1e-3, round-off eps |y| cond / h), in v at
// test::velocityStep; y is linear in w, so its difference is exact at any step (1e-2 keeps
// round-off out)
TEST(HybridDynamicsDerivativesTest, MatchCentralDifferencesOnRandomTrees) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const Model model = buildModel(randomRigidTree(seed + 80, 10));
    const test::State s = test::randomState(model, seed, 0.8);
    std::mt19937 rng(seed);
    std::vector<char> prescribed(model.nv, 0);
    for (char& p : prescribed) p = static_cast<char>(rng() % 3 == 0);
    const Eigen::VectorXd w = s.a;
    Data data(model);
    const HybridDynamicsDerivatives analytic = hybridDerivatives(model, s, prescribed, w, data);
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

// with nothing prescribed the hybrid derivatives are dFD, and dy/dw = M^-1
TEST(HybridDynamicsDerivativesTest, WithEveryCoordinateFreeTheyAreTheForwardDerivatives) {
  const Model model = buildModel(randomRigidTree(9, 12));
  const test::State s = test::randomState(model, 9);
  const std::vector<char> prescribed(model.nv, 0);
  const Eigen::VectorXd w = Eigen::VectorXd::Zero(model.nv);
  Data data(model), dense(model);
  const HybridDynamicsDerivatives hybrid = hybridDerivatives(model, s, prescribed, w, data);
  Eigen::VectorXd tau(model.nv);
  actuationForces(model, s.q, 0.3, tau);
  forwardDynamicsDerivatives(model, dense, s.q, s.v, tau, 0.3, ForwardDerivativeRoute::DenseFactor);
  const Eigen::MatrixXd M = massMatrix(model, dense, s.q);
  // two analytic routes, the standard of DerivativeRoutesAgree... (1e-12 in the force space); the
  // solve itself to a small multiple of n eps (backward stable: O(n) recursion per column)
  EXPECT_LT(forceSpace(M, hybrid.dy_dq, dense.dqdd_dq), 1e-12);
  EXPECT_LT(forceSpace(M, hybrid.dy_dv, dense.dqdd_dv), 1e-12);
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(model.nv, model.nv);
  const double n_eps = model.nv * std::numeric_limits<double>::epsilon();
  EXPECT_LT(backwardError(M, hybrid.dy_dw, M * hybrid.dy_dw - identity), 4.0 * n_eps);
}

// the arm with two joints under position control: against the simulator's partitioned (KKT)
// route, constrainedForwardDynamicsDerivatives(), on the block both define (free rows, free
// columns; that route holds q_k, v_k at f(t), f'(t), so its prescribed columns are zero)
TEST(HybridDynamicsDerivativesTest, AgreeWithThePartitionedRoute) {
  const Model model = buildModel(armWithTwoPositionControlledJoints());
  ConstrainedDynamicsData cdd(model);
  Data partitioned(model), hybrid(model);
  for (unsigned k = 0; k < 3; ++k) {
    const test::State s = test::randomState(model, 60 + k);
    const double t = 0.41 * k;
    Eigen::VectorXd tau(model.nv);
    actuationForces(model, s.q, t, tau);
    constrainedForwardDynamicsDerivatives(model, partitioned, cdd, s.q, s.v, tau, t);
    ASSERT_TRUE(cdd.dqdd_dq.allFinite());
    HybridDynamicsDerivatives out(model);
    actuationForces(model, cdd.q, t, tau);
    hybridDynamicsDerivatives(model, hybrid, cdd.q, cdd.v, tau, cdd.prescribed_mask, cdd.qdd, t,
                              out);
    EXPECT_LT(relative(hybrid.qdd, cdd.qdd), kArticulatedTolerance);
    Eigen::MatrixXd ours_q = out.dy_dq, ours_v = out.dy_dv;
    for (int i = 0; i < model.nv; ++i) {
      if (cdd.prescribed_mask[i] == 0) continue;
      ours_q.row(i).setZero();
      ours_q.col(i).setZero();
      ours_v.row(i).setZero();
      ours_v.col(i).setZero();
    }
    EXPECT_LT(test::relativeError(ours_q, cdd.dqdd_dq), 1e-12) << "state " << k;
    EXPECT_LT(test::relativeError(ours_v, cdd.dqdd_dv), 1e-12) << "state " << k;
  }
}

}  // namespace
}  // namespace tendril
