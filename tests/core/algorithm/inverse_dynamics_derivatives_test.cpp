// Tests for core/algorithm/inverse_dynamics_derivatives.cpp: dID/dq and dID/dv against central
// finite differences of inverseDynamics, on every bundled example, random trees of every joint type
// and basis family, both Magnus orders, with gravity and local/global point loads
// (docs/theory/gvs.md (O1, O4, O14)).

#include "core/algorithm/inverse_dynamics_derivatives.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/rigid_tree_workspace.hpp"
#include "tests/support/rigid_models.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// central differences with step h = 1e-6 on q of order 0.1-1: truncation ~h^2 |ID'''| ~ 1e-12
// relative, round-off ~eps |ID| / h ~ 1e-10 relative; 1e-6 is the acceptance level and
// leaves four orders of margin, while a wrong term (a dropped sign, a missing transport) shows as
// O(1) (the paper's misprinted (54) fails at 0.56)
constexpr double kIdStep = 1e-6;
constexpr double kIdTolerance = 1e-6;
struct Mismatch {
  double dq = 0.0, dv = 0.0;
};

Mismatch compareWithFiniteDifferences(const Model& model, const test::State& s, double t = 0.3) {
  Data data(model);
  inverseDynamicsDerivatives(model, data, s.q, s.v, s.a, t);
  const Eigen::MatrixXd dq = data.dtau_dq, dv = data.dtau_dv;
  Data fd(model);
  const auto id_of_q = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
    return inverseDynamics(model, fd, q, s.v, s.a, t);
  };
  const auto id_of_v = [&](const Eigen::VectorXd& v) -> Eigen::VectorXd {
    return inverseDynamics(model, fd, s.q, v, s.a, t);
  };
  Mismatch m;
  m.dq = test::relativeError(dq, test::centralDifference(id_of_q, s.q, kIdStep));
  m.dv = test::relativeError(dv, test::centralDifference(id_of_v, s.v, test::velocityStep(model)));
  return m;
}

void expectMatches(const RobotDescription& robot, unsigned seed, double q_scale = 0.5) {
  const Model model = buildModel(robot);
  const test::State s = test::randomState(model, seed, q_scale);
  const Mismatch m = compareWithFiniteDifferences(model, s);
  EXPECT_LT(m.dq, kIdTolerance) << robot.name << " seed " << seed;
  EXPECT_LT(m.dv, kIdTolerance) << robot.name << " seed " << seed;
}

class ExampleDerivatives : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleDerivatives, MatchCentralDifferencesAtRandomStates) {
  for (unsigned seed = 1; seed <= 3; ++seed) expectMatches(test::example(GetParam()), seed);
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleDerivatives,
                         ::testing::Values("soft_cantilever", "tapered_free_fall",
                                           "hybrid_serial_robot", "rigid_7dof_arm",
                                           "cable_manipulator", "contact_cylinder",
                                           "underwater_robot", "paper_cable_manipulator",
                                           "paper_hybrid_serial_robot", "paper_contact_cylinder",
                                           "finray_finger", "parallel_robot"));

// v = a = 0 exactly takes the at-rest branch (statics, the first step of a run): only the
// acceleration of gravity and the loads remain in the columns
TEST(InverseDynamicsDerivatives, AtRestMatchCentralDifferences) {
  StrainBasisDesc basis;
  basis.order = {2, 2, 2, 1, 1, 1};
  for (const RobotDescription& robot :
       {test::example("cable_manipulator"), test::example("paper_cable_manipulator"),
        test::example("finray_finger"), test::uniformRod(0.4, 0.02, basis, 4, 2)}) {
    const Model model = buildModel(robot);
    test::State s = test::randomState(model, 4);
    s.v.setZero();
    s.a.setZero();
    const Mismatch m = compareWithFiniteDifferences(model, s);
    EXPECT_LT(m.dq, kIdTolerance) << robot.name;
    EXPECT_LT(m.dv, kIdTolerance) << robot.name;
  }
}

// every joint type and every basis family, large strains
TEST(InverseDynamicsDerivatives, RandomTreesOfEveryJointAndBasis) {
  for (unsigned seed = 1; seed <= 6; ++seed) expectMatches(test::randomHybrid(seed), seed, 1.0);
}

TEST(InverseDynamicsDerivatives, SecondOrderMagnusAndStraightRod) {
  StrainBasisDesc basis;
  basis.family = BasisFamily::Legendre;
  basis.order = {2, 2, 2, 1, 1, 1};
  expectMatches(test::uniformRod(0.4, 0.02, basis, 4, 2), 5, 2.0);
  // q = 0: a straight rod, every rotation angle zero (the series branch at its centre)
  const Model model = buildModel(test::uniformRod(0.4, 0.02, basis));
  test::State s = test::randomState(model, 6);
  s.q.setZero();
  const Mismatch m = compareWithFiniteDifferences(model, s);
  EXPECT_LT(m.dq, kIdTolerance);
  EXPECT_LT(m.dv, kIdTolerance);
}

// Bases that skip strain components (the components bend_y, stretch, shear_z; a planar rod's
// bend_z, stretch, shear_y), from 12 modes on, where the ID derivatives form a rod interval's cores
// on the used components only: a component mapped to the wrong column shows as O(1)
TEST(InverseDynamicsDerivatives, BasesOnSomeStrainComponents) {
  StrainBasisDesc skipping, planar;
  skipping.order = {-1, 3, -1, 3, -1, 3};
  planar.order = {-1, -1, 4, 3, 3, -1};
  for (const StrainBasisDesc& basis : {skipping, planar}) {
    for (const int magnus_order : {4, 2}) {
      expectMatches(test::uniformRod(0.4, 0.02, basis, 5, magnus_order), 7, 1.0);
    }
  }
}

// point loads on rigid bodies, in the local and the global frame, with offsets and a time-varying
// scale: their pose sensitivity K enters the rigid-tree route's composites
RobotDescription withPointLoads(RobotDescription robot) {
  PointLoadDesc global;
  global.name = "global";
  global.link = "link3";
  global.offset = {0.0, 0.01, -0.02};
  global.frame = LoadFrame::Global;
  global.wrench = {0.3, -0.2, 0.1, 1.0, -2.0, 3.0};
  global.scale.kind = TimeFunction::Kind::Sine;
  global.scale.amplitude = 0.5;
  global.scale.offset = 1.0;
  PointLoadDesc follower = global;
  follower.name = "follower";
  follower.frame = LoadFrame::Local;
  follower.link = "link5";
  robot.point_loads = {global, follower};
  return robot;
}

// the rigid-tree route (every joint owns its coordinates) on every joint type, with and without
// loads: against central differences, and against the grouped route to round-off
TEST(InverseDynamicsDerivatives, RigidTreeRouteMatchesCentralDifferencesOnEveryJoint) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const RobotDescription robot = test::randomRigidTree(seed, 10);
    ASSERT_TRUE(supportsRigidTreeRoutes(buildModel(robot)));
    expectMatches(robot, seed, 1.0);
    expectMatches(withPointLoads(robot), seed, 1.0);
  }
  expectMatches(test::benchmarkHumanoid(), 7, 1.0);
}

// the two routes add the same products in other orders; a wrong or missing term shows as 1e-3 of
// the largest entry or more
void expectDerivativeRoutesAgree(const RobotDescription& robot, unsigned seed, bool at_rest = false) {
  const Model model = buildModel(robot);
  ASSERT_TRUE(supportsRigidTreeRoutes(model)) << robot.name;
  test::State s = test::randomState(model, seed, 1.0);
  if (at_rest) {
    s.v.setZero();
    s.a.setZero();
  }
  Data rigid(model), grouped(model);
  inverseDynamicsDerivatives(model, rigid, s.q, s.v, s.a, 0.3);
  groupedInverseDynamicsDerivatives(model, grouped, s.q, s.v, s.a, 0.3);
  const auto difference = [](const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
    return (x - y).cwiseAbs().maxCoeff() / std::max(y.cwiseAbs().maxCoeff(), 1e-300);
  };
  constexpr double kRoundOff = 1e-12;
  EXPECT_LT(difference(rigid.dtau_dq, grouped.dtau_dq), kRoundOff) << robot.name;
  if (at_rest) {
    EXPECT_EQ(rigid.dtau_dv, grouped.dtau_dv) << robot.name;
  } else {
    EXPECT_LT(difference(rigid.dtau_dv, grouped.dtau_dv), kRoundOff) << robot.name;
  }
  EXPECT_EQ(rigid.tau, grouped.tau) << robot.name;
}

TEST(InverseDynamicsDerivatives, RigidTreeRouteEqualsTheGroupedRoute) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const RobotDescription robot = test::randomRigidTree(seed, 4 + 3 * static_cast<int>(seed));
    expectDerivativeRoutesAgree(robot, seed);
    expectDerivativeRoutesAgree(robot, seed, /*at_rest=*/true);
    if (seed >= 2) expectDerivativeRoutesAgree(withPointLoads(robot), seed);
  }
  expectDerivativeRoutesAgree(test::benchmarkArm(), 1);
  expectDerivativeRoutesAgree(test::benchmarkChain(30), 2);
  expectDerivativeRoutesAgree(test::branchedTree(31, 2), 3);
  expectDerivativeRoutesAgree(test::branchedTree(31, 5), 4);
  expectDerivativeRoutesAgree(test::benchmarkHumanoid(), 5);
  expectDerivativeRoutesAgree(test::example("rigid_7dof_arm"), 6);
}

// point loads in the local and the global frame, with offsets and a time-varying scale
TEST(InverseDynamicsDerivatives, LocalAndGlobalPointLoads) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    RobotDescription robot = test::randomHybrid(seed);
    PointLoadDesc on_rod;
    on_rod.name = "rod";
    on_rod.link = "link2";
    on_rod.abscissa = 0.13;
    on_rod.offset = {0.0, 0.01, -0.02};
    on_rod.frame = LoadFrame::Global;
    on_rod.wrench = {0.3, -0.2, 0.1, 1.0, -2.0, 3.0};
    on_rod.scale.kind = TimeFunction::Kind::Sine;
    on_rod.scale.amplitude = 0.5;
    on_rod.scale.offset = 1.0;
    PointLoadDesc on_body = on_rod;
    on_body.name = "body";
    on_body.link = "link4";
    on_body.abscissa = 0.0;
    PointLoadDesc follower = on_rod;
    follower.name = "follower";
    follower.frame = LoadFrame::Local;
    follower.link = "link8";
    follower.abscissa = -1.0;
    robot.point_loads = {on_rod, on_body, follower};
    expectMatches(robot, seed, 1.0);
  }
}

// contact with Hunt-Crossley damping and friction, at states where the rod presses on the cylinder
TEST(InverseDynamicsDerivatives, DampedFrictionalContact) {
  RobotDescription robot = test::example("contact_cylinder");
  ContactDesc& contact = *robot.environment.contact;
  contact.damping = 0.3;
  contact.friction = 0.6;
  contact.slip_velocity = 0.05;
  contact.smoothing = 0.005;
  const Model model = buildModel(robot);
  RobotDescription free_robot = robot;
  free_robot.environment.contact.reset();
  const Model free_model = buildModel(free_robot);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const test::State s = test::randomState(model, seed, 1.0);
    Data with(model), without(free_model);
    const double contact_force = (inverseDynamics(model, with, s.q, s.v, s.a) -
                                  inverseDynamics(free_model, without, s.q, s.v, s.a))
                                     .norm();
    EXPECT_GT(contact_force, 1.0) << "seed " << seed << " is not in contact";
    const Mismatch m = compareWithFiniteDifferences(model, s);
    EXPECT_LT(m.dq, kIdTolerance) << "seed " << seed;
    EXPECT_LT(m.dv, kIdTolerance) << "seed " << seed;
  }
}

// dID/da is M, and the body Jacobians of the pass are those of frameJacobian (O3, O4)
TEST(InverseDynamicsDerivatives, AccelerationDerivativeIsTheMassMatrixAndJacobiansAgree) {
  const Model model = buildModel(test::randomHybrid(3));
  const test::State s = test::randomState(model, 9, 1.0);
  Data data(model);
  inverseDynamicsDerivatives(model, data, s.q, s.v, s.a);
  Data fd(model);
  const Eigen::MatrixXd dID_da = test::centralDifference(
      [&](const Eigen::VectorXd& a) -> Eigen::VectorXd {
        return inverseDynamics(model, fd, s.q, s.v, a);
      },
      s.a, 1e-3);  // ID is affine in a: the difference is exact up to round-off
  EXPECT_LT(test::relativeError(massMatrix(model, fd, s.q), dID_da), 1e-10);
  Eigen::MatrixXd J(6, model.nv);
  FrameDerivatives frame(model);
  for (int j = 0; j < model.n_vjoints(); ++j) {
    frameJacobian(model, data, j, J);
    frameDerivatives(model, data, j, SE3::Identity(), frame);
    EXPECT_LT(test::relativeError(frame.J, J, 1e-9), 1e-12) << "frame " << j;
  }
}

// the twist and acceleration derivatives of any frame (closed chains read them at their frames A
// and B) against central differences of the twists and accelerations of inverseDynamics
TEST(InverseDynamicsDerivatives, FrameDerivativesMatchCentralDifferences) {
  for (const auto& [name, robot] :
       {std::pair{std::string("random2"), test::randomHybrid(2)},
        std::pair{std::string("random3"), test::randomHybrid(3)},
        std::pair{std::string("rigid tree"), test::randomRigidTree(5, 9)},
        std::pair{std::string("hybrid_serial_robot"), test::example("hybrid_serial_robot")}}) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    const test::State s = test::randomState(model, 21, 0.8);
    Data data(model), fd(model);
    inverseDynamicsDerivatives(model, data, s.q, s.v, s.a);
    SE3 offset;
    offset.R = rpyToRotation(0.3, -0.2, 0.7);
    offset.p = Eigen::Vector3d(0.05, -0.02, 0.03);
    FrameDerivatives frame(model);
    for (int j = 0; j < model.n_vjoints(); ++j) {
      frameDerivatives(model, data, j, offset, frame);
      // eta and eta_dot of the offset frame, stacked, at (q, v)
      const auto motion = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
        inverseDynamics(model, fd, q, v, s.a);
        Eigen::VectorXd out(12);
        out << applyAdInv(offset, fd.eta[j]), applyAdInv(offset, fd.eta_dot[j]);
        return out;
      };
      const Eigen::MatrixXd by_q = test::centralDifference(
          [&](const Eigen::VectorXd& q) -> Eigen::VectorXd { return motion(q, s.v); }, s.q, 1e-6);
      // eta_dot is quadratic in v: the step-1e-2 differences are exact up to a round-off of about
      // eps |eta_dot| / h ~ 1e-14, so its block that vanishes (the root frame's) is judged against
      // the floor 1e-3, i.e. to 1e-12 in absolute terms
      const Eigen::MatrixXd by_v = test::centralDifference(
          [&](const Eigen::VectorXd& v) -> Eigen::VectorXd { return motion(s.q, v); }, s.v, 1e-2);
      EXPECT_LT(test::relativeError(frame.deta_dq, by_q.topRows(6), 1e-6), 1e-6) << "frame " << j;
      EXPECT_LT(test::relativeError(frame.deta_dot_dq, by_q.bottomRows(6), 1e-6), 1e-6)
          << "frame " << j;
      EXPECT_LT(test::relativeError(frame.J, by_v.topRows(6), 1e-6), 1e-9) << "frame " << j;
      EXPECT_LT(test::relativeError(frame.deta_dot_dv, by_v.bottomRows(6), 1e-3), 1e-9)
          << "frame " << j;
    }
  }
}

}  // namespace
}  // namespace tendril
