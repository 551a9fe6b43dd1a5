#include "core/math/spatial_inertia.hpp"

#include <Eigen/Geometry>

namespace tendril {

SpatialInertia SpatialInertia::fromMatrix(const Matrix6d& M) {
  SpatialInertia inertia;
  inertia.m = M(3, 3);
  inertia.I = M.topLeftCorner<3, 3>();
  // the upper-right block is h~
  inertia.h = Eigen::Vector3d(M(2, 4), M(0, 5), M(1, 3));
  return inertia;
}

Matrix6d SpatialInertia::matrix() const {
  Matrix6d M;
  const Eigen::Matrix3d h_skew = skew(h);
  M << I, h_skew, -h_skew, m * Eigen::Matrix3d::Identity();
  return M;
}

SpatialInertia SpatialInertia::transformed(const SE3& g) const {
  // rotate, then shift the origin by -p: I' = R I R^T - m p~ p~ - p~ (R h)~ - (R h)~ p~
  SpatialInertia out;
  out.m = m;
  const Eigen::Vector3d Rh = g.R * h;
  out.h = Rh + m * g.p;
  const Eigen::Matrix3d P = skew(g.p), H = skew(Rh);
  out.I.noalias() = g.R * I * g.R.transpose();
  out.I.noalias() -= m * P * P;
  out.I.noalias() -= P * H + H * P;
  return out;
}

}  // namespace tendril
