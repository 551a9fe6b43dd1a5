#include "tests/support/pcc_lagrangian.hpp"

#include <cmath>
#include <numbers>
#include <unsupported/Eigen/AutoDiff>

#include "core/math/quadrature.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::test {
namespace {

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;

// sin(x) / x, its series where the quotient loses digits
template <typename Scalar>
Scalar sinc(const Scalar& x) {
  using std::abs;
  using std::sin;
  if (abs(x) < 1e-3) return Scalar(1.0) - x * x / 6.0 + x * x * x * x / 120.0;
  return sin(x) / x;
}

// one Gauss point of one segment: its position in the x-z plane and its section angle
template <typename Scalar>
struct PlanarPoint {
  Scalar x, z, angle;
};

// the chain starts at the origin along +x; a section's tangent at angle phi is (cos phi, -sin phi)
// in (x, z), the turn of the segments' local y axis; a segment of base angle Phi and bending
// angle theta reaches, at the fraction u of its length, L u (cos m, -sin m) sinc(theta u / 2) with
// m = Phi + theta u / 2 (the chord of the arc)
template <typename Scalar>
std::vector<PlanarPoint<Scalar>> gaussPoints(const PlanarPccChain& chain,
                                             const std::vector<Scalar>& theta) {
  using std::cos;
  using std::sin;
  const GaussRule rule = gaussLegendre(chain.gauss_points, 1.0);
  std::vector<PlanarPoint<Scalar>> points;
  Scalar base_x(0.0), base_z(0.0), base_angle(0.0);
  const double L = chain.length;
  const auto chord = [&](const Scalar& angle, const Scalar& bend, double u, Scalar& x, Scalar& z) {
    const Scalar middle = angle + bend * (0.5 * u), factor = L * u * sinc(Scalar(bend * (0.5 * u)));
    x = factor * cos(middle);
    z = -factor * sin(middle);
  };
  for (int i = 0; i < chain.bodies; ++i) {
    for (int k = 0; k < chain.gauss_points; ++k) {
      const double u = rule.nodes(k);
      PlanarPoint<Scalar> point;
      chord(base_angle, theta[i], u, point.x, point.z);
      point.x += base_x;
      point.z += base_z;
      point.angle = base_angle + theta[i] * u;
      points.push_back(point);
    }
    Scalar x, z;
    chord(base_angle, theta[i], 1.0, x, z);
    base_x += x;
    base_z += z;
    base_angle += theta[i];
  }
  return points;
}

std::vector<AD> active(const Eigen::VectorXd& q) {
  std::vector<AD> theta;
  for (Eigen::Index i = 0; i < q.size(); ++i)
    theta.emplace_back(q(i), q.size(), static_cast<int>(i));
  return theta;
}

}  // namespace

RobotDescription planarPccDescription(const PlanarPccChain& chain) {
  RobotDescription robot;
  robot.name = "planar PCC chain";
  robot.gravity = {0.0, 0.0, -chain.gravity};
  for (int i = 0; i < chain.bodies; ++i) {
    LinkDesc link;
    link.name = "segment" + std::to_string(i + 1);
    link.parent = i == 0 ? "world" : "segment" + std::to_string(i);
    link.joint.type = JointType::Fixed;
    ConstantCurvatureBodyDesc body;
    body.model = CurvatureModel::Planar;
    body.length = chain.length;
    body.radius = chain.radius;
    body.material.density = chain.density;
    body.gauss_points = chain.gauss_points;
    link.body = body;
    robot.links.push_back(link);
  }
  return robot;
}

Eigen::MatrixXd lagrangianMassMatrix(const PlanarPccChain& chain, const Eigen::VectorXd& q) {
  const int n = static_cast<int>(q.size());
  const GaussRule rule = gaussLegendre(chain.gauss_points, chain.length);
  const double area = std::numbers::pi * chain.radius * chain.radius;
  const double second_moment = area * chain.radius * chain.radius / 4.0;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  const auto points = gaussPoints(chain, active(q));
  for (std::size_t p = 0; p < points.size(); ++p) {
    const double w = rule.weights(static_cast<Eigen::Index>(p) % chain.gauss_points);
    const Eigen::VectorXd Jx = points[p].x.derivatives(), Jz = points[p].z.derivatives();
    const Eigen::VectorXd Jphi = points[p].angle.derivatives();
    M += w * chain.density *
         (area * (Jx * Jx.transpose() + Jz * Jz.transpose()) +
          second_moment * Jphi * Jphi.transpose());
  }
  return M;
}

Eigen::VectorXd lagrangianBias(const PlanarPccChain& chain, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& v) {
  const int n = static_cast<int>(q.size());
  // dM/dq_k as the columns of d vec(M) / dq
  const Eigen::MatrixXd dM = extrapolatedCentralDifference(
      [&](const Eigen::VectorXd& x) {
        const Eigen::MatrixXd M = lagrangianMassMatrix(chain, x);
        return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(M.data(), M.size()));
      },
      q, 1e-3);
  Eigen::VectorXd c = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < n; ++k) {
    const Eigen::Map<const Eigen::MatrixXd> dM_k(dM.col(k).data(), n, n);
    c += v(k) * (dM_k * v);         // M-dot v
    c(k) -= 0.5 * v.dot(dM_k * v);  // - 1/2 d(v^T M v)/dq_k
  }
  return c;
}

Eigen::VectorXd lagrangianGravity(const PlanarPccChain& chain, const Eigen::VectorXd& q) {
  const GaussRule rule = gaussLegendre(chain.gauss_points, chain.length);
  const double area = std::numbers::pi * chain.radius * chain.radius;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(q.size());
  const auto points = gaussPoints(chain, active(q));
  for (std::size_t p = 0; p < points.size(); ++p) {
    const double w = rule.weights(static_cast<Eigen::Index>(p) % chain.gauss_points);
    g += w * chain.density * area * chain.gravity * points[p].z.derivatives();  // U = m g z
  }
  return g;
}

}  // namespace tendril::test
