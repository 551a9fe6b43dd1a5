// GUI tests of Simulate > Run: the simulation thread, streamed frames, recording, plots, cancel.

#include <gtest/gtest.h>

#include <QAction>
#include <QElapsedTimer>
#include <QLegend>
#include <QMessageBox>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <vector>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

const QString kCantilever = QStringLiteral("soft_cantilever.json");

SimulationOptions longRun() {
  SimulationOptions options;
  options.t_end = 1000.0;  // far longer than any test waits: only Cancel ends it
  options.output_interval = 0.01;
  return options;
}

class SimulationRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
    ASSERT_TRUE(window_.openFile(test::examplePath(kCantilever)))
        << window_.lastError().toStdString();
  }

  /// Triggers Run and returns once the simulation thread is running.
  void run() {
    ASSERT_TRUE(window_.runAction()->isEnabled());
    window_.runAction()->trigger();
    ASSERT_TRUE(window_.simulation()->isRunning());
  }

  bool waitForFrames(std::size_t count) {
    return QTest::qWaitFor([&] { return window_.simulation()->frameCount() >= count; },
                           test::kRunTimeoutMs);
  }

  bool waitForFinish(QSignalSpy& finished) {
    return QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs);
  }

  QSlider* timelineSlider() const { return window_.timeline()->findChild<QSlider*>(); }

  /// Moves the timeline slider as a user would and returns the viewport's picture.
  QImage scrubTo(int frame) {
    timelineSlider()->setValue(frame);
    QTest::qWait(50);
    return window_.viewport()->grabFramebuffer();
  }

  MainWindow window_;
};

TEST_F(SimulationRunTest, RunRecordsPlotsAndScrubsTheCantilever) {
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  QSignalSpy frames(window_.simulation(), &SimulationController::frameAvailable);
  run();
  EXPECT_FALSE(window_.runAction()->isEnabled());
  EXPECT_TRUE(window_.cancelAction()->isEnabled());
  EXPECT_TRUE(window_.progressBar()->isVisible());
  EXPECT_TRUE(window_.progressBar()->isTextVisible());  // a percentage, not a busy sweep
  EXPECT_EQ(window_.progressBar()->maximum(), 100);
  ASSERT_TRUE(waitForFinish(finished));

  EXPECT_EQ(finished.first().at(0).toString(), "completed");
  EXPECT_TRUE(finished.first().at(1).toBool());
  EXPECT_GE(frames.count(), 1);
  EXPECT_EQ(window_.simulation()->frameCount(), 201u);  // t = 0, 0.01, ..., 2 s
  EXPECT_EQ(window_.timeline()->frameCount(), 201);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(200));
  ASSERT_EQ(window_.plotPanel()->seriesCount(), 3);  // tip x, y, z
  for (int series = 0; series < 3; ++series) {
    EXPECT_EQ(window_.plotPanel()->pointCount(series), 201) << series;
  }
  EXPECT_TRUE(window_.runAction()->isEnabled());
  EXPECT_FALSE(window_.cancelAction()->isEnabled());
  EXPECT_FALSE(window_.progressBar()->isVisible());
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains("completed"));
  test::saveScreenshot(test::grabWindow(window_), "simulation_finished_window");

  const QImage first = scrubTo(0);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(0));
  EXPECT_DOUBLE_EQ(window_.plotPanel()->cursorTime(), 0.0);
  const double cursor_at_start = window_.plotPanel()->cursorPixel();
  QElapsedTimer clock;
  clock.start();
  const QImage middle = scrubTo(100);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(100));
  // the plot cursors follow the timeline
  EXPECT_DOUBLE_EQ(window_.plotPanel()->cursorTime(), window_.simulation()->frameAt(100)->t);
  EXPECT_GT(window_.plotPanel()->cursorPixel(), cursor_at_start + 20.0);
  test::saveScreenshot(first, "simulation_frame_0");
  test::saveScreenshot(middle, "simulation_frame_100");
  test::saveScreenshot(test::grabWindow(window_), "simulation_scrubbed_to_middle_window");
  EXPECT_GT(test::countDifferentPixels(first, middle), 500);
}

// how long one scrub takes to reach the viewport and the plot cursor (no waiting in between)
TEST_F(SimulationRunTest, ScrubbingUpdatesViewAndCursorsQuickly) {
  SimulationOptions options = longRun();
  options.t_end = 2.0;
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFinish(finished));
  const int count = window_.timeline()->frameCount();
  ASSERT_EQ(count, 201);
  qint64 slowest_us = 0;
  QElapsedTimer clock;
  for (int frame : {0, 200, 50, 150, 100, 1, 199}) {
    clock.start();
    timelineSlider()->setValue(frame);
    // render both now, as the next paint would
    (void)window_.viewport()->grabFramebuffer();
    (void)window_.plotPanel()->grab();
    slowest_us = std::max(slowest_us, clock.nsecsElapsed() / 1000);
    EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(frame));
    EXPECT_DOUBLE_EQ(window_.plotPanel()->cursorTime(), window_.simulation()->frameAt(frame)->t);
  }
  std::cout << "slowest scrub (slider -> rendered viewport and plot): " << slowest_us << " us\n";
  EXPECT_LT(slowest_us, 50000);
}

TEST_F(SimulationRunTest, CancelDuringALongRunLeavesTheUiUsable) {
  window_.setSimulationOptions(longRun());
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFrames(5));
  window_.cancelAction()->trigger();
  ASSERT_TRUE(waitForFinish(finished));

  EXPECT_TRUE(finished.first().at(0).toString().startsWith("cancelled at t ="));
  EXPECT_FALSE(finished.first().at(1).toBool());
  EXPECT_EQ(test::visibleErrorBox(window_), nullptr);  // a cancel is no error
  EXPECT_TRUE(window_.runAction()->isEnabled());
  EXPECT_FALSE(window_.cancelAction()->isEnabled());
  EXPECT_FALSE(window_.progressBar()->isVisible());
  EXPECT_GE(window_.timeline()->frameCount(), 5);  // the frames are kept

  // and it runs again
  SimulationOptions short_run;
  short_run.t_end = 0.1;
  window_.setSimulationOptions(short_run);
  finished.clear();
  run();
  ASSERT_TRUE(waitForFinish(finished));
  EXPECT_TRUE(finished.first().at(1).toBool());
  EXPECT_EQ(window_.simulation()->frameCount(), 11u);
}

TEST_F(SimulationRunTest, InterfaceStaysResponsiveWhileRunning) {
  window_.setSimulationOptions(longRun());
  QElapsedTimer clock;
  qint64 last_tick = 0;
  qint64 longest_gap = 0;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    longest_gap = std::max(longest_gap, now - last_tick);
    last_tick = now;
  });
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  std::vector<qint64> deliveries_ms;  // when each frameAvailable came
  QObject::connect(window_.simulation(), &SimulationController::frameAvailable, &ticker,
                   [&] { deliveries_ms.push_back(clock.elapsed()); });
  run();
  clock.start();
  ticker.start(10);
  QTest::qWait(1500);
  ticker.stop();
  const std::size_t frames_meanwhile = window_.simulation()->frameCount();
  const qint64 window_ms = clock.elapsed();
  window_.cancelAction()->trigger();
  ASSERT_TRUE(waitForFinish(finished));

  EXPECT_GT(frames_meanwhile, 50u);  // the simulation really ran during the measurement
  EXPECT_LT(longest_gap, 200) << "the GUI thread stalled for " << longest_gap << " ms";
  // frames keep reaching the view while the run streams, at most one per kFrameIntervalMs (the
  // throttle). The 30 Hz target itself is a performance figure: tendril_studio_bench measures it
  // (docs/PERFORMANCE.md, Studio), since a timed floor here fails on a loaded machine (29/s seen
  // with a parallel build)
  ASSERT_FALSE(deliveries_ms.empty());
  const auto delivered = static_cast<double>(std::count_if(
      deliveries_ms.begin(), deliveries_ms.end(), [&](qint64 t) { return t <= window_ms; }));
  const double streamed_s = 1e-3 * static_cast<double>(window_ms - deliveries_ms.front());
  EXPECT_GE(delivered, 10.0) << delivered << " deliveries in " << streamed_s << " s of streaming";
  EXPECT_LE(delivered, streamed_s * 1000.0 / SimulationController::kFrameIntervalMs + 2.0);
  std::cout << "longest GUI stall while running: " << longest_gap << " ms; " << delivered
            << " frames delivered in " << streamed_s << " s of streaming\n";
}

TEST_F(SimulationRunTest, EveryEnergyIsPlottedWithALegend) {
  SimulationOptions options = longRun();
  options.t_end = 1.0;
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFinish(finished));

  PlotPanel* plot = window_.energyPlot();
  ASSERT_EQ(plot->seriesCount(), 5);
  const QStringList names = {"kinetic", "gravitational", "elastic", "dissipated", "total"};
  const std::array<int, 5> series = window_.energySeries();
  for (std::size_t kind = 0; kind < series.size(); ++kind) {
    const auto* line = plot->chart()->series().value(series[kind]);
    ASSERT_NE(line, nullptr) << kind;
    EXPECT_EQ(line->name(), names[static_cast<int>(kind)]);
    EXPECT_EQ(plot->pointCount(series[kind]), 101) << names[static_cast<int>(kind)].toStdString();
  }
  EXPECT_TRUE(plot->chart()->legend()->isVisible());
  // the damped rod sags: it moves, bends, loses height and dissipates
  auto largest = [plot](int s) {
    double value = 0.0;
    for (const QPointF& point : plot->points(s)) value = std::max(value, std::abs(point.y()));
    return value;
  };
  for (int kind : {0, 1, 2, 3}) {
    EXPECT_GT(largest(series[static_cast<std::size_t>(kind)]), 0.0) << kind;
  }
  test::saveScreenshot(plot->grab().toImage(), "plot_energies");
}

TEST_F(SimulationRunTest, ProgressShowsTheRemainingTime) {
  SimulationOptions options = longRun();
  options.t_end = 5000.0;  // far longer than the warm-up on any machine (~50 s simulated per s)
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  QProgressBar* bar = window_.progressBar();
  EXPECT_FALSE(bar->text().contains("left"));  // no estimate before the warm-up
  ASSERT_TRUE(QTest::qWaitFor([&] { return bar->text().contains("left"); }, 5000))
      << bar->text().toStdString();
  const QRegularExpression format(QString::fromUtf8("^\\d+ % \u2014 (\\d+ (s|min|h) ?)+ left$"));
  EXPECT_TRUE(format.match(bar->text()).hasMatch()) << bar->text().toStdString();
  test::saveScreenshot(window_.statusBar()->grab().toImage(), "progress_remaining_time");
  window_.cancelAction()->trigger();
  ASSERT_TRUE(waitForFinish(finished));
  EXPECT_FALSE(bar->isVisible());
}

TEST_F(SimulationRunTest, ScrubbingBackMidRunKeepsTheSliderWhereTheUserPutIt) {
  window_.setSimulationOptions(longRun());
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  QSignalSpy deliveries(window_.simulation(), &SimulationController::frameAvailable);
  run();
  ASSERT_TRUE(waitForFrames(20));
  QTest::qWait(100);  // the timeline has caught up
  EXPECT_EQ(window_.timeline()->currentFrame(), window_.timeline()->frameCount() - 1);

  // scrubbed back: deliveries grow the range but leave the slider and the view alone
  timelineSlider()->setValue(5);
  deliveries.clear();
  ASSERT_TRUE(QTest::qWaitFor([&] { return deliveries.count() >= 5; }, test::kRunTimeoutMs));
  EXPECT_EQ(window_.timeline()->currentFrame(), 5);
  EXPECT_GT(window_.timeline()->frameCount(), 25);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(5));
  EXPECT_DOUBLE_EQ(window_.plotPanel()->cursorTime(), window_.simulation()->frameAt(5)->t);

  // held at the end: the range grows under it, the slider stays
  timelineSlider()->setValue(timelineSlider()->maximum());
  timelineSlider()->setSliderDown(true);
  const int held_at = window_.timeline()->currentFrame();
  deliveries.clear();
  ASSERT_TRUE(QTest::qWaitFor([&] { return deliveries.count() >= 5; }, test::kRunTimeoutMs));
  EXPECT_EQ(window_.timeline()->currentFrame(), held_at);
  EXPECT_GT(window_.timeline()->frameCount(), held_at + 1);

  // released at the end again: it follows the live end
  timelineSlider()->setValue(timelineSlider()->maximum());
  timelineSlider()->setSliderDown(false);
  deliveries.clear();
  ASSERT_TRUE(QTest::qWaitFor([&] { return deliveries.count() >= 3; }, test::kRunTimeoutMs));
  EXPECT_EQ(window_.timeline()->currentFrame(), window_.timeline()->frameCount() - 1);
  EXPECT_GT(window_.timeline()->currentFrame(), held_at);
  EXPECT_EQ(window_.viewport()->currentFrame()->index,
            static_cast<std::uint64_t>(window_.timeline()->currentFrame()));
  window_.cancelAction()->trigger();
  ASSERT_TRUE(waitForFinish(finished));
}

// opening another model mid-run asks first (ui/main_window.hpp, askEditDuringRun); stopping the
// run keeps its frames, marked as results of an earlier model. Closing stops it without a word
TEST_F(SimulationRunTest, OpeningAnotherModelAsksFirstAndClosingStopsTheRun) {
  window_.setSimulationOptions(longRun());
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFrames(3));
  const auto answered = test::answerEditDuringRun("stopRunButton");
  ASSERT_TRUE(window_.openDefaultExample());
  EXPECT_TRUE(*answered);
  EXPECT_FALSE(window_.simulation()->isRunning());
  EXPECT_GE(window_.simulation()->frameCount(), 3u);  // kept, stale
  EXPECT_TRUE(window_.resultsAreStale());
  EXPECT_EQ(window_.plotPanel()->seriesCount(), 3);
  EXPECT_TRUE(window_.runAction()->isEnabled());
  EXPECT_FALSE(window_.cancelAction()->isEnabled());
  EXPECT_EQ(finished.size(), 1);  // the stopped run reported its end once

  run();
  ASSERT_TRUE(waitForFrames(3));
  QElapsedTimer clock;
  clock.start();
  EXPECT_TRUE(window_.close());
  EXPECT_LT(clock.elapsed(), 2000);
  EXPECT_FALSE(window_.simulation()->isRunning());
}

TEST_F(SimulationRunTest, DivergenceKeepsTheFramesAndSaysWhen) {
  SimulationOptions options;
  options.integrator = IntegratorKind::Rk4;
  options.step = 0.01;  // far beyond the stability limit of the stiff rod
  options.min_step = 5e-3;
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFinish(finished));

  EXPECT_FALSE(finished.first().at(1).toBool());
  const QMessageBox* box = test::visibleErrorBox(window_);
  ASSERT_NE(box, nullptr);
  // plain words and when, the engine's own one click away
  EXPECT_TRUE(box->informativeText().startsWith("The simulation stopped at t = "))
      << box->informativeText().toStdString();
  EXPECT_TRUE(box->detailedText().startsWith("diverged after t ="))
      << box->detailedText().toStdString();
  EXPECT_GT(window_.simulation()->frameCount(), 1u);  // more than the initial state
  EXPECT_EQ(window_.timeline()->frameCount(), static_cast<int>(window_.simulation()->frameCount()));
  EXPECT_TRUE(window_.runAction()->isEnabled());
}

// a solver's failure is said in plain words (no "hmin", no doubled full stop), its own words in
// the details
TEST_F(SimulationRunTest, ASolverFailureIsSaidInPlainWordsWithTheDetailsOneClickAway) {
  SimulationOptions options;
  options.relative_tolerance = 1e-10;
  options.absolute_tolerance = 1e-12;
  options.min_step = 1e-3;  // far above the steps this tolerance asks for: BDF stops at once
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  run();
  ASSERT_TRUE(waitForFinish(finished));

  QMessageBox* box = test::visibleErrorBox(window_);
  ASSERT_NE(box, nullptr);
  const QString text = box->informativeText();
  EXPECT_TRUE(text.contains("Newton iterations stopped converging")) << text.toStdString();
  EXPECT_FALSE(text.contains("hmin")) << text.toStdString();
  EXPECT_FALSE(text.contains("..")) << text.toStdString();
  EXPECT_TRUE(text.contains("The frames computed before are kept.")) << text.toStdString();
  EXPECT_TRUE(box->detailedText().contains("hmin")) << box->detailedText().toStdString();
  test::saveScreenshot(test::grabWindow(*box), "simulation_stopped_in_plain_words");
}

}  // namespace
}  // namespace tendril
