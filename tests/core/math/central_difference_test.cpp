#include "core/math/central_difference.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tendril {
namespace {

// f(x) = (x0^2 x1, sin x2 + x0, exp(x1)): a smooth function with a known Jacobian
void evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& f) {
  f.resize(3);
  f << x(0) * x(0) * x(1), std::sin(x(2)) + x(0), std::exp(x(1));
}

Eigen::Matrix3d exactJacobian(const Eigen::Vector3d& x) {
  Eigen::Matrix3d J;
  J << 2 * x(0) * x(1), x(0) * x(0), 0,  //
      1, 0, std::cos(x(2)),              //
      0, std::exp(x(1)), 0;
  return J;
}

TEST(CentralDifferenceTest, JacobianMatchesTheDerivativeToTheTruncationError) {
  const Eigen::Vector3d x0(0.7, -0.3, 1.1);
  Eigen::VectorXd x = x0, plus, minus;
  Eigen::MatrixXd J(3, 3);
  const double h = 1e-4;
  centralDifferenceJacobian(
      x, h, [&](Eigen::VectorXd& f) { evaluate(x, f); }, plus, minus, J);
  // truncation h^2/6 |f'''| (<= 1.2 here) dominates rounding eps/h at this step
  EXPECT_LT((J - exactJacobian(x0)).cwiseAbs().maxCoeff(), 1.2 * h * h / 6 + 1e-11);
  EXPECT_GT((J - exactJacobian(x0)).cwiseAbs().maxCoeff(), 0.0);  // really differences
}

TEST(CentralDifferenceTest, RestoresTheCoordinatesBitForBit) {
  const Eigen::Vector3d x0(0.1 + 0.2, 1.0 / 3.0, -7.77e5);
  Eigen::VectorXd x = x0, plus, minus;
  Eigen::MatrixXd J(3, 3);
  centralDifferenceJacobian(
      x, 1e-6, [&](Eigen::VectorXd& f) { evaluate(x, f); }, plus, minus, J);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(x(i), x0(i));
}

TEST(CentralDifferenceTest, SelectedCoordinatesAndRowsGoWhereTheCallerSays) {
  const Eigen::Vector3d x0(0.7, -0.3, 1.1);
  Eigen::VectorXd x = x0, plus, minus;
  const std::vector<int> free = {2, 0};
  Eigen::Matrix2d block = Eigen::Matrix2d::Zero();  // rows 2 and 0 of the columns 2 and 0
  centralDifferences(
      x, 2, [&](Eigen::Index c) { return free[c]; }, DifferenceStep{1e-5},
      [&](Eigen::VectorXd& f) { evaluate(x, f); }, plus, minus,
      [&](Eigen::Index c, const auto& quotient) {
        for (int r = 0; r < 2; ++r) block(r, c) = quotient(free[r]);
      });
  const Eigen::Matrix3d exact = exactJacobian(x0);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) EXPECT_NEAR(block(r, c), exact(free[r], free[c]), 1e-9);
  }
}

TEST(CentralDifferenceTest, RelativeStepGrowsWithTheCoordinate) {
  EXPECT_EQ(DifferenceStep({1e-7, true}).at(0.5), 1e-7);
  EXPECT_DOUBLE_EQ(DifferenceStep({1e-7, true}).at(-2e3), 2e-4);
  EXPECT_EQ(DifferenceStep({1e-7, false}).at(-2e3), 1e-7);
  // with the relative step a large coordinate still sees a difference of the right size: a
  // fixed 1e-9 step on 1e8 is below the spacing of doubles there (1.5e-8) and gives nothing
  Eigen::VectorXd x(1), plus, minus;
  x << 1e8;
  double slope_relative = 0.0, slope_absolute = 0.0;
  const auto line = [&](Eigen::VectorXd& f) { f = 3.0 * x; };
  const auto first = [](Eigen::Index) { return Eigen::Index{0}; };
  centralDifferences(x, 1, first, DifferenceStep{1e-9, true}, line, plus, minus,
                     [&](Eigen::Index, const auto& q) { slope_relative = q(0); });
  centralDifferences(x, 1, first, DifferenceStep{1e-9, false}, line, plus, minus,
                     [&](Eigen::Index, const auto& q) { slope_absolute = q(0); });
  EXPECT_NEAR(slope_relative, 3.0, 1e-6);
  EXPECT_EQ(slope_absolute, 0.0);
}

}  // namespace
}  // namespace tendril
