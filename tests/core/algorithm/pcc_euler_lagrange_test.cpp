// Simulation 3 (a) of the model-agnostic paper (theory-model-agnostic-id.md 4.3): planar PCC robots
// of 1 to 20 constant-curvature bodies (radius 0.03 m, rest length 0.3 m, 1000 kg/m^3), 100 random
// states each with q in [-pi, pi], q-dot in [-10, 10], q-ddot in [-100, 100]; the inverse dynamics
// against an Euler-Lagrange computation of our own (tests/support/pcc_lagrangian.hpp), relative
// error at most 1e-9.

#include <gtest/gtest.h>

#include <numbers>
#include <random>
#include <sstream>

#include "core/algorithm/inverse_dynamics.hpp"
#include "core/model/data.hpp"
#include "core/model/model.hpp"
#include "tests/support/pcc_lagrangian.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::PlanarPccChain;
using test::relativeError;

struct LagrangianState {
  Eigen::VectorXd q, v, a;
};

std::vector<LagrangianState> paperStates(int n, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<LagrangianState> states;
  for (int s = 0; s < count; ++s) {
    LagrangianState state{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) {
      state.q(i) = std::numbers::pi * unit(rng);
      state.v(i) = 10.0 * unit(rng);
      state.a(i) = 100.0 * unit(rng);
    }
    states.push_back(state);
  }
  return states;
}

class PlanarPccLagrangianTest : public ::testing::TestWithParam<int> {};

TEST_P(PlanarPccLagrangianTest, InverseDynamicsEqualsEulerLagrange) {
  PlanarPccChain chain;
  chain.bodies = GetParam();
  const Model model = buildModel(test::planarPccDescription(chain));
  ASSERT_EQ(model.nq, chain.bodies);
  Data data(model);
  double worst = 0.0;
  for (const LagrangianState& s : paperStates(chain.bodies, 100, 7u + chain.bodies)) {
    const Eigen::VectorXd reference = test::lagrangianMassMatrix(chain, s.q) * s.a +
                                      test::lagrangianBias(chain, s.q, s.v) +
                                      test::lagrangianGravity(chain, s.q);
    worst = std::max(worst, relativeError(inverseDynamics(model, data, s.q, s.v, s.a), reference));
  }
  EXPECT_LT(worst, 1e-9);
  std::ostringstream text;
  text << std::scientific << worst;
  RecordProperty("worst_relative_error", text.str());
}

INSTANTIATE_TEST_SUITE_P(Bodies, PlanarPccLagrangianTest, ::testing::Values(1, 2, 3, 6, 10, 20));

}  // namespace
}  // namespace tendril
