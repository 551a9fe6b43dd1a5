// GUI test of controllers in the loop: Edit > Add Controller on a jointed link, a run, and the
// Controllers plot with each set-point beside its value, and the inputs, kept through Save
// Recording and Open Recording.

#include <gtest/gtest.h>

#include <QAction>
#include <QLegend>
#include <QLegendMarker>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "ui/main_window.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/simulation_controller.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

TEST(ControllerGuiTest, AddControllerRunsAndPlotsSetPointBesideValueKeptInTheRecording) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  // the builder's revolute link on the world, then a second on its tip
  ASSERT_TRUE(window.addRigidLink(JointType::Revolute));
  ASSERT_TRUE(window.addRigidLink(JointType::Revolute));
  window.select("/links/1");
  QAction* add = test::findAction(window, "addControllerAction");
  ASSERT_NE(add, nullptr);
  ASSERT_TRUE(add->isEnabled());
  add->trigger();
  ASSERT_EQ(window.robot().controllers.size(), 1u) << window.lastError().toStdString();
  EXPECT_EQ(window.selection(), "/controllers/0");
  EXPECT_EQ(window.robot().controllers[0].controlled[0].name,
            window.robot().links[1].name + "/joint/0");
  // the first joint holds still under a controller of its own, added the same way
  window.select("/links/0");
  add->trigger();
  ASSERT_EQ(window.robot().controllers.size(), 2u) << window.lastError().toStdString();

  SimulationOptions options = window.simulationOptions();
  options.t_end = 1.5;
  options.output_interval = 0.01;
  options.integrator = IntegratorKind::Rk4;
  options.step = 1e-3;
  window.setSimulationOptions(options);
  QSignalSpy finished(window.simulation(), &SimulationController::runFinished);
  ASSERT_TRUE(window.runSimulation());
  ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
  QTest::qWait(200);  // the last batch of frames reaches the plots

  auto* plot = window.findChild<PlotPanel*>("controlPlot");
  auto* inputs = window.findChild<PlotPanel*>("controlInputsPlot");
  ASSERT_NE(plot, nullptr);
  ASSERT_NE(inputs, nullptr);
  ASSERT_EQ(plot->seriesCount(), 4);  // a set-point and a value per controller
  int named = 0;  // the legend names each variable once: its set-point is drawn in its colour
  for (QLegendMarker* marker : plot->chart()->legend()->markers()) named += marker->isVisible();
  EXPECT_EQ(named, 2);
  const QList<QPointF> setpoint = plot->points(0), value = plot->points(1);
  ASSERT_GT(setpoint.size(), 100);
  ASSERT_EQ(setpoint.size(), value.size());
  // the cubic reaches 0.5 rad at 1 s; the arm follows it
  EXPECT_NEAR(setpoint.last().y(), 0.5, 1e-12);
  EXPECT_NEAR(value.last().y(), 0.5, 0.05);
  EXPECT_GT(inputs->pointCount(0), 100);
  test::saveScreenshot(test::grabWindow(window), "controller_setpoint_and_value");

  // the series survive Save Recording and Open Recording
  QTemporaryDir dir;
  const QString path = dir.filePath("controlled.csv");
  ASSERT_TRUE(window.saveRecording(path)) << window.lastError().toStdString();
  ASSERT_TRUE(window.openRecording(path)) << window.lastError().toStdString();
  ASSERT_EQ(plot->seriesCount(), 4);
  ASSERT_EQ(plot->points(1).size(), value.size());
  EXPECT_DOUBLE_EQ(plot->points(1).last().y(), value.last().y());
  EXPECT_EQ(inputs->pointCount(0), static_cast<int>(value.size()));
}

}  // namespace
}  // namespace tendril
