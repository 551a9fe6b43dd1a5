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
  // rotate, then shift the origin by -p: I' = R I R^T - m p~ p~ - p~ (R h)~ - (R h)~ p~, with
  // -p~ p~ = |p|^2 1 - p p^T and p~ h~ + h~ p~ = h p^T + p h^T - 2 (p . h) 1
  SpatialInertia out;
  out.m = m;
  const Eigen::Vector3d Rh = g.R * h, mp = m * g.p;
  out.h = Rh + mp;
  out.I.noalias() = g.R * I * g.R.transpose();
  out.I.noalias() -= (mp + Rh) * g.p.transpose() + g.p * Rh.transpose();
  out.I.diagonal().array() += mp.dot(g.p) + 2.0 * g.p.dot(Rh);
  return out;
}

Matrix6d DiagonalInertia::matrix() const {
  SE3 c;
  c.p = offset;
  const Matrix6d X = coAd(c);
  return X * diagonal.asDiagonal() * X.transpose();
}

Matrix6d transformedInertia(const SE3& g, const Matrix6d& M,
                            const std::optional<DiagonalInertia>& diagonal) {
  Matrix6d out;
  if (!diagonal) {
    const Matrix6d X = coAd(g);
    out.noalias() = X.lazyProduct(M).lazyProduct(X.transpose());
    return out;
  }
  // Ad*_{g c} = [[R, P R], [0, R]] with P = (p + R c)~; with W = R diag(d_w) R^T and
  // V = R diag(d_v) R^T: [[W - P V P, P V], [-V P, V]]
  const Eigen::Matrix3d& R = g.R;
  const Eigen::Matrix3d P = skew(g.p + R * diagonal->offset);
  const Eigen::Matrix3d RW = R * diagonal->diagonal.head<3>().asDiagonal();
  const Eigen::Matrix3d RV = R * diagonal->diagonal.tail<3>().asDiagonal();
  const Eigen::Matrix3d V = RV * R.transpose(), PV = P * V;
  out.bottomRightCorner<3, 3>() = V;
  out.topRightCorner<3, 3>() = PV;
  out.bottomLeftCorner<3, 3>() = PV.transpose();
  out.topLeftCorner<3, 3>().noalias() = RW * R.transpose();
  out.topLeftCorner<3, 3>().noalias() -= PV * P;
  return out;
}

}  // namespace tendril
