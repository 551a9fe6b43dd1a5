// GUI test of controllers in the loop: Edit > Add Controller on a jointed link, a run, and the
// Controllers plot with each set-point beside its value, and the inputs, kept through Save
// Recording and Open Recording.

#include <gtest/gtest.h>

#include <QAction>
#include <QLegend>
#include <QLegendMarker>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidgetItem>
#include <QUndoStack>
#include <memory>

#include "ui/main_window.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/property_panel.hpp"
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

// Simulation 2's schedule in the studio: each controller's window in the model tree, its fields
// in the Properties panel (typed like any other), and Add / Remove Active Window as undoable edits
TEST(ControllerGuiTest, ControllerWindowsShowInTheTreeAndEditInProperties) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openFile(test::examplePath("hybrid_ur10e_gripper.json")));
  const QString pfbl = "/controllers/1";
  ASSERT_EQ(window.robot().controllers[1].name, "ur10e_pfbl");
  const auto treeText = [&] {
    const QTreeWidgetItem* item = window.modelTree()->itemFor(pfbl);
    return item == nullptr ? QString("(no item)") : item->text(2);
  };
  EXPECT_EQ(treeText(), QString::fromUtf8("0–3 s, then hold"));
  EXPECT_EQ(window.modelTree()->itemFor("/controllers/0")->text(2),
            QString::fromUtf8("3–5 s, then hold"));

  window.select(pfbl);
  PropertyPanel& panel = *window.propertyPanel();
  EXPECT_EQ(panel.valueOf("Until"), "3");
  EXPECT_EQ(panel.unitOf("Until"), "s");
  EXPECT_EQ(panel.valueOf("After the window"), "hold");
  test::typeIntoField(panel, pfbl + "/active/until", "2.5");
  ASSERT_TRUE(window.robot().controllers[1].active.has_value());
  EXPECT_EQ(window.robot().controllers[1].active->until, 2.5) << window.lastError().toStdString();
  EXPECT_EQ(treeText(), QString::fromUtf8("0–2.5 s, then hold"));
  test::typeIntoField(panel, pfbl + "/active/until", "0");  // not after its start: refused
  EXPECT_EQ(window.robot().controllers[1].active->until, 2.5);
  EXPECT_FALSE(panel.errorText().isEmpty());

  QAction* add = test::findAction(window, "addControllerWindowAction");
  QAction* remove = test::findAction(window, "removeControllerWindowAction");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(remove, nullptr);
  EXPECT_FALSE(add->isEnabled());
  ASSERT_TRUE(remove->isEnabled());
  remove->trigger();
  EXPECT_FALSE(window.robot().controllers[1].active.has_value());
  EXPECT_EQ(treeText(), QString());
  EXPECT_TRUE(panel.valueOf("Until").isEmpty());
  ASSERT_TRUE(add->isEnabled());
  EXPECT_FALSE(remove->isEnabled());
  add->trigger();
  ASSERT_TRUE(window.robot().controllers[1].active.has_value());
  EXPECT_EQ(treeText(), QString::fromUtf8("0–1 s"));
  EXPECT_EQ(panel.valueOf("Until"), "1");
  EXPECT_EQ(panel.valueOf("After the window"), "off");
  test::saveScreenshot(test::grabWindow(window), "controller_window");
  window.undoStack()->undo();  // back to no window, then to [0, 2.5) s and hold
  EXPECT_FALSE(window.robot().controllers[1].active.has_value());
  window.undoStack()->undo();
  ASSERT_TRUE(window.robot().controllers[1].active.has_value());
  EXPECT_EQ(window.robot().controllers[1].active->until, 2.5);
}

// Properties > right click on a controlled variable > Drive > Link Tip Position: the computed
// torque becomes a PFBL on the last link's tip z, shown under its own labels; a kind the robot
// has none of is refused with the reason; undo brings the coordinate back
TEST(ControllerGuiTest, AControlledVariableIsSwitchedToATipFromItsContextMenu) {
  QSettings().clear();
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openFile(test::examplePath("controlled_arm.json")));
  window.select("/controllers/0");
  PropertyPanel& panel = *window.propertyPanel();
  const QString row = "/controllers/0/controlled/2/coordinate";
  ASSERT_NE(panel.itemFor(row), nullptr);
  const auto drive = [&](const char* name) {
    std::unique_ptr<QMenu> menu(panel.createContextMenu(row));
    if (menu == nullptr) return false;
    auto* action = menu->findChild<QAction*>(name);
    if (action == nullptr) return false;
    action->trigger();
    QTest::qWait(50);  // the edit is applied from the event loop
    return true;
  };
  {
    std::unique_ptr<QMenu> menu(panel.createContextMenu(row));
    ASSERT_NE(menu, nullptr);
    auto* coordinate = menu->findChild<QAction*>("driveCoordinate");
    ASSERT_NE(coordinate, nullptr);
    EXPECT_TRUE(coordinate->isChecked());
  }
  ASSERT_TRUE(drive("driveCableLength"));  // the arm has no cable
  EXPECT_EQ(window.robot().controllers[0].controlled[2].kind,
            ControlledVariableDesc::Kind::Coordinate);
  EXPECT_TRUE(window.lastError().contains("no cable")) << window.lastError().toStdString();

  ASSERT_TRUE(drive("driveTipPosition"));
  const ControllerDesc& controller = window.robot().controllers[0];
  ASSERT_EQ(controller.controlled[2].kind, ControlledVariableDesc::Kind::TipPosition)
      << window.lastError().toStdString();
  EXPECT_EQ(controller.type, ControllerDesc::Type::CollocatedPfbl);
  EXPECT_EQ(panel.valueOf("Tip position of"), "fore");
  EXPECT_EQ(panel.valueOf("Axis"), "z");
  test::saveScreenshot(test::grabWindow(window), "controller_tip_output");
  window.undoStack()->undo();
  EXPECT_EQ(window.robot().controllers[0].controlled[2].kind,
            ControlledVariableDesc::Kind::Coordinate);
}

}  // namespace
}  // namespace tendril
