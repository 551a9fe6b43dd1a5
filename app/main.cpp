// tendril [MODEL.json] [--screenshot OUT.png [--simulate]] [--version]
// Opens MODEL.json, or the default example, in the main window. --screenshot renders the
// window once, saves it as a PNG and quits (used for the README pictures); with --simulate it
// first runs the dynamics and shows the middle of the recording.

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tendril_version.hpp"
#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace {

// answered before QApplication exists, so it works without a display
bool asksForVersion(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
      return true;
    }
  }
  return false;
}

constexpr const char* kUsage =
    "usage: tendril [MODEL.json] [--screenshot OUT.png [--simulate]] [--version] [--help]\n"
    "Design and simulate hybrid soft-rigid robots. Opens MODEL.json, or the default example.\n"
    "Headless runs: tendril-cli --help\n";

bool hasFlag(int argc, char* argv[], const char* flag, const char* alias) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0 || std::strcmp(argv[i], alias) == 0) return true;
  }
  return false;
}

// Qt aborts without a platform to draw on: say so in one line instead
bool haveDisplay() {
  const auto set = [](const char* name) { return std::getenv(name) && *std::getenv(name); };
  return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

void scheduleScreenshot(tendril::MainWindow& window, const QString& path, int delay_ms = 500) {
  // give the window a moment to be exposed and the viewport to paint
  QTimer::singleShot(delay_ms, &window, [&window, path] {
    (void)window.viewport()
        ->grabFramebuffer();  // the 3D view's picture up to date (renders if not)
    const bool saved = window.grab().save(path, "PNG");
    if (!saved) {
      std::fprintf(stderr, "tendril: error: cannot write %s\n", qPrintable(path));
    }
    QCoreApplication::exit(saved ? 0 : 1);
  });
}

// runs the dynamics (sampling the Jacobian mismatch, so that every plot holds data), shows the
// middle of the recording, then takes the screenshot
void simulateThenScreenshot(tendril::MainWindow& window, const QString& path) {
  window.setJacobianMismatchSamples(50);
  QObject::connect(window.simulation(), &tendril::SimulationController::runFinished, &window,
                   [&window, path](const QString&, bool) {
                     const auto frames = static_cast<int>(window.simulation()->frameCount());
                     window.showRecordedFrame(frames / 2);
                     scheduleScreenshot(window, path, 200);
                   });
  QTimer::singleShot(300, &window, [&window] {
    if (!window.runSimulation()) {
      QCoreApplication::exit(1);
    }
  });
}

}  // namespace

int main(int argc, char* argv[]) {
  if (asksForVersion(argc, argv)) {
    std::printf("tendril %s\n", TENDRIL_VERSION);
    return 0;
  }
  if (hasFlag(argc, argv, "--help", "-h")) {
    std::printf("%s", kUsage);
    return 0;
  }
  if (!haveDisplay()) {
    std::fprintf(
        stderr,
        "tendril: no display available (DISPLAY is not set); use tendril-cli for headless runs\n");
    return 1;
  }
  // VTK needs a 3.2 core-profile context: this must precede QApplication
  QSurfaceFormat::setDefaultFormat(tendril::ViewportWidget::defaultSurfaceFormat());
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("Tendril");
  QCoreApplication::setApplicationName("Tendril");
  QCoreApplication::setApplicationVersion(TENDRIL_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("Design and simulate hybrid soft-rigid robots.");
  parser.addHelpOption();
  parser.addPositionalArgument("model", "Robot model (.json) to open.", "[MODEL.json]");
  const QCommandLineOption screenshot("screenshot", "Save a screenshot of the window and quit.",
                                      "OUT.png");
  parser.addOption(screenshot);
  const QCommandLineOption simulate("simulate",
                                    "With --screenshot: run the dynamics first and show the "
                                    "middle of the recording.");
  parser.addOption(simulate);
  parser.process(app);

  tendril::MainWindow window;
  const QStringList models = parser.positionalArguments();
  const bool opened =
      models.isEmpty() ? window.openDefaultExample() : window.openFile(models.front());
  window.show();
  if (parser.isSet(screenshot)) {
    if (!opened) {
      std::fprintf(stderr, "tendril: error: %s\n", qPrintable(window.lastError()));
      return 1;
    }
    if (parser.isSet(simulate)) {
      simulateThenScreenshot(window, parser.value(screenshot));
    } else {
      scheduleScreenshot(window, parser.value(screenshot));
    }
  } else {
    // after a crash, the model autosaved then can be recovered
    QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
  }
  return app.exec();
}
