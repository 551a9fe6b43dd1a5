// GUI tests of building and editing a robot: tool bar and context-menu edits, picking in the 3D
// view, the property editor with its validation, drag-and-drop re-parenting, undo and redo, the
// unsaved-changes marker and the question before losing work.

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <algorithm>
#include <memory>
#include <utility>

#include "core/io/json_io.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

class EditingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(temp_.isValid());
    ASSERT_TRUE(test::showAndWait(&window_));
    window_.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
  }

  void clickToolButton(const char* name) {
    auto* button = window_.findChild<QToolButton*>(name);
    ASSERT_NE(button, nullptr) << name;
    // the left part of a menu button: its default action, not the menu arrow
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));
    QTest::qWait(20);
  }

  /// Clicks the viewport where the centre of link \p link's first rigid body or rod sample is
  /// drawn.
  void clickLinkInViewport(int link) {
    const FramePtr frame = window_.viewport()->currentFrame();
    ASSERT_NE(frame, nullptr);
    std::optional<Eigen::Vector3d> at;
    for (const BodyShape& body : frame->bodies) {
      if (body.link == link) at = body.pose_W.translation();
    }
    for (const RodShape& rod : frame->rods) {
      if (rod.link == link && !at) at = rod.points[rod.points.size() / 2];
    }
    ASSERT_TRUE(at.has_value());
    const QPoint position = window_.viewport()->projectToWidget(*at).toPoint();
    QTest::mouseClick(window_.viewport(), Qt::LeftButton, {}, position);
    QTest::qWait(20);
  }

  /// Types \p text into the property editor of the field at \p pointer, as a person would.
  void typeIntoField(const QString& pointer, const QString& text) {
    test::typeIntoField(*window_.propertyPanel(), pointer, text);
  }

  QTemporaryDir temp_;
  MainWindow window_;
};

TEST_F(EditingTest, BuildsARevoluteLinkCarryingASoftRodByClicksSavesReopensAndUndoes) {
  ASSERT_TRUE(window_.robot().links.empty());
  EXPECT_FALSE(window_.isWindowModified());

  // a revolute rigid link on the world
  clickToolButton("addLinkButton");
  ASSERT_EQ(window_.robot().links.size(), 1u);
  EXPECT_EQ(window_.robot().links[0].joint.type, JointType::Revolute);
  EXPECT_EQ(window_.robot().links[0].parent, "world");
  EXPECT_TRUE(window_.isWindowModified());
  EXPECT_EQ(window_.selection(), "/links/0");

  // select it by clicking its body in the 3D view, then add a soft rod at its tip
  window_.select(QString());
  ASSERT_EQ(window_.modelTree()->selectedLink(), -1);
  clickLinkInViewport(0);
  EXPECT_EQ(window_.modelTree()->selectedLink(), 0);
  EXPECT_EQ(window_.viewport()->highlightedLink(), 0);
  clickToolButton("addRodButton");
  ASSERT_EQ(window_.robot().links.size(), 2u);
  EXPECT_EQ(window_.robot().links[1].kind(), BodyKind::Soft);
  EXPECT_EQ(window_.robot().links[1].parent, window_.robot().links[0].name);
  EXPECT_EQ(window_.modelTree()->linkItemCount(), 2);

  // and shorten the rod in the property editor
  typeIntoField("/links/1/soft/divisions/0/length", "0.3");
  EXPECT_DOUBLE_EQ(window_.robot().links[1].soft().divisions[0].length, 0.3);
  EXPECT_EQ(window_.undoStack()->count(), 3);
  window_.select(QString());  // the selected rod is tinted: count it untinted
  EXPECT_GT(test::countRodPixels(window_.viewport()->grabFramebuffer()), 200);
  test::saveScreenshot(test::grabWindow(window_), "editing_hybrid_robot_built");

  // save, reopen in another window: the same description, byte for byte the same file
  const QString path = temp_.filePath("hybrid.json");
  ASSERT_TRUE(window_.saveFile(path)) << window_.lastError().toStdString();
  EXPECT_FALSE(window_.isWindowModified());
  const RobotDescription built = window_.robot();
  {
    MainWindow reopened;
    ASSERT_TRUE(reopened.openFile(path)) << reopened.lastError().toStdString();
    EXPECT_EQ(reopened.robot(), built);
    const QString copy = temp_.filePath("hybrid_again.json");
    ASSERT_TRUE(reopened.saveFile(copy));
    EXPECT_EQ(readAll(copy), readAll(path));
    EXPECT_EQ(readAll(path).toStdString(), serializeRobot(built));
  }

  // undo back to the empty model, with Ctrl+Z; the save did not forget the history
  for (int i = 0; i < 3; ++i) {
    QTest::keyClick(&window_, Qt::Key_Z, Qt::ControlModifier);
  }
  EXPECT_TRUE(window_.robot().links.empty());
  EXPECT_EQ(window_.modelTree()->linkItemCount(), 0);
  EXPECT_TRUE(window_.isWindowModified());
  EXPECT_EQ(test::countRodPixels(window_.viewport()->grabFramebuffer()), 0);
  // and forward again with Ctrl+Shift+Z and Ctrl+Y (both redo, on every platform): back to
  // what was saved, so unmodified
  for (int i = 0; i < 3; ++i) {
    if (i < 2) {
      QTest::keyClick(&window_, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    } else {
      QTest::keyClick(&window_, Qt::Key_Y, Qt::ControlModifier);
    }
    EXPECT_EQ(window_.undoStack()->index(), i + 1);
  }
  EXPECT_EQ(window_.robot(), built);
  EXPECT_FALSE(window_.isWindowModified());
}

TEST_F(EditingTest, AnInvalidValueIsRefusedWithItsReasonAndNeverApplied) {
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  window_.select("/links/0");
  const RobotDescription before = window_.robot();
  const QString field = "/links/0/soft/divisions/0/material/poisson_ratio";
  ASSERT_NE(window_.propertyPanel()->itemFor(field), nullptr);

  typeIntoField(field, "0.7");
  EXPECT_EQ(window_.robot(), before);
  EXPECT_EQ(window_.undoStack()->count(), 0);
  EXPECT_FALSE(window_.isWindowModified());
  const QString reason = window_.propertyPanel()->errorText();
  EXPECT_TRUE(reason.contains("Division 1 › Material › Poisson's ratio")) << reason.toStdString();
  EXPECT_TRUE(reason.contains("(-1, 0.5]")) << reason.toStdString();
  const auto* label = window_.propertyPanel()->findChild<QLabel*>("propertyError");
  ASSERT_NE(label, nullptr);
  EXPECT_TRUE(label->toolTip().contains(field)) << "the JSON pointer one hover away";
  EXPECT_EQ(window_.propertyPanel()->itemFor(field)->text(1), "0.5");  // the old value stays
  test::saveScreenshot(test::grabWindow(window_), "editing_invalid_value_refused");

  typeIntoField("/links/0/soft/divisions/0/length", "long");
  EXPECT_TRUE(window_.propertyPanel()->errorText().contains("expected a number"));
  EXPECT_EQ(window_.robot(), before);

  // a valid value clears the message and is applied
  typeIntoField(field, "0.3");
  EXPECT_TRUE(window_.propertyPanel()->errorText().isEmpty());
  EXPECT_EQ(window_.robot().links[0].soft().divisions[0].material.poisson_ratio, 0.3);
  EXPECT_TRUE(window_.isWindowModified());
}

TEST_F(EditingTest, PropertiesShowEveryFieldWithItsUnit) {
  ASSERT_TRUE(window_.openDefaultExample());
  int rigid = -1;
  for (std::size_t i = 0; i < window_.robot().links.size(); ++i) {
    if (window_.robot().links[i].kind() == BodyKind::Rigid) rigid = static_cast<int>(i);
  }
  ASSERT_GE(rigid, 0);
  window_.select(QString("/links/%1").arg(rigid));
  EXPECT_EQ(window_.propertyPanel()->unitOf("mass"), "kg");
  EXPECT_EQ(window_.propertyPanel()->unitOf("inertia"), "kg m^2");
  EXPECT_EQ(window_.propertyPanel()->unitOf("rpy"), "rad");
  EXPECT_FALSE(window_.propertyPanel()->valueOf("type").isEmpty());
}

// the fields of a JSON pointer that carry no unit: names, choices, flags, counts, orders,
// directions (normalised), colours, file names and pure coefficients; a load's scale multiplies
// the wrench, a mesh's its coordinates; a joint's friction limit is a torque or a force
bool isDimensionless(const QString& pointer) {
  if (pointer.contains("/limits/")) return false;
  static const QSet<QString> kKeys = {
      "name", "description", "file", "scale", "parent", "link", "type", "shape", "family", "mode",
      "model", "stress_model", "frame", "order", "torsion", "bend_y", "bend_z", "stretch",
      "shear_y", "shear_z", "gauss_points", "magnus_order", "poisson_ratio", "exponent", "friction",
      "rigid_bodies", "normal", "axis", "drag_normal", "drag_tangential", "added_mass_coefficient",
      "dof", "planar", "division", "color", "schema_version",
      // an LVP body's primitive parameters P are normalised
      // (lvp_body.hpp), its quadrature sizes are counts
      "modes", "rest", "axial", "radial", "angular"};
  QString key;
  const QStringList parts = pointer.split('/', Qt::SkipEmptyParts);
  for (auto part = parts.rbegin(); part != parts.rend(); ++part) {
    bool index = false;
    (void)part->toInt(&index);
    if (!index) {
      key = *part;
      break;
    }
  }
  if (pointer.contains("/scale/") && (key == "value" || key == "amplitude" || key == "offset")) {
    return true;
  }
  return kKeys.contains(key);
}

// every field of every bundled example, as the Properties panel shows it: a unit on each
// dimensional field (whole in its tooltip), none on a dimensionless one
TEST_F(EditingTest, EveryFieldOfEveryExampleShowsItsUnit) {
  int checked = 0;
  QSet<QString> contact_damping_units;
  for (const QString& file : MainWindow::exampleFiles()) {
    ASSERT_TRUE(window_.openFile(file)) << file.toStdString();
    const RobotDescription& robot = window_.robot();
    QStringList items = {QString()};
    auto add = [&items](const char* list, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) items << QString("/%1/%2").arg(list).arg(i);
    };
    add("links", robot.links.size());
    add("cables", robot.cables.size());
    add("point_loads", robot.point_loads.size());
    add("joint_inputs", robot.joint_inputs.size());
    add("closed_chains", robot.closed_chains.size());
    if (robot.environment.fluid) {
      add("environment/fluid/bodies", robot.environment.fluid->bodies.size());
    }
    for (const QString& item : items) {
      window_.select(item);
      ASSERT_EQ(window_.propertyPanel()->shownPointer(), item) << file.toStdString();
      for (QTreeWidgetItemIterator it(window_.propertyPanel()->tree()); *it; ++it) {
        if (!((*it)->flags() & Qt::ItemIsEditable)) continue;  // a group
        const QString pointer = PropertyPanel::pointerOf(*it);
        const QString unit = (*it)->text(2);
        const QString where = QFileInfo(file).fileName() + " " + pointer;
        if (isDimensionless(pointer)) {
          EXPECT_TRUE(unit.isEmpty())
              << where.toStdString() << " shows \"" << unit.toStdString() << "\"";
        } else {
          EXPECT_FALSE(unit.isEmpty()) << where.toStdString() << " has no unit";
        }
        EXPECT_EQ((*it)->toolTip(2), unit) << where.toStdString();
        if (pointer == "/environment/contact/damping") contact_damping_units << unit;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
  // Hunt-Crossley c multiplies the penetration rate: s/m (external_loads.cpp)
  EXPECT_EQ(contact_damping_units, QSet<QString>{"s/m"});
}

// every field shows a human name (no JSON key with underscores) and a tooltip that explains it
// from the model schema, then gives its JSON key and pointer
TEST_F(EditingTest, EveryFieldOfEveryExampleHasAHumanNameAndAnExplanation) {
  int checked = 0;
  for (const QString& file : MainWindow::exampleFiles()) {
    ASSERT_TRUE(window_.openFile(file)) << file.toStdString();
    const RobotDescription& robot = window_.robot();
    QStringList items = {QString()};
    for (std::size_t i = 0; i < robot.links.size(); ++i) items << QString("/links/%1").arg(i);
    for (std::size_t i = 0; i < robot.cables.size(); ++i) items << QString("/cables/%1").arg(i);
    for (std::size_t i = 0; i < robot.joint_inputs.size(); ++i) {
      items << QString("/joint_inputs/%1").arg(i);
    }
    for (const QString& item : items) {
      window_.select(item);
      for (QTreeWidgetItemIterator it(window_.propertyPanel()->tree()); *it; ++it) {
        const QString pointer = PropertyPanel::pointerOf(*it);
        const QString where = QFileInfo(file).fileName() + " " + pointer;
        const QString name = (*it)->text(0);
        EXPECT_FALSE(name.isEmpty() || name.contains('_') || name[0].isLower())
            << where.toStdString() << " is shown as \"" << name.toStdString() << "\"";
        const QString tip = (*it)->toolTip(0);
        EXPECT_TRUE(tip.contains(pointer)) << where.toStdString();
        if ((*it)->flags() & Qt::ItemIsEditable) {
          // name, then the explanation, then the key: three paragraphs at least
          EXPECT_GE(tip.count("<p"), 2) << where.toStdString() << ": " << tip.toStdString();
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

// names people read; the JSON counts from 0 where the studio counts from 1; a strain that is
// off says so and is switched on and off by typing
TEST_F(EditingTest, PropertiesUseHumanNamesOneNumberingAndSayWhenAStrainIsOff) {
  ASSERT_TRUE(window_.openFile(test::examplePath("cable_manipulator.json")));
  window_.select("/links/0");
  PropertyPanel& panel = *window_.propertyPanel();
  const QString division = "/links/0/soft/divisions/0";
  ASSERT_NE(panel.itemFor(division), nullptr);
  EXPECT_EQ(panel.itemFor(division)->text(0), "Division 1");
  EXPECT_EQ(panel.itemFor(division + "/gauss_points")->text(0), "Gauss points");
  EXPECT_TRUE(panel.itemFor(division + "/gauss_points")->toolTip(0).contains("Gauss-Legendre"));
  EXPECT_EQ(panel.itemFor(division + "/material/youngs_modulus")->text(0), "Young's modulus");
  EXPECT_EQ(panel.itemFor("/links/0/soft/magnus_order")->text(0), "Magnus expansion order");
  // the deepest rows (a division's strain orders) show their names whole
  test::saveScreenshot(test::grabWindow(window_), "editing_strain_orders");
  QTreeWidget* tree = panel.tree();
  for (const char* strain : {"torsion", "bend_y", "bend_z", "stretch", "shear_y", "shear_z"}) {
    const QTreeWidgetItem* row = panel.itemFor(division + "/basis/order/" + strain);
    ASSERT_NE(row, nullptr) << strain;
    const QRect shown = tree->visualItemRect(row);
    EXPECT_GE(tree->header()->sectionSize(0) - shown.left(),
              tree->fontMetrics().horizontalAdvance(row->text(0)))
        << row->text(0).toStdString() << " is elided";
  }

  // a strain component that is off shows "off"; typing a number switches it on, "off" off
  const QString torsion = division + "/basis/order/torsion";
  const auto order = [&] { return window_.robot().links[0].soft().divisions[0].basis.order; };
  typeIntoField(torsion, "off");
  EXPECT_EQ(panel.itemFor(torsion)->text(1), "off");
  EXPECT_EQ(order()[0], -1) << "torsion is the first strain component";
  typeIntoField(torsion, "1");
  EXPECT_EQ(order()[0], 1);
  EXPECT_EQ(panel.itemFor(torsion)->text(1), "1");

  // a cable's rod division: shown from 1, stored from 0
  ASSERT_FALSE(window_.robot().cables.empty());
  window_.select("/cables/0");
  const QString segment_division = "/cables/0/path/0/division";
  ASSERT_NE(panel.itemFor(segment_division), nullptr);
  const int stored = window_.robot().cables[0].path[0].division;
  EXPECT_EQ(panel.itemFor(segment_division)->text(1), QString::number(stored + 1));
  EXPECT_EQ(panel.itemFor("/cables/0/path/0")->text(0), "Segment 1");
  test::saveScreenshot(test::grabWindow(window_), "editing_property_names");

  // a refused value names the place as people see it, not as a JSON pointer
  window_.select("/links/0");
  typeIntoField(division + "/length", "-1");
  const QString error = panel.errorText();
  EXPECT_TRUE(error.startsWith(
      QString("Link “%1”").arg(QString::fromStdString(window_.robot().links[0].name))))
      << error.toStdString();
  EXPECT_TRUE(error.contains("Division 1 › Length")) << error.toStdString();

  // a modulus beyond any material is refused up front, not left to the integrator to fail on
  const RobotDescription before = window_.robot();
  typeIntoField(division + "/material/youngs_modulus", "1e30");
  EXPECT_EQ(window_.robot(), before);
  EXPECT_TRUE(panel.errorText().contains("Young's modulus: 1e+30 Pa is stiffer than any material"))
      << panel.errorText().toStdString();
}

// the model tree widens to show every name below the robot whole (the fin-ray finger's were
// elided in a tree of fixed width)
TEST_F(EditingTest, TheModelTreeShowsEveryNameWhole) {
  for (const char* example : {"cable_manipulator.json", "finray_finger.json",
                              "underwater_robot.json", "parallel_robot.json"}) {
    ASSERT_TRUE(window_.openFile(test::examplePath(example)));
    QTest::qWait(50);  // the dock's new width is laid out
    QTreeWidget* tree = window_.modelTree();
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
      if ((*it)->parent() == nullptr) continue;  // the robot's own name may be elided
      const QRect shown = tree->visualItemRect(*it);
      const int text = tree->fontMetrics().horizontalAdvance((*it)->text(0));
      const int column = tree->header()->sectionSize(0);
      EXPECT_GE(column - (shown.left() - tree->header()->sectionPosition(0)), text)
          << example << ": " << (*it)->text(0).toStdString() << " is elided";
    }
  }
  test::saveScreenshot(test::grabWindow(window_), "editing_model_tree_names_whole");
}

// Property, Value and Unit fit the panel: no horizontal scrolling, values such as "monomial"
// whole, long units elided with the whole unit in the tooltip
TEST_F(EditingTest, PropertyColumnsFitThePanel) {
  QTreeWidget* tree = window_.propertyPanel()->tree();
  auto fits = [this, tree](const QString& pointer) {
    QTreeWidgetItem* item = window_.propertyPanel()->itemFor(pointer);
    ASSERT_NE(item, nullptr) << pointer.toStdString();
    const int width = tree->viewport()->width();
    const QHeaderView* header = tree->header();
    EXPECT_LE(header->sectionViewportPosition(2) + header->sectionSize(2), width);
    EXPECT_EQ(header->sectionViewportPosition(0), 0);
    EXPECT_FALSE(tree->horizontalScrollBar()->isVisible());
    EXPECT_GE(header->sectionSize(1), tree->fontMetrics().horizontalAdvance(item->text(1)) + 8)
        << pointer.toStdString() << ": \"" << item->text(1).toStdString() << "\"";
    EXPECT_GE(header->sectionSize(2), tree->fontMetrics().horizontalAdvance("kg/m^3"));
    // the property's name whole, after its indentation
    int depth = 1;  // the root is decorated
    for (const QTreeWidgetItem* up = item->parent(); up != nullptr; up = up->parent()) ++depth;
    EXPECT_GE(header->sectionSize(0),
              depth * tree->indentation() + tree->fontMetrics().horizontalAdvance(item->text(0)))
        << pointer.toStdString();
  };
  ASSERT_TRUE(window_.openFile(test::examplePath("soft_cantilever.json")));
  window_.select("/links/0");
  QTest::qWait(20);
  ASSERT_EQ(window_.propertyPanel()->valueOf("family"), "monomial");
  fits("/links/0/soft/divisions/0/basis/family");
  fits("/links/0/soft/divisions/0/material/youngs_modulus");
  EXPECT_EQ(
      window_.propertyPanel()->itemFor("/links/0/soft/divisions/0/reference_strain")->toolTip(2),
      "1/m, 1/m, 1/m, -, -, -");
  test::saveScreenshot(test::grabWindow(window_), "editing_property_columns");

  ASSERT_TRUE(window_.openFile(test::examplePath("parallel_robot.json")));
  ASSERT_FALSE(window_.robot().point_loads.empty());
  window_.select("/point_loads/0");
  QTest::qWait(20);
  fits("/point_loads/0/link");
  EXPECT_EQ(window_.propertyPanel()->itemFor("/point_loads/0/wrench")->toolTip(2),
            "N m, N m, N m, N, N, N");
  test::saveScreenshot(test::grabWindow(window_), "editing_property_columns_wrench");
}

TEST_F(EditingTest, ClickingABodyInTheViewSelectsAndHighlightsIt) {
  ASSERT_TRUE(window_.openDefaultExample());
  const QImage before = window_.viewport()->grabFramebuffer();
  const FramePtr frame = window_.viewport()->currentFrame();
  ASSERT_FALSE(frame->bodies.empty());
  const int link = frame->bodies.back().link;
  clickLinkInViewport(link);
  EXPECT_EQ(window_.modelTree()->selectedLink(), link);
  EXPECT_EQ(window_.propertyPanel()->valueOf("name"),
            QString::fromStdString(window_.robot().links[static_cast<std::size_t>(link)].name));
  const QImage highlighted = window_.viewport()->grabFramebuffer();
  EXPECT_GT(test::countDifferentPixels(before, highlighted), 100);
  test::saveScreenshot(test::grabWindow(window_), "editing_body_picked_in_view");

  // a click on the empty background selects the robot itself
  QTest::mouseClick(window_.viewport(), Qt::LeftButton, {}, QPoint(5, 5));
  EXPECT_EQ(window_.modelTree()->selectedLink(), -1);
  EXPECT_EQ(window_.viewport()->highlightedLink(), -1);
}

TEST_F(EditingTest, RightClickingABodyInTheViewSelectsItAndShowsTheContextMenu) {
  ASSERT_TRUE(window_.openDefaultExample());
  const FramePtr frame = window_.viewport()->currentFrame();
  ASSERT_FALSE(frame->bodies.empty());
  const int link = frame->bodies.back().link;
  const QPoint position =
      window_.viewport()->projectToWidget(frame->bodies.back().pose_W.translation()).toPoint();
  auto visible_menu = [this]() -> QMenu* {
    for (auto* menu : window_.findChildren<QMenu*>("contextMenu")) {
      if (menu->isVisible()) return menu;
    }
    return nullptr;
  };

  // a right drag zooms: no menu, no selection
  window_.select(QString());
  QTest::mousePress(window_.viewport(), Qt::RightButton, {}, position);
  QTest::mouseRelease(window_.viewport(), Qt::RightButton, {}, position + QPoint(0, 30));
  QTest::qWait(50);
  EXPECT_EQ(visible_menu(), nullptr);
  EXPECT_EQ(window_.modelTree()->selectedLink(), -1);

  // a right click selects the body and pops up the tree's menu for it (where the zoom left it)
  const QPoint zoomed =
      window_.viewport()
          ->projectToWidget(window_.viewport()->currentFrame()->bodies.back().pose_W.translation())
          .toPoint();
  QTest::mouseClick(window_.viewport(), Qt::RightButton, {}, zoomed);
  QMenu* menu = nullptr;
  ASSERT_TRUE(QTest::qWaitFor([&] { return (menu = visible_menu()) != nullptr; }, 2000));
  EXPECT_EQ(window_.modelTree()->selectedLink(), link);
  EXPECT_EQ(window_.viewport()->highlightedLink(), link);
  const QList<QAction*> actions = menu->actions();
  const auto load = std::find_if(actions.begin(), actions.end(), [](const QAction* action) {
    return action->objectName() == "addPointLoadAction";
  });
  ASSERT_NE(load, actions.end());
  EXPECT_TRUE((*load)->isEnabled());  // a load on the body just picked
  test::saveScreenshot(test::grabWindow(window_), "editing_viewport_context_menu");
  test::saveScreenshot(menu->grab().toImage(), "editing_viewport_context_menu_popup");
  menu->close();
  EXPECT_TRUE(QTest::qWaitFor([&] { return visible_menu() == nullptr; }, 2000));
}

// an LVP body's tendons and cavity pressures are items of the model tree under their body:
// selected, edited in the Properties panel, removed and brought back by Undo
TEST_F(EditingTest, LvpTendonsAndCavityPressuresAreTreeItemsToEditAndRemove) {
  ASSERT_TRUE(window_.openFile(test::examplePath("lvp_single_body.json")));
  // the body at rest is drawn (its straight shape once drew nothing)
  EXPECT_GT(test::countRodPixels(window_.viewport()->grabFramebuffer()), 2000);
  for (const auto& [pointer, kind] :
       {std::pair<QString, QString>{"/lvp_tendons/0", "tendon"},
        std::pair<QString, QString>{"/cavity_pressures/0", "pressure"}}) {
    QTreeWidgetItem* item = window_.modelTree()->itemFor(pointer);
    ASSERT_NE(item, nullptr) << pointer.toStdString();
    EXPECT_EQ(item->text(1), kind);
    ASSERT_NE(item->parent(), nullptr);
    EXPECT_EQ(item->parent()->text(0), "body");
    window_.select(pointer);
    EXPECT_EQ(window_.selection(), pointer);
  }
  window_.select("/cavity_pressures/0");
  ASSERT_NE(window_.propertyPanel()->itemFor("/cavity_pressures/0/pressure/value"), nullptr);
  ASSERT_TRUE(window_.setField("/cavity_pressures/0/pressure/value", "30000"))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot().cavity_pressures[0].pressure.value, 30000.0);
  test::saveScreenshot(test::grabWindow(window_), "editing_lvp_pressure");
  window_.select("/lvp_tendons/0");
  ASSERT_TRUE(window_.removeSelected());
  EXPECT_TRUE(window_.robot().lvp_tendons.empty());
  EXPECT_EQ(window_.modelTree()->itemFor("/lvp_tendons/0"), nullptr);
  window_.undoStack()->undo();
  ASSERT_EQ(window_.robot().lvp_tendons.size(), 1u);
  EXPECT_NE(window_.modelTree()->itemFor("/lvp_tendons/0"), nullptr);
}

// Model > Add Volume-Preserving Body, from the menu and the context menu: a helicoid body on a
// rigid link, an inflatable one on it with its cavity's pressure under it in the tree; both drawn
TEST_F(EditingTest, BuilderAddsHelicoidAndInflatableBodiesThatAreDrawn) {
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  QAction* helicoid = test::findAction(window_, "addHelicoidBodyAction");
  QAction* inflatable = test::findAction(window_, "addInflatableBodyAction");
  ASSERT_NE(helicoid, nullptr);
  ASSERT_NE(inflatable, nullptr);
  {
    std::unique_ptr<QMenu> context(window_.createContextMenu());
    auto* lvp = window_.findChild<QMenu*>("addLvpMenu");
    ASSERT_NE(lvp, nullptr);
    EXPECT_TRUE(context->actions().contains(lvp->menuAction()));
  }
  const double pixels_before = test::countRodPixels(window_.viewport()->grabFramebuffer());
  helicoid->trigger();
  ASSERT_EQ(window_.robot().links.size(), 2u) << window_.lastError().toStdString();
  EXPECT_EQ(window_.selection(), "/links/1");
  inflatable->trigger();
  ASSERT_EQ(window_.robot().links.size(), 3u) << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot().links[2].parent, window_.robot().links[1].name);
  for (const QString& link : {QString("/links/1"), QString("/links/2")}) {
    const QTreeWidgetItem* item = window_.modelTree()->itemFor(link);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->text(1), "LVP body");
  }
  ASSERT_EQ(window_.robot().cavity_pressures.size(), 1u);
  // Cable on a volume-preserving body adds a tendon on its surface
  window_.select("/links/1");
  QAction* cable = test::findAction(window_, "addCableAction");
  ASSERT_TRUE(cable->isEnabled());
  cable->trigger();
  ASSERT_EQ(window_.robot().lvp_tendons.size(), 1u) << window_.lastError().toStdString();
  EXPECT_EQ(window_.selection(), "/lvp_tendons/0");
  EXPECT_EQ(window_.viewport()->cableLineCount(), 1);  // drawn on the body's surface
  const QTreeWidgetItem* chamber = window_.modelTree()->itemFor("/cavity_pressures/0");
  ASSERT_NE(chamber, nullptr);
  EXPECT_EQ(chamber->parent(), window_.modelTree()->itemFor("/links/2"));
  QTest::qWait(50);
  EXPECT_GT(test::countRodPixels(window_.viewport()->grabFramebuffer()), pixels_before + 2000);
  test::saveScreenshot(test::grabWindow(window_), "editing_lvp_builder");
  window_.undoStack()->undo();  // the tendon, then the inflatable body with its pressure
  EXPECT_TRUE(window_.robot().lvp_tendons.empty());
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot().links.size(), 2u);
  EXPECT_TRUE(window_.robot().cavity_pressures.empty());
}

TEST_F(EditingTest, ContextMenuAddsCablesAndLoadsToTheSelectedRodAndRemovesThem) {
  ASSERT_TRUE(window_.addSoftRod(2));
  const QString rod = window_.selection();
  std::unique_ptr<QMenu> menu(window_.createContextMenu());
  QAction* cable = nullptr;
  QAction* load = nullptr;
  for (QAction* action : menu->actions()) {
    if (action->objectName() == "addCableAction") cable = action;
    if (action->objectName() == "addPointLoadAction") load = action;
  }
  ASSERT_NE(cable, nullptr);
  ASSERT_NE(load, nullptr);
  ASSERT_TRUE(cable->isEnabled());
  cable->trigger();
  ASSERT_EQ(window_.robot().cables.size(), 1u);
  EXPECT_EQ(window_.robot().cables[0].path.size(), 2u);  // through both divisions
  EXPECT_NE(window_.modelTree()->itemFor("/cables/0"), nullptr);
  EXPECT_EQ(window_.selection(), "/cables/0");
  EXPECT_EQ(window_.viewport()->cableLineCount(), 1);  // its path is drawn at once
  window_.select(rod);
  const QImage without_load = window_.viewport()->grabFramebuffer();
  load->trigger();
  ASSERT_EQ(window_.robot().point_loads.size(), 1u);
  EXPECT_NE(window_.modelTree()->itemFor("/point_loads/0"), nullptr);
  EXPECT_EQ(window_.viewport()->loadArrowCount(), 1);
  window_.select(QString());
  const QImage with_load = window_.viewport()->grabFramebuffer();
  EXPECT_GT(test::countDifferentPixels(without_load, with_load), 100);
  test::saveScreenshot(test::grabWindow(window_), "editing_rod_with_cable_and_load");
  // the cable moves with its route: a larger offset redraws it elsewhere
  const QImage before_route = window_.viewport()->grabFramebuffer();
  ASSERT_TRUE(window_.setField("/cables/0/path/1/y/0", "-0.008"));
  EXPECT_GT(test::countDifferentPixels(before_route, window_.viewport()->grabFramebuffer()), 20);

  // a rigid link takes no cable
  window_.select(QString());
  ASSERT_TRUE(window_.addRigidLink(JointType::Prismatic));
  EXPECT_FALSE(cable->isEnabled());
  EXPECT_FALSE(window_.addCable());
  EXPECT_EQ(window_.robot().cables.size(), 1u);

  // removing the rod takes its cable and load with it
  window_.select(rod);
  ASSERT_TRUE(window_.removeSelected());
  EXPECT_EQ(window_.robot().links.size(), 1u);
  EXPECT_TRUE(window_.robot().cables.empty());
  EXPECT_TRUE(window_.robot().point_loads.empty());
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot().cables.size(), 1u);
  EXPECT_EQ(window_.selection(), rod);
}

TEST_F(EditingTest, DraggingALinkOntoAnotherReparentsIt) {
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  window_.select(QString());
  ASSERT_TRUE(window_.addSoftRod(1));
  ASSERT_EQ(window_.robot().links[1].parent, "world");
  const std::string first = window_.robot().links[0].name;

  ModelTreePanel* tree = window_.modelTree();
  tree->setCurrentItem(tree->itemFor("/links/1"));
  const QRect target = tree->visualItemRect(tree->itemFor("/links/0"));
  std::unique_ptr<QMimeData> mime(
      tree->model()->mimeData(tree->selectionModel()->selectedIndexes()));
  QDragEnterEvent enter(target.center(), Qt::MoveAction, mime.get(), Qt::LeftButton, {});
  QApplication::sendEvent(tree->viewport(), &enter);
  QDragMoveEvent move(target.center(), Qt::MoveAction, mime.get(), Qt::LeftButton, {});
  QApplication::sendEvent(tree->viewport(), &move);
  QDropEvent drop(QPointF(target.center()), Qt::MoveAction, mime.get(), Qt::LeftButton, {});
  QApplication::sendEvent(tree->viewport(), &drop);

  EXPECT_EQ(window_.robot().links[1].parent, first);
  EXPECT_EQ(tree->itemFor("/links/1")->parent(), tree->itemFor("/links/0"));
  // a link cannot go below its own descendant: refused, nothing changes
  EXPECT_FALSE(window_.reparentLink(0, QString::fromStdString(window_.robot().links[1].name)));
  EXPECT_EQ(window_.robot().links[0].parent, "world");
  window_.undoStack()->undo();
  EXPECT_EQ(window_.robot().links[1].parent, "world");
}

TEST_F(EditingTest, ClosingWithUnsavedChangesAsksFirst) {
  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));
  ASSERT_TRUE(window_.isWindowModified());
  EXPECT_TRUE(window_.windowTitle().startsWith("untitled[*]"));
  QString question;
  auto answerWith = [&question](QMessageBox::StandardButton button) {
    QTimer::singleShot(100, [&question, button] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        question = box->text();
        box->button(button)->click();
      }
    });
  };
  answerWith(QMessageBox::Cancel);
  EXPECT_FALSE(window_.close());
  EXPECT_TRUE(question.contains("unsaved changes"));
  EXPECT_TRUE(window_.isVisible());
  EXPECT_EQ(window_.robot().links.size(), 1u);

  answerWith(QMessageBox::Discard);
  EXPECT_TRUE(window_.close());
}

}  // namespace
}  // namespace tendril
