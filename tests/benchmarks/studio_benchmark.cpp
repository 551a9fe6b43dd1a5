// tendril_studio_bench: how the studio behaves on a large model, measured as a person would meet
// it (docs/PERFORMANCE.md, "Studio"). Not a test: it prints figures and never fails on them.
//
//   xvfb-run -a -s "-screen 0 1280x800x24" build/tests/benchmarks/tendril_studio_bench
//       [MODEL.json] [--frames N]     (one command line)
//
// 1. Streaming: a 10 s dynamics run at 100 output frames per second; how often the viewport
//    repaints while the worker computes, and the longest gap between 10 ms timer ticks on the GUI
//    thread (an event-loop stall).
// 2. Recording: a run with N frames (default 10,000); the resident memory it adds.
// 3. Scrubbing: the slider moved to 200 random frames of that recording; the time until the
//    viewport has drawn the frame (a synchronous render and read-back, an upper bound) and the plot
//    cursors stand at its time.

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {
namespace {

constexpr int kRunTimeoutMs = 30 * 60 * 1000;

// resident set size of this process [MiB], from /proc/self/status
double residentMiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0.0;
}

// counts the viewport's paint events
class PaintCounter : public QObject {
 public:
  int paints = 0;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Paint) ++paints;
    return QObject::eventFilter(watched, event);
  }
};

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
  return values[index];
}

bool runToEnd(MainWindow& window, const SimulationOptions& options) {
  window.setSimulationOptions(options);
  QSignalSpy finished(window.simulation(), &SimulationController::runFinished);
  window.runAction()->trigger();
  return QTest::qWaitFor([&] { return !finished.isEmpty(); }, kRunTimeoutMs);
}

void measureStreaming(MainWindow& window) {
  SimulationOptions options = window.simulationOptions();
  options.t_end = 10.0;
  options.output_interval = 0.01;
  PaintCounter counter;
  window.viewport()->installEventFilter(&counter);
  QElapsedTimer clock;
  std::vector<double> gaps;
  qint64 last_tick = 0;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    gaps.push_back(static_cast<double>(now - last_tick));
    last_tick = now;
  });
  clock.start();
  ticker.start(10);
  const bool done = runToEnd(window, options);
  ticker.stop();
  const double seconds = static_cast<double>(clock.elapsed()) / 1000.0;
  window.viewport()->removeEventFilter(&counter);
  std::printf(
      "streaming: %s, %zu frames in %.2f s wall; viewport repaints %d (%.1f per s); GUI "
      "timer gaps: median %.0f ms, 99th percentile %.0f ms, longest %.0f ms\n",
      done ? "completed" : "TIMED OUT", window.simulation()->frameCount(), seconds, counter.paints,
      counter.paints / seconds, percentile(gaps, 0.5), percentile(gaps, 0.99),
      percentile(gaps, 1.0));
}

void measureRecordingAndScrubbing(MainWindow& window, int frames) {
  SimulationOptions options = window.simulationOptions();
  options.t_end = 10.0;
  options.output_interval = options.t_end / (frames - 1);
  window.setJacobianMismatchSamples(0);
  const double before = residentMiB();
  QElapsedTimer clock;
  clock.start();
  const bool done = runToEnd(window, options);
  const double run_seconds = static_cast<double>(clock.elapsed()) / 1000.0;
  const double after = residentMiB();
  const std::size_t recorded = window.simulation()->frameCount();
  std::printf(
      "recording: %s, %zu frames in %.1f s wall; resident memory %.0f -> %.0f MiB "
      "(+%.1f MiB, %.1f KiB per frame)\n",
      done ? "completed" : "TIMED OUT", recorded, run_seconds, before, after, after - before,
      1024.0 * (after - before) / static_cast<double>(recorded));

  auto* slider = window.timeline()->findChild<QSlider*>();
  std::mt19937 random(7);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(recorded) - 1);
  std::vector<double> latencies;
  int cursor_misses = 0;
  for (int i = 0; i < 200; ++i) {
    const int frame = pick(random);
    clock.restart();
    slider->setValue(frame);
    QCoreApplication::processEvents();
    const QImage image = window.viewport()->grabFramebuffer();  // renders now
    latencies.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    const double t = window.simulation()->frameAt(static_cast<std::size_t>(frame))->t;
    if (std::abs(window.plotPanel()->cursorTime() - t) > 1e-12 || image.isNull()) ++cursor_misses;
  }
  std::printf(
      "scrubbing %zu frames: slider -> frame drawn and cursors moved: median %.1f ms, "
      "99th percentile %.1f ms, longest %.1f ms (%d of 200 misplaced cursors)\n",
      recorded, percentile(latencies, 0.5), percentile(latencies, 0.99), percentile(latencies, 1.0),
      cursor_misses);
}

}  // namespace
}  // namespace tendril

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("tendril-studio-bench");
  QCoreApplication::setApplicationName("tendril-studio-bench");
  QSettings().clear();
  QString model = QStringLiteral(TENDRIL_EXAMPLES_DIR "/underwater_robot.json");
  int frames = 10000;
  const QStringList args = QCoreApplication::arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == "--frames" && i + 1 < args.size()) {
      frames = std::max(2, args[++i].toInt());
    } else {
      model = args[i];
    }
  }
  tendril::MainWindow window;
  window.resize(1280, 800);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window) || !window.openFile(model)) {
    std::fprintf(stderr, "cannot show the window or open %s\n", qPrintable(model));
    return 1;
  }
  QTest::qWait(200);
  std::printf("model %s, window %dx%d, viewport %dx%d\n", qPrintable(model), window.width(),
              window.height(), window.viewport()->width(), window.viewport()->height());
  tendril::measureStreaming(window);
  tendril::measureRecordingAndScrubbing(window, frames);
  return 0;
}
