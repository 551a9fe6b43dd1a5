#pragma once
// 6 x 6 matrices of the form [[a, 0], [b, a]] (3 x 3 blocks): ad_V, its powers and every polynomial
// in them, and the derivatives of those powers. They are closed under sums and products, and a
// product costs 81 multiplications instead of 216; the tangent operator and its derivatives
// (lie.cpp, dexp_derivatives.cpp) are built from them.
//
// Each block is stored as 4 x 3 with a zero fourth row, so that a column is one 4-wide packet: a
// product is then 27 broadcast-and-fused-multiply-adds on whole columns (about 80 instructions
// where Eigen's 3 x 3 products took 134), and sums and scalings run on whole packets too.

#include <Eigen/Core>

namespace tendril {

struct LowerBlock {
  using Block = Eigen::Matrix<double, 4, 3>;  ///< a 3 x 3 block; row 3 stays zero
  Block a = Block::Zero();
  Block b = Block::Zero();

  LowerBlock() = default;
  /// \brief From the two blocks (each 4 x 3 with a zero fourth row), with no zeroing first: the
  /// operators below build their results this way (zeroing doubled the cost of a sum).
  template <typename A, typename B>
  LowerBlock(const Eigen::MatrixBase<A>& a_block, const Eigen::MatrixBase<B>& b_block)
      : a(a_block), b(b_block) {}

  static LowerBlock identity() {
    LowerBlock out;
    out.a.diagonal().setOnes();
    return out;
  }

  /// \brief ad_V = [[w~, 0], [v~, w~]] for V = [w; v].
  static LowerBlock ad(const Eigen::Matrix<double, 6, 1>& V) {
    LowerBlock out;
    putSkew(out.a, V(0), V(1), V(2));
    putSkew(out.b, V(3), V(4), V(5));
    return out;
  }

  Eigen::Matrix<double, 6, 6> matrix() const {
    Eigen::Matrix<double, 6, 6> out;
    out.topLeftCorner<3, 3>() = a.topRows<3>();
    out.topRightCorner<3, 3>().setZero();
    out.bottomLeftCorner<3, 3>() = b.topRows<3>();
    out.bottomRightCorner<3, 3>() = a.topRows<3>();
    return out;
  }

  Eigen::Matrix<double, 6, 1> operator*(const Eigen::Matrix<double, 6, 1>& x) const {
    const Eigen::Vector4d top = columnsTimes(a, x(0), x(1), x(2));
    const Eigen::Vector4d bottom =
        columnsTimes(b, x(0), x(1), x(2)) + columnsTimes(a, x(3), x(4), x(5));
    Eigen::Matrix<double, 6, 1> out;
    out << top.head<3>(), bottom.head<3>();
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

  /// \brief m x for the 3 x 3 block m and x = (x0, x1, x2), as a sum of whole columns.
  static Eigen::Vector4d columnsTimes(const Block& m, double x0, double x1, double x2) {
    return m.col(0) * x0 + m.col(1) * x1 + m.col(2) * x2;
  }

 private:
  static void putSkew(Block& m, double x, double y, double z) {
    m(1, 0) = z;
    m(2, 0) = -y;
    m(0, 1) = -z;
    m(2, 1) = x;
    m(0, 2) = y;
    m(1, 2) = -x;
  }
};

// [[xa, 0], [xb, xa]] [[ya, 0], [yb, ya]] = [[xa ya, 0], [xb ya + xa yb, xa ya]], column by column
inline LowerBlock operator*(const LowerBlock& x, const LowerBlock& y) {
  LowerBlock::Block a, b;  // every column is assigned below
  for (int j = 0; j < 3; ++j) {
    a.col(j) = LowerBlock::columnsTimes(x.a, y.a(0, j), y.a(1, j), y.a(2, j));
    b.col(j) = LowerBlock::columnsTimes(x.b, y.a(0, j), y.a(1, j), y.a(2, j)) +
               LowerBlock::columnsTimes(x.a, y.b(0, j), y.b(1, j), y.b(2, j));
  }
  return {a, b};
}

inline LowerBlock operator+(const LowerBlock& x, const LowerBlock& y) {
  return {x.a + y.a, x.b + y.b};
}

inline LowerBlock operator*(double s, const LowerBlock& x) {
  return {s * x.a, s * x.b};
}

}  // namespace tendril
