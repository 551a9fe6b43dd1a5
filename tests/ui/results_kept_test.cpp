// GUI tests of Tendril issue 27, item 1: nothing the user computed is lost without being asked.
// An edit while a run holds the model asks (stop / keep running on the old model / cancel); the
// results of an earlier version of the model stay viewable and marked stale until a new run
// replaces them, and undo back to the description that computed them makes them current again.

#include <gtest/gtest.h>

#include <QAction>
#include <QChart>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/result_plots.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/statics_runner.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

// the fin-ray finger with its rods is the slowest example: a run of it is the one a user edits
// in the middle of
const QString kSlowExample = QStringLiteral("finray_finger.json");
const QString kLength = QStringLiteral("/links/0/soft/divisions/0/length");

class ResultsKeptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
    window_.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
  }

  void open(const QString& example) {
    ASSERT_TRUE(window_.openFile(test::examplePath(example))) << window_.lastError().toStdString();
  }

  /// A run of the slow example that only Cancel (or an answer) ends, with frames recorded.
  void startLongRun() {
    open(kSlowExample);
    SimulationOptions options = window_.simulationOptions();
    options.t_end = 1000.0;
    window_.setSimulationOptions(options);
    window_.runAction()->trigger();
    ASSERT_TRUE(window_.simulation()->isRunning());
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window_.simulation()->frameCount() >= 2; }, test::kRunTimeoutMs));
  }

  /// A short run of the cantilever, finished.
  void runToTheEnd() {
    open(QStringLiteral("soft_cantilever.json"));
    SimulationOptions options = window_.simulationOptions();
    options.t_end = 0.2;
    options.output_interval = 0.02;
    window_.setSimulationOptions(options);
    QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
    window_.runAction()->trigger();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
    ASSERT_TRUE(finished.first().at(1).toBool());
  }

  void clickToolButton(const char* name) {
    auto* button = window_.findChild<QToolButton*>(name);
    ASSERT_NE(button, nullptr) << name;
    // the left part of a menu button: its default action, not the menu arrow
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));
    QTest::qWait(20);
  }

  /// The stale banner and every plot title say so, or none does.
  void expectMarkedStale(bool stale) {
    EXPECT_EQ(window_.resultsAreStale(), stale);
    EXPECT_EQ(window_.staleResultsLabel()->isVisible(), stale);
    for (PlotPanel* plot : {window_.plotPanel(), window_.energyPlot(), window_.tipErrorPlot()}) {
      EXPECT_EQ(plot->chart()->title(), stale ? ResultPlots::staleTitle() : QString())
          << plot->objectName().toStdString();
    }
  }

  QSlider* timelineSlider() const { return window_.timeline()->findChild<QSlider*>(); }

  MainWindow window_;
};

TEST_F(ResultsKeptTest, StoppingTheRunForABuilderClickKeepsItsFramesAsStaleResults) {
  startLongRun();
  const std::size_t links = window_.robot().links.size();
  const auto answered = test::answerEditDuringRun("stopRunButton");
  clickToolButton("addLinkButton");
  ASSERT_TRUE(*answered) << "the edit did not ask";
  EXPECT_FALSE(window_.simulation()->isRunning());
  EXPECT_EQ(window_.robot().links.size(), links + 1);  // the edit applied
  const std::size_t kept = window_.simulation()->frameCount();
  EXPECT_GE(kept, 2u);
  EXPECT_EQ(window_.timeline()->frameCount(), static_cast<int>(kept));
  EXPECT_EQ(window_.plotPanel()->pointCount(0), static_cast<int>(kept));
  expectMarkedStale(true);
  EXPECT_TRUE(window_.runAction()->isEnabled());
  EXPECT_FALSE(window_.cancelAction()->isEnabled());
}

TEST_F(ResultsKeptTest, KeepingTheRunAppliesTheEditAndTheRunGoesOnWithTheOldModel) {
  startLongRun();
  const std::size_t links = window_.robot().links.size();
  const auto answered = test::answerEditDuringRun("keepRunningButton");
  clickToolButton("addLinkButton");
  ASSERT_TRUE(*answered);
  EXPECT_EQ(window_.robot().links.size(), links + 1);
  ASSERT_TRUE(window_.simulation()->isRunning());
  expectMarkedStale(true);
  // the run still records frames of the model it started with (links bodies as before)
  const std::size_t before = window_.simulation()->frameCount();
  ASSERT_TRUE(QTest::qWaitFor([&] { return window_.simulation()->frameCount() > before + 1; },
                              test::kRunTimeoutMs));
  // the viewport keeps the edited model (one revolute joint more) at rest while the old one
  // streams
  const FramePtr last = window_.simulation()->frameAt(window_.simulation()->frameCount() - 1);
  EXPECT_EQ(window_.viewport()->currentFrame()->q.size(), last->q.size() + 1);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  window_.cancelAction()->trigger();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
  expectMarkedStale(true);  // its end changes nothing: the model is still not the one it ran
}

TEST_F(ResultsKeptTest, CancellingTheEditLeavesTheModelAndTheRunAlone) {
  startLongRun();
  const RobotDescription before = window_.robot();
  const auto answered = test::answerEditDuringRun("cancelEditButton");
  clickToolButton("addRodButton");
  ASSERT_TRUE(*answered);
  EXPECT_EQ(window_.robot(), before);
  EXPECT_EQ(window_.undoStack()->count(), 0);
  EXPECT_TRUE(window_.simulation()->isRunning());
  expectMarkedStale(false);
  window_.cancelAction()->trigger();
}

// property edits, undo and opening a model ask too (not only the builder's buttons)
TEST_F(ResultsKeptTest, PropertyEditsUndoAndNewModelAskWhileRunning) {
  open(kSlowExample);
  ASSERT_TRUE(window_.setField(kLength, "0.02"));  // something to undo
  window_.select("/links/0");
  SimulationOptions options = window_.simulationOptions();
  options.t_end = 1000.0;
  window_.setSimulationOptions(options);
  window_.runAction()->trigger();
  ASSERT_TRUE(window_.simulation()->isRunning());
  const RobotDescription before = window_.robot();

  auto answered = test::answerEditDuringRun("cancelEditButton");
  test::typeIntoField(*window_.propertyPanel(), kLength, "0.025");
  ASSERT_TRUE(*answered);
  EXPECT_EQ(window_.robot(), before);

  answered = test::answerEditDuringRun("cancelEditButton");
  test::findAction(window_, "undoAction")->trigger();
  ASSERT_TRUE(*answered);
  EXPECT_EQ(window_.robot(), before);
  EXPECT_EQ(window_.undoStack()->index(), 1);

  answered = test::answerEditDuringRun("cancelEditButton");
  window_.newModel();
  ASSERT_TRUE(*answered);
  EXPECT_EQ(window_.robot(), before);
  EXPECT_TRUE(window_.simulation()->isRunning());

  answered = test::answerEditDuringRun("stopRunButton");
  test::findAction(window_, "undoAction")->trigger();
  ASSERT_TRUE(*answered);
  EXPECT_FALSE(window_.simulation()->isRunning());
  EXPECT_EQ(window_.undoStack()->index(), 0);
  EXPECT_NE(window_.robot(), before);
}

TEST_F(ResultsKeptTest, AnEditAfterARunKeepsItsResultsStaleAndUndoMakesThemCurrent) {
  runToTheEnd();
  const std::size_t frames = window_.simulation()->frameCount();
  const int points = window_.plotPanel()->pointCount(0);
  ASSERT_GT(frames, 5u);
  expectMarkedStale(false);

  window_.select("/links/0");
  test::typeIntoField(*window_.propertyPanel(), "/links/0/soft/divisions/0/length", "0.3");
  ASSERT_DOUBLE_EQ(window_.robot().links[0].soft().divisions[0].length, 0.3);
  // the edited model is shown at rest; the results of the earlier one stay, marked
  EXPECT_EQ(window_.simulation()->frameCount(), frames);
  EXPECT_EQ(window_.timeline()->frameCount(), static_cast<int>(frames));
  EXPECT_EQ(window_.plotPanel()->pointCount(0), points);
  expectMarkedStale(true);
  EXPECT_EQ(window_.viewport()->currentFrame()->t, 0.0);

  // scrubbing replays them on the model that computed them
  const std::size_t middle = frames / 2;
  timelineSlider()->setValue(static_cast<int>(middle));
  QTest::qWait(50);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(middle));
  test::saveScreenshot(test::grabWindow(window_), "results_stale_after_edit");

  // undo back to the description that computed them: current again, the frame on the timeline
  // shown
  test::findAction(window_, "undoAction")->trigger();
  QTest::qWait(20);
  EXPECT_DOUBLE_EQ(window_.robot().links[0].soft().divisions[0].length, 0.5);
  expectMarkedStale(false);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(middle));
  // and redo marks them again; a new run replaces them
  test::findAction(window_, "redoAction")->trigger();
  expectMarkedStale(true);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  window_.runAction()->trigger();
  expectMarkedStale(false);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
  expectMarkedStale(false);
}

// stale results are saved for the model that computed them: the file reopens on that model
TEST_F(ResultsKeptTest, StaleResultsAreSavedForTheModelThatComputedThem) {
  runToTheEnd();
  const std::size_t frames = window_.simulation()->frameCount();
  clickToolButton("addLinkButton");  // another link: the current model has more coordinates
  ASSERT_TRUE(window_.resultsAreStale());
  QTemporaryDir temp;
  const QString path = temp.filePath("stale.csv");
  ASSERT_TRUE(window_.saveRecording(path)) << window_.lastError().toStdString();
  EXPECT_FALSE(window_.openRecording(path));  // it does not fit the edited model
  test::findAction(window_, "undoAction")->trigger();
  ASSERT_TRUE(window_.openRecording(path)) << window_.lastError().toStdString();
  EXPECT_EQ(window_.simulation()->frameCount(), frames);
  expectMarkedStale(false);
}

// a statics solve kept running through an edit shows its residual as stale and its equilibrium
// only on the timeline (on the model it solved)
TEST_F(ResultsKeptTest, AStaticsSolveKeptRunningThroughAnEditEndsStale) {
  open(kSlowExample);
  SimulationOptions options = window_.simulationOptions();
  options.jacobian = JacobianKind::FiniteDifference;  // slow enough to edit meanwhile
  window_.setSimulationOptions(options);
  window_.setAnalysis(Analysis::Statics);
  window_.runAction()->trigger();
  ASSERT_TRUE(window_.isStaticsRunning());
  const auto answered = test::answerEditDuringRun("keepRunningButton");
  clickToolButton("addLinkButton");
  ASSERT_TRUE(*answered);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window_.isStaticsRunning(); }, test::kRunTimeoutMs));
  expectMarkedStale(true);
  EXPECT_GE(window_.plotPanel()->pointCount(0), 1);  // the residual of its iterations
  ASSERT_EQ(window_.simulation()->frameCount(), 1u);
  EXPECT_EQ(window_.viewport()->currentFrame()->t, 0.0);  // the edited model, at rest
  EXPECT_NE(window_.viewport()->currentFrame(), window_.simulation()->frameAt(0));
  test::findAction(window_, "undoAction")->trigger();
  expectMarkedStale(false);
  EXPECT_EQ(window_.viewport()->currentFrame(), window_.simulation()->frameAt(0));
}

}  // namespace
}  // namespace tendril
