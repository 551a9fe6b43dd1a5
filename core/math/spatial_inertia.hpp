#pragma once
// Spatial inertia in the compact form (m, h = m c, I_O) of Featherstone (2008, ch. 2): the 6 x 6
// matrix [[I_O, h~], [-h~, m 1]] in the [w; v] ordering, with I_O the rotational inertia about the
// frame origin. Transforming and applying it costs a fraction of the 6 x 6 products.

#include <optional>

#include "core/math/lie.hpp"

namespace tendril {

struct SpatialInertia {
  double m = 0.0;                               ///< mass [kg]
  Eigen::Vector3d h = Eigen::Vector3d::Zero();  ///< first moment m c [kg m]
  Eigen::Matrix3d I = Eigen::Matrix3d::Zero();  ///< rotational inertia about the origin [kg m^2]

  /// \brief From a 6 x 6 spatial inertia of rigid-body form.
  static SpatialInertia fromMatrix(const Matrix6d& M);
  /// \brief The 6 x 6 matrix.
  Matrix6d matrix() const;

  /// \brief M V for a twist V = [w; v]: the momentum [I_O w + h x v; m v - h x w].
  Vector6d operator*(const Vector6d& V) const {
    Vector6d out;
    out.head<3>().noalias() = I * V.head<3>();
    out.head<3>() += h.cross(V.tail<3>());
    out.tail<3>() = m * V.tail<3>() - h.cross(V.head<3>());
    return out;
  }
  SpatialInertia& operator+=(const SpatialInertia& other) {
    m += other.m;
    h += other.h;
    I += other.I;
    return *this;
  }

  /// \brief The same body seen from the parent frame, g being this frame's pose in the parent:
  ///        Ad*_g M Ad_g^{-1}.
  SpatialInertia transformed(const SE3& g) const;
};

/// \brief A symmetric 6 x 6 inertia that is diagonal in axes parallel to its frame's, about the
///        point c: Ad*_c diag(d) Ad*_c^T, c a pure translation (the form of every added mass).
struct DiagonalInertia {
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  ///< c [m]
  Vector6d diagonal = Vector6d::Zero();              ///< d, [w; v] ordering

  /// \brief The 6 x 6 matrix.
  Matrix6d matrix() const;
};

/// \brief Ad*_g M Ad*_g^T: M seen from the parent frame, g being its frame's pose there. With
///        M's diagonal form given, in 3 x 3 blocks (~100 flops); else two dense 6 x 6 products.
Matrix6d transformedInertia(const SE3& g, const Matrix6d& M,
                            const std::optional<DiagonalInertia>& diagonal);

}  // namespace tendril
