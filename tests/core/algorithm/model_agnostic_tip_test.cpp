// Tests for the tip positions of the model-agnostic family (modelAgnosticTipPosition, from the
// distal frames alone): on robots the engine also runs, each link's tip equals the engine's
// linkTipPose to rounding (rigid links with their tip placement, rods, constant-curvature
// segments); its Jacobian equals central differences of the position, also on LVP bodies.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "core/algorithm/data.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

Eigen::Vector3d tipAt(const Model& model, Data& data, const Eigen::VectorXd& q, int link) {
  Eigen::Matrix3Xd J(3, model.nv);
  modelAgnosticDistalFrames(model, data.agnostic, q);
  return modelAgnosticTipPosition(model, data.agnostic, link, J);
}

// the Jacobian of every link's tip against central differences of the position (q is additive
// on these models: no free or spherical joints)
void expectJacobiansMatchDifferences(const Model& model, const Eigen::VectorXd& q) {
  Data data(model), probe(model);
  Eigen::Matrix3Xd J(3, model.nv);
  const double h = 1e-6;
  bool moving = false;  // a fixed base link's tip has J = 0: some link must move
  for (int link = 0; link < static_cast<int>(model.links.size()); ++link) {
    SCOPED_TRACE(model.links[static_cast<std::size_t>(link)].name);
    modelAgnosticDistalFrames(model, data.agnostic, q);
    (void)modelAgnosticTipPosition(model, data.agnostic, link, J);
    Eigen::Matrix3Xd differences(3, model.nv);
    Eigen::VectorXd shifted = q;
    for (int i = 0; i < model.nv; ++i) {
      shifted(i) = q(i) + h;
      const Eigen::Vector3d plus = tipAt(model, probe, shifted, link);
      shifted(i) = q(i) - h;
      differences.col(i) = (plus - tipAt(model, probe, shifted, link)) / (2.0 * h);
      shifted(i) = q(i);
    }
    moving = moving || J.norm() > 0.0;
    EXPECT_LT((J - differences).norm(), 1e-7 * std::max(1.0, J.norm())) << "J\n"
                                                                        << J << "\ndifferences\n"
                                                                        << differences;
  }
  EXPECT_TRUE(moving);
}

class TipOnBothFamilies : public ::testing::TestWithParam<std::string> {};

TEST_P(TipOnBothFamilies, EqualsTheEngineTipAndItsJacobianTheDifferences) {
  const Model model = buildModel(test::example(GetParam()));
  ASSERT_FALSE(model.agnostic_only);
  const test::State x = test::randomState(model, 3, 0.4);
  Data agnostic(model), engine(model);
  forwardKinematics(model, engine, x.q);
  for (int link = 0; link < static_cast<int>(model.links.size()); ++link) {
    SCOPED_TRACE(model.links[static_cast<std::size_t>(link)].name);
    const Eigen::Vector3d expected = linkTipPose(model, engine, link).p;
    EXPECT_LT((tipAt(model, agnostic, x.q, link) - expected).norm(),
              1e-12 * (1.0 + expected.norm()));
  }
  expectJacobiansMatchDifferences(model, x.q);
}

INSTANTIATE_TEST_SUITE_P(Examples, TipOnBothFamilies,
                         ::testing::Values("rigid_7dof_arm", "hybrid_serial_robot",
                                           "pcc_hybrid_robot"));

TEST(TipOfLvpBodies, JacobianEqualsTheDifferences) {
  const Model model = buildModel(test::lvpTable4Chain({3, 2, 5}, true));
  ASSERT_TRUE(model.agnostic_only);
  expectJacobiansMatchDifferences(model, test::randomState(model, 5, 0.1).q);
}

}  // namespace
}  // namespace tendril
