// Convergence and basis-independence of the GVS discretisation (core/model/build_model.cpp with
// core/algorithm/statics.cpp): refinement studies of the large-deflection cantilever.

#include <gtest/gtest.h>

#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/statics.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// tip of a 0.5 m, r = 2 cm cantilever hanging under its own weight (large deflection)
Eigen::Vector3d cantileverTip(BasisFamily family, int order, int gauss_points) {
  StrainBasisDesc basis;
  basis.family = family;
  basis.order = {order, order, order, -1, -1, -1};
  const Model model = buildModel(test::uniformRod(0.5, 0.02, basis, gauss_points));
  Data data(model);
  const StaticsResult result = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
  EXPECT_TRUE(result.converged) << result.message;
  forwardKinematics(model, data, result.q);
  return linkTipPose(model, data, 0).p;
}

TEST(ConvergenceTest, TipConvergesAsModesIncrease) {
  // against a much finer discretisation; Gauss points fixed high enough not to dominate
  const Eigen::Vector3d reference = cantileverTip(BasisFamily::Legendre, 10, 20);
  double previous_error = std::numeric_limits<double>::infinity();
  for (int order = 1; order <= 5; ++order) {
    const double error = (cantileverTip(BasisFamily::Legendre, order, 16) - reference).norm();
    EXPECT_LT(error, 0.7 * previous_error) << "order " << order;
    previous_error = error;
  }
  EXPECT_LT(previous_error, 2e-6);
}

TEST(ConvergenceTest, TipConvergesAsGaussPointsIncrease) {
  const Eigen::Vector3d reference = cantileverTip(BasisFamily::Legendre, 10, 20);
  double previous_error = std::numeric_limits<double>::infinity();
  for (int points = 7; points <= 14; ++points) {
    const double error = (cantileverTip(BasisFamily::Legendre, 6, points) - reference).norm();
    EXPECT_LT(error, 0.9 * previous_error) << points << " Gauss points";
    previous_error = error;
  }
  EXPECT_LT(previous_error, 2e-6);
}

TEST(ConvergenceTest, PolynomialFamiliesOfOneOrderGiveTheSameEquilibrium) {
  // monomials, Legendre and Chebyshev polynomials of one order span the same strains: only the
  // scaling of q differs, never the shape
  const Eigen::Vector3d legendre = cantileverTip(BasisFamily::Legendre, 3, 5);
  EXPECT_LT((cantileverTip(BasisFamily::Monomial, 3, 5) - legendre).norm(), 1e-10);
  EXPECT_LT((cantileverTip(BasisFamily::Chebyshev, 3, 5) - legendre).norm(), 1e-10);
  EXPECT_GT((cantileverTip(BasisFamily::Legendre, 1, 5) - legendre).norm(),
            1e-4);  // order does matter
}

}  // namespace
}  // namespace tendril
