// GUI tests of the Jacobian-mismatch plot: ||J_analytic - J_fd|| / ||J_fd|| of dID/dq and dID/dv,
// sampled on the simulation thread along a run and plotted (log10) with a cursor on the timeline.

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <iostream>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/simulation_controller.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

constexpr double kMismatchTolerance = 1e-4;

class JacobianMismatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
  }

  void runToEnd(const QString& example, double duration) {
    ASSERT_TRUE(window_.openFile(test::examplePath(example))) << window_.lastError().toStdString();
    SimulationOptions options = window_.simulationOptions();
    options.t_end = duration;
    options.output_interval = 0.01;
    window_.setSimulationOptions(options);
    QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
    ASSERT_TRUE(window_.runSimulation());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
    ASSERT_TRUE(finished.first().at(1).toBool()) << finished.first().at(0).toString().toStdString();
  }

  MainWindow window_;
};

TEST_F(JacobianMismatchTest, DynamicsRunPlotsSmallMismatchesWithACursor) {
  QAction* action = test::findAction(window_, "mismatchAction");
  ASSERT_NE(action, nullptr);
  action->trigger();  // Simulate > Sample Jacobian Mismatch, off by default
  EXPECT_EQ(window_.jacobianMismatchSamples(), 50);
  runToEnd("hybrid_serial_robot.json", 1.0);

  // about 50 samples, computed on the worker, the first at frame 0
  const std::vector<JacobianMismatchSample> samples = window_.simulation()->jacobianMismatch();
  ASSERT_GE(samples.size(), 25u);
  EXPECT_LE(samples.size(), 60u);
  EXPECT_EQ(samples.front().frame, 0u);
  for (const JacobianMismatchSample& sample : samples) {
    EXPECT_LT(sample.dID_dq, kMismatchTolerance) << "t = " << sample.t;
    EXPECT_LT(sample.dID_dv, kMismatchTolerance) << "t = " << sample.t;
    EXPECT_DOUBLE_EQ(sample.t, window_.simulation()->frameAt(sample.frame)->t);
  }
  // the analytical and FD Jacobians are not the same numbers (a real comparison took place)
  EXPECT_GT(samples.back().dID_dq, 0.0);
  double worst_dq = 0.0, worst_dv = 0.0;
  for (const JacobianMismatchSample& sample : samples) {
    worst_dq = std::max(worst_dq, sample.dID_dq);
    worst_dv = std::max(worst_dv, sample.dID_dv);
  }
  std::cout << samples.size() << " mismatch samples, worst dID/dq " << worst_dq << ", dID/dv "
            << worst_dv << "\n";

  // both series hold every sample, as log10 values below log10(1e-4)
  PlotPanel* plot = window_.mismatchPlot();
  ASSERT_NE(plot, nullptr);
  EXPECT_TRUE(plot->isVisible());
  const std::array<int, 2> series = window_.mismatchSeries();
  for (int s : series) {
    ASSERT_GE(s, 0);
    EXPECT_EQ(plot->pointCount(s), static_cast<int>(samples.size()));
    for (const QPointF& point : plot->points(s)) {
      EXPECT_LT(point.y(), std::log10(kMismatchTolerance)) << "t = " << point.x();
      EXPECT_GE(point.y(), -16.0);
    }
  }

  // the cursor follows the timeline
  auto* slider = window_.timeline()->findChild<QSlider*>();
  ASSERT_NE(slider, nullptr);
  slider->setValue(0);
  QTest::qWait(50);
  EXPECT_DOUBLE_EQ(plot->cursorTime(), 0.0);
  const double cursor_at_start = plot->cursorPixel();
  const int middle = static_cast<int>(window_.simulation()->frameCount() / 2);
  slider->setValue(middle);
  QTest::qWait(50);
  EXPECT_DOUBLE_EQ(plot->cursorTime(),
                   window_.simulation()->frameAt(static_cast<std::size_t>(middle))->t);
  EXPECT_GT(plot->cursorPixel(), cursor_at_start + 20.0);
  test::saveScreenshot(test::grabWindow(window_), "jacobian_mismatch_window");
  test::saveScreenshot(test::grabWindow(*plot), "jacobian_mismatch_plot");
}

TEST_F(JacobianMismatchTest, SwitchedOffRunsSampleNothing) {
  QAction* action = test::findAction(window_, "mismatchAction");
  ASSERT_NE(action, nullptr);
  ASSERT_FALSE(action->isChecked());  // the default
  action->trigger();
  action->trigger();
  EXPECT_EQ(window_.jacobianMismatchSamples(), 0);
  runToEnd("soft_cantilever.json", 0.2);
  EXPECT_TRUE(window_.simulation()->jacobianMismatch().empty());
  EXPECT_EQ(window_.mismatchPlot()->seriesCount(), 0);
  EXPECT_EQ(window_.mismatchSeries()[0], -1);
  // the empty plot says why, and how to switch sampling on
  EXPECT_TRUE(window_.mismatchPlot()->showsPlaceholder());
  EXPECT_EQ(window_.mismatchPlot()->placeholderText(),
            "Sampling is off: Simulate > Sample Jacobian Mismatch");
  window_.findChild<QDockWidget*>("mismatchDock")->raise();
  QTest::qWait(50);
  test::saveScreenshot(test::grabWindow(*window_.mismatchPlot()), "jacobian_mismatch_sampling_off");

  // with sampling on, the next run's points replace the hint
  action->trigger();
  runToEnd("soft_cantilever.json", 0.2);
  EXPECT_GT(window_.mismatchPlot()->pointCount(window_.mismatchSeries()[0]), 0);
  EXPECT_FALSE(window_.mismatchPlot()->showsPlaceholder());
}

}  // namespace
}  // namespace tendril
