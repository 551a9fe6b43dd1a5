// The vectorised N_Vector operations against SUNDIALS' own serial ones, on the same entries, with
// the aliasing that CVODE and IDAS use (z = x, z = X[0]).

#include "core/sim/vectorised_nvector.hpp"

#include <gtest/gtest.h>
#include <sundials/sundials_context.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <random>

namespace tendril::detail {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr int kVectorLength = 37;  // not a multiple of a SIMD packet: the loops' tails run too

class VectorisedNVectorTest : public ::testing::Test {
 protected:
  VectorisedNVectorTest() {
    SUNContext_Create(nullptr, &context_);
    std::mt19937 random(11);
    std::uniform_real_distribution<double> uniform(0.5, 2.0);
    for (int i = 0; i < kVectors; ++i) {
      ours_[i] = N_VNew_Serial(kVectorLength, context_);
      useVectorisedOperations(ours_[i]);
      reference_[i] = N_VNew_Serial(kVectorLength, context_);
      for (int k = 0; k < kVectorLength; ++k) {
        // mixed signs and magnitudes; entries stay away from zero for the divisions
        const double x = (k % 3 == 0 ? -1.0 : 1.0) * uniform(random) * std::pow(10.0, k % 5 - 2);
        NV_Ith_S(ours_[i], k) = NV_Ith_S(reference_[i], k) = x;
      }
    }
  }
  ~VectorisedNVectorTest() override {
    for (int i = 0; i < kVectors; ++i) {
      N_VDestroy(ours_[i]);
      N_VDestroy(reference_[i]);
    }
    SUNContext_Free(&context_);
  }

  static Eigen::Map<Eigen::ArrayXd> entries(N_Vector v) {
    return {N_VGetArrayPointer(v), N_VGetLength(v)};
  }

  // vector i of both sets agree entry by entry within a few roundings of `scale` (the size of the
  // terms that formed each entry: a fused multiply-add rounds once where SUNDIALS rounds twice)
  void expectSame(int i, const Eigen::ArrayXd& scale) {
    const Eigen::ArrayXd error = (entries(ours_[i]) - entries(reference_[i])).abs();
    for (int k = 0; k < kVectorLength; ++k)
      EXPECT_LE(error(k), 4.0 * kEps * scale(k)) << "entry " << k << " of vector " << i;
  }

  static constexpr int kVectors = 4;
  SUNContext context_ = nullptr;
  N_Vector ours_[kVectors] = {};
  N_Vector reference_[kVectors] = {};
};

TEST_F(VectorisedNVectorTest, LinearSumsMatchSundials) {
  const Eigen::ArrayXd x = entries(ours_[0]), y = entries(ours_[1]);
  const Eigen::ArrayXd scale = 0.7 * x.abs() + 1.3 * y.abs();
  // z separate, then z = x (in place, as CVODE's corrector updates)
  N_VLinearSum(0.7, ours_[0], -1.3, ours_[1], ours_[2]);
  N_VLinearSum(0.7, reference_[0], -1.3, reference_[1], reference_[2]);
  expectSame(2, scale);
  N_VLinearSum(0.7, ours_[0], -1.3, ours_[1], ours_[0]);
  N_VLinearSum(0.7, reference_[0], -1.3, reference_[1], reference_[0]);
  expectSame(0, scale);
  // SUNDIALS special-cases a = 1 and b = +-1; the sums must not depend on that
  N_VLinearSum(1.0, ours_[1], -1.0, ours_[3], ours_[3]);
  N_VLinearSum(1.0, reference_[1], -1.0, reference_[3], reference_[3]);
  expectSame(3, y.abs() + entries(reference_[1]).abs());
}

TEST_F(VectorisedNVectorTest, ElementwiseOperationsMatchSundials) {
  const Eigen::ArrayXd x = entries(ours_[0]), y = entries(ours_[1]);
  N_VScale(-2.5, ours_[0], ours_[2]);
  N_VScale(-2.5, reference_[0], reference_[2]);
  expectSame(2, 2.5 * x.abs());
  N_VProd(ours_[0], ours_[1], ours_[2]);
  N_VProd(reference_[0], reference_[1], reference_[2]);
  expectSame(2, (x * y).abs());
  N_VDiv(ours_[0], ours_[1], ours_[2]);
  N_VDiv(reference_[0], reference_[1], reference_[2]);
  expectSame(2, (x / y).abs());
  N_VAbs(ours_[0], ours_[2]);
  N_VAbs(reference_[0], reference_[2]);
  expectSame(2, Eigen::ArrayXd::Zero(kVectorLength));  // exact
  N_VInv(ours_[1], ours_[2]);
  N_VInv(reference_[1], reference_[2]);
  expectSame(2, y.inverse().abs());
  N_VAddConst(ours_[0], 0.25, ours_[2]);
  N_VAddConst(reference_[0], 0.25, reference_[2]);
  expectSame(2, x.abs() + 0.25);
  N_VConst(3.0, ours_[2]);
  N_VConst(3.0, reference_[2]);
  expectSame(2, Eigen::ArrayXd::Zero(kVectorLength));
}

TEST_F(VectorisedNVectorTest, NormsMatchSundials) {
  // a reordered sum of n terms is within n eps of the sum of their magnitudes
  const double sum_bound = kVectorLength * kEps;
  const double ours = N_VWrmsNorm(ours_[0], ours_[1]);
  const double reference = N_VWrmsNorm(reference_[0], reference_[1]);
  EXPECT_NEAR(ours, reference, sum_bound * reference);
  EXPECT_NEAR(N_VWSqrSumLocal(ours_[0], ours_[1]), N_VWSqrSumLocal(reference_[0], reference_[1]),
              sum_bound * reference * reference * kVectorLength);
  EXPECT_EQ(N_VMaxNorm(ours_[0]), N_VMaxNorm(reference_[0]));
}

TEST_F(VectorisedNVectorTest, FusedCombinationsMatchSundials) {
  // against SUNDIALS' own fused operations (off by default: the generic fallback, a scale and
  // linear sums, does not allow z = X[1])
  for (N_Vector v : reference_) ASSERT_EQ(N_VEnableFusedOps_Serial(v, SUNTRUE), 0);
  double c[3] = {1.5, -0.5, 2.0};
  N_Vector X_ours[3] = {ours_[0], ours_[1], ours_[2]};
  N_Vector X_reference[3] = {reference_[0], reference_[1], reference_[2]};
  Eigen::ArrayXd scale = Eigen::ArrayXd::Zero(kVectorLength);
  for (int i = 0; i < 3; ++i) scale += std::abs(c[i]) * entries(ours_[i]).abs();
  // into a fourth vector, then in place into X[0] (IDA's predictor), with c[0] = 1 too
  ASSERT_EQ(N_VLinearCombination(3, c, X_ours, ours_[3]), 0);
  ASSERT_EQ(N_VLinearCombination(3, c, X_reference, reference_[3]), 0);
  expectSame(3, 2.0 * scale);
  ASSERT_EQ(N_VLinearCombination(3, c, X_ours, ours_[0]), 0);
  ASSERT_EQ(N_VLinearCombination(3, c, X_reference, reference_[0]), 0);
  expectSame(0, 2.0 * scale);
  c[0] = 1.0;
  scale = entries(ours_[0]).abs() + 0.5 * entries(ours_[1]).abs() + 2.0 * entries(ours_[2]).abs();
  ASSERT_EQ(N_VLinearCombination(3, c, X_ours, ours_[0]), 0);
  ASSERT_EQ(N_VLinearCombination(3, c, X_reference, reference_[0]), 0);
  expectSame(0, 2.0 * scale);
  // two terms are a linear sum, where z may also be X[1]
  ASSERT_EQ(N_VLinearCombination(2, c, X_ours, ours_[1]), 0);
  ASSERT_EQ(N_VLinearCombination(2, c, X_reference, reference_[1]), 0);
  expectSame(1, 2.0 * (entries(reference_[0]).abs() + 0.5 * entries(reference_[1]).abs()));
  // Z_i = a_i x + Y_i
  double a[2] = {0.5, -3.0};
  N_Vector Y_ours[2] = {ours_[1], ours_[2]}, Y_reference[2] = {reference_[1], reference_[2]};
  N_Vector Z_ours[2] = {ours_[3], ours_[2]}, Z_reference[2] = {reference_[3], reference_[2]};
  const Eigen::ArrayXd x = entries(ours_[0]).abs();
  const Eigen::ArrayXd scale_3 = 0.5 * x + entries(ours_[1]).abs();
  const Eigen::ArrayXd scale_2 = 3.0 * x + entries(ours_[2]).abs();
  ASSERT_EQ(N_VScaleAddMulti(2, a, ours_[0], Y_ours, Z_ours), 0);
  ASSERT_EQ(N_VScaleAddMulti(2, a, reference_[0], Y_reference, Z_reference), 0);
  expectSame(3, scale_3);
  expectSame(2, scale_2);
}

TEST_F(VectorisedNVectorTest, ClonesInheritTheOperations) {
  // CVODE and IDAS make their work vectors by cloning y
  N_Vector clone = N_VClone(ours_[0]);
  EXPECT_EQ(clone->ops->nvlinearsum, ours_[0]->ops->nvlinearsum);
  EXPECT_EQ(clone->ops->nvwrmsnorm, ours_[0]->ops->nvwrmsnorm);
  EXPECT_NE(clone->ops->nvlinearsum, reference_[0]->ops->nvlinearsum);
  N_VDestroy(clone);
}

}  // namespace
}  // namespace tendril::detail
