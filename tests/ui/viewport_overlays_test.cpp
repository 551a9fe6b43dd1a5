// GUI tests of the viewport's optional drawings: joints as glyphs (tree joints and closed-loop
// joints) and x-y-z triads at the computational points, switched from the View menu.

#include <gtest/gtest.h>

#include <QAction>
#include <QSettings>
#include <QTest>

#include "core/algorithm/data.hpp"
#include "core/sim/make_frame.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

class ViewportOverlaysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
  }

  QAction* action(const char* name) { return test::findAction(window_, name); }

  QImage picture() {
    QTest::qWait(30);
    return window_.viewport()->grabFramebuffer();
  }

  MainWindow window_;
};

TEST_F(ViewportOverlaysTest, JointsAreDrawnAsGlyphsAndCanBeHidden) {
  ASSERT_TRUE(window_.openFile(test::examplePath("hybrid_serial_robot.json")));
  QAction* joints = action("showJointsAction");
  ASSERT_TRUE(joints->isChecked());
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), 2);  // two revolute joints, the rod is fixed
  const QImage with_joints = picture();
  test::saveScreenshot(with_joints, "viewport_joint_glyphs");

  joints->trigger();
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), 0);
  const QImage without = picture();
  EXPECT_GT(test::countDifferentPixels(with_joints, without), 100);
  EXPECT_LT(test::countBlackPixels(without), without.width() * without.height() / 4);
  joints->trigger();
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), 2);
}

TEST_F(ViewportOverlaysTest, ClosedLoopJointsGetGlyphsToo) {
  ASSERT_TRUE(window_.openFile(test::examplePath("parallel_robot.json")));
  // the platform's spherical joint and its two closed-loop joints
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), 3);
  test::saveScreenshot(picture(), "viewport_parallel_robot_joints");
}

// the contact example is the cable manipulator inside a hollow cylinder: the same robot without
// the obstacle must give a different picture, so the cylinder is really drawn
TEST_F(ViewportOverlaysTest, ContactObstaclesAreDrawn) {
  ASSERT_TRUE(window_.openFile(test::examplePath("cable_manipulator.json")));
  EXPECT_EQ(window_.viewport()->obstacleCount(), 0);
  const QImage without = picture();

  ASSERT_TRUE(window_.openFile(test::examplePath("contact_cylinder.json")));
  const auto& contact = window_.robot().environment.contact;
  ASSERT_TRUE(contact.has_value());
  EXPECT_EQ(window_.viewport()->obstacleCount(),
            static_cast<int>(contact->planes.size() + contact->spheres.size() +
                             contact->cylinders.size()));
  EXPECT_GT(window_.viewport()->obstacleCount(), 0);
  const QImage with = picture();
  EXPECT_GT(test::countDifferentPixels(without, with), with.width() * with.height() / 50);
  EXPECT_LT(test::countBlackPixels(with), with.width() * with.height() / 4);
  test::saveScreenshot(with, "viewport_contact_cylinder");
}

// a horizontal cantilever bent down by a uniform curvature: the grid, first under the straight
// rod, moves below the bent one instead of letting it through the floor
TEST_F(ViewportOverlaysTest, TheGridStaysBelowASaggingRod) {
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  const FramePtr straight = window_.viewport()->currentFrame();
  ASSERT_NE(straight, nullptr);
  const double rest_height = window_.viewport()->gridHeight();
  Model model = buildModel(window_.robot());
  Data data(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  const VirtualJoint& first = model.joints[model.links[0].first_interval];
  for (int k = 0; k < first.nq; ++k) {  // every bend_y mode positive: the tip goes down (-z)
    if (first.basis_rows[k] == 1) q(first.idx_q + k) = 3.0;
  }
  auto bent = std::const_pointer_cast<Frame>(makeFrame(model, data, q, q, 0.1));
  bent->model_revision = straight->model_revision;  // the same structure: an update in place
  window_.viewport()->showFrame(bent);
  double lowest = 0.0;
  for (const Eigen::Vector3d& p : bent->rods.at(0).points) lowest = std::min(lowest, p.z());
  ASSERT_LT(lowest, rest_height - 0.05);  // the bend really reaches below the first grid
  EXPECT_LT(window_.viewport()->gridHeight(), lowest);
  test::saveScreenshot(picture(), "viewport_grid_below_sagging_rod");

  window_.viewport()->showFrame(straight);  // the grid stays down for the rest of the run
  EXPECT_LT(window_.viewport()->gridHeight(), lowest);
}

TEST_F(ViewportOverlaysTest, ComputationalFramesToggleFromTheViewMenu) {
  ASSERT_TRUE(window_.openFile(test::examplePath("hybrid_serial_robot.json")));
  QAction* frames = action("showFramesAction");
  ASSERT_FALSE(frames->isChecked());
  EXPECT_EQ(window_.viewport()->frameTriadCount(), 0);
  const QImage before = picture();

  frames->trigger();
  const FramePtr frame = window_.viewport()->currentFrame();
  ASSERT_NE(frame, nullptr);
  // one triad per computational point of each rod (base and every interval end), one per body
  int expected = static_cast<int>(frame->bodies.size());
  for (const RodShape& rod : frame->rods) {
    expected += static_cast<int>((rod.points.size() - 1) / kSamplesPerInterval) + 1;
  }
  EXPECT_EQ(window_.viewport()->frameTriadCount(), expected);
  EXPECT_GT(expected, 4);
  const QImage after = picture();
  EXPECT_GT(test::countDifferentPixels(before, after), 100);
  test::saveScreenshot(after, "viewport_computational_frames");

  // they move with the frames shown
  frames->trigger();
  EXPECT_EQ(window_.viewport()->frameTriadCount(), 0);
}

}  // namespace
}  // namespace tendril
