// Simulation 3 (a) of the model-agnostic paper (docs/theory/model-agnostic.md §6): planar PCC
// robots of 1 to 20 constant-curvature bodies (radius 0.03 m, rest length 0.3 m, 1000 kg/m^3), 100
// random states each with q in [-pi, pi], q-dot in [-10, 10], q-ddot in [-100, 100]; the
// model-agnostic IID = M q-ddot + c and MIID's mass matrix (and the GVS engine's inverse dynamics,
// with gravity) against an Euler-Lagrange computation of our own
// (tests/support/pcc_lagrangian.hpp), relative error at most 1e-9.

#include <gtest/gtest.h>

#include <numbers>
#include <random>
#include <sstream>

#include "core/algorithm/data.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
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
  double worst_iid = 0.0, worst_M = 0.0, worst_id = 0.0;
  for (const LagrangianState& s : paperStates(chain.bodies, 100, 7u + chain.bodies)) {
    const Eigen::MatrixXd M = test::lagrangianMassMatrix(chain, s.q);
    const Eigen::VectorXd inertial = M * s.a + test::lagrangianBias(chain, s.q, s.v);
    const Eigen::VectorXd& iid = modelAgnosticMIID(model, data, s.q, s.v, s.a);
    worst_iid = std::max(worst_iid, relativeError(iid, inertial));
    worst_M = std::max(worst_M, relativeError(data.agnostic.M, M));
    const Eigen::VectorXd with_gravity = inertial + test::lagrangianGravity(chain, s.q);
    worst_id = std::max(worst_id,
                        relativeError(inverseDynamics(model, data, s.q, s.v, s.a), with_gravity));
  }
  EXPECT_LT(worst_iid, 1e-9);
  EXPECT_LT(worst_M, 1e-12);
  EXPECT_LT(worst_id, 1e-9);
  for (const auto& [key, value] : {std::pair{"worst_iid", worst_iid},
                                   {"worst_mass_matrix", worst_M},
                                   {"worst_id", worst_id}}) {
    std::ostringstream text;
    text << std::scientific << value;
    RecordProperty(key, text.str());
  }
}

INSTANTIATE_TEST_SUITE_P(Bodies, PlanarPccLagrangianTest, ::testing::Values(1, 2, 3, 6, 10, 20));

}  // namespace
}  // namespace tendril
