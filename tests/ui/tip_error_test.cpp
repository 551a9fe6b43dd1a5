// GUI tests of the tip error: the distance between the first tip of a run and a reference, taken
// by hand (Use Run as Reference) or from the run's finite-difference twin (Simulate > Compare
// with Finite-Difference Reference), plotted as log10 on a chart of its own.

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/simulation_controller.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {


class TipErrorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
    ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")))
        << window_.lastError().toStdString();
    SimulationOptions options = window_.simulationOptions();
    options.t_end = 0.5;
    options.output_interval = 0.01;
    window_.setSimulationOptions(options);
  }

  static bool waitFor(const QSignalSpy& finished) {
    return QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs);
  }

  QList<QPointF> tipErrorPoints() const {
    return window_.tipErrorPlot()->points(window_.tipErrorSeries());
  }

  MainWindow window_;
};

// switching the comparison off while the twin runs: the twin's end does not set a reference
TEST_F(TipErrorTest, ATwinFinishingAfterTheComparisonWasSwitchedOffIsNotAdopted) {
  window_.setCompareWithFiniteDifferences(true);
  QSignalSpy twin_finished(window_.referenceSimulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window_.runSimulation());
  ASSERT_TRUE(window_.referenceSimulation()->isRunning());
  window_.setCompareWithFiniteDifferences(false);
  ASSERT_TRUE(waitFor(twin_finished));
  EXPECT_NE(window_.referenceSource(), MainWindow::ReferenceSource::FiniteDifferenceRun);
  EXPECT_FALSE(window_.hasReference());
}

// a run with the finite-difference Jacobian (or RK4, which uses none) has no distinct twin
TEST_F(TipErrorTest, NoTwinWhenTheRunUsesNoAnalyticalJacobian) {
  window_.setCompareWithFiniteDifferences(true);
  for (const auto& [integrator, jacobian] :
       {std::pair{IntegratorKind::Bdf, JacobianKind::FiniteDifference},
        std::pair{IntegratorKind::Rk4, JacobianKind::Analytic}}) {
    SimulationOptions options = window_.simulationOptions();
    options.integrator = integrator;
    options.jacobian = jacobian;
    options.step = integrator == IntegratorKind::Rk4 ? 1e-4 : 0.0;
    window_.setSimulationOptions(options);
    QSignalSpy run_finished(window_.simulation(), &SimulationController::runFinished);
    ASSERT_TRUE(window_.runSimulation());
    EXPECT_FALSE(window_.referenceSimulation()->isRunning());
    ASSERT_TRUE(waitFor(run_finished));
    EXPECT_EQ(window_.tipErrorSeries(), -1);
    // the empty plot says why
    EXPECT_TRUE(window_.tipErrorPlot()->showsPlaceholder());
    EXPECT_TRUE(window_.tipErrorPlot()->placeholderText().contains("Use Run as Reference"));
  }
}

TEST_F(TipErrorTest, FiniteDifferenceTwinBecomesTheReference) {
  QAction* compare = test::findAction(window_, "fdReferenceAction");
  ASSERT_NE(compare, nullptr);
  ASSERT_TRUE(compare->isCheckable());
  compare->trigger();
  ASSERT_TRUE(window_.comparesWithFiniteDifferences());
  ASSERT_FALSE(window_.hasReference());  // nothing taken by hand

  QSignalSpy run_finished(window_.simulation(), &SimulationController::runFinished);
  QSignalSpy twin_finished(window_.referenceSimulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window_.runSimulation());
  EXPECT_TRUE(window_.referenceSimulation()->isRunning());  // started with the run
  EXPECT_TRUE(window_.tipErrorPlot()->placeholderText().contains("Computing"));
  ASSERT_TRUE(waitFor(run_finished));
  ASSERT_TRUE(waitFor(twin_finished));
  ASSERT_TRUE(twin_finished.first().at(1).toBool())
      << twin_finished.first().at(0).toString().toStdString();

  EXPECT_EQ(window_.referenceSource(), MainWindow::ReferenceSource::FiniteDifferenceRun);
  EXPECT_EQ(window_.referenceSimulation()->frameCount(), 51u);
  ASSERT_GE(window_.tipErrorSeries(), 0);
  const QList<QPointF> errors = tipErrorPoints();
  EXPECT_EQ(errors.size(), 51);  // every common frame
  const double largest = std::max_element(errors.begin(), errors.end(), [](auto a, auto b) {
                           return a.y() < b.y();
                         })->y();
  // a twin, not the run itself: a rerun of the same computation sits at the floor (1e-15 m)
  EXPECT_GT(largest, -15.0);
  EXPECT_LT(largest, -5.0) << "the two Jacobians should give nearly the same motion";
  EXPECT_FALSE(window_.tipErrorPlot()->showsPlaceholder());
  EXPECT_FALSE(window_.cancelAction()->isEnabled());
  EXPECT_FALSE(window_.progressBar()->isVisible());
  EXPECT_EQ(test::visibleErrorBox(window_), nullptr);

  window_.docks().back()->raise();
  QTest::qWait(50);
  test::saveScreenshot(window_.tipErrorPlot()->grab().toImage(), "plot_tip_error_vs_fd_twin");
  test::saveScreenshot(test::grabWindow(window_), "tip_error_vs_fd_twin_window");
}

TEST_F(TipErrorTest, CancellingTheRunCancelsItsTwin) {
  window_.setCompareWithFiniteDifferences(true);
  SimulationOptions options = window_.simulationOptions();
  options.t_end = 1000.0;  // only Cancel ends it
  window_.setSimulationOptions(options);
  QSignalSpy twin_finished(window_.referenceSimulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window_.runSimulation());
  ASSERT_TRUE(QTest::qWaitFor([&] { return window_.simulation()->frameCount() >= 5; }));
  EXPECT_TRUE(window_.tipErrorPlot()->placeholderText().contains("Computing"));
  window_.cancelAction()->trigger();
  ASSERT_TRUE(waitFor(twin_finished));
  EXPECT_FALSE(twin_finished.first().at(1).toBool());
  // nothing runs any more, and the plot says so rather than "Computing ..."
  EXPECT_EQ(window_.tipErrorPlot()->placeholderText(),
            "No tip error: the run was cancelled before its finite-difference reference "
            "finished.");
  EXPECT_TRUE(window_.referenceSimulation()->lastOutcome()->cancelled);
  EXPECT_FALSE(window_.hasReference());
  EXPECT_EQ(test::visibleErrorBox(window_), nullptr);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window_.cancelAction()->isEnabled(); }));

  // a new run starts a new twin (and drops the old one's generation)
  twin_finished.clear();
  ASSERT_TRUE(window_.runSimulation());
  EXPECT_TRUE(window_.referenceSimulation()->isRunning());
  window_.cancelAnalysis();
  ASSERT_TRUE(waitFor(twin_finished));
  EXPECT_EQ(twin_finished.count(), 1);
}

// a run that fails takes its twin down with it, and the plot stops waiting for it
TEST_F(TipErrorTest, ARunThatStopsEndsTheWaitForItsTwin) {
  window_.setCompareWithFiniteDifferences(true);
  SimulationOptions options = window_.simulationOptions();
  options.integrator = IntegratorKind::ImplicitEuler;
  options.step = 0.25;                // far too long for the rod's fast bending modes,
  options.max_newton_iterations = 1;  // and one Newton iteration cannot converge
  options.t_end = 1000.0;
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  QSignalSpy twin_finished(window_.referenceSimulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window_.runSimulation());
  ASSERT_TRUE(waitFor(finished));
  ASSERT_FALSE(finished.first().at(1).toBool()) << "the run was meant to fail";
  ASSERT_TRUE(waitFor(twin_finished));
  EXPECT_FALSE(window_.tipErrorPlot()->placeholderText().contains("Computing"));
  EXPECT_TRUE(window_.tipErrorPlot()->placeholderText().startsWith("No tip error"))
      << window_.tipErrorPlot()->placeholderText().toStdString();
  if (QMessageBox* box = test::visibleErrorBox(window_)) box->close();  // the run's own report
}

TEST_F(TipErrorTest, OpeningAnotherModelClearsTheReference) {
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window_.runSimulation());
  ASSERT_TRUE(waitFor(finished));
  ASSERT_TRUE(window_.useRunAsReference());
  EXPECT_EQ(window_.referenceSource(), MainWindow::ReferenceSource::Recording);

  // a parameter change keeps it: comparing against it is the point
  ASSERT_TRUE(window_.setField("/gravity", "0, 0, -4.9"));
  EXPECT_TRUE(window_.hasReference());
  // a new link changes which tip is the first: it goes
  window_.select("/links/0");
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute)) << window_.lastError().toStdString();
  EXPECT_FALSE(window_.hasReference());

  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  ASSERT_TRUE(window_.runSimulation());
  finished.clear();
  ASSERT_TRUE(waitFor(finished));
  ASSERT_TRUE(window_.useRunAsReference());
  ASSERT_TRUE(window_.openDefaultExample());
  EXPECT_FALSE(window_.hasReference());
  EXPECT_EQ(window_.referenceSource(), MainWindow::ReferenceSource::None);
  finished.clear();
  ASSERT_TRUE(window_.runSimulation());
  ASSERT_TRUE(waitFor(finished));
  EXPECT_EQ(window_.tipErrorSeries(), -1);  // no error against the old model's tip

  ASSERT_TRUE(window_.useRunAsReference());
  window_.newModel();
  EXPECT_FALSE(window_.hasReference());
}

}  // namespace
}  // namespace tendril
