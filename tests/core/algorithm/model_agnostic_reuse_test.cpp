// Tests for the reuse of unchanged body evaluations in the model-agnostic passes
// (ReusedBodyEvaluations, evaluateWorkspaceBody in model_agnostic_workspace.hpp): inside a loop of
// central differences, where one body moves at a time, every ID, IID and pose equals the same call
// on a fresh workspace, also when a pass that needs more (material forces, other rates) follows
// one that needed less at the same coordinates; the poses composed from a pass's evaluations
// equal those of a fresh evaluation at rest; and the distal frames that tendon lengths evaluate
// alone never stand for a body's elements.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/algorithm/model_agnostic_workspace.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

// the same arithmetic on the same inputs: equal to the last bit
void expectSamePoses(const ModelAgnosticPoses& a, const ModelAgnosticPoses& b) {
  ASSERT_EQ(a.elements.size(), b.elements.size());
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    EXPECT_EQ(a.distal[i].R, b.distal[i].R);
    EXPECT_EQ(a.distal[i].p, b.distal[i].p);
    ASSERT_EQ(a.elements[i].size(), b.elements[i].size());
    for (std::size_t k = 0; k < a.elements[i].size(); ++k)
      EXPECT_EQ(a.elements[i][k].p, b.elements[i][k].p);
  }
}

struct ReuseCase {
  std::string name;
  RobotDescription robot;
};

class ReusedBodies : public ::testing::TestWithParam<int> {};

std::vector<ReuseCase> reuseCases() {
  return {{"lvp_chain_with_tendons", test::lvpTable4Chain({3, 2, 5}, true)},
          {"pcc_hybrid_robot", test::example("pcc_hybrid_robot")},
          {"hybrid_serial_robot", test::example("hybrid_serial_robot")}};
}

// Central differences in q and v as DynamicsSystem takes them, with the reuse on: each ID equals
// a fresh workspace's. At every perturbed state the passes also come in an order that tries the
// reuse's rules: an IID first (no material forces), then the ID at the same state (must evaluate
// the forces), poses (rates zero), then the ID at the base rates (must evaluate the rates).
TEST_P(ReusedBodies, DifferencesEqualFreshEvaluations) {
  const ReuseCase c = reuseCases()[static_cast<std::size_t>(GetParam())];
  SCOPED_TRACE(c.name);
  const Model model = buildModel(c.robot);
  Data reused(model), fresh(model);
  ModelAgnosticPoses reused_poses(model, reused), fresh_poses(model, fresh);
  const test::State x = test::randomState(model, 7, 0.1);
  const double t = 0.3, h = 1e-6;
  const ReusedBodyEvaluations reuse(reused.agnostic);
  EXPECT_EQ(modelAgnosticMID(model, reused, x.q, x.v, x.a, t),
            modelAgnosticMID(model, fresh, x.q, x.v, x.a, t));
  Eigen::VectorXd q = x.q, v = x.v;
  for (int moved = 0; moved < 2; ++moved) {  // q, then v
    Eigen::VectorXd& y = moved == 0 ? q : v;
    for (int i = 0; i < model.nv; ++i) {
      for (const double step : {h, -h}) {
        SCOPED_TRACE((moved == 0 ? "q " : "v ") + std::to_string(i) + (step > 0 ? " +" : " -"));
        y(i) += step;
        if (step < 0) {  // the motion alone first: the ID must then add the forces
          EXPECT_EQ(modelAgnosticIID(model, reused, q, v, x.a),
                    modelAgnosticIID(model, fresh, q, v, x.a));
        }
        EXPECT_EQ(modelAgnosticID(model, reused, q, v, x.a, t),
                  modelAgnosticID(model, fresh, q, v, x.a, t));
        y(i) -= step;
      }
    }
  }
  // poses at rest, then the ID at the same q with rates: evaluated again at those rates
  q(0) += h;
  modelAgnosticPoses(model, reused, q, reused_poses);
  modelAgnosticPoses(model, fresh, q, fresh_poses);
  expectSamePoses(reused_poses, fresh_poses);
  EXPECT_EQ(modelAgnosticID(model, reused, q, v, x.a, t),
            modelAgnosticID(model, fresh, q, v, x.a, t));
}

INSTANTIATE_TEST_SUITE_P(Models, ReusedBodies, ::testing::Range(0, 3));

// The energies' poses come from the inertial pass at (q, v) instead of a second evaluation at rest
TEST(ReusedBodies, PosesOfAPassEqualPosesAtRest) {
  const Model model = buildModel(test::lvpTable4Chain({3, 2, 5}));
  Data pass(model), rest(model);
  ModelAgnosticPoses of_pass(model, pass), at_rest(model, rest);
  const test::State x = test::randomState(model, 3, 0.1);
  modelAgnosticIID(model, pass, x.q, x.v, x.a);
  modelAgnosticPosesOfEvaluations(pass, of_pass);
  modelAgnosticPoses(model, rest, x.q, at_rest);
  expectSamePoses(of_pass, at_rest);
}

// Tendon lengths evaluate the bodies' distal frames alone: with the reuse on, poses and an ID at
// the same coordinates must still evaluate the elements, and lengths after an ID (which holds the
// distal frames) equal those of a fresh workspace
TEST(ReusedBodies, DistalFramesAloneDoNotStandForTheElements) {
  const Model model = buildModel(test::lvpTable4Chain({3, 2, 5}, true));
  Data reused(model), fresh(model);
  ModelAgnosticPoses reused_poses(model, reused), fresh_poses(model, fresh);
  const test::State x = test::randomState(model, 9, 0.1);
  const auto tendons = static_cast<Eigen::Index>(model.lvp_tendons.size());
  Eigen::VectorXd lengths(tendons), fresh_lengths(tendons);
  Eigen::MatrixXd gradients(model.nv, tendons), fresh_gradients(model.nv, tendons);
  const ReusedBodyEvaluations reuse(reused.agnostic);
  modelAgnosticPoses(model, reused, Eigen::VectorXd::Zero(model.nq), reused_poses);  // elsewhere
  lvpTendonLengths(model, reused, x.q, lengths, gradients);
  lvpTendonLengths(model, fresh, x.q, fresh_lengths, fresh_gradients);
  EXPECT_EQ(lengths, fresh_lengths);
  EXPECT_EQ(gradients, fresh_gradients);
  modelAgnosticPoses(model, reused, x.q, reused_poses);
  modelAgnosticPoses(model, fresh, x.q, fresh_poses);
  expectSamePoses(reused_poses, fresh_poses);
  lvpTendonLengths(model, reused, x.q, lengths, gradients);
  EXPECT_EQ(modelAgnosticID(model, reused, x.q, x.v, x.a, 0.1),
            modelAgnosticID(model, fresh, x.q, x.v, x.a, 0.1));
  lvpTendonLengths(model, reused, x.q, lengths, gradients);  // the ID's distal frames
  EXPECT_EQ(lengths, fresh_lengths);
  EXPECT_EQ(gradients, fresh_gradients);
}

}  // namespace
}  // namespace tendril
