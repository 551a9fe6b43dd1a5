// Tests for the locally volume-preserving body's kinematics (core/model/bodies/lvp_body.cpp,
// docs/theory/lvp.md): unit Jacobian determinant on random states, the cylindrical quadrature
// against the closed-form mass and inertia, every derivative against central differences, the
// neo-Hookean force against the energy, the cavity volume against an independent mesh, and the
// rejection of bad bodies with their JSON pointer.

#include "core/model/bodies/lvp_body.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "core/math/quadrature.hpp"

namespace tendril {
namespace {

using std::numbers::pi;

// every primitive once, on a hollow body, with modes of degree up to 3
LvpBodyDesc everyPrimitiveBody() {
  using T = LvpPrimitiveType;
  LvpBodyDesc body;
  body.length = 0.1;
  body.radius = 0.02;
  body.cavity_radius = 0.008;
  body.primitives = {{T::Stretch, {{0.0, 1.0, -1.0}, {0.0, 0.0, 1.0}}, {}},
                     {T::Twist, {{0.0, 1.0}}, {}},
                     {T::Source, {{0.0, 0.0, 1.0}, {1.0}}, {}},
                     {T::ShearX1, {{0.0, 1.0}}, {}},
                     {T::ShearX2, {{0.0, 0.5, 0.5}}, {}},
                     {T::BendX1, {{1.0}, {0.0, 1.0}}, {}},
                     {T::BendX2, {{1.0}, {0.0, 0.0, 0.0, 1.0}}, {}}};
  return body;
}

LvpBodyDesc table4Body() {
  LvpBodyDesc body;  // the defaults: Simulation 1's body (L = 0.1, R = 0.02, Table 4)
  return body;
}

Eigen::VectorXd randomVector(int n, double scale, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-scale, scale);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = uniform(rng);
  return v;
}

Eigen::Vector3d randomMaterialPoint(const LvpBodyDesc& body, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double r = body.cavity_radius + (body.radius - body.cavity_radius) * unit(rng);
  const double theta = 2.0 * pi * unit(rng);
  return {r * std::cos(theta), r * std::sin(theta), body.length * unit(rng)};
}

TEST(LvpBody, JacobianDeterminantIsOneOnRandomStates) {
  std::mt19937 rng(7);
  for (const LvpBodyDesc& body : {everyPrimitiveBody(), table4Body()}) {
    const LvpKinematics kinematics(body);
    for (int trial = 0; trial < 200; ++trial) {
      const Eigen::VectorXd q = randomVector(kinematics.dof(), 0.3, rng);
      const Eigen::Vector3d x = randomMaterialPoint(body, rng);
      const double det = kinematics.deformationGradient(x, q).determinant();
      ASSERT_NEAR(det, 1.0, 1e-12) << "trial " << trial;
    }
  }
}

TEST(LvpBody, DeformationGradientMatchesCentralDifferences) {
  std::mt19937 rng(3);
  const LvpBodyDesc body = everyPrimitiveBody();
  const LvpKinematics kinematics(body);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = randomVector(kinematics.dof(), 0.3, rng);
    const Eigen::Vector3d x = randomMaterialPoint(body, rng);
    const Eigen::Matrix3d F = kinematics.deformationGradient(x, q);
    const double h = 1e-6;
    Eigen::Matrix3d numeric;
    for (int c = 0; c < 3; ++c) {
      const Eigen::Vector3d e = h * Eigen::Vector3d::Unit(c);
      numeric.col(c) = (kinematics.position(x + e, q) - kinematics.position(x - e, q)) / (2 * h);
    }
    EXPECT_LT((F - numeric).norm(), 1e-8 * F.norm()) << "trial " << trial;
  }
}

TEST(LvpBody, QuadratureGivesTheUndeformedMassAndInertia) {
  for (const double cavity : {0.0, 0.008}) {
    LvpBodyDesc body = table4Body();
    body.cavity_radius = cavity;
    if (cavity > 0.0) body.primitives = lvpTable5Primitives();
    const LvpKinematics kinematics(body);
    double mass = 0.0;
    Eigen::Vector3d first_moment = Eigen::Vector3d::Zero();
    Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
    for (std::size_t k = 0; k < kinematics.points().size(); ++k) {
      const Eigen::Vector3d& x = kinematics.points()[k];
      const double m = body.density * kinematics.volumes()[k];
      mass += m;
      first_moment += m * x;
      inertia += m * (x.squaredNorm() * Eigen::Matrix3d::Identity() - x * x.transpose());
    }
    const double R2 = body.radius * body.radius, r2 = cavity * cavity, L = body.length;
    const double exact_mass = body.density * pi * (R2 - r2) * L;
    EXPECT_NEAR(mass, exact_mass, 1e-8 * exact_mass);
    EXPECT_NEAR(first_moment(2), exact_mass * L / 2, 1e-8 * exact_mass * L);
    EXPECT_LT(first_moment.head<2>().norm(), 1e-12 * exact_mass * L);
    // about the base centre: I_zz = m (R^2 + r^2) / 2, I_xx = I_yy = m ((R^2 + r^2) / 4 + L^2 / 3)
    Eigen::Matrix3d exact = Eigen::Matrix3d::Zero();
    exact(2, 2) = exact_mass * (R2 + r2) / 2;
    exact(0, 0) = exact(1, 1) = exact_mass * ((R2 + r2) / 4 + L * L / 3);
    EXPECT_LT((inertia - exact).norm(), 1e-8 * exact.norm()) << "cavity " << cavity;
  }
}

TEST(LvpBody, PointJacobianAndBiasMatchCentralDifferences) {
  std::mt19937 rng(11);
  for (const LvpBodyDesc& body : {everyPrimitiveBody(), table4Body()}) {
    const LvpKinematics kinematics(body);
    const int n = kinematics.dof();
    for (int trial = 0; trial < 5; ++trial) {
      const Eigen::VectorXd q = randomVector(n, 0.3, rng), v = randomVector(n, 1.0, rng);
      const Eigen::Vector3d x = randomMaterialPoint(body, rng);
      const Eigen::Matrix3Xd J = kinematics.positionJacobian(x, q);
      const double h = 1e-6;
      for (int j = 0; j < n; ++j) {
        const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
        const Eigen::Vector3d numeric =
            (kinematics.position(x, q + e) - kinematics.position(x, q - e)) / (2 * h);
        EXPECT_LT((J.col(j) - numeric).norm(), 1e-7 * (1e-3 + J.col(j).norm())) << j;
      }
      // (d^2 f / dq^2 v) v = d^2/de^2 f(x, q + e v)
      const double k = 1e-4;
      const Eigen::Vector3d numeric =
          (kinematics.position(x, q + k * v) - 2 * kinematics.position(x, q) +
           kinematics.position(x, q - k * v)) /
          (k * k);
      const Eigen::Vector3d bias = kinematics.positionBias(x, q, v);
      EXPECT_LT((bias - numeric).norm(), 1e-5 * (1e-3 + bias.norm()));
    }
  }
}

// the body Jacobian of D against central differences of its pose: R0^T dR/dq and R0^T dp/dq
TEST(LvpBody, DistalFrameDerivativesMatchCentralDifferences) {
  std::mt19937 rng(5);
  for (const LvpBodyDesc& body : {everyPrimitiveBody(), table4Body()}) {
    const LvpKinematics kinematics(body);
    const int n = kinematics.dof();
    const Eigen::VectorXd q = randomVector(n, 0.3, rng), v = randomVector(n, 1.0, rng);
    LvpKinematics::Distal D, plus, minus;
    kinematics.distal(q, v, D);
    EXPECT_LT((D.R.transpose() * D.R - Eigen::Matrix3d::Identity()).norm(), 1e-14);
    EXPECT_NEAR(D.R.determinant(), 1.0, 1e-14);
    const double h = 1e-6;
    const auto twist = [&](const LvpKinematics::Distal& a, const LvpKinematics::Distal& b) {
      const Eigen::Matrix3d dR = D.R.transpose() * (a.R - b.R) / (2 * h);
      Eigen::Matrix<double, 6, 1> V;
      V << 0.5 * (dR(2, 1) - dR(1, 2)), 0.5 * (dR(0, 2) - dR(2, 0)), 0.5 * (dR(1, 0) - dR(0, 1)),
          D.R.transpose() * (a.p - b.p) / (2 * h);
      return V;
    };
    for (int j = 0; j < n; ++j) {
      const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
      kinematics.distal(q + e, v, plus);
      kinematics.distal(q - e, v, minus);
      EXPECT_LT((D.J.col(j) - twist(plus, minus)).norm(), 1e-7 * (1e-3 + D.J.col(j).norm())) << j;
    }
    EXPECT_LT((D.Jv - D.J * v).norm(), 1e-13 * (1.0 + D.Jv.norm()));
    // Jdot v = d/de (J(q + e v) v)
    kinematics.distal(q + h * v, v, plus);
    kinematics.distal(q - h * v, v, minus);
    const Eigen::Matrix<double, 6, 1> numeric = (plus.J * v - minus.J * v) / (2 * h);
    EXPECT_LT((D.bias - numeric).norm(), 1e-6 * (1e-3 + D.bias.norm()));
  }
}

TEST(LvpBody, ElasticForceIsTheEnergyGradientAndStiffnessItsDerivative) {
  std::mt19937 rng(13);
  for (const LvpBodyDesc& body : {everyPrimitiveBody(), table4Body()}) {
    const LvpKinematics kinematics(body);
    const int n = kinematics.dof();
    const Eigen::VectorXd q = randomVector(n, 0.2, rng), v = randomVector(n, 1.0, rng);
    Eigen::VectorXd s, s_plus, s_minus;
    Eigen::MatrixXd K;
    kinematics.internalForces(q, Eigen::VectorXd(), s, &K);
    EXPECT_GT(s.norm(), 0.0);
    const double h = 1e-6;
    for (int j = 0; j < n; ++j) {
      const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
      const double numeric =
          (kinematics.elasticEnergy(q + e) - kinematics.elasticEnergy(q - e)) / (2 * h);
      EXPECT_NEAR(s(j), numeric, 1e-6 * (1e-6 + s.norm())) << j;
      kinematics.internalForces(q + e, Eigen::VectorXd(), s_plus);
      kinematics.internalForces(q - e, Eigen::VectorXd(), s_minus);
      EXPECT_LT((K.col(j) - (s_plus - s_minus) / (2 * h)).norm(), 1e-6 * K.norm()) << j;
    }
    EXPECT_LT((K - K.transpose()).norm(), 1e-12 * K.norm());
    // the Kelvin-Voigt part: eta K v
    Eigen::VectorXd with_damping;
    kinematics.internalForces(q, v, with_damping);
    EXPECT_LT((with_damping - s - body.damping * K * v).norm(), 1e-10 * with_damping.norm());
  }
}

// evaluate() and pointJacobian() on blocks of coordinates (one pass per 8) against the reference
// routes (dof + 1 hyper-dual passes): every output, with and without the forces, one block
// (Table 4, 8 coordinates) and two (every primitive, 11 coordinates, a cavity and its sources)
TEST(LvpBody, BlockPassMatchesTheHyperDualReference) {
  std::mt19937 rng(29);
  for (const LvpBodyDesc& body : {table4Body(), everyPrimitiveBody()}) {
    const LvpKinematics kinematics(body);
    const int n = kinematics.dof();
    LvpKinematics::PointState fast, reference;
    kinematics.prepare(fast);
    kinematics.prepare(reference);
    for (int trial = 0; trial < 4; ++trial) {
      const Eigen::VectorXd q = randomVector(n, 0.3, rng), v = randomVector(n, 2.0, rng);
      for (const bool with_forces : {true, false}) {
        kinematics.evaluate(q, v, with_forces, fast);
        kinematics.evaluateReference(q, v, with_forces, reference);
        const auto close = [](const auto& a, const auto& b) {
          return (a - b).norm() <= 1e-12 * (1.0 + b.norm());
        };
        for (std::size_t k = 0; k < kinematics.points().size(); ++k) {
          EXPECT_TRUE(close(fast.p[k], reference.p[k])) << k;
          EXPECT_TRUE(close(fast.J[k], reference.J[k])) << k;
          EXPECT_TRUE(close(fast.Jv[k], reference.Jv[k])) << k;
          EXPECT_TRUE(close(fast.bias[k], reference.bias[k])) << k;
        }
        EXPECT_TRUE(close(fast.internal, reference.internal)) << with_forces;
        EXPECT_TRUE(close(fast.stiffness_times_v, reference.stiffness_times_v)) << with_forces;
        EXPECT_TRUE(close(fast.distal.R, reference.distal.R));
        EXPECT_TRUE(close(fast.distal.p, reference.distal.p));
        EXPECT_TRUE(close(fast.distal.J, reference.distal.J));
        EXPECT_TRUE(close(fast.distal.Jv, reference.distal.Jv));
        EXPECT_TRUE(close(fast.distal.bias, reference.distal.bias));
      }
      // pointJacobian() (blocks, as the tendons' anchors use it) against positionJacobian()
      const Eigen::Vector3d x = randomMaterialPoint(body, rng);
      Eigen::Vector3d p;
      Eigen::Matrix3Xd J(3, n);
      kinematics.pointJacobian(q, x, fast, p, J);
      const Eigen::Matrix3Xd J_reference = kinematics.positionJacobian(x, q);
      EXPECT_LT((J - J_reference).norm(), 1e-12 * (1.0 + J_reference.norm()));
      EXPECT_LT((p - kinematics.position(x, q)).norm(), 1e-15);
    }
  }
}

// an undeformed body stores nothing and pushes nothing
TEST(LvpBody, RestShapeIsUnstressed) {
  const LvpKinematics kinematics(everyPrimitiveBody());
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(kinematics.dof());
  Eigen::VectorXd s;
  kinematics.internalForces(q, Eigen::VectorXd(), s);
  EXPECT_NEAR(kinematics.elasticEnergy(q), 0.0, 1e-12);
  EXPECT_LT(s.norm(), 1e-9);
}

// the cavity volume by a fine triangulation of the same closed surface (deformed wall, cones to
// the ends' centres): sum of signed tetrahedra from the origin
double meshCavityVolume(const LvpKinematics& kinematics, const Eigen::VectorXd& q, int n_theta,
                        int n_z) {
  const LvpBodyDesc& body = kinematics.description();
  const double rc = body.cavity_radius, L = body.length;
  std::vector<Eigen::Vector3d> grid;  // (n_z + 1) x n_theta vertices, each mapped once
  for (int i = 0; i <= n_z; ++i) {
    for (int k = 0; k < n_theta; ++k) {
      const double theta = 2 * pi * k / n_theta, z = L * i / n_z;
      grid.push_back(
          kinematics.position(Eigen::Vector3d(rc * std::cos(theta), rc * std::sin(theta), z), q));
    }
  }
  const auto wall = [&](int i, int k) { return grid[i * n_theta + k % n_theta]; };
  const auto tetra = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                        const Eigen::Vector3d& c) { return a.dot(b.cross(c)) / 6.0; };
  double V = 0.0;
  for (int i = 0; i < n_z; ++i) {
    for (int k = 0; k < n_theta; ++k) {
      const Eigen::Vector3d a = wall(i, k), b = wall(i, k + 1), c = wall(i + 1, k + 1),
                            d = wall(i + 1, k);
      // outward (radially): (theta, z) ordered as a, b, c and a, c, d
      V += tetra(a, b, c) + tetra(a, c, d);
    }
  }
  const Eigen::Vector3d bottom = kinematics.position(Eigen::Vector3d::Zero(), q, false);
  const Eigen::Vector3d top = kinematics.position(Eigen::Vector3d(0, 0, L), q, false);
  for (int k = 0; k < n_theta; ++k) {
    V += tetra(top, wall(n_z, k), wall(n_z, k + 1));
    V += tetra(bottom, wall(0, k + 1), wall(0, k));
  }
  return V;
}

// the mesh's error falls as 1/n^2: Richardson's extrapolation of 200 and 400 divisions
double extrapolatedMeshVolume(const LvpKinematics& kinematics, const Eigen::VectorXd& q) {
  return (4.0 * meshCavityVolume(kinematics, q, 400, 400) -
          meshCavityVolume(kinematics, q, 200, 200)) /
         3.0;
}

TEST(LvpBody, CavityVolumeMatchesAnIndependentMeshAndItsGradientTheWork) {
  LvpBodyDesc body = everyPrimitiveBody();
  body.quadrature = {12, 3, 48};
  const LvpKinematics kinematics(body);
  const int n = kinematics.dof();
  const double rc = body.cavity_radius, L = body.length;
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(n);
  EXPECT_NEAR(kinematics.cavityVolume(rest), pi * rc * rc * L, 1e-12 * pi * rc * rc * L);
  std::mt19937 rng(17);
  const Eigen::VectorXd q0 = randomVector(n, 0.1, rng), q1 = randomVector(n, 0.25, rng);
  // the volume against the mesh (its error falls as 1/n^2)
  const double V1 = kinematics.cavityVolume(q1);
  const double mesh = extrapolatedMeshVolume(kinematics, q1);
  EXPECT_NEAR(V1, mesh, 1e-6 * mesh);
  EXPECT_GT(std::abs(V1 - pi * rc * rc * L), 1e-2 * V1);  // the state does change it
  // the work of a pressure p along the straight path q0 -> q1, integral of (p dV/dq) . dq by a
  // 12-point Gauss rule, equals p (V(q1) - V(q0)) of the mesh volumes
  const double p = 2e5;
  double work = 0.0;
  Eigen::VectorXd gradient;
  const Eigen::VectorXd step = q1 - q0;
  const GaussRule path = gaussLegendre(12, 1.0);
  for (int i = 0; i < 12; ++i) {
    kinematics.cavityVolume(q0 + path.nodes(i) * step, &gradient);
    work += path.weights(i) * p * gradient.dot(step);
  }
  const double exact = p * (mesh - extrapolatedMeshVolume(kinematics, q0));
  EXPECT_NEAR(work, exact, 1e-6 * p * mesh);
  EXPECT_NEAR(work, p * (V1 - kinematics.cavityVolume(q0)), 1e-10 * p * V1);
  // and the gradient against central differences of the volume
  kinematics.cavityVolume(q1, &gradient);
  const double h = 1e-6;
  for (int j = 0; j < n; ++j) {
    const Eigen::VectorXd e = h * Eigen::VectorXd::Unit(n, j);
    const double numeric =
        (kinematics.cavityVolume(q1 + e) - kinematics.cavityVolume(q1 - e)) / (2 * h);
    EXPECT_NEAR(gradient(j), numeric, 1e-7 * gradient.norm()) << j;
  }
}

TEST(LvpBody, BadBodiesAreRejectedWithTheirPointer) {
  const auto pointerOf = [](const LvpBodyDesc& body) {
    const auto problem = findLvpBodyProblem(body, "/links/0/lvp");
    return problem ? problem->pointer : std::string("none");
  };
  EXPECT_EQ(pointerOf(table4Body()), "none");
  EXPECT_EQ(pointerOf(everyPrimitiveBody()), "none");
  LvpBodyDesc body = table4Body();
  body.length = 0.0;
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/length");
  body = table4Body();
  body.radius = -1.0;
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/radius");
  body = table4Body();
  body.cavity_radius = body.radius;
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/cavity_radius");
  body = table4Body();
  body.primitives = lvpTable5Primitives();  // a source on a solid body
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/primitives/1/type");
  // a rest stretch whose sigma' = 1 + P' reaches 0 at s = 1: the body folds
  body = table4Body();
  body.primitives[0].rest = {0.0, 0.0, -0.6};
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/primitives/0/rest");
  body.primitives[0].rest = {0.0, 0.0, -0.4};  // sigma' = 1 - 0.8 s > 0: fine
  EXPECT_EQ(pointerOf(body), "none");
  // a rest bend past its centre of curvature (kappa R > 1/2 at the surface)
  body = table4Body();
  body.primitives[1].rest = {body.length / body.radius};
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/primitives/1/rest");
  body = table4Body();
  body.primitives[3].modes.push_back(std::vector<double>(9, 1.0));
  EXPECT_EQ(pointerOf(body), "/links/0/lvp/primitives/3/modes/1");
}

}  // namespace
}  // namespace tendril
