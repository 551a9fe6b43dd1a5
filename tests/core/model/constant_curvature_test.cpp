// Tests for the constant-curvature body kind (core/model/bodies/constant_curvature.cpp) as the GVS
// engine runs it: against the closed forms and the Euler-Lagrange reference numbers of
// docs/theory/model-agnostic.md §5, §7, the beam laws, the tendon length of a constant
// curvature arc, and the analytical derivatives at the straight configuration.

#include "core/model/bodies/constant_curvature.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/data.hpp"
#include "core/algorithm/derivative_check.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "core/model/model.hpp"
#include "core/model/section.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using std::numbers::pi;
using test::relativeError;

ConstantCurvatureBodyDesc segment(CurvatureModel model, double length, double radius,
                                  double density, int gauss_points) {
  ConstantCurvatureBodyDesc body;
  body.model = model;
  body.length = length;
  body.radius = radius;
  body.material.density = density;
  body.material.youngs_modulus = 1.0;
  body.gauss_points = gauss_points;
  return body;
}

// the paper's planar body extends along +z of the base with gravity (0, 0, g0): the segment's
// axis x is turned onto z (pitch -pi/2); its bending about y then swings the tip along +x, the
// mirror image of the paper's, which leaves every scalar of a single body unchanged
LinkDesc segmentLink(const std::string& name, const std::string& parent, JointType joint,
                     const ConstantCurvatureBodyDesc& body) {
  LinkDesc link;
  link.name = name;
  link.parent = parent;
  link.joint.type = joint;
  link.joint.axis = {1.0, 0.0, 0.0};  // the segment's axis
  if (parent == "world") link.origin.rpy = {0.0, -pi / 2.0, 0.0};
  link.body = body;
  return link;
}

// the unit toy body: radius = length = density = 1, on a fixed joint
Model unitToyBody(double gravity = -9.81) {
  RobotDescription robot;
  robot.gravity = {0.0, 0.0, gravity};
  robot.links = {segmentLink("toy", "world", JointType::Fixed,
                             segment(CurvatureModel::Planar, 1.0, 1.0, 1.0, 16))};
  return buildModel(robot);
}

// M(q) = pi [q (q^4 + 4 q^2 + 24 cos q + 24) - 48 sin q] / (12 q^5)
// (docs/theory/model-agnostic.md (P1)), whose
// numerator cancels like q^5 / 48: 130 ulp at q = 0.7, so it is used from 0.7 up; below 1e-2 its
// series
double toyMass(double q) {
  if (std::abs(q) < 1e-2) return 2.0 * pi / 15.0 - pi * q * q / 504.0 + pi * std::pow(q, 4) / 25920;
  return pi * (q * (std::pow(q, 4) + 4 * q * q + 24 * std::cos(q) + 24) - 48 * std::sin(q)) /
         (12 * std::pow(q, 5));
}

TEST(ConstantCurvatureTest, UnitToyBodyMassMatchesTheClosedForm) {
  const Model model = unitToyBody();
  ASSERT_EQ(model.nq, 1);
  Data data(model);
  for (const double q : {0.0, 1e-5, 0.7, 1.5, -2.5, pi}) {
    const Eigen::VectorXd qv = Eigen::VectorXd::Constant(1, q);
    EXPECT_NEAR(massMatrix(model, data, qv)(0, 0), toyMass(q), 1e-13 * toyMass(q)) << "q = " << q;
  }
}

TEST(ConstantCurvatureTest, UnitToyBodyInverseDynamicsMatchesTheDigestReference) {
  // docs/theory/model-agnostic.md (P4) at q = 0.7, q-dot = 1.3, q-ddot = -2.1: M q-ddot + c and
  // M q-ddot + c + g
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.7),
                        v = Eigen::VectorXd::Constant(1, 1.3),
                        a = Eigen::VectorXd::Constant(1, -2.1), zero = Eigen::VectorXd::Zero(1);
  const Model weightless = unitToyBody(0.0);
  Data data(weightless);
  EXPECT_NEAR(inverseDynamics(weightless, data, q, v, a)(0), -0.880527322434137, 1e-13);
  EXPECT_NEAR(inverseDynamics(weightless, data, q, v, zero)(0), -0.00723470111851009, 1e-15);
  const Model model = unitToyBody(-9.81);
  Data weighted(model);
  EXPECT_NEAR(inverseDynamics(model, weighted, q, v, a)(0), -2.62034158327811, 1e-13);
  // and the model-agnostic algorithms, by the segment's own arc kinematics (E = 1: K = pi/4)
  EXPECT_NEAR(modelAgnosticIID(weightless, data, q, v, a)(0), -0.880527322434137, 1e-13);
  EXPECT_NEAR(modelAgnosticID(model, weighted, q, v, a)(0) - pi / 4.0 * q(0), -2.62034158327811,
              1e-13);
  modelAgnosticMIID(model, weighted, q, v, a);
  EXPECT_NEAR(weighted.agnostic.M(0, 0), toyMass(0.7), 1e-13);
}

TEST(ConstantCurvatureTest, ThreeBodySpatialChainMatchesTheEulerLagrangeReference) {
  // docs/theory/model-agnostic.md §7: three (revolute about the previous distal axis, planar CC
  // body) pairs. Our
  // segments bend the other way round (toward -n1 of the paper's distal frame), so our
  // coordinates are the paper's with the bending angles negated: S = diag(1, -1, 1, -1, 1, -1)
  RobotDescription robot;
  const ConstantCurvatureBodyDesc body = segment(CurvatureModel::Planar, 1.0, 1.0, 1.0, 16);
  robot.links = {segmentLink("b1", "world", JointType::Revolute, body),
                 segmentLink("b2", "b1", JointType::Revolute, body),
                 segmentLink("b3", "b2", JointType::Revolute, body)};
  const Model model = buildModel(robot);
  ASSERT_EQ(model.nq, 6);
  Data data(model);
  Eigen::VectorXd S(6), q(6), v(6), a(6), id(6), M_q_ddot(6);
  S << 1, -1, 1, -1, 1, -1;
  q << 0.3, 0.7, -0.5, -0.4, 1.1, 0.9;
  v << 1.3, 0.5, -0.7, 2.0, 0.4, -1.1;
  a << -2.1, 0.8, 1.5, -0.3, 0.9, 2.2;
  id << -4.7392715582, -37.8891091422, -1.5441272355, -9.8823516944, -2.3078063122, -1.3225726828;
  M_q_ddot << -15.4040577247, 14.9839484727, 0.9307951071, 10.5875067936, -0.2955738093,
      0.7828722429;
  Eigen::MatrixXd M(6, 6);
  M << 9.360944462, -1.31774988, 1.64430069, -2.744177718, 1.731506595, 0.209120574,    //
      -1.31774988, 17.470373808, -1.463673495, 7.112137158, -0.118388222, 1.21639794,   //
      1.64430069, -1.463673495, 3.366231986, -0.216935131, 1.339486612, -0.34781869,    //
      -2.744177718, 7.112137158, -0.216935131, 4.513994096, -0.235310734, 0.466547474,  //
      1.731506595, -0.118388222, 1.339486612, -0.235310734, 1.506086089, 0.0,           //
      0.209120574, 1.21639794, -0.34781869, 0.466547474, 0.0, 0.413908806;
  const Eigen::VectorXd ours = S.cwiseProduct(
      inverseDynamics(model, data, S.cwiseProduct(q), S.cwiseProduct(v), S.cwiseProduct(a)));
  // the reference is printed to 1e-10 and its c came from finite differences (1.2e-8)
  EXPECT_LT((ours - id).cwiseAbs().maxCoeff(), 2e-8) << ours.transpose();
  const Eigen::MatrixXd M_ours =
      S.asDiagonal() * massMatrix(model, data, S.cwiseProduct(q)) * S.asDiagonal();
  EXPECT_LT((M_ours - M).cwiseAbs().maxCoeff(), 1e-8) << M_ours;
  EXPECT_LT((M_ours * a - M_q_ddot).cwiseAbs().maxCoeff(), 1e-8);
  // the model-agnostic MID (E = 1: K = diag(0, pi/4, 0, pi/4, 0, pi/4) on the bending angles)
  Eigen::VectorXd K_q = Eigen::VectorXd::Zero(6);
  for (int i : {1, 3, 5}) K_q(i) = pi / 4.0 * S(i) * q(i);
  const Eigen::VectorXd mid =
      modelAgnosticMID(model, data, S.cwiseProduct(q), S.cwiseProduct(v), S.cwiseProduct(a));
  EXPECT_LT((S.cwiseProduct(mid - K_q) - id).cwiseAbs().maxCoeff(), 2e-8);
  EXPECT_LT((S.asDiagonal() * data.agnostic.M * S.asDiagonal() - M).cwiseAbs().maxCoeff(), 1e-8);
}

TEST(ConstantCurvatureTest, StiffnessAndDampingAreTheBeamLaws) {
  ConstantCurvatureBodyDesc body = segment(CurvatureModel::Spatial, 0.3, 0.03, 1000.0, 8);
  body.material.youngs_modulus = 2e6;
  body.material.damping = 500.0;
  RobotDescription robot;
  robot.links = {segmentLink("seg", "world", JointType::Fixed, body)};
  const Model model = buildModel(robot);
  const double L = body.length, E = 2e6, eta = 500.0;
  const double I = pi * std::pow(body.radius, 4) / 4.0, A = pi * body.radius * body.radius;
  // theta_y, theta_z: E I / L; the elongation delta: E A / L; Kelvin-Voigt 3 eta (I, I, A) / L
  Eigen::MatrixXd K = Eigen::Vector3d(E * I / L, E * I / L, E * A / L).asDiagonal();
  Eigen::MatrixXd D =
      Eigen::Vector3d(3 * eta * I / L, 3 * eta * I / L, 3 * eta * A / L).asDiagonal();
  EXPECT_LT(relativeError(model.K, K), 1e-14) << model.K;
  EXPECT_LT(relativeError(model.D, D), 1e-14) << model.D;
}

TEST(ConstantCurvatureTest, SpatialSegmentBentAboutYIsThePlanarSegment) {
  RobotDescription planar, spatial;
  planar.links = {segmentLink("seg", "world", JointType::Revolute,
                              segment(CurvatureModel::Planar, 0.3, 0.03, 1000.0, 8))};
  spatial.links = {segmentLink("seg", "world", JointType::Revolute,
                               segment(CurvatureModel::Spatial, 0.3, 0.03, 1000.0, 8))};
  const Model p = buildModel(planar), s = buildModel(spatial);
  Data dp(p), ds(s);
  const Eigen::Vector2d q(0.4, 1.2), v(-0.8, 2.0), a(1.5, -3.0);
  Eigen::VectorXd qs = Eigen::VectorXd::Zero(4), vs = qs, as = qs;
  qs.head<2>() = q;
  vs.head<2>() = v;
  as.head<2>() = a;
  const Eigen::VectorXd id_p = inverseDynamics(p, dp, q, v, a);
  const Eigen::VectorXd id_s = inverseDynamics(s, ds, qs, vs, as);
  EXPECT_LT(relativeError(id_s.head<2>(), id_p), 1e-13);
  EXPECT_LT(relativeError(massMatrix(s, ds, qs).topLeftCorner<2, 2>(), massMatrix(p, dp, q)),
            1e-13);
}

TEST(ConstantCurvatureTest, StraightConfigurationIsRegular) {
  RobotDescription robot;
  robot.gravity = {0.0, -9.81, 0.0};
  robot.links = {segmentLink("seg", "world", JointType::Fixed,
                             segment(CurvatureModel::Spatial, 0.3, 0.03, 1000.0, 8))};
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3);
  // continuity of M through q = 0, where the arc's (1 - cos)/theta forms are 0/0: the couplings
  // of the bending angles with each other and with the elongation are odd in them, so M moves by
  // O(|q|) = 2e-9 relative (measured 5e-11); a 0/0 would give O(1) or NaN
  const Eigen::Vector3d tiny(1e-9, -2e-9, 1e-10);
  const Eigen::MatrixXd M0 = massMatrix(model, data, zero);
  EXPECT_LT(relativeError(massMatrix(model, data, tiny), M0), tiny.norm());
  EXPECT_TRUE(M0.allFinite());
  // and the analytical derivatives there agree with central differences
  const Eigen::Vector3d v(0.5, -1.0, 0.02), a(2.0, 1.0, -0.1);
  const DerivativeCheck check = checkDerivatives(model, data, zero, v, a);
  EXPECT_LT(check.worst(), 1e-6);
}

TEST(ConstantCurvatureTest, ClosedFormArcEqualsTheEngineAcrossItsBranches) {
  // the model-agnostic segment switches formulas at phi = theta s / L: sinc at 2e-8, the series of
  // f1, f1', f2' at 1; its Gauss points' half angles from Taylor series of sin and cos up to
  // |theta (u - 1/2) / 2| = 1 (|theta| = 4.17 with 8 points), from libm above; the GVS engine (exp
  // of the constant strain) is the reference on every side
  RobotDescription robot;
  robot.gravity = {0.0, 0.0, -9.81};
  robot.links = {segmentLink("seg", "world", JointType::Revolute,
                             segment(CurvatureModel::Planar, 1.0, 0.1, 1000.0, 8))};
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::Vector2d v(0.7, -1.3), a(0.4, 2.0);
  for (const double theta :
       {0.0, 1e-12, 1e-8, 0.999999, 1.0, 1.000001, 1.0 / 0.9, 2.0, -3.0, 4.1, -4.2, 9.0, -12.0}) {
    const Eigen::Vector2d q(0.3, theta);
    const Eigen::VectorXd id = inverseDynamics(model, data, q, v, a);
    const Eigen::MatrixXd M = massMatrix(model, data, q);
    EXPECT_LT(relativeError(modelAgnosticID(model, data, q, v, a), id + model.K * q + model.D * v),
              1e-13)
        << "theta = " << theta;
    modelAgnosticMIID(model, data, q, v, a);
    EXPECT_LT(relativeError(data.agnostic.M, M), 1e-13) << "theta = " << theta;
  }
}

TEST(ConstantCurvatureTest, TendonLengthIsThatOfTheOffsetArc) {
  // a tendon at offset d = (0, y, z) of a segment with strain (0, theta_y/L, theta_z/L, 1 +
  // delta/L): |nu + kappa x d| = 1 + delta/L + (theta_y z - theta_z y)/L, so l = L + delta +
  // theta_y z - theta_z y and the pull -T dl/dq is -T (z, -y, 1)
  RobotDescription robot;
  robot.links = {segmentLink("seg", "world", JointType::Fixed,
                             segment(CurvatureModel::Spatial, 0.3, 0.03, 1000.0, 8))};
  const double y = 0.012, z = -0.007, T = 2.5;
  CableDesc tendon;
  tendon.name = "t";
  tendon.link = "seg";
  tendon.path = {CableSegmentDesc{0, {y}, {z}}};
  tendon.tension = TimeFunction::constant(T);
  robot.cables = {tendon};
  const Model model = buildModel(robot);
  const Eigen::Vector3d q(0.6, -0.9, 0.02);
  EXPECT_NEAR(cableLength(model.cables[0], q), 0.3 + q(2) + q(0) * z - q(1) * y, 1e-15);
  Eigen::VectorXd tau(3);
  actuationForces(model, q, 0.0, tau);
  EXPECT_LT(relativeError(tau, -T * Eigen::Vector3d(z, -y, 1.0)), 1e-14) << tau.transpose();
}

TEST(ConstantCurvatureTest, JsonRoundTripKeepsEveryField) {
  RobotDescription robot;
  ConstantCurvatureBodyDesc body = segment(CurvatureModel::Spatial, 0.25, 0.02, 1100.0, 7);
  body.material.damping = 30.0;
  body.material.poisson_ratio = 0.45;
  robot.links = {segmentLink("seg", "world", JointType::Revolute, body)};
  const std::string text = serializeRobot(robot);
  EXPECT_NE(text.find("\"schema_version\": 2"), std::string::npos);
  EXPECT_EQ(parseRobot(text), robot);
}

}  // namespace
}  // namespace tendril
