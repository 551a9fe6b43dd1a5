#include "ui/viewport/viewport_widget.hpp"

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>
#include <cmath>
#include <utility>
#include <vector>

#include "ui_test_support.hpp"

namespace tendril {
namespace {

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

class ViewportWidgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    viewport_.resize(640, 480);
    ASSERT_TRUE(test::showAndWait(&viewport_));
    viewport_.showFrame(test::makeCurvedRodFrame());
  }

  ViewportWidget viewport_;
};

TEST_F(ViewportWidgetTest, RendersTheRodInItsColour) {
  const QImage image = viewport_.grabFramebuffer();
  test::saveScreenshot(image, "viewport_curved_rod");
  ASSERT_EQ(image.size(), QSize(640, 480) * viewport_.devicePixelRatioF());
  EXPECT_GT(test::countRodPixels(image), 3000);
}

TEST_F(ViewportWidgetTest, BackgroundIsALightGradientNotBlack) {
  const QImage image = viewport_.grabFramebuffer();
  EXPECT_LT(test::countBlackPixels(image), image.width() * image.height() / 50);
  const QColor top = image.pixelColor(image.width() - 5, 5);
  const QColor bottom = image.pixelColor(image.width() - 5, image.height() - 5);
  EXPECT_GT(top.lightness(), 150);
  EXPECT_GT(bottom.lightness(), top.lightness());
  EXPECT_EQ(qAlpha(image.pixel(10, 10)), 255);
}

TEST_F(ViewportWidgetTest, MouseDragRotatesTheCamera) {
  const auto before = viewport_.cameraPosition();
  const QPoint centre = viewport_.rect().center();
  QTest::mousePress(&viewport_, Qt::LeftButton, Qt::NoModifier, centre);
  for (int step = 1; step <= 10; ++step) {
    QTest::mouseMove(&viewport_, centre + QPoint(12 * step, 4 * step));
  }
  QTest::mouseRelease(&viewport_, Qt::LeftButton, Qt::NoModifier, centre + QPoint(120, 40));
  const auto after = viewport_.cameraPosition();
  EXPECT_GT(distance(before, after), 0.05);
  test::saveScreenshot(viewport_.grabFramebuffer(), "viewport_after_drag");
}

TEST_F(ViewportWidgetTest, WheelZoomsIn) {
  const auto before = viewport_.cameraPosition();
  const QPoint centre = viewport_.rect().center();
  QWheelEvent wheel(centre, viewport_.mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(&viewport_, &wheel);
  EXPECT_GT(distance(before, viewport_.cameraPosition()), 1e-3);
}

TEST_F(ViewportWidgetTest, ViewDirectionsPlaceTheCamera) {
  // unit vector from the focal point to the camera for each view; z is up
  const std::vector<std::pair<ViewDirection, std::array<double, 3>>> expected = {
      {ViewDirection::Top, {0.0, 0.0, 1.0}},
      {ViewDirection::Front, {0.0, -1.0, 0.0}},
      {ViewDirection::Side, {1.0, 0.0, 0.0}},
  };
  for (const auto& [direction, towards_camera] : expected) {
    viewport_.setViewDirection(direction);
    const auto position = viewport_.cameraPosition();
    const auto focal_point = viewport_.cameraFocalPoint();
    const double length = distance(position, focal_point);
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR((position[axis] - focal_point[axis]) / length, towards_camera[axis], 1e-9);
    }
    EXPECT_GT(test::countRodPixels(viewport_.grabFramebuffer()), 1000);
  }
}

TEST_F(ViewportWidgetTest, FitViewKeepsTheRobotInView) {
  viewport_.setViewDirection(ViewDirection::Side);
  for (int i = 0; i < 5; ++i) {
    QWheelEvent wheel(QPointF(320, 240), QPointF(320, 240), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&viewport_, &wheel);
  }
  const int zoomed_out = test::countRodPixels(viewport_.grabFramebuffer());
  viewport_.fitView();
  const int fitted = test::countRodPixels(viewport_.grabFramebuffer());
  EXPECT_GT(fitted, 2 * zoomed_out);
}

TEST_F(ViewportWidgetTest, MovingPointsDoesNotRebuildActors) {
  const int rebuilds = viewport_.sceneRebuildCount();
  viewport_.showFrame(test::makeCurvedRodFrame(0.05));
  EXPECT_EQ(viewport_.sceneRebuildCount(), rebuilds);
  auto changed = std::make_shared<Frame>(*test::makeCurvedRodFrame());
  changed->rods.front().points.pop_back();
  changed->rods.front().radii.pop_back();
  changed->rods.front().orientations.pop_back();
  viewport_.showFrame(changed);
  EXPECT_EQ(viewport_.sceneRebuildCount(), rebuilds + 1);
  EXPECT_GT(test::countRodPixels(viewport_.grabFramebuffer()), 3000);
}

// the scene is rendered again only when a frame, the camera or the size changed, once, in the next
// turn of the event loop (or at once for grabFramebuffer); a repaint draws the picture it has
TEST_F(ViewportWidgetTest, RendersOnlyWhenSomethingChanged) {
  const QImage first = viewport_.grabFramebuffer();
  const int renders = viewport_.renderCount();
  EXPECT_EQ(viewport_.grabFramebuffer(), first);
  viewport_.repaint();
  QCoreApplication::processEvents();
  EXPECT_EQ(viewport_.renderCount(), renders);

  viewport_.showFrame(test::makeCurvedRodFrame(0.05));
  EXPECT_NE(viewport_.grabFramebuffer(), first);
  EXPECT_EQ(viewport_.renderCount(), renders + 1);
  QCoreApplication::processEvents();
  EXPECT_EQ(viewport_.renderCount(), renders + 1);

  // three changes in one turn: one render, in the next turn; a repaint meanwhile does not render
  viewport_.setViewDirection(ViewDirection::Top);
  viewport_.showFrame(test::makeCurvedRodFrame(0.1));
  viewport_.setHighlightedLink(0);
  viewport_.repaint();
  EXPECT_EQ(viewport_.renderCount(), renders + 1);
  QCoreApplication::processEvents();
  EXPECT_EQ(viewport_.renderCount(), renders + 2);
  (void)viewport_.grabFramebuffer();
  EXPECT_EQ(viewport_.renderCount(), renders + 2);
}

TEST_F(ViewportWidgetTest, ClearingShowsNoRod) {
  viewport_.showFrame(nullptr);
  EXPECT_EQ(test::countRodPixels(viewport_.grabFramebuffer()), 0);
}

TEST_F(ViewportWidgetTest, SaveScreenshotWritesAPng) {
  const QTemporaryDir directory;
  const QString path = directory.filePath("shot.png");
  ASSERT_TRUE(viewport_.saveScreenshot(path));
  EXPECT_GT(QFileInfo(path).size(), 1000);
  const QImage image(path);
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(test::countRodPixels(image), 3000);
}

TEST(ViewportWidgetContext, SurvivesMovingToAnotherWindow) {
  // the view keeps rendering when it moves to another top-level window
  QWidget first_window;
  first_window.resize(400, 300);
  auto* viewport = new ViewportWidget(&first_window);
  viewport->resize(400, 300);
  ASSERT_TRUE(test::showAndWait(&first_window));
  viewport->showFrame(test::makeCurvedRodFrame());
  EXPECT_GT(test::countRodPixels(viewport->grabFramebuffer()), 1000);

  QWidget second_window;
  second_window.resize(400, 300);
  viewport->setParent(&second_window);
  viewport->show();
  ASSERT_TRUE(test::showAndWait(&second_window));
  EXPECT_GT(test::countRodPixels(viewport->grabFramebuffer()), 1000);
}

TEST(ViewportWidgetStatic, ReportsVtkVersion) {
  EXPECT_TRUE(ViewportWidget::vtkVersion().startsWith("9."));
  const QSurfaceFormat format = ViewportWidget::defaultSurfaceFormat();
  EXPECT_EQ(format.profile(), QSurfaceFormat::CoreProfile);
  EXPECT_GE(format.majorVersion() * 10 + format.minorVersion(), 32);
}

}  // namespace
}  // namespace tendril
