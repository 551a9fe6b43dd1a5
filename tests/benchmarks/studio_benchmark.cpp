// tendril_studio_bench: how the studio behaves on a large model, measured as a person would meet
// it (docs/PERFORMANCE.md, "Studio"). Not a test: it prints figures and never fails on them.
//
//   xvfb-run -a -s "-screen 0 1280x800x24" build/tests/benchmarks/tendril_studio_bench
//       [MODEL.json] [--frames N] [--mismatch SAMPLES] [--gaps [MS]]     (one command line)
//
// 1. Streaming: a 10 s dynamics run at 100 output frames per second, on the application's event
//    loop; how many new pictures the viewport renders per second while the worker computes (a
//    paint that only draws the last picture again does not count), and the longest gap between
//    10 ms timer ticks on the GUI thread (an event-loop stall). --mismatch sets the Jacobian
//    mismatch samples per run (Simulate > Sample Jacobian Mismatch; default: the window's).
// 2. Recording: a run with N frames (default 10,000); the resident memory it adds.
// 3. Scrubbing: the slider moved to 200 random frames of that recording; the time until the
//    viewport has rendered the frame and the plot cursors stand at its time: one pass of the event
//    loop, then grabFramebuffer(), which renders at once if the picture is still out of date.
// During 1 and 3 every event the GUI thread handles is timed (QApplication::notify, nested events
// subtracted): where its wall time goes, and how much of it it spent on the CPU rather than waiting
// for one (a wall time well above the CPU time means other threads held the cores).
// --gaps lists, for every timer gap above 50 ms (or MS) while streaming, the events the GUI thread
// handled in it (wall / CPU ms, with the events nested in each: a paint inside a delivery, say).

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMetaEnum>
#include <QSettings>
#include <QSlider>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
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

// CPU time of the calling thread [ns]
qint64 threadCpuNs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<qint64>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// times every event the GUI thread delivers, by receiver class and event type; time spent in
// events nested inside another (a paint inside the window's update request) counts for the inner
class ProfilingApplication : public QApplication {
 public:
  using QApplication::QApplication;

  struct Entry {
    qint64 wall_ns = 0, cpu_ns = 0, longest_ns = 0;
    int count = 0;
  };

  /// \brief Prints the outermost events longer than 2 ms that began in the last \p ms.
  void printEventsOfLast(qint64 ms) const {
    const qint64 from = clock_.nsecsElapsed() - ms * 1000000;
    for (const Traced& event : trace_) {
      if (event.start_ns >= from) {
        std::printf(" [%s: %.0f/%.0f ms]", event.key.c_str(),
                    static_cast<double>(event.wall_ns) / 1e6,
                    static_cast<double>(event.cpu_ns) / 1e6);
      }
    }
  }

  void startProfile() {
    entries_.clear();
    trace_.clear();
    profiling_ = true;
    clock_.start();
  }

  void stopAndPrintProfile(const char* phase) {
    profiling_ = false;
    const double wall_ms = static_cast<double>(clock_.nsecsElapsed()) / 1e6;
    std::vector<std::pair<std::string, Entry>> sorted(entries_.begin(), entries_.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.second.wall_ns > b.second.wall_ns; });
    double handled_ms = 0.0;
    for (const auto& [key, entry] : sorted) handled_ms += static_cast<double>(entry.wall_ns) / 1e6;
    std::printf("  GUI thread during %s: %.0f ms wall, %.0f ms in events (exclusive of nested):\n",
                phase, wall_ms, handled_ms);
    for (std::size_t i = 0; i < std::min<std::size_t>(sorted.size(), 10); ++i) {
      const Entry& e = sorted[i].second;
      std::printf(
          "    %-46s %5d x  %7.1f ms wall (%5.1f%%), %7.1f ms CPU, mean %5.2f, max %6.1f ms\n",
          sorted[i].first.c_str(), e.count, static_cast<double>(e.wall_ns) / 1e6,
          100.0 * static_cast<double>(e.wall_ns) / 1e6 / wall_ms,
          static_cast<double>(e.cpu_ns) / 1e6, static_cast<double>(e.wall_ns) / 1e6 / e.count,
          static_cast<double>(e.longest_ns) / 1e6);
    }
  }

  bool notify(QObject* receiver, QEvent* event) override {
    if (!profiling_ || QThread::currentThread() != thread()) {
      return QApplication::notify(receiver, event);
    }
    const std::string key = keyOf(receiver, event);  // before: the event may delete the receiver
    nested_.push_back({0, 0});
    const qint64 wall0 = clock_.nsecsElapsed();
    const qint64 cpu0 = threadCpuNs();
    const bool result = QApplication::notify(receiver, event);
    const qint64 wall = clock_.nsecsElapsed() - wall0;
    const qint64 cpu = threadCpuNs() - cpu0;
    const auto [inner_wall, inner_cpu] = nested_.back();
    nested_.pop_back();
    if (!nested_.empty()) {
      nested_.back().first += wall;
      nested_.back().second += cpu;
    }
    if (nested_.size() == 1 && wall >= kTracedNs) {
      nested_keys_ += " {" + key + " " + std::to_string(wall / 1000000) + "}";
    }
    if (nested_.empty()) {
      if (wall >= kTracedNs) {
        trace_.push_back({wall0, wall, cpu, key + nested_keys_});
      }
      nested_keys_.clear();
    }
    Entry& entry = entries_[key];
    entry.wall_ns += wall - inner_wall;
    entry.cpu_ns += cpu - inner_cpu;
    entry.longest_ns = std::max(entry.longest_ns, wall - inner_wall);
    ++entry.count;
    return result;
  }

 private:
  // "Paint tendril::ViewportWidget viewport", "Timer QTimer viewportRender", ...
  static std::string keyOf(QObject* receiver, QEvent* event) {
    const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type());
    std::string key = type != nullptr ? type : "event " + std::to_string(event->type());
    key += ' ';
    key += receiver->metaObject()->className();
    if (const QString name = receiver->objectName(); !name.isEmpty()) {
      key += ' ';
      key += name.toStdString();  // tells one QTimer from another
    }
    return key;
  }

  static constexpr qint64 kTracedNs = 2000000;
  struct Traced {
    qint64 start_ns, wall_ns, cpu_ns;
    std::string key;  ///< with the nested events longer than 2 ms
  };

  bool profiling_ = false;
  std::vector<Traced> trace_;  // outermost events longer than kTracedNs
  std::string nested_keys_;    // events nested in the open outermost one
  QElapsedTimer clock_;
  std::vector<std::pair<qint64, qint64>> nested_;  // wall, CPU of events nested in the open ones
  std::map<std::string, Entry> entries_;
};

ProfilingApplication* profiler() {
  return static_cast<ProfilingApplication*>(QCoreApplication::instance());
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
  return values[index];
}

// the application's own event loop (QTest::qWaitFor would sleep 10 ms between its passes)
bool runToEnd(MainWindow& window, const SimulationOptions& options) {
  window.setSimulationOptions(options);
  QEventLoop loop;
  bool finished = false;
  QObject::connect(window.simulation(), &SimulationController::runFinished, &loop, [&] {
    finished = true;
    loop.quit();
  });
  QTimer::singleShot(kRunTimeoutMs, &loop, &QEventLoop::quit);
  window.runAction()->trigger();
  loop.exec();
  return finished;
}

void measureStreaming(MainWindow& window, int print_gaps_above_ms) {
  SimulationOptions options = window.simulationOptions();
  options.t_end = 10.0;
  options.output_interval = 0.01;
  PaintCounter counter;
  window.viewport()->installEventFilter(&counter);
  const int renders_before = window.viewport()->renderCount();
  QElapsedTimer clock;
  std::vector<double> gaps;
  qint64 last_tick = 0;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    gaps.push_back(static_cast<double>(now - last_tick));
    if (print_gaps_above_ms > 0 && now - last_tick > print_gaps_above_ms) {
      std::printf("  gap of %lld ms ending at %lld ms (%zu frames):",
                  static_cast<long long>(now - last_tick), static_cast<long long>(now),
                  window.simulation()->frameCount());
      profiler()->printEventsOfLast(now - last_tick);
      std::printf("\n");
    }
    last_tick = now;
  });
  clock.start();
  ticker.start(10);
  profiler()->startProfile();
  const bool done = runToEnd(window, options);
  ticker.stop();
  const double seconds = static_cast<double>(clock.elapsed()) / 1000.0;
  window.viewport()->removeEventFilter(&counter);
  const int renders = window.viewport()->renderCount() - renders_before;
  std::printf(
      "streaming: %s, %zu frames in %.2f s wall; viewport pictures rendered %d (%.1f per s; %d "
      "paints); GUI timer gaps: median %.0f ms, 99th percentile %.0f ms, longest %.0f ms\n",
      done ? "completed" : "TIMED OUT", window.simulation()->frameCount(), seconds, renders,
      renders / seconds, counter.paints, percentile(gaps, 0.5), percentile(gaps, 0.99),
      percentile(gaps, 1.0));
  profiler()->stopAndPrintProfile("streaming");
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
  std::vector<double> latencies, grab_ms;
  int cursor_misses = 0;
  profiler()->startProfile();
  for (int i = 0; i < 200; ++i) {
    const int frame = pick(random);
    clock.restart();
    slider->setValue(frame);
    QCoreApplication::processEvents();
    const qint64 events_ns = clock.nsecsElapsed();
    const QImage image = window.viewport()->grabFramebuffer();  // renders now
    latencies.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    grab_ms.push_back(static_cast<double>(clock.nsecsElapsed() - events_ns) / 1e6);
    const double t = window.simulation()->frameAt(static_cast<std::size_t>(frame))->t;
    if (std::abs(window.plotPanel()->cursorTime() - t) > 1e-12 || image.isNull()) ++cursor_misses;
  }
  std::printf(
      "scrubbing %zu frames: slider -> frame drawn and cursors moved: median %.1f ms, "
      "99th percentile %.1f ms, longest %.1f ms (%d of 200 misplaced cursors)\n",
      recorded, percentile(latencies, 0.5), percentile(latencies, 0.99), percentile(latencies, 1.0),
      cursor_misses);
  std::printf(
      "  of which grabFramebuffer() (a render when still out of date): median %.1f ms, longest "
      "%.1f ms\n",
      percentile(grab_ms, 0.5), percentile(grab_ms, 1.0));
  profiler()->stopAndPrintProfile("scrubbing (grabFramebuffer() itself not included)");
}

}  // namespace
}  // namespace tendril

int main(int argc, char** argv) {
  // as app/main.cpp: VTK needs a 3.2 core-profile context
  QSurfaceFormat::setDefaultFormat(tendril::ViewportWidget::defaultSurfaceFormat());
  tendril::ProfilingApplication app(argc, argv);
  QCoreApplication::setOrganizationName("tendril-studio-bench");
  QCoreApplication::setApplicationName("tendril-studio-bench");
  QSettings().clear();
  QString model = QStringLiteral(TENDRIL_EXAMPLES_DIR "/underwater_robot.json");
  int frames = 10000;
  int mismatch_samples = -1;    // the window's default
  int print_gaps_above_ms = 0;  // 0: no gap listing
  const QStringList args = QCoreApplication::arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == "--frames" && i + 1 < args.size()) {
      frames = std::max(2, args[++i].toInt());
    } else if (args[i] == "--gaps") {
      bool is_number = false;
      const int ms = i + 1 < args.size() ? args[i + 1].toInt(&is_number) : 0;
      print_gaps_above_ms = is_number && ms > 0 ? ms : 50;
      if (is_number) ++i;
    } else if (args[i] == "--mismatch" && i + 1 < args.size()) {
      mismatch_samples = std::max(0, args[++i].toInt());
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
  if (mismatch_samples >= 0) {
    window.setJacobianMismatchSamples(mismatch_samples);
  }
  QTest::qWait(200);
  std::printf("model %s, window %dx%d, viewport %dx%d, Jacobian mismatch samples per run %d\n",
              qPrintable(model), window.width(), window.height(), window.viewport()->width(),
              window.viewport()->height(), window.jacobianMismatchSamples());
  tendril::measureStreaming(window, print_gaps_above_ms);
  tendril::measureRecordingAndScrubbing(window, frames);
  return 0;
}
