// GUI tests of the Model menu's builders beyond links, rods, cables and loads: closed-loop joints
// between two chosen bodies, contact and fluid settings, a link attached at a chosen point along a
// rod, joint inputs, and changing the kind of a time function (constant, ramp, sine, table). Every
// one is an undoable edit, refused with its reason when it cannot be made.

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <functional>
#include <memory>

#include "core/algorithm/constraints.hpp"
#include "core/algorithm/data.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/edit/description_edit.hpp"
#include "core/model/model.hpp"
#include "core/model/validate.hpp"
#include "core/sim/rest_frame.hpp"
#include "ui/environment_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/model_dialogs.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

/// Runs \p fill on the next modal dialog as soon as it opens (then the test accepts or rejects
/// it); returns at once, the dialog is handled from the event loop.
void onNextDialog(const std::function<void(QDialog*)>& fill) {
  auto* poll = new QTimer();
  poll->setInterval(10);
  QObject::connect(poll, &QTimer::timeout, [poll, fill] {
    if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
      poll->stop();
      poll->deleteLater();
      fill(dialog);
    }
  });
  poll->start();
}

double distance(const Vec3& a, const Eigen::Vector3d& b) {
  return (Eigen::Vector3d(a[0], a[1], a[2]) - b).norm();
}

class ModelBuildingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
  }

  QAction* action(const char* name) { return test::findAction(window_, name); }

  /// Types \p text into the property editor of the field at \p pointer and presses Return.
  void typeIntoField(const QString& pointer, const QString& text) {
    test::typeIntoField(*window_.propertyPanel(), pointer, text);
  }

  /// Triggers the action \p name of the property panel's context menu on the field at \p pointer.
  void triggerPropertyMenu(const QString& pointer, const char* name, bool expect_enabled = true) {
    std::unique_ptr<QMenu> menu(window_.propertyPanel()->createContextMenu(pointer));
    ASSERT_NE(menu, nullptr) << pointer.toStdString();
    auto* found = menu->findChild<QAction*>(name);
    ASSERT_NE(found, nullptr) << name;
    ASSERT_EQ(found->isEnabled(), expect_enabled) << name;
    if (expect_enabled) {
      found->trigger();
      QTest::qWait(20);  // applied from the event loop
    }
  }

  /// Two revolute links in series on the world: link1 then link2, each 0.2 m along x.
  void buildDoublePendulum() {
    ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
    ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));  // at the tip of the selected link1
    ASSERT_EQ(window_.robot().links.size(), 2u);
    ASSERT_EQ(window_.robot().links[1].parent, window_.robot().links[0].name);
  }

  MainWindow window_;
};

TEST_F(ModelBuildingTest, ClosedLoopJointFromTheDialogStartsAssembledAndUndoes) {
  buildDoublePendulum();
  ASSERT_TRUE(action("addClosedLoopAction")->isEnabled());
  const int edits = window_.undoStack()->count();

  // Model > Add Closed-Loop Joint: the tip of link2 to the world, spherical
  onNextDialog([](QDialog* dialog) {
    auto* a = dialog->findChild<QComboBox*>("linkA");
    auto* b = dialog->findChild<QComboBox*>("linkB");
    auto* joint = dialog->findChild<QComboBox*>("loopJoint");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(joint, nullptr);
    EXPECT_EQ(a->currentText(), "link2");  // the selection is preselected
    b->setCurrentIndex(b->findData("world"));
    joint->setCurrentIndex(joint->findData(static_cast<int>(JointType::Spherical)));
    dialog->accept();
  });
  action("addClosedLoopAction")->trigger();

  ASSERT_EQ(window_.robot().closed_chains.size(), 1u);
  const ClosedChainDesc& chain = window_.robot().closed_chains[0];
  EXPECT_EQ(chain.a.link, "link2");
  EXPECT_EQ(chain.b.link, "world");
  EXPECT_EQ(chain.joint.type, JointType::Spherical);
  // frame B sits where the tip of link2 is at rest: 0.4 m along x
  EXPECT_LT(distance(chain.b.placement.position, Eigen::Vector3d(0.4, 0.0, 0.0)), 1e-12);
  EXPECT_EQ(window_.selection(), "/closed_chains/0");
  EXPECT_EQ(window_.undoStack()->count(), edits + 1);

  // the loop is closed in the reference configuration: e(0) = 0, 3 constraints
  const Model model = buildModel(window_.robot());
  EXPECT_EQ(model.n_constraints, 3);
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq));
  ConstraintData constraints(model);
  constraintError(model, data, constraints);
  EXPECT_LT(constraints.e.norm(), 1e-12);

  // the tree shows it under body A; undo takes it away again
  QTreeWidgetItem* item = nullptr;
  for (QTreeWidgetItemIterator it(window_.modelTree()); *it; ++it) {
    if ((*it)->text(1) == "loop") item = *it;
  }
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->parent()->text(0), "link2");
  window_.undoStack()->undo();
  EXPECT_TRUE(window_.robot().closed_chains.empty());
  window_.undoStack()->redo();
  EXPECT_EQ(window_.robot().closed_chains.size(), 1u);
}

TEST_F(ModelBuildingTest, ClosedLoopJointBetweenTwoBodiesOrRefusedOnOne) {
  buildDoublePendulum();
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));  // link3 on link2
  window_.select(QString());
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));  // link4 on the world
  ASSERT_EQ(window_.robot().links.size(), 4u);
  ASSERT_TRUE(window_.addClosedLoopJoint("link3", "link4", JointType::Revolute));
  const ClosedChainDesc& chain = window_.robot().closed_chains.at(0);
  EXPECT_EQ(chain.b.link, "link4");
  // link3's tip (0.6, 0, 0) in the frame of link4 (at the origin)
  EXPECT_LT(distance(chain.b.placement.position, Eigen::Vector3d(0.6, 0.0, 0.0)), 1e-12);

  const RobotDescription before = window_.robot();
  EXPECT_FALSE(window_.addClosedLoopJoint("link3", "link3", JointType::Revolute));
  EXPECT_TRUE(window_.lastError().contains("two different bodies"))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot(), before);
}

TEST_F(ModelBuildingTest, EnvironmentDialogValidatesAndAppliesContactAndFluid) {
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  const RobotDescription original = window_.robot();

  {
    EnvironmentDialog dialog(window_.robot());
    auto* contact = dialog.findChild<QGroupBox*>("contactGroup");
    auto* fluid = dialog.findChild<QGroupBox*>("fluidGroup");
    auto* stiffness = dialog.findChild<QLineEdit*>("stiffness");
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    ASSERT_NE(contact, nullptr);
    ASSERT_NE(fluid, nullptr);
    ASSERT_NE(stiffness, nullptr);
    dialog.addObstacle("plane");
    EXPECT_TRUE(contact->isChecked());
    // an invalid value is shown with its reason and OK refused
    stiffness->setText("-5");
    EXPECT_FALSE(ok->isEnabled());
    EXPECT_TRUE(dialog.problem().contains("stiffness")) << dialog.problem().toStdString();
    stiffness->setText("2e4");
    EXPECT_TRUE(ok->isEnabled()) << dialog.problem().toStdString();
    // a sphere without a positive radius is refused too
    dialog.addObstacle("sphere");
    auto* table = dialog.findChild<QTableWidget*>("obstacles");
    ASSERT_EQ(table->rowCount(), 2);
    table->item(1, 3)->setText("0");
    EXPECT_TRUE(dialog.problem().contains("radius")) << dialog.problem().toStdString();
    table->item(1, 3)->setText("0.05");
    fluid->setChecked(true);
    dialog.findChild<QLineEdit*>("fluidDensity")->setText("1025");
    EXPECT_TRUE(dialog.problem().isEmpty()) << dialog.problem().toStdString();
    test::saveScreenshot(test::grabWindow(dialog), "environment_dialog");

    const EnvironmentDesc environment = dialog.environment();
    ASSERT_TRUE(environment.contact.has_value());
    EXPECT_DOUBLE_EQ(environment.contact->stiffness, 2e4);
    ASSERT_EQ(environment.contact->planes.size(), 1u);
    ASSERT_EQ(environment.contact->spheres.size(), 1u);
    EXPECT_DOUBLE_EQ(environment.contact->spheres[0].radius, 0.05);
    ASSERT_TRUE(environment.fluid.has_value());
    EXPECT_DOUBLE_EQ(environment.fluid->density, 1025.0);
    ASSERT_TRUE(window_.setEnvironment(environment));
  }
  ASSERT_TRUE(window_.robot().environment.contact.has_value());
  EXPECT_EQ(window_.robot().environment.contact->planes.size(), 1u);
  EXPECT_TRUE(window_.isWindowModified());
  (void)buildModel(window_.robot());  // the engine takes it

  // through the menu: switch the fluid off again
  onNextDialog([](QDialog* dialog) {
    auto* fluid = dialog->findChild<QGroupBox*>("fluidGroup");
    ASSERT_NE(fluid, nullptr);
    EXPECT_TRUE(fluid->isChecked());
    fluid->setChecked(false);
    dialog->accept();
  });
  action("environmentAction")->trigger();
  EXPECT_FALSE(window_.robot().environment.fluid.has_value());
  EXPECT_TRUE(window_.robot().environment.contact.has_value());

  window_.undoStack()->undo();
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot(), original);
}

// a link added to a small robot is the size of its links, not a 0.2 m default
TEST_F(ModelBuildingTest, ANewLinkIsSizedToTheModel) {
  ASSERT_TRUE(window_.openFile(test::examplePath("finray_finger.json")));
  const double typical = typicalLinkLength(window_.robot());
  ASSERT_LT(typical, 0.5 * kDefaultLinkLength);
  window_.select("/links/0");
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  const LinkDesc& added = window_.robot().links.back();
  EXPECT_DOUBLE_EQ(added.rigid().tip.position[0], typical);
  ASSERT_TRUE(window_.addSoftRod(1));
  EXPECT_NEAR(centrelineLength(window_.robot().links.back()), 2.0 * typical, 1e-15);
  test::saveScreenshot(test::grabWindow(window_), "finray_with_sized_links");
}

TEST_F(ModelBuildingTest, AttachesALinkAtAChosenPointAlongARod) {
  ASSERT_TRUE(window_.addSoftRod(2));   // rod1: two divisions of 0.2 m
  ASSERT_TRUE(window_.addPointLoad());  // at its tip
  window_.select("/links/0");
  ASSERT_TRUE(action("addAlongRodAction")->isEnabled());
  const int edits = window_.undoStack()->count();

  onNextDialog([](QDialog* dialog) {
    auto* abscissa = dialog->findChild<QDoubleSpinBox*>("abscissa");
    auto* body = dialog->findChild<QComboBox*>("attachedBody");
    ASSERT_NE(abscissa, nullptr);
    ASSERT_NE(body, nullptr);
    EXPECT_DOUBLE_EQ(abscissa->maximum(), 0.4);
    abscissa->setValue(0.3);
    body->setCurrentIndex(body->findData(static_cast<int>(JointType::Revolute)));
    dialog->accept();
  });
  action("addAlongRodAction")->trigger();

  const RobotDescription& robot = window_.robot();
  ASSERT_EQ(robot.links.size(), 3u) << "the rod, its continuation and the new link";
  EXPECT_EQ(window_.undoStack()->count(), edits + 1);
  const LinkDesc& head = robot.links[0];
  ASSERT_EQ(head.soft().divisions.size(), 2u);
  EXPECT_NEAR(head.soft().divisions[1].length, 0.1, 1e-12);
  const int tail = findLink(robot, "rod1_1");
  ASSERT_GE(tail, 0);
  EXPECT_EQ(robot.links[static_cast<std::size_t>(tail)].parent, "rod1");
  EXPECT_NEAR(robot.links[static_cast<std::size_t>(tail)].soft().divisions.at(0).length, 0.1,
              1e-12);
  const int added = findLink(robot, "link1");
  ASSERT_GE(added, 0);
  EXPECT_EQ(robot.links[static_cast<std::size_t>(added)].parent, "rod1");
  EXPECT_EQ(robot.links[static_cast<std::size_t>(added)].joint.type, JointType::Revolute);
  EXPECT_EQ(window_.selection(), QString("/links/%1").arg(added));
  // the load stays at the old tip, now the continuation's
  EXPECT_EQ(robot.point_loads.at(0).link, "rod1_1");

  // at rest: the rod still ends at 0.4 m, the new link starts at 0.3 m and ends 0.2 m further
  const FramePtr rest = restFrame(robot);
  bool rod_tip = false, link_tip = false;
  for (const Eigen::Vector3d& tip : rest->tips_W) {
    rod_tip = rod_tip || (tip - Eigen::Vector3d(0.4, 0, 0)).norm() < 1e-9;
    link_tip = link_tip || (tip - Eigen::Vector3d(0.5, 0, 0)).norm() < 1e-9;
  }
  EXPECT_TRUE(rod_tip);
  EXPECT_TRUE(link_tip);
  test::saveScreenshot(test::grabWindow(window_), "editing_link_along_rod");

  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot().links.size(), 1u);
  EXPECT_EQ(window_.robot().links[0].soft().divisions.size(), 2u);
}

TEST_F(ModelBuildingTest, AttachingAlongARodWithACableIsRefusedWithTheReason) {
  ASSERT_TRUE(window_.addSoftRod(1));
  ASSERT_TRUE(window_.addCable());
  window_.select("/links/0");
  const RobotDescription before = window_.robot();
  EXPECT_FALSE(window_.addLinkAlongRod(0.2, /*soft=*/true));
  EXPECT_TRUE(window_.lastError().contains("cable")) << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot(), before);
  // at the tip nothing needs splitting: allowed
  EXPECT_TRUE(window_.addLinkAlongRod(0.4, /*soft=*/true));
  EXPECT_EQ(window_.robot().links.size(), 2u);
}

TEST_F(ModelBuildingTest, JointInputsAndTimeFunctionKindsAreEditable) {
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  ASSERT_TRUE(action("addJointInputAction")->isEnabled());
  action("addJointInputAction")->trigger();
  ASSERT_EQ(window_.robot().joint_inputs.size(), 1u);
  EXPECT_EQ(window_.robot().joint_inputs[0].link, "link1");
  EXPECT_EQ(window_.selection(), "/joint_inputs/0");
  EXPECT_EQ(window_.robot().joint_inputs[0].value.kind, TimeFunction::Kind::Constant);

  // constant -> sine -> table -> ramp, each an undoable edit of the kind field
  ASSERT_TRUE(window_.setField("/joint_inputs/0/value/type", "sine"))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot().joint_inputs[0].value.kind, TimeFunction::Kind::Sine);
  EXPECT_DOUBLE_EQ(window_.robot().joint_inputs[0].value.amplitude, 1.0);
  ASSERT_TRUE(window_.setField("/joint_inputs/0/value/amplitude", "0.5"));
  ASSERT_TRUE(window_.setField("/joint_inputs/0/value/type", "table"));
  EXPECT_EQ(window_.robot().joint_inputs[0].value.table.size(), 2u);
  ASSERT_TRUE(window_.setField("/joint_inputs/0/value/points/1", "2, 0.25"));
  EXPECT_DOUBLE_EQ(window_.robot().joint_inputs[0].value.table[1][1], 0.25);
  // a kind that does not exist is refused with its reason
  EXPECT_FALSE(window_.setField("/joint_inputs/0/value/type", "square"));
  EXPECT_TRUE(window_.lastError().contains("constant, ramp, sine, table"))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot().joint_inputs[0].value.kind, TimeFunction::Kind::Table);

  // a cable's tension the same way
  window_.select(QString());
  ASSERT_TRUE(window_.addSoftRod(1));
  ASSERT_TRUE(window_.addCable());
  ASSERT_TRUE(window_.setField("/cables/0/tension/type", "ramp"));
  EXPECT_EQ(window_.robot().cables[0].tension.kind, TimeFunction::Kind::Ramp);
  EXPECT_DOUBLE_EQ(window_.robot().cables[0].tension.value, 1.0);  // keeps the level

  // the tree shows the input below its link; undo walks back through every kind
  bool input_item = false;
  for (QTreeWidgetItemIterator it(window_.modelTree()); *it; ++it) {
    input_item = input_item || ((*it)->text(1) == "input" && (*it)->parent()->text(0) == "link1");
  }
  EXPECT_TRUE(input_item);
  while (window_.undoStack()->canUndo() && window_.robot().joint_inputs.size() == 1u &&
         window_.robot().joint_inputs[0].value.kind != TimeFunction::Kind::Constant) {
    window_.undoStack()->undo();
  }
  ASSERT_EQ(window_.robot().joint_inputs.size(), 1u);
  EXPECT_EQ(window_.robot().joint_inputs[0].value.kind, TimeFunction::Kind::Constant);
}

TEST_F(ModelBuildingTest, JointInputNeedsAJointedLink) {
  ASSERT_TRUE(window_.addSoftRod(1));  // a fixed rod
  EXPECT_FALSE(action("addJointInputAction")->isEnabled());
  EXPECT_FALSE(window_.addJointInput());
  EXPECT_TRUE(window_.robot().joint_inputs.empty());
}

// a table input takes any number of points: typed as "t0, v0; t1, v1; ..." (checked, refused
// with its reason) or added and removed from the property panel's context menu; all undoable
TEST_F(ModelBuildingTest, TablesTakeAnyNumberOfPointsTypedOrFromTheContextMenu) {
  ASSERT_TRUE(window_.addSoftRod(1));
  ASSERT_TRUE(window_.addCable());
  ASSERT_EQ(window_.selection(), "/cables/0");
  ASSERT_TRUE(window_.setField("/cables/0/tension/type", "table"));
  ASSERT_EQ(window_.robot().cables[0].tension.kind, TimeFunction::Kind::Table);
  const QString points = "/cables/0/tension/points";
  QTreeWidgetItem* row = window_.propertyPanel()->itemFor(points);
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->flags() & Qt::ItemIsEditable);
  EXPECT_EQ(row->text(1), "0, 1; 1, 1");
  EXPECT_EQ(row->text(2), "s, N");

  // typed as a whole: four points
  const int edits = window_.undoStack()->count();
  typeIntoField(points, "0, 0; 0.5, 2; 1, 2; 3, 0");
  ASSERT_EQ(window_.robot().cables[0].tension.table.size(), 4u)
      << window_.propertyPanel()->errorText().toStdString();
  EXPECT_DOUBLE_EQ(window_.robot().cables[0].tension(0.25), 1.0);
  EXPECT_EQ(window_.undoStack()->count(), edits + 1);
  EXPECT_EQ(window_.propertyPanel()->itemFor(points)->childCount(), 4);

  // refused with the reason, never applied
  const RobotDescription four = window_.robot();
  typeIntoField(points, "0, 0; 1, 1; 1, 2");
  EXPECT_EQ(window_.robot(), four);
  EXPECT_TRUE(window_.propertyPanel()->errorText().contains("increase strictly"))
      << window_.propertyPanel()->errorText().toStdString();
  typeIntoField(points, "0, 0");
  EXPECT_TRUE(window_.propertyPanel()->errorText().contains("at least 2 points"));
  typeIntoField(points, "0, 0; 1, nan");
  EXPECT_TRUE(window_.propertyPanel()->errorText().contains("finite"));
  EXPECT_EQ(window_.robot(), four);
  EXPECT_EQ(window_.undoStack()->count(), edits + 1);

  // the context menu inserts halfway after a point, or past the last one
  triggerPropertyMenu(points + "/1", "addTablePoint");
  ASSERT_EQ(window_.robot().cables[0].tension.table.size(), 5u);
  EXPECT_EQ(window_.robot().cables[0].tension.table[2], (std::array<double, 2>{0.75, 2.0}));
  triggerPropertyMenu(points, "addTablePoint");
  ASSERT_EQ(window_.robot().cables[0].tension.table.size(), 6u);
  EXPECT_EQ(window_.robot().cables[0].tension.table[5], (std::array<double, 2>{5.0, 0.0}));
  // a point is edited on its own row too
  typeIntoField(points + "/5", "4, 0.5");
  EXPECT_EQ(window_.robot().cables[0].tension.table[5], (std::array<double, 2>{4.0, 0.5}));

  // right-clicking a point opens the same menu; remove it from there
  QTreeWidget* tree = window_.propertyPanel()->tree();
  QTreeWidgetItem* first = window_.propertyPanel()->itemFor(points + "/0");
  ASSERT_NE(first, nullptr);
  tree->scrollToItem(first);
  const QPoint at = tree->visualItemRect(first).center();
  QContextMenuEvent click(QContextMenuEvent::Mouse, at, tree->viewport()->mapToGlobal(at));
  QApplication::sendEvent(tree->viewport(), &click);
  QMenu* popup = nullptr;
  ASSERT_TRUE(QTest::qWaitFor(
      [&popup] {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
          if (auto* menu = qobject_cast<QMenu*>(widget); menu != nullptr && menu->isVisible()) {
            popup = menu;
          }
        }
        return popup != nullptr;
      },
      2000));
  auto* remove = popup->findChild<QAction*>("removeTablePoint");
  ASSERT_NE(remove, nullptr);
  remove->trigger();
  popup->close();
  QTest::qWait(20);
  ASSERT_EQ(window_.robot().cables[0].tension.table.size(), 5u);
  EXPECT_EQ(window_.robot().cables[0].tension.table[0], (std::array<double, 2>{0.5, 2.0}));

  // down to two points, which a table keeps
  for (int i = 0; i < 3; ++i) triggerPropertyMenu(points + "/1", "removeTablePoint");
  ASSERT_EQ(window_.robot().cables[0].tension.table.size(), 2u);
  triggerPropertyMenu(points + "/0", "removeTablePoint", /*expect_enabled=*/false);
  test::saveScreenshot(test::grabWindow(window_), "editing_table_points");

  // every step was one undoable edit
  while (window_.undoStack()->index() > edits + 1) {
    window_.undoStack()->undo();
  }
  EXPECT_EQ(window_.robot(), four);
}

// a rigid link joins the fluid from the context menu (or the Environment dialog), its volume,
// drag and added mass are then edited in the Properties panel with their units; all undoable
TEST_F(ModelBuildingTest, RigidLinksJoinAndLeaveTheFluidWithEditableSettings) {
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  ASSERT_TRUE(window_.addSoftRod(1));
  window_.select("/links/0");
  // without a fluid there is nothing to join
  EXPECT_FALSE(action("addToFluidAction")->isEnabled());
  EXPECT_FALSE(window_.addSelectedLinkToFluid());
  EXPECT_TRUE(window_.lastError().contains("fluid")) << window_.lastError().toStdString();
  QMessageBox* box = test::visibleErrorBox(window_);
  if (box != nullptr) box->close();

  EnvironmentDesc water;
  water.fluid = FluidDesc{};
  ASSERT_TRUE(window_.setEnvironment(water));
  window_.select("/links/0");
  ASSERT_TRUE(action("addToFluidAction")->isEnabled());
  EXPECT_FALSE(action("removeFromFluidAction")->isEnabled());
  {
    std::unique_ptr<QMenu> menu(window_.createContextMenu());
    EXPECT_TRUE(menu->actions().contains(action("addToFluidAction")));
  }
  action("addToFluidAction")->trigger();
  ASSERT_EQ(window_.robot().environment.fluid->bodies.size(), 1u);
  EXPECT_EQ(window_.robot().environment.fluid->bodies[0].link, "link1");
  EXPECT_EQ(window_.selection(), "/environment/fluid/bodies/0");
  QTreeWidgetItem* entry = window_.modelTree()->itemFor("/environment/fluid/bodies/0");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->parent()->text(0), "link1");

  // its fields, with units, edited in place
  const QString at = "/environment/fluid/bodies/0/";
  PropertyPanel* panel = window_.propertyPanel();
  ASSERT_NE(panel->itemFor(at + "volume"), nullptr);
  EXPECT_EQ(panel->itemFor(at + "volume")->text(2), "m^3");
  EXPECT_EQ(panel->itemFor(at + "drag")->toolTip(2),
            "N s^2, N s^2, N s^2, N s^2/m^2, N s^2/m^2, N s^2/m^2");
  EXPECT_EQ(panel->itemFor(at + "added_mass")->toolTip(2), "kg m^2, kg m^2, kg m^2, kg, kg, kg");
  typeIntoField(at + "drag", "0, 0, 0, 1, 2, 3");
  EXPECT_EQ(window_.robot().environment.fluid->bodies[0].drag[5], 3.0)
      << panel->errorText().toStdString();
  typeIntoField(at + "volume", "0.002");
  EXPECT_EQ(window_.robot().environment.fluid->bodies[0].volume, 0.002);
  const RobotDescription edited = window_.robot();
  typeIntoField(at + "added_mass", "0, 0, 0, -1, 0, 0");
  EXPECT_TRUE(panel->errorText().contains("must not be negative"))
      << panel->errorText().toStdString();
  EXPECT_EQ(window_.robot(), edited);
  test::saveScreenshot(test::grabWindow(window_), "editing_fluid_body");

  // soft rods use the fluid's coefficients: nothing to add
  window_.select("/links/1");
  EXPECT_FALSE(action("addToFluidAction")->isEnabled());
  // leaving the fluid, from the link or from its entry
  window_.select("/links/0");
  ASSERT_TRUE(action("removeFromFluidAction")->isEnabled());
  action("removeFromFluidAction")->trigger();
  EXPECT_TRUE(window_.robot().environment.fluid->bodies.empty());
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot(), edited);
  window_.select("/environment/fluid/bodies/0");
  ASSERT_TRUE(window_.removeSelected());
  EXPECT_TRUE(window_.robot().environment.fluid->bodies.empty());
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot(), edited);

  // the Environment dialog lists and unlists them as well, keeping an entry's settings
  {
    EnvironmentDialog dialog(window_.robot());
    ASSERT_TRUE(test::showAndWait(&dialog));
    auto* list = dialog.findChild<QListWidget*>("fluidBodies");
    auto* choice = dialog.findChild<QComboBox*>("fluidBodyChoice");
    auto* add = dialog.findChild<QPushButton*>("addFluidBody");
    auto* remove = dialog.findChild<QPushButton*>("removeFluidBody");
    ASSERT_TRUE(list && choice && add && remove);
    ASSERT_EQ(list->count(), 1);
    EXPECT_EQ(choice->count(), 0);  // link1 is listed, rod1 is soft
    EXPECT_FALSE(add->isEnabled());
    list->setCurrentRow(0);
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_EQ(list->count(), 0);
    ASSERT_EQ(choice->count(), 1);
    EXPECT_TRUE(dialog.environment().fluid->bodies.empty());
    QTest::mouseClick(add, Qt::LeftButton);
    ASSERT_EQ(list->count(), 1);
    ASSERT_EQ(dialog.environment().fluid->bodies.size(), 1u);
    EXPECT_EQ(dialog.environment().fluid->bodies[0].drag[5], 0.0);  // a fresh entry
    EXPECT_TRUE(dialog.problem().isEmpty()) << dialog.problem().toStdString();
    test::saveScreenshot(test::grabWindow(dialog), "environment_dialog_fluid_bodies");
    dialog.reject();
  }
}

}  // namespace
}  // namespace tendril
