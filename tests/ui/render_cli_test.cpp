// tendril-render, run as a separate process the way tendril-cli runs it.

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "ui_test_support.hpp"

namespace tendril {
namespace {

struct RunResult {
  int exit_code = -1;
  QString error_output;
};

RunResult runRender(const QStringList& arguments, const QProcessEnvironment& environment =
                                                      QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(TENDRIL_RENDER_EXE, arguments);
  if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit) {
    return {};
  }
  return {process.exitCode(), QString::fromLocal8Bit(process.readAllStandardError())};
}

bool isOneLine(const QString& text) {
  return !text.trimmed().isEmpty() && !text.trimmed().contains('\n');
}

TEST(TendrilRender, RendersAnExampleToAPngWithTheRodColour) {
  const QTemporaryDir directory;
  const QString out = directory.filePath("hybrid.png");
  const RunResult result = runRender({test::examplePath("hybrid_serial_robot.json"), "--out", out,
                                      "--width", "640", "--height", "480"});
  ASSERT_EQ(result.exit_code, 0) << result.error_output.toStdString();
  const QImage image(out);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), QSize(640, 480));
  EXPECT_GT(test::countRodPixels(image), 500);
  test::saveScreenshot(image, "tendril_render_hybrid");
}

// --motion simulates and draws the instants side by side: a rod in every panel, and the falling
// cantilever's last panel differs from its first
TEST(TendrilRender, MotionIsAFilmStripOfTheRun) {
  const QTemporaryDir directory;
  const QString out = directory.filePath("motion.png");
  const RunResult result =
      runRender({test::examplePath("soft_cantilever.json"), "--out", out, "--width", "900",
                 "--height", "300", "--motion", "0.4", "--frames", "3"});
  ASSERT_EQ(result.exit_code, 0) << result.error_output.toStdString();
  const QImage image(out);
  ASSERT_EQ(image.size(), QSize(900, 300));
  const QImage first = image.copy(0, 0, 300, 300), last = image.copy(600, 0, 300, 300);
  EXPECT_GT(test::countRodPixels(first), 100);
  EXPECT_GT(test::countRodPixels(image.copy(300, 0, 300, 300)), 100);
  EXPECT_GT(test::countRodPixels(last), 100);
  EXPECT_NE(first, last);
  test::saveScreenshot(image, "tendril_render_motion");
}

TEST(TendrilRender, MissingModelFailsWithOneLine) {
  const QTemporaryDir directory;
  const RunResult result =
      runRender({directory.filePath("nope.json"), "--out", directory.filePath("x.png")});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_TRUE(isOneLine(result.error_output)) << result.error_output.toStdString();
  EXPECT_TRUE(result.error_output.contains("nope.json"));
  EXPECT_FALSE(QFileInfo::exists(directory.filePath("x.png")));
}

TEST(TendrilRender, BadCommandLinesFailWithOneLine) {
  const QString model = test::examplePath("hybrid_serial_robot.json");
  const QList<QStringList> bad = {
      {},
      {model},
      {model, "--out"},
      {model, "--out", "x.png", "--width", "wide"},
      {model, "--out", "x.png", "--bogus"},
      {model, "--out", "x.png", "--motion", "-1"},
      {model, "--out", "x.png", "--motion", "1", "--frames", "1"},
  };
  for (const QStringList& arguments : bad) {
    const RunResult result = runRender(arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments.join(' ').toStdString();
    EXPECT_TRUE(isOneLine(result.error_output)) << result.error_output.toStdString();
  }
}

TEST(TendrilRender, WithoutAReachableDisplayItSaysToUseXvfb) {
  const QTemporaryDir directory;
  QProcessEnvironment no_display = QProcessEnvironment::systemEnvironment();
  no_display.remove("DISPLAY");
  QProcessEnvironment dead_display = QProcessEnvironment::systemEnvironment();
  dead_display.insert("DISPLAY", ":987");  // no X server listens there
  for (const QProcessEnvironment& environment : {no_display, dead_display}) {
    const RunResult result = runRender(
        {test::examplePath("hybrid_serial_robot.json"), "--out", directory.filePath("x.png")},
        environment);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(isOneLine(result.error_output)) << result.error_output.toStdString();
    EXPECT_TRUE(result.error_output.contains("xvfb-run"));
  }
}

}  // namespace
}  // namespace tendril
