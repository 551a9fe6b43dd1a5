// GUI tests of the replay tools and the simulation settings: single steps, loop and speed of the
// timeline, the PNG-sequence export, the plots' cursor, zoom and CSV/PNG export, and the
// Simulate > Settings dialog.

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "ui/export_settings.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/replay_exporter.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_dialog.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

TEST(TimelineReplay, StepButtonsMoveOneFrame) {
  TimelineBar bar;
  bar.setFrameCount(10);
  QSignalSpy requested(&bar, &TimelineBar::frameRequested);
  auto* forward = bar.findChild<QToolButton*>("stepForwardButton");
  auto* back = bar.findChild<QToolButton*>("stepBackButton");
  ASSERT_NE(forward, nullptr);
  ASSERT_NE(back, nullptr);
  forward->click();
  forward->click();
  EXPECT_EQ(bar.currentFrame(), 2);
  back->click();
  EXPECT_EQ(bar.currentFrame(), 1);
  ASSERT_EQ(requested.count(), 3);
  EXPECT_EQ(requested.back().front().toInt(), 1);
  back->click();
  back->click();  // stays at the first frame
  EXPECT_EQ(bar.currentFrame(), 0);
}

TEST(TimelineReplay, LoopStartsAgainAndSpeedScalesPlayback) {
  TimelineBar bar;
  bar.setFrameCount(20);
  bar.setFrameInterval(0.01);  // 20 frames = 0.2 s
  bar.setSpeed(10.0);
  EXPECT_DOUBLE_EQ(bar.speed(), 10.0);
  bar.setSpeed(0.1);
  EXPECT_DOUBLE_EQ(bar.speed(), 0.1);

  // at 0.1x, 0.2 s of frames take 2 s: after 0.3 s it is still near the start
  bar.setPlaying(true);
  QTest::qWait(300);
  EXPECT_TRUE(bar.isPlaying());
  EXPECT_LE(bar.currentFrame(), 6);
  bar.setPlaying(false);

  bar.setSpeed(2.0);
  bar.setLooping(true);
  bar.setCurrentFrame(0);
  QSignalSpy requested(&bar, &TimelineBar::frameRequested);
  bar.setPlaying(true);
  // wraps around: a request for an earlier frame than the one before, while still playing
  const bool wrapped = QTest::qWaitFor(
      [&] {
        for (int i = 1; i < requested.count(); ++i) {
          if (requested[i].front().toInt() < requested[i - 1].front().toInt()) return true;
        }
        return false;
      },
      3000);
  EXPECT_TRUE(wrapped);
  EXPECT_TRUE(bar.isPlaying());
  bar.setPlaying(false);
}

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(temp_.isValid());
    ASSERT_TRUE(test::showAndWait(&window_));
    ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
    SimulationOptions options = window_.simulationOptions();
    options.t_end = 0.3;
    options.output_interval = 0.02;
    window_.setSimulationOptions(options);
    QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
    ASSERT_TRUE(window_.runSimulation());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000));
    ASSERT_TRUE(finished.first().at(1).toBool()) << finished.first().at(0).toString().toStdString();
  }

  ReplayExporter& exporter() { return *window_.replayExporter(); }

  static constexpr QSize kSize{320, 240};
  QTemporaryDir temp_;
  MainWindow window_;
};

TEST_F(ReplayTest, ExportsEveryRecordedFrameAsAPng) {
  const int frames = window_.timeline()->frameCount();
  ASSERT_EQ(frames, 16);
  window_.showRecordedFrame(5);
  const QString directory = temp_.filePath("replay");
  EXPECT_EQ(exporter().exportPngSequence(directory, kSize), frames);
  const QStringList images = QDir(directory).entryList({"frame_*.png"}, QDir::Files, QDir::Name);
  ASSERT_EQ(images.size(), frames);
  EXPECT_EQ(images.front(), "frame_00000.png");
  const QImage first(QDir(directory).filePath(images.front()));
  const QImage last(QDir(directory).filePath(images.back()));
  EXPECT_FALSE(first.isNull());
  EXPECT_EQ(first.size(), kSize);  // the size asked for, not the viewport's
  EXPECT_GT(test::countDifferentPixels(first, last), 200);  // the rod moved
  EXPECT_EQ(window_.timeline()->currentFrame(), 5);         // back where it was
}

/// Watches for \p window's visible progress dialog named \p name while an export runs (its
/// setValue() runs the event loop, so timers fire), and presses its Cancel once it has reached
/// \p cancel_at (never when negative).
class ProgressWatcher {
 public:
  ProgressWatcher(const QWidget& window, const char* name, int cancel_at) {
    timer_.setInterval(2);
    QObject::connect(&timer_, &QTimer::timeout, [this, &window, name, cancel_at] {
      for (auto* dialog : window.findChildren<QProgressDialog*>(name)) {
        if (!dialog->isVisible()) continue;
        seen_ = true;
        highest_ = std::max(highest_, dialog->value());
        if (cancel_at >= 0 && dialog->value() >= cancel_at && !cancelled_) {
          cancelled_ = true;
          auto* button = dialog->findChild<QPushButton*>();
          if (button != nullptr) QTest::mouseClick(button, Qt::LeftButton);
        }
      }
    });
    timer_.start();
  }
  bool seen() const { return seen_; }
  bool cancelled() const { return cancelled_; }
  int highest() const { return highest_; }

 private:
  QTimer timer_;
  bool seen_ = false;
  bool cancelled_ = false;
  int highest_ = -1;
};

bool anyVisibleProgressDialog(const QWidget& window) {
  const QList<QProgressDialog*> dialogs = window.findChildren<QProgressDialog*>();
  return std::any_of(dialogs.begin(), dialogs.end(),
                     [](const QProgressDialog* dialog) { return dialog->isVisible(); });
}

TEST_F(ReplayTest, PngExportShowsProgressAndCancelStopsItWithTheUiUsable) {
  const int frames = window_.timeline()->frameCount();
  window_.showRecordedFrame(2);
  {
    const ProgressWatcher watcher(window_, "exportProgressDialog", -1);
    EXPECT_EQ(exporter().exportPngSequence(temp_.filePath("all"), kSize), frames);
    EXPECT_TRUE(watcher.seen());
    EXPECT_GE(watcher.highest(), frames / 2);  // updated frame by frame
  }
  EXPECT_FALSE(exporter().cancelled());
  EXPECT_FALSE(anyVisibleProgressDialog(window_));

  // Cancel once four frames are written: fewer files, and the window works again
  const QString directory = temp_.filePath("cancelled");
  int written = 0;
  {
    const ProgressWatcher watcher(window_, "exportProgressDialog", 4);
    written = exporter().exportPngSequence(directory, kSize);
    EXPECT_TRUE(watcher.cancelled());
  }
  EXPECT_TRUE(exporter().cancelled());
  EXPECT_GE(written, 4);
  EXPECT_LT(written, frames);
  EXPECT_EQ(QDir(directory).entryList({"frame_*.png"}, QDir::Files).size(), written);
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(
      QString("%1 of %2 frames").arg(written).arg(frames)))
      << window_.statusBar()->currentMessage().toStdString();
  test::saveScreenshot(test::grabWindow(window_), "replay_export_cancelled");
  EXPECT_FALSE(anyVisibleProgressDialog(window_));
  EXPECT_EQ(QApplication::activeModalWidget(), nullptr);
  EXPECT_EQ(window_.timeline()->currentFrame(), 2);  // back where it was
  EXPECT_TRUE(window_.runAction()->isEnabled());
  EXPECT_EQ(exporter().exportPngSequence(temp_.filePath("again"), kSize), frames);
}

TEST_F(ReplayTest, ExportsAVideoWhenFfmpegIsInstalled) {
  auto* action = window_.findChild<QAction*>("exportVideoAction");
  ASSERT_NE(action, nullptr);
  EXPECT_EQ(action->isEnabled(), !ReplayExporter::ffmpegPath().isEmpty());
  if (ReplayExporter::ffmpegPath().isEmpty()) {
    EXPECT_FALSE(exporter().exportVideo(temp_.filePath("replay.mp4"), {}));
    EXPECT_TRUE(exporter().lastError().contains("ffmpeg"));
    GTEST_SKIP() << "ffmpeg is not installed";
  }
  const QString path = temp_.filePath("replay.mp4");
  ASSERT_TRUE(exporter().exportVideo(path, {})) << exporter().lastError().toStdString();
  EXPECT_GT(QFileInfo(path).size(), 1000);
  EXPECT_FALSE(anyVisibleProgressDialog(window_));

  // Cancel as soon as ffmpeg has been started: it is killed, and no video is left
  const QString cancelled = temp_.filePath("cancelled.mp4");
  {
    const ProgressWatcher watcher(window_, "encodeProgressDialog", 0);
    EXPECT_FALSE(exporter().exportVideo(cancelled, {}));
    EXPECT_TRUE(watcher.cancelled());
  }
  EXPECT_TRUE(exporter().cancelled());
  EXPECT_FALSE(QFileInfo::exists(cancelled));
  EXPECT_FALSE(anyVisibleProgressDialog(window_));
  EXPECT_EQ(QApplication::activeModalWidget(), nullptr);
}

// a probe of an encoded video: frames, width and height (ffprobe ships with ffmpeg)
struct VideoProbe {
  int frames = 0, width = 0, height = 0;
};

std::optional<VideoProbe> probeVideo(const QString& path) {
  const QString ffprobe = QStandardPaths::findExecutable("ffprobe");
  if (ffprobe.isEmpty()) return std::nullopt;
  QProcess probe;
  probe.start(ffprobe, {"-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                        "stream=nb_read_frames,width,height", "-of", "csv=p=0", path});
  if (!probe.waitForFinished(30000)) return std::nullopt;
  const QStringList fields =
      QString::fromLatin1(probe.readAllStandardOutput()).trimmed().split(',');
  if (fields.size() != 3) return std::nullopt;
  return VideoProbe{fields[2].toInt(), fields[0].toInt(), fields[1].toInt()};
}

TEST(VideoScheduleTest, RealTimeShowsTheLastRecordedFrameAtEveryVideoInstant) {
  std::vector<double> times;
  for (int i = 0; i <= 15; ++i) times.push_back(0.02 * i);  // 0 .. 0.3 s
  // 30 frames/s in real time: t = k/30 for k = 0..9, shown as the frame at floor(t / 0.02)
  EXPECT_EQ(videoFrameSchedule(times, 30.0, 1.0),
            (std::vector<int>{0, 1, 3, 5, 6, 8, 10, 11, 13, 15}));
  // half speed: twice the frames, the run lasts 0.6 s
  EXPECT_EQ(videoFrameSchedule(times, 30.0, 0.5).size(), 19u);
  // a recording sparser than the video repeats frames, a denser one skips them
  EXPECT_EQ(videoFrameSchedule({0.0, 1.0}, 4.0, 1.0), (std::vector<int>{0, 0, 0, 0, 1}));
  EXPECT_EQ(videoFrameSchedule({0.0, 0.1, 0.2, 0.3, 0.4}, 5.0, 1.0), (std::vector<int>{0, 2, 4}));
  EXPECT_TRUE(videoFrameSchedule({}, 30.0, 1.0).empty());
}

TEST_F(ReplayTest, ExportSettingsSayWhatTheVideoWillBeAndAreRemembered) {
  ExportSettings initial;
  initial.size = QSize(640, 360);
  ExportSettingsDialog dialog(ExportSettingsDialog::Kind::Video, initial, 0.3, &window_);
  EXPECT_EQ(dialog.summary(), "The 0.3 s run plays for 0.3 s: 10 frames.");
  auto* speed = dialog.findChild<QDoubleSpinBox*>("exportPlaybackSpeed");
  auto* width = dialog.findChild<QSpinBox*>("exportWidth");
  ASSERT_NE(speed, nullptr);
  ASSERT_NE(width, nullptr);
  speed->setValue(0.5);
  width->setValue(1920);
  EXPECT_EQ(dialog.summary(), "The 0.3 s run plays for 0.6 s: 19 frames.");
  test::saveScreenshot(dialog.grab().toImage(), "export_settings_dialog");
  const ExportSettings chosen = dialog.settings();
  EXPECT_EQ(chosen.size, QSize(1920, 360));
  EXPECT_EQ(chosen.playback_speed, 0.5);
  chosen.remember();
  const ExportSettings again = ExportSettings::remembered();
  EXPECT_EQ(again.size, chosen.size);
  EXPECT_EQ(again.playback_speed, 0.5);
  EXPECT_EQ(again.frames_per_second, 30.0);
}

TEST_F(ReplayTest, PicturesAndPlotsExportAtTheChosenSize) {
  ViewportWidget* viewport = window_.viewport();
  const QSize on_screen = viewport->grabFramebuffer().size();
  const QImage large = viewport->renderImageAt(QSize(900, 500));
  EXPECT_EQ(large.size(), QSize(900, 500));
  EXPECT_NE(on_screen, QSize(900, 500));
  EXPECT_GT(test::countDifferentPixels(large, QImage(large.size(), large.format())), 10000);
  EXPECT_EQ(viewport->grabFramebuffer().size(), on_screen);  // the view itself is unchanged

  const QSizeF chart_on_screen = window_.plotPanel()->chart()->size();
  const QString png = temp_.filePath("plot_large.png");
  ASSERT_TRUE(window_.plotPanel()->exportPng(png, QSize(1200, 700)));
  const QImage plot(png);
  EXPECT_EQ(plot.size(), QSize(1200, 700));
  test::saveScreenshot(plot, "plot_export_1200x700");
  EXPECT_EQ(window_.plotPanel()->chart()->size(), chart_on_screen);  // laid out as before
}

TEST_F(ReplayTest, VideosPlayInRealTimeAtTheChosenSizeAndRate) {
  if (ReplayExporter::ffmpegPath().isEmpty()) GTEST_SKIP() << "ffmpeg is not installed";
  ExportSettings settings;  // the defaults: 30 frames/s, real time
  settings.size = QSize(322, 240);
  const QString path = temp_.filePath("real_time.mp4");
  ASSERT_TRUE(exporter().exportVideo(path, settings)) << exporter().lastError().toStdString();
  EXPECT_EQ(exporter().lastVideoFrames(), 10);  // 0.3 s at 30 frames/s, both ends
  const std::optional<VideoProbe> probe = probeVideo(path);
  if (!probe) GTEST_SKIP() << "ffprobe could not read the video";
  EXPECT_EQ(probe->frames, 10);
  EXPECT_EQ(probe->width, 322);
  EXPECT_EQ(probe->height, 240);

  settings.playback_speed = 0.25;  // slow motion: four times the frames
  ASSERT_TRUE(exporter().exportVideo(path, settings)) << exporter().lastError().toStdString();
  EXPECT_EQ(probeVideo(path)->frames, 37);
}

TEST_F(ReplayTest, RecordingsAreSavedAndReopened) {
  std::vector<FramePtr> recorded;
  for (int i = 0; i < window_.timeline()->frameCount(); ++i) {
    recorded.push_back(window_.simulation()->frameAt(static_cast<std::size_t>(i)));
  }
  const QString path = temp_.filePath("recording.csv");
  ASSERT_TRUE(window_.saveRecording(path)) << window_.lastError().toStdString();

  // another model leaves the recording stale; opening the file replaces it with the one read
  ASSERT_TRUE(window_.openDefaultExample());
  ASSERT_TRUE(window_.resultsAreStale());
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  EXPECT_FALSE(window_.resultsAreStale());  // the same description that computed them
  ASSERT_TRUE(window_.openRecording(path)) << window_.lastError().toStdString();
  ASSERT_EQ(window_.simulation()->frameCount(), recorded.size());
  EXPECT_EQ(window_.timeline()->frameCount(), static_cast<int>(recorded.size()));
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    const FramePtr frame = window_.simulation()->frameAt(i);
    EXPECT_DOUBLE_EQ(frame->t, recorded[i]->t);
    EXPECT_LT((frame->q - recorded[i]->q).norm(), 1e-12) << i;
    EXPECT_LT((frame->rods[0].points.back() - recorded[i]->rods[0].points.back()).norm(), 1e-12);
  }
  EXPECT_EQ(window_.plotPanel()->pointCount(0), static_cast<int>(recorded.size()));
  window_.timeline()->findChild<QSlider*>()->setValue(10);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(10));
  EXPECT_DOUBLE_EQ(window_.plotPanel()->cursorTime(), recorded[10]->t);

  // a recording of another model does not fit, and the results shown stay
  ASSERT_TRUE(window_.openDefaultExample());
  EXPECT_FALSE(window_.openRecording(path));
  EXPECT_TRUE(window_.lastError().contains("no column")) << window_.lastError().toStdString();
  EXPECT_EQ(window_.simulation()->frameCount(), recorded.size());
  EXPECT_TRUE(window_.resultsAreStale());
}

TEST_F(ReplayTest, LaterRunsPlotTheirTipErrorAgainstAReference) {
  ASSERT_TRUE(window_.useRunAsReference());
  auto rerun = [this] {
    QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
    ASSERT_TRUE(window_.runSimulation());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000));
  };
  // log10 of the largest error [m], as drawn
  auto largestError = [this] {
    double largest = -100.0;
    for (const QPointF& point : window_.tipErrorPlot()->drawnPoints(window_.tipErrorSeries()))
      largest = std::max(largest, point.y());
    return largest;
  };
  // the same run again: no error
  rerun();
  ASSERT_GE(window_.tipErrorSeries(), 0);
  EXPECT_EQ(window_.tipErrorPlot()->pointCount(window_.tipErrorSeries()),
            window_.timeline()->frameCount());
  EXPECT_LT(largestError(), -9.0);
  // the error has an axis of its own: the tip position plot holds x, y, z only
  EXPECT_EQ(window_.plotPanel()->seriesCount(), 3);
  // half the gravity: the tip sags less, and the plot says by how much
  ASSERT_TRUE(window_.setField("/gravity", "0, 0, -4.9"));
  rerun();
  EXPECT_GT(largestError(), -3.0);
  test::saveScreenshot(test::grabWindow(*window_.tipErrorPlot()), "plot_tip_error_vs_reference");
  window_.clearReference();
  rerun();
  EXPECT_EQ(window_.tipErrorSeries(), -1);
}

TEST_F(ReplayTest, CameraFollowsTheSelectedRodTip) {
  window_.select("/links/0");
  window_.followAction()->setChecked(true);
  for (int frame : {15, 0, 8}) {
    window_.showRecordedFrame(frame);
    const Eigen::Vector3d tip = window_.viewport()->currentFrame()->rods.front().points.back();
    const std::array<double, 3> focal = window_.viewport()->cameraFocalPoint();
    EXPECT_NEAR(focal[0], tip.x(), 1e-9) << frame;
    EXPECT_NEAR(focal[1], tip.y(), 1e-9) << frame;
    EXPECT_NEAR(focal[2], tip.z(), 1e-9) << frame;
  }
  window_.followAction()->setChecked(false);
  const std::array<double, 3> kept = window_.viewport()->cameraFocalPoint();
  window_.showRecordedFrame(15);
  EXPECT_EQ(window_.viewport()->cameraFocalPoint(), kept);  // no longer following
}

// the colour scale is the shown model's: opening another one starts it again from that model's
// frames, not from the largest value the previous model reached
TEST_F(ReplayTest, OpeningAnotherModelStartsANewColourScale) {
  auto* curvature = window_.findChild<QAction*>("curvatureColourAction");
  ASSERT_NE(curvature, nullptr);
  curvature->setChecked(true);
  window_.showRecordedFrame(15);
  const double bent_top = window_.viewport()->colourScaleTop();
  EXPECT_GT(bent_top, 0.1);  // [1/m]: the cantilever sags under its weight

  ASSERT_TRUE(window_.openFile(test::examplePath("tapered_free_fall.json")));
  EXPECT_EQ(window_.viewport()->rodColouring(), RodQuantity::Curvature);
  double shown_top = 0.0;  // the largest |curvature| of the frame now shown
  for (const RodShape& rod : window_.viewport()->currentFrame()->rods) {
    for (const auto& values : rod.interval_values) {
      shown_top = std::max(shown_top, std::abs(values[static_cast<int>(RodQuantity::Curvature)]));
    }
  }
  EXPECT_EQ(window_.viewport()->colourScaleTop(), shown_top);
  EXPECT_LT(window_.viewport()->colourScaleTop(), 1e-3 * bent_top);
}

TEST_F(ReplayTest, RodsCanBeColouredByStrainOrInternalForce) {
  window_.showRecordedFrame(15);
  const QImage plain = window_.viewport()->grabFramebuffer();
  auto* curvature = window_.findChild<QAction*>("curvatureColourAction");
  auto* moment = window_.findChild<QAction*>("bendingMomentColourAction");
  auto* force = window_.findChild<QAction*>("axialForceColourAction");
  ASSERT_TRUE(curvature && moment && force);
  EXPECT_FALSE(window_.viewport()->showsColourLegend());
  curvature->setChecked(true);
  EXPECT_EQ(window_.viewport()->rodColouring(), RodQuantity::Curvature);
  EXPECT_TRUE(window_.viewport()->showsColourLegend());
  const QImage coloured = window_.viewport()->grabFramebuffer();
  test::saveScreenshot(coloured, "viewport_curvature_colour_map");
  EXPECT_LT(test::countRodPixels(coloured), test::countRodPixels(plain) / 2);
  EXPECT_GT(test::countDifferentPixels(plain, coloured), 1000);

  // one at a time: the moment replaces the curvature (the taper moves the map's red end)
  moment->setChecked(true);
  EXPECT_FALSE(curvature->isChecked());
  EXPECT_EQ(window_.viewport()->rodColouring(), RodQuantity::BendingMoment);
  const QImage by_moment = window_.viewport()->grabFramebuffer();
  test::saveScreenshot(by_moment, "viewport_bending_moment_colour_map");
  EXPECT_GT(test::countDifferentPixels(coloured, by_moment), 100);
  force->setChecked(true);
  EXPECT_EQ(window_.viewport()->rodColouring(), RodQuantity::AxialForce);

  force->setChecked(false);  // unchecking the checked one: plain again, legend gone
  EXPECT_EQ(window_.viewport()->rodColouring(), std::nullopt);
  EXPECT_FALSE(window_.viewport()->showsColourLegend());
  EXPECT_LT(test::countDifferentPixels(plain, window_.viewport()->grabFramebuffer()), 50);
}

TEST_F(ReplayTest, PlotsExportCsvAndPngAndZoom) {
  PlotPanel* plot = window_.plotPanel();
  const QString csv = temp_.filePath("plot.csv");
  ASSERT_TRUE(plot->exportCsv(csv));
  QFile file(csv);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
  ASSERT_EQ(lines.size(), 1 + window_.timeline()->frameCount());
  EXPECT_TRUE(lines.front().startsWith("t,\"tip x [m]\""));
  EXPECT_EQ(lines[1].split(',').size(), 1 + plot->seriesCount());
  EXPECT_TRUE(lines[1].startsWith("0,"));

  const QString png = temp_.filePath("plot.png");
  ASSERT_TRUE(plot->exportPng(png));
  EXPECT_FALSE(QImage(png).isNull());

  // the wheel zooms in, a double-click fits everything again
  auto* time_axis = qobject_cast<QValueAxis*>(plot->chart()->axes(Qt::Horizontal).value(0));
  ASSERT_NE(time_axis, nullptr);
  const double full_span = time_axis->max() - time_axis->min();
  const QPointF centre = plot->rect().center();
  QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(plot->viewport(), &wheel);
  EXPECT_LT(time_axis->max() - time_axis->min(), 0.9 * full_span);
  QTest::mouseDClick(plot->viewport(), Qt::LeftButton, {}, centre.toPoint());
  EXPECT_NEAR(time_axis->max() - time_axis->min(), full_span, 1e-9);
  test::saveScreenshot(test::grabWindow(*plot), "plot_with_cursor");
}

TEST(StaticsRun, SolvesOnAWorkerThreadShowsTheEquilibriumAndPlotsTheResidual) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openFile(test::examplePath("soft_cantilever.json")));
  const QImage rest = window.viewport()->grabFramebuffer();
  window.setAnalysis(Analysis::Statics);
  window.runAction()->trigger();
  EXPECT_FALSE(window.runAction()->isEnabled());  // one computation at a time
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isStaticsRunning(); }, 30000));
  EXPECT_TRUE(window.runAction()->isEnabled());
  EXPECT_TRUE(window.statusBar()->currentMessage().startsWith("Statics converged"))
      << window.statusBar()->currentMessage().toStdString();
  const FramePtr equilibrium = window.viewport()->currentFrame();
  ASSERT_NE(equilibrium, nullptr);
  EXPECT_GT(equilibrium->q.norm(), 1e-3);  // the rod sagged under gravity
  EXPECT_GT(test::countDifferentPixels(rest, window.viewport()->grabFramebuffer()), 500);
  ASSERT_EQ(window.plotPanel()->seriesCount(), 1);
  EXPECT_GE(window.plotPanel()->pointCount(0), 1);
  test::saveScreenshot(test::grabWindow(window), "statics_solved_window");
}

// the fin-ray finger's statics with the difference Jacobian takes ~0.1 s: Cancel right after Run
// stops it before its first Newton iteration, and the window is usable again at once
TEST(StaticsRun, CancelStopsTheSolveAndLeavesTheWindowUsable) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openFile(test::examplePath("finray_finger.json")));
  SimulationOptions options = window.simulationOptions();
  options.jacobian = JacobianKind::FiniteDifference;
  window.setSimulationOptions(options);
  window.setAnalysis(Analysis::Statics);
  window.runAction()->trigger();
  ASSERT_TRUE(window.isStaticsRunning());
  EXPECT_TRUE(window.cancelAction()->isEnabled());
  window.cancelAction()->trigger();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isStaticsRunning(); }, 10000));
  EXPECT_TRUE(window.statusBar()->currentMessage().startsWith("Statics cancelled"))
      << window.statusBar()->currentMessage().toStdString();
  EXPECT_EQ(test::visibleErrorBox(window), nullptr);  // a cancel is not an error
  EXPECT_TRUE(window.runAction()->isEnabled());
  EXPECT_FALSE(window.cancelAction()->isEnabled());
  window.runAction()->trigger();  // and runs again, to convergence
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isStaticsRunning(); }, 30000));
  EXPECT_TRUE(window.statusBar()->currentMessage().startsWith("Statics converged"))
      << window.statusBar()->currentMessage().toStdString();
}

// the tool bar's selector beside Run says what Run does, and agrees with Simulate > Settings
TEST(AnalysisSelector, ChoosesWhatRunComputesAndFollowsTheSettings) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openFile(test::examplePath("soft_cantilever.json")));
  SimulationOptions options = window.simulationOptions();
  options.t_end = 0.1;
  options.output_interval = 0.02;
  window.setSimulationOptions(options);
  auto* combo = window.findChild<QComboBox*>("analysisCombo");
  ASSERT_NE(combo, nullptr);
  auto* bar = window.findChild<QToolBar*>("mainToolBar");
  ASSERT_NE(bar, nullptr);
  auto* run = qobject_cast<QToolButton*>(bar->widgetForAction(window.runAction()));
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(combo->currentText(), "Dynamics");
  EXPECT_EQ(window.analysis(), Analysis::Dynamics);

  // Statics: Run solves the equilibrium, one frame and the residual plot
  QTest::keyClick(combo, Qt::Key_Down);
  EXPECT_EQ(combo->currentText(), "Statics");
  EXPECT_EQ(window.analysis(), Analysis::Statics);
  test::saveScreenshot(test::grabWindow(*bar), "toolbar_analysis_selector");
  QTest::mouseClick(run, Qt::LeftButton);
  ASSERT_TRUE(window.isStaticsRunning());
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isStaticsRunning(); }, 30000));
  EXPECT_TRUE(window.statusBar()->currentMessage().startsWith("Statics converged"))
      << window.statusBar()->currentMessage().toStdString();
  EXPECT_EQ(window.timeline()->frameCount(), 1);
  ASSERT_EQ(window.plotPanel()->seriesCount(), 1);
  EXPECT_TRUE(window.plotPanel()->chart()->series().front()->name().startsWith("statics"));

  // Dynamics: Run simulates, frame after frame
  QTest::keyClick(combo, Qt::Key_Up);
  EXPECT_EQ(window.analysis(), Analysis::Dynamics);
  QSignalSpy finished(window.simulation(), &SimulationController::runFinished);
  QTest::mouseClick(run, Qt::LeftButton);
  EXPECT_FALSE(window.isStaticsRunning());
  ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000));
  EXPECT_EQ(window.timeline()->frameCount(), 6);
  EXPECT_GT(window.plotPanel()->seriesCount(), 1);

  // Simulate > Settings opens on the selector's choice, and its choice moves the selector
  QTest::keyClick(combo, Qt::Key_Down);
  std::optional<Analysis> offered;
  QTimer::singleShot(0, &window, [&offered] {
    auto* dialog = qobject_cast<SimulationDialog*>(QApplication::activeModalWidget());
    if (dialog == nullptr) return;
    offered = dialog->analysis();
    auto* analysis = dialog->findChild<QComboBox*>("analysis");
    analysis->setCurrentIndex(analysis->findData(static_cast<int>(Analysis::Dynamics)));
    dialog->accept();
  });
  test::findAction(window, "simulationSettingsAction")->trigger();
  EXPECT_EQ(offered, Analysis::Statics);
  EXPECT_EQ(window.analysis(), Analysis::Dynamics);
  EXPECT_EQ(combo->currentText(), "Dynamics");
}

TEST(SimulationDialog, EditsEveryOptionAndRefusesInvalidOnes) {
  SimulationOptions initial;
  SimulationDialog dialog(initial);
  auto field = [&dialog](const char* name) { return dialog.findChild<QLineEdit*>(name); };
  ASSERT_NE(field("duration"), nullptr);
  field("duration")->setText("3.5");
  field("outputInterval")->setText("0.05");
  field("step")->setText("0.002");
  field("rtol")->setText("1e-5");
  field("atol")->setText("1e-9");
  auto* integrator = dialog.findChild<QComboBox*>("integrator");
  auto* jacobian = dialog.findChild<QComboBox*>("jacobian");
  integrator->setCurrentIndex(integrator->findData(static_cast<int>(IntegratorKind::Newmark)));
  jacobian->setCurrentIndex(jacobian->findData(static_cast<int>(JacobianKind::FiniteDifference)));
  EXPECT_TRUE(dialog.problem().isEmpty());
  const SimulationOptions options = dialog.options();
  EXPECT_DOUBLE_EQ(options.t_end, 3.5);
  EXPECT_DOUBLE_EQ(options.output_interval, 0.05);
  EXPECT_DOUBLE_EQ(options.step, 0.002);
  EXPECT_DOUBLE_EQ(options.relative_tolerance, 1e-5);
  EXPECT_DOUBLE_EQ(options.absolute_tolerance, 1e-9);
  EXPECT_EQ(options.integrator, IntegratorKind::Newmark);
  EXPECT_EQ(options.jacobian, JacobianKind::FiniteDifference);
  EXPECT_EQ(dialog.analysis(), Analysis::Dynamics);
  auto* analysis = dialog.findChild<QComboBox*>("analysis");
  analysis->setCurrentIndex(analysis->findData(static_cast<int>(Analysis::Statics)));
  EXPECT_EQ(dialog.analysis(), Analysis::Statics);
  EXPECT_FALSE(integrator->isEnabled());  // time stepping means nothing to statics
  analysis->setCurrentIndex(analysis->findData(static_cast<int>(Analysis::Dynamics)));

  auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
  field("duration")->setText("-1");
  EXPECT_FALSE(ok->isEnabled());
  EXPECT_TRUE(dialog.findChild<QLabel*>("problem")->text().contains("duration"));
  EXPECT_DOUBLE_EQ(dialog.options().t_end, initial.t_end);  // invalid fields change nothing
  field("duration")->setText("2");
  field("step")->setText("0");  // no maximum step is fine for BDF only
  EXPECT_FALSE(ok->isEnabled());
  integrator->setCurrentIndex(integrator->findData(static_cast<int>(IntegratorKind::Bdf)));
  EXPECT_TRUE(ok->isEnabled());
  test::saveScreenshot(test::grabWindow(dialog), "simulation_settings_dialog");
}

}  // namespace
}  // namespace tendril
