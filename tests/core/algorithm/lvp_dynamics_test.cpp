// Tests for the LVP body in the model-agnostic family (LvpAgnosticBody, model_agnostic_body.cpp)
// and its actuation (lvp_actuation.cpp): IID against an independent Euler-Lagrange computation
// (central differences of the kinetic energy of the point quadrature, positions composed here
// from LvpKinematics and the joints, not from the recursion), MID's M symmetric, positive definite
// and equal to IID's columns, the ID's gravity, neo-Hookean and Kelvin-Voigt parts, tendon lengths
// and their gradients, the cavity pressure as p dV/dq, and the named inputs.

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using std::numbers::pi;

// two LVP bodies in series, each on a revolute joint: Table 4 (solid) then Table 5 (hollow); a
// rigid link at the end
RobotDescription lvpChain(bool with_rigid_tip = true) {
  RobotDescription robot;
  robot.name = "lvp_chain";
  robot.gravity = {0.3, -0.2, -9.81};
  LinkDesc a;
  a.name = "a";
  a.joint.type = JointType::Revolute;
  a.joint.axis = {1.0, 0.0, 0.0};
  a.origin.position = {0.01, 0.02, 0.3};
  a.origin.rpy = {0.1, pi, 0.2};
  LvpBodyDesc body_a;
  body_a.quadrature = {3, 2, 5};
  a.body = body_a;
  LinkDesc b;
  b.name = "b";
  b.parent = "a";
  b.joint.type = JointType::Revolute;
  b.joint.axis = {0.0, 1.0, 0.0};
  b.origin.position = {0.0, 0.005, 0.01};
  LvpBodyDesc body_b;
  body_b.length = 0.08;
  body_b.radius = 0.015;
  body_b.cavity_radius = 0.006;
  body_b.neo_hookean_c = 2.2e6;
  body_b.primitives = lvpTable5Primitives();
  body_b.quadrature = {3, 2, 5};
  b.body = body_b;
  robot.links = {a, b};
  if (with_rigid_tip) {
    LinkDesc c;
    c.name = "c";
    c.parent = "b";
    c.joint.type = JointType::Fixed;
    c.origin.position = {0.0, 0.0, 0.01};
    c.rigid().mass = 0.05;
    c.rigid().com = {0.0, 0.01, 0.02};
    c.rigid().inertia = {2e-5, 3e-5, 4e-5, 1e-6, 0.0, 0.0};
    robot.links.push_back(c);
  }
  return robot;
}

SE3 toPose(const Placement& placement) {
  SE3 g;
  g.R = (Eigen::AngleAxisd(placement.rpy[2], Eigen::Vector3d::UnitZ()) *
         Eigen::AngleAxisd(placement.rpy[1], Eigen::Vector3d::UnitY()) *
         Eigen::AngleAxisd(placement.rpy[0], Eigen::Vector3d::UnitX()))
            .toRotationMatrix();
  g.p = Eigen::Vector3d(placement.position.data());
  return g;
}

SE3 revolute(const Vec3& axis, double angle) {
  SE3 g;
  g.R = Eigen::AngleAxisd(angle, Eigen::Vector3d(axis.data()).normalized()).toRotationMatrix();
  g.p.setZero();
  return g;
}

// The world positions of every mass point of lvpChain() and their masses, composed here: joint
// rotations, LvpKinematics::position for the points and ::distal for the frame a child hangs from
struct PointMasses {
  std::vector<Eigen::Vector3d> p;
  std::vector<double> m;
};
PointMasses pointMasses(const RobotDescription& robot, const Eigen::VectorXd& q) {
  PointMasses out;
  SE3 parent_D = SE3::Identity();
  int idx = 0;
  for (const LinkDesc& link : robot.links) {
    const SE3 joint_frame =
        parent_D * toPose(link.origin) *
        (link.joint.type == JointType::Revolute ? revolute(link.joint.axis, q(idx))
                                                : SE3::Identity());
    idx += link.joint.type == JointType::Revolute ? 1 : 0;
    if (link.kind() == BodyKind::Rigid) {
      out.p.push_back(joint_frame.act(Eigen::Vector3d(link.rigid().com.data())));
      out.m.push_back(link.rigid().mass);  // (its rotational inertia: see the caller)
      continue;
    }
    const LvpKinematics kinematics(link.lvp());
    const Eigen::VectorXd q_b = q.segment(idx, kinematics.dof());
    for (std::size_t k = 0; k < kinematics.points().size(); ++k) {
      out.p.push_back(joint_frame.act(kinematics.position(kinematics.points()[k], q_b)));
      out.m.push_back(link.lvp().density * kinematics.volumes()[k]);
    }
    LvpKinematics::Distal D;
    kinematics.distal(q_b, Eigen::VectorXd::Zero(kinematics.dof()), D);
    SE3 g_D;
    g_D.R = D.R;
    g_D.p = D.p;
    parent_D = joint_frame * g_D;
    idx += kinematics.dof();
  }
  return out;
}

// M(q) = sum m_k J_k^T J_k with J_k by central differences of the positions
Eigen::MatrixXd eulerLagrangeMass(const RobotDescription& robot, const Eigen::VectorXd& q) {
  const int n = static_cast<int>(q.size());
  const double h = 1e-5;
  const std::size_t points = pointMasses(robot, q).p.size();
  std::vector<Eigen::Matrix3Xd> J(points, Eigen::Matrix3Xd(3, n));
  for (int j = 0; j < n; ++j) {
    const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
    const PointMasses plus = pointMasses(robot, q + e), minus = pointMasses(robot, q - e);
    for (std::size_t k = 0; k < points; ++k) J[k].col(j) = (plus.p[k] - minus.p[k]) / (2 * h);
  }
  const PointMasses at = pointMasses(robot, q);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t k = 0; k < points; ++k) M += at.m[k] * J[k].transpose() * J[k];
  return M;
}

TEST(LvpDynamics, ModelIsAgnosticOnlyWithNamedCoordinates) {
  const Model model = buildModel(lvpChain());
  EXPECT_TRUE(model.agnostic_only);
  EXPECT_EQ(model.nq, 1 + 8 + 1 + 2);
  EXPECT_EQ(model.links[0].nq, 9);
  EXPECT_EQ(model.links[1].idx_q, 9);
  EXPECT_EQ(model.coordinate_names[1], "a/lvp/stretch/0");
  EXPECT_EQ(model.coordinate_names[11], "b/lvp/source/0");
}

// IID against Euler-Lagrange on point masses: the chain without the rigid tip's rotational
// inertia (a point mass at its centre of mass), M q'' + (M-dot v - dT/dq)
TEST(LvpDynamics, InertialInverseDynamicsMatchesEulerLagrange) {
  RobotDescription robot = lvpChain();
  robot.links[2].rigid().inertia = {1e-12, 1e-12, 1e-12, 0.0, 0.0, 0.0};  // a point, nearly
  const Model model = buildModel(robot);
  Data data(model);
  const test::State state = test::randomState(model, 21, 0.2);
  const Eigen::VectorXd &q = state.q, &v = state.v, &a = state.a;
  const Eigen::VectorXd iid = modelAgnosticIID(model, data, q, v, a);
  const Eigen::MatrixXd M = eulerLagrangeMass(robot, q);
  // c = (dM/dq . v) v - 1/2 d(v^T M v)/dq, by central differences of M
  const double h = 1e-4;
  const int n = model.nv;
  const Eigen::VectorXd Mdot_v =
      (eulerLagrangeMass(robot, q + h * v) - eulerLagrangeMass(robot, q - h * v)) * v / (2 * h);
  Eigen::VectorXd dT(n);
  for (int j = 0; j < n; ++j) {
    const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
    dT(j) = 0.5 * v.dot((eulerLagrangeMass(robot, q + e) - eulerLagrangeMass(robot, q - e)) * v) /
            (2 * h);
  }
  const Eigen::VectorXd reference = M * a + Mdot_v - dT;
  EXPECT_LT((iid - reference).norm(), 1e-6 * reference.norm())
      << "IID " << iid.transpose() << "\nEL  " << reference.transpose();
}

TEST(LvpDynamics, MassMatrixIsSymmetricPositiveDefiniteAndIidsColumns) {
  const Model model = buildModel(lvpChain());
  Data data(model);
  const test::State state = test::randomState(model, 4, 0.2);
  const Eigen::VectorXd &q = state.q, &v = state.v, &a = state.a;
  const Eigen::VectorXd mid = modelAgnosticMID(model, data, q, v, a, 0.3);
  const Eigen::MatrixXd M = data.agnostic.M;
  EXPECT_LT((M - M.transpose()).norm(), 1e-13 * M.norm());
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(M).info(), Eigen::Success);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  for (int j = 0; j < model.nv; ++j) {
    const Eigen::VectorXd column =
        modelAgnosticIID(model, data, q, zero, Eigen::VectorXd::Unit(model.nv, j));
    EXPECT_LT((M.col(j) - column).norm(), 1e-12 * M.norm()) << j;
  }
  // MID's tau is the ID's
  const Eigen::VectorXd id = modelAgnosticID(model, data, q, v, a, 0.3);
  EXPECT_LT((mid - id).norm(), 1e-12 * id.norm());
}

// ID - IID = dV_gravity/dq + the bodies' neo-Hookean and Kelvin-Voigt forces (no actuation)
TEST(LvpDynamics, InverseDynamicsAddsGravityAndTheMaterialForces) {
  RobotDescription robot = lvpChain();
  robot.links[2].rigid().inertia = {1e-12, 1e-12, 1e-12, 0.0, 0.0, 0.0};
  const Model model = buildModel(robot);
  Data data(model);
  const test::State state = test::randomState(model, 9, 0.2);
  const Eigen::VectorXd &q = state.q, &v = state.v, &a = state.a;
  const Eigen::VectorXd iid = modelAgnosticIID(model, data, q, v, a);
  const Eigen::VectorXd id = modelAgnosticID(model, data, q, v, a);
  const Eigen::Vector3d g(robot.gravity.data());
  const auto potential = [&](const Eigen::VectorXd& x) {
    const PointMasses points = pointMasses(robot, x);
    double V = 0.0;
    for (std::size_t k = 0; k < points.p.size(); ++k) V -= points.m[k] * g.dot(points.p[k]);
    return V;
  };
  Eigen::VectorXd expected(model.nv);
  const double h = 1e-6;
  for (int j = 0; j < model.nv; ++j) {
    const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(model.nv, j);
    expected(j) = (potential(q + e) - potential(q - e)) / (2 * h);
  }
  for (int i = 0; i < 2; ++i) {
    const LinkInfo& info = model.links[static_cast<std::size_t>(i)];
    const LvpKinematics kinematics(robot.links[static_cast<std::size_t>(i)].lvp());
    Eigen::VectorXd s;
    kinematics.internalForces(q.segment(info.idx_q + 1, kinematics.dof()),
                              v.segment(info.idx_q + 1, kinematics.dof()), s);
    expected.segment(info.idx_q + 1, kinematics.dof()) += s;
  }
  EXPECT_LT((id - iid - expected).norm(), 1e-6 * expected.norm()) << (id - iid).transpose() << "\n"
                                                                  << expected.transpose();
}

// tendons: a straight one along the surface of a straight body is L long; across the two bodies
// from the base of a to the tip of b; the gradient against central differences of the length
RobotDescription tendonChain() {
  RobotDescription robot = lvpChain(false);
  LvpTendonDesc along{"along",
                      {{"a", LvpAnchorDesc::End::Base, 0.3}, {"a", LvpAnchorDesc::End::Tip, 0.3}},
                      TimeFunction::constant(2.0)};
  LvpTendonDesc across{"across",
                       {{"a", LvpAnchorDesc::End::Base, 2.0},
                        {"a", LvpAnchorDesc::End::Tip, 2.0},
                        {"b", LvpAnchorDesc::End::Base, 2.0},
                        {"b", LvpAnchorDesc::End::Tip, 2.5}},
                       TimeFunction::constant(3.0)};
  robot.lvp_tendons = {along, across};
  robot.cavity_pressures = {{"chamber", "b", TimeFunction::constant(5e4)}};
  return robot;
}

TEST(LvpDynamics, TendonLengthsAndTheirGradients) {
  const RobotDescription robot = tendonChain();
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(model.nq);
  EXPECT_NEAR(lvpTendonLength(model, data, 0, rest), robot.links[0].lvp().length, 1e-15);
  const Eigen::VectorXd q = test::randomState(model, 31, 0.2).q;
  for (int tendon = 0; tendon < 2; ++tendon) {
    Eigen::VectorXd gradient;
    lvpTendonLength(model, data, tendon, q, &gradient);
    const double h = 1e-6;
    for (int j = 0; j < model.nq; ++j) {
      const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(model.nq, j);
      const double numeric = (lvpTendonLength(model, data, tendon, q + e) -
                              lvpTendonLength(model, data, tendon, q - e)) /
                             (2 * h);
      EXPECT_NEAR(gradient(j), numeric, 1e-8 * (1.0 + gradient.norm())) << tendon << " " << j;
    }
  }
}

// the ID's actuation: -T dl/dq per tendon and p dV/dq on the hollow body's coordinates, the same
// as applyInputs with the named inputs at t
TEST(LvpDynamics, ActuationIsTendonGradientAndPressureTimesVolumeGradient) {
  const RobotDescription robot = tendonChain();
  const Model model = buildModel(robot);
  Data data(model);
  EXPECT_EQ(inputNames(model), (std::vector<std::string>{"along", "across", "chamber"}));
  const test::State state = test::randomState(model, 37, 0.2);
  const Eigen::VectorXd &q = state.q, &v = state.v, &a = state.a;
  modelAgnosticID(model, data, q, v, a, 0.0);
  const Eigen::VectorXd Bu = data.agnostic.Bu;
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(model.nv), gradient;
  lvpTendonLength(model, data, 0, q, &gradient);
  expected -= 2.0 * gradient;
  lvpTendonLength(model, data, 1, q, &gradient);
  expected -= 3.0 * gradient;
  const LvpKinematics hollow(robot.links[1].lvp());
  hollow.cavityVolume(q.tail(2), &gradient);
  expected.tail(2) += 5e4 * gradient;
  EXPECT_LT((Bu - expected).norm(), 1e-12 * expected.norm());
  Eigen::VectorXd applied(model.nv);
  applyInputs(model, data, q, inputValues(model, 0.0), applied);
  EXPECT_LT((applied - expected).norm(), 1e-12 * expected.norm());
}

// the bundled example loads, saves and reads back equal, compiles agnostic-only, and its ID at rest
// is the weight and the inputs (the engine's algorithms refuse it)
TEST(LvpDynamics, ExampleRoundTripsAndRunsOnTheAgnosticFamilyOnly) {
  const RobotDescription robot =
      loadRobot(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / "lvp_single_body.json");
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
  const Model model = buildModel(robot);
  ASSERT_TRUE(model.agnostic_only);
  EXPECT_EQ(model.nq, 9);
  EXPECT_EQ(inputNames(model), (std::vector<std::string>{"tendon_x", "chamber"}));
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd id = modelAgnosticID(model, data, zero, zero, zero, 2.0);
  EXPECT_TRUE(id.allFinite());
  EXPECT_GT(data.agnostic.Bu.norm(), 0.0);
  EXPECT_THROW(inverseDynamics(model, data, zero, zero, zero), std::invalid_argument);
  EXPECT_THROW(massMatrix(model, data, zero), std::invalid_argument);
}

// Quadrature convergence on three Table 4 bodies in series (test::lvpTable4Chain, hanging under
// gravity) at moderately deformed random states: the relative errors of M and of the ID against a
// fine rule (12 x 6 x 16 points per body) fall as any of the three sizes grows. Prints the table
// that docs/theory/lvp.md §4 quotes.
struct QuadratureError {
  double M = 0.0, id = 0.0;
};

QuadratureError quadratureError(
    const LvpQuadratureDesc& rule, const std::vector<test::State>& states,
    const std::vector<std::pair<Eigen::MatrixXd, Eigen::VectorXd>>& fine) {
  const Model model = buildModel(test::lvpTable4Chain(rule));
  Data data(model);
  QuadratureError worst;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const Eigen::VectorXd id = modelAgnosticMID(model, data, states[i].q, states[i].v, states[i].a);
    worst.M = std::max(worst.M, (data.agnostic.M - fine[i].first).norm() / fine[i].first.norm());
    worst.id = std::max(worst.id, (id - fine[i].second).norm() / fine[i].second.norm());
  }
  return worst;
}

TEST(LvpDynamics, QuadratureConvergesTowardAFineRule) {
  const Model fine_model = buildModel(test::lvpTable4Chain({12, 6, 16}));
  Data fine_data(fine_model);
  std::vector<test::State> states;
  std::vector<std::pair<Eigen::MatrixXd, Eigen::VectorXd>> fine;
  for (unsigned seed = 1; seed <= 3; ++seed) {
    states.push_back(test::randomState(fine_model, seed, 0.3));
    const test::State& x = states.back();
    const Eigen::VectorXd id = modelAgnosticMID(fine_model, fine_data, x.q, x.v, x.a);
    fine.emplace_back(fine_data.agnostic.M, id);
  }
  const std::vector<LvpQuadratureDesc> rules = {
      {2, 6, 16}, {3, 6, 16}, {4, 6, 16}, {12, 1, 16}, {12, 2, 16}, {12, 6, 4},
      {12, 6, 6}, {3, 1, 4},  {3, 2, 4},  {4, 2, 4},   {4, 2, 6},   {5, 2, 6},
      {6, 2, 6},  {6, 2, 8},  {6, 3, 6},  {6, 3, 8},   {8, 3, 8},   {8, 4, 12}};
  std::map<std::array<int, 3>, QuadratureError> errors;
  std::printf("axial radial angular points  rel. error M  rel. error ID\n");
  for (const LvpQuadratureDesc& rule : rules) {
    const QuadratureError e = quadratureError(rule, states, fine);
    errors[{rule.axial, rule.radial, rule.angular}] = e;
    std::printf("%5d %6d %7d %6d  %12.2e  %13.2e\n", rule.axial, rule.radial, rule.angular,
                rule.axial * rule.radial * rule.angular, e.M, e.id);
  }
  // more points along each size, the other two fine: smaller errors
  const auto fell = [&](std::array<int, 3> coarse, std::array<int, 3> finer) {
    EXPECT_LT(errors[finer].M, errors[coarse].M);
    EXPECT_LT(errors[finer].id, errors[coarse].id);
  };
  fell({2, 6, 16}, {3, 6, 16});  // axial
  fell({3, 6, 16}, {4, 6, 16});
  fell({12, 1, 16}, {12, 2, 16});  // radial
  fell({12, 6, 4}, {12, 6, 6});    // angular
  fell({6, 3, 8}, {8, 4, 12});     // the default against a finer rule
}

}  // namespace
}  // namespace tendril
