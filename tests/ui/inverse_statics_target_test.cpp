// GUI tests of Simulate > Inverse Statics Target (ui/inverse_statics_target.cpp and the target
// sphere of ui/viewport/viewport_widget.cpp): the robot's tip follows a target moved in code and
// dragged with the mouse, to the solver's tolerance; an unreachable target turns the sphere red.

#include "ui/inverse_statics_target.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QMessageBox>
#include <QSettings>
#include <QTest>

#include "ui/main_window.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

constexpr int kSolveTimeoutMs = 30000;
constexpr double kTipTolerance = 1e-9;  // InverseStaticsOptions::position_tolerance is 1e-10 m

class InverseStaticsTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
    ASSERT_TRUE(window_.openFile(test::examplePath("cable_manipulator.json")))
        << window_.lastError().toStdString();
  }

  // switches the mode on and waits for its first solve (the tip under the inputs of t = 0)
  InverseStaticsTargetMode* startMode() {
    test::findAction(window_, "inverseStaticsTargetAction")->setChecked(true);
    auto* mode = window_.findChild<InverseStaticsTargetMode*>();
    EXPECT_NE(mode, nullptr);
    if (mode == nullptr) return nullptr;
    EXPECT_TRUE(QTest::qWaitFor([&] { return mode->shownCount() > 0; }, kSolveTimeoutMs));
    return mode;
  }

  // waits until the mode shows the answer to the latest target
  static bool waitForLatest(const InverseStaticsTargetMode& mode) {
    return QTest::qWaitFor(
        [&] { return mode.lastUpdate() && mode.lastUpdate()->serial == mode.requestedCount(); },
        kSolveTimeoutMs);
  }

  // the tip drawn in the view
  Eigen::Vector3d drawnTip() const {
    const FramePtr frame = window_.viewport()->currentFrame();
    EXPECT_TRUE(frame && !frame->tips_W.empty());
    return frame && !frame->tips_W.empty() ? frame->tips_W.back() : Eigen::Vector3d::Zero();
  }

  MainWindow window_;
};

TEST_F(InverseStaticsTargetTest, TheTipFollowsATargetMovedInCode) {
  InverseStaticsTargetMode* mode = startMode();
  ASSERT_NE(mode, nullptr);
  const Eigen::Vector3d start = mode->lastUpdate()->tip;
  ASSERT_TRUE(window_.viewport()->targetMarker());
  EXPECT_LT((*window_.viewport()->targetMarker() - start).norm(), 1e-12);
  test::saveScreenshot(test::grabWindow(window_), "inverse_statics_target_start");

  const Eigen::Vector3d target = start + Eigen::Vector3d(0.0, 0.03, 0.02);
  mode->setTarget(target);
  ASSERT_TRUE(waitForLatest(*mode));
  ASSERT_TRUE(mode->lastUpdate()->converged) << mode->lastUpdate()->message;
  EXPECT_LE((mode->lastUpdate()->tip - target).norm(), kTipTolerance);
  EXPECT_LE((drawnTip() - target).norm(), kTipTolerance);
  EXPECT_FALSE(window_.viewport()->targetMarkerUnreachable());
  EXPECT_TRUE(mode->statusText().contains("long1 = ")) << mode->statusText().toStdString();

  // a burst of moves: the worker always ends on the latest one
  Eigen::Vector3d last = target;
  for (int k = 1; k <= 20; ++k) {
    last = target + Eigen::Vector3d(0.001 * k, 0.0, -0.0005 * k);
    mode->setTarget(last);
  }
  ASSERT_TRUE(waitForLatest(*mode));
  EXPECT_EQ(mode->lastUpdate()->serial, mode->requestedCount());
  RecordProperty("shown_of_requested", std::to_string(mode->shownCount()) + " of " +
                                           std::to_string(mode->requestedCount() + 1));
  ASSERT_TRUE(mode->lastUpdate()->converged) << mode->lastUpdate()->message;
  EXPECT_LE((drawnTip() - last).norm(), kTipTolerance);
  test::saveScreenshot(test::grabWindow(window_), "inverse_statics_target_moved");
}

TEST_F(InverseStaticsTargetTest, DraggingTheSphereMovesTheTargetAndNotTheCamera) {
  InverseStaticsTargetMode* mode = startMode();
  ASSERT_NE(mode, nullptr);
  ViewportWidget* viewport = window_.viewport();
  const std::array<double, 3> camera_before = viewport->cameraPosition();
  const Eigen::Vector3d start = *viewport->targetMarker();
  const QPoint grab = viewport->projectToWidget(start).toPoint();
  QTest::mousePress(viewport, Qt::LeftButton, {}, grab);
  ASSERT_TRUE(viewport->isDraggingTarget());
  for (int step = 1; step <= 10; ++step) {
    QTest::mouseMove(viewport, grab + QPoint(3 * step, -2 * step));
    QTest::qWait(20);
  }
  const QPoint drop = grab + QPoint(30, -20);
  QTest::mouseRelease(viewport, Qt::LeftButton, {}, drop);
  EXPECT_FALSE(viewport->isDraggingTarget());

  // the sphere is under the cursor, on the plane through its start facing the camera
  const Eigen::Vector3d moved = *viewport->targetMarker();
  const QPointF shown = viewport->projectToWidget(moved);
  EXPECT_NEAR(shown.x(), drop.x(), 1.0);
  EXPECT_NEAR(shown.y(), drop.y(), 1.0);
  const std::array<double, 3> camera = viewport->cameraPosition();
  const std::array<double, 3> focal = viewport->cameraFocalPoint();
  const Eigen::Vector3d view = (Eigen::Vector3d(focal[0], focal[1], focal[2]) -
                                Eigen::Vector3d(camera[0], camera[1], camera[2]))
                                   .normalized();
  EXPECT_NEAR((moved - start).dot(view), 0.0, 1e-9);
  EXPECT_GT((moved - start).norm(), 1e-3);
  EXPECT_EQ(camera, camera_before);

  ASSERT_TRUE(waitForLatest(*mode));
  ASSERT_TRUE(mode->lastUpdate()->converged) << mode->lastUpdate()->message;
  EXPECT_LE((mode->lastUpdate()->target - moved).norm(), 1e-15);
  EXPECT_LE((drawnTip() - moved).norm(), kTipTolerance);
  test::saveScreenshot(test::grabWindow(window_), "inverse_statics_target_dragged");
}

TEST_F(InverseStaticsTargetTest, AnUnreachableTargetTurnsTheSphereRed) {
  InverseStaticsTargetMode* mode = startMode();
  ASSERT_NE(mode, nullptr);
  // below the tip of the hanging 0.9 m arm: cables shorten it, none stretches it
  mode->setTarget(Eigen::Vector3d(0.05, 0.0, -1.1));
  ASSERT_TRUE(waitForLatest(*mode));
  EXPECT_FALSE(mode->lastUpdate()->converged);
  EXPECT_TRUE(window_.viewport()->targetMarkerUnreachable());
  EXPECT_TRUE(mode->statusText().startsWith("unreachable: closest point"))
      << mode->statusText().toStdString();
  test::saveScreenshot(test::grabWindow(window_), "inverse_statics_target_unreachable");

  // switching the mode off hides the sphere
  test::findAction(window_, "inverseStaticsTargetAction")->setChecked(false);
  EXPECT_FALSE(window_.viewport()->targetMarker());
}

TEST_F(InverseStaticsTargetTest, AModelWithoutActuatorsIsRefusedWithAReason) {
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  QAction* action = test::findAction(window_, "inverseStaticsTargetAction");
  action->setChecked(true);
  EXPECT_FALSE(action->isChecked());
  ASSERT_NE(test::visibleErrorBox(window_), nullptr);
  EXPECT_TRUE(window_.lastError().contains("no cable or force joint input"))
      << window_.lastError().toStdString();
}

}  // namespace
}  // namespace tendril
