#pragma once
// 6 x 6 matrices of the form [[a, 0], [b, a]] (3 x 3 blocks): ad_V, its powers and every polynomial
// in them, and the derivatives of those powers. They are closed under sums and products, and a
// product costs 81 multiplications instead of 216; the tangent operator and its derivatives
// (lie.cpp, dexp_derivatives.cpp) are built from them.

#include <Eigen/Core>

namespace tendril {

struct LowerBlock {
  Eigen::Matrix3d a = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d b = Eigen::Matrix3d::Zero();

  static LowerBlock identity() { return {Eigen::Matrix3d::Identity(), Eigen::Matrix3d::Zero()}; }

  /// \brief ad_V = [[w~, 0], [v~, w~]] for V = [w; v].
  static LowerBlock ad(const Eigen::Matrix<double, 6, 1>& V) {
    LowerBlock out;
    out.a << 0, -V(2), V(1), V(2), 0, -V(0), -V(1), V(0), 0;
    out.b << 0, -V(5), V(4), V(5), 0, -V(3), -V(4), V(3), 0;
    return out;
  }

  Eigen::Matrix<double, 6, 6> matrix() const {
    Eigen::Matrix<double, 6, 6> out;
    out << a, Eigen::Matrix3d::Zero(), b, a;
    return out;
  }

  Eigen::Matrix<double, 6, 1> operator*(const Eigen::Matrix<double, 6, 1>& x) const {
    Eigen::Matrix<double, 6, 1> out;
    out.head<3>().noalias() = a * x.head<3>();
    out.tail<3>().noalias() = b * x.head<3>();
    out.tail<3>().noalias() += a * x.tail<3>();
    return out;
  }

  LowerBlock& operator+=(const LowerBlock& y) {
    a += y.a;
    b += y.b;
    return *this;
  }
  LowerBlock& operator-=(const LowerBlock& y) {
    a -= y.a;
    b -= y.b;
    return *this;
  }
};

// the blocks are initialised from the products (a default LowerBlock would first be zero-filled)
inline LowerBlock operator*(const LowerBlock& x, const LowerBlock& y) {
  return {(x.a * y.a).eval(), (x.b * y.a + x.a * y.b).eval()};
}

inline LowerBlock operator+(const LowerBlock& x, const LowerBlock& y) {
  return {x.a + y.a, x.b + y.b};
}

inline LowerBlock operator*(double s, const LowerBlock& x) {
  return {s * x.a, s * x.b};
}

}  // namespace tendril
