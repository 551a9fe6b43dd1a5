// GUI tests of constant-curvature segments in the studio: added from the builder (Model > Add
// Constant-Curvature Segment, planar or spatial, and its tool button) at the tip of the selection,
// every field edited in the Properties panel with its unit and refused with its JSON pointer when
// invalid, undo and redo, cables, loads, joints and loops drawn on a segment, a run from Simulate
// > Run, picking the tube in the 3D view and colouring it by curvature.

#include <gtest/gtest.h>

#include <QAction>
#include <QColor>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/edit/description_edit.hpp"
#include "core/model/validate.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

const QString kSegment = QStringLiteral("/links/0/constant_curvature");

const RodShape* rodOf(const Frame& frame, int link) {
  for (const RodShape& rod : frame.rods) {
    if (rod.link == link) return &rod;
  }
  return nullptr;
}

// the hue [degrees] of the average colour around \p at (a 5 x 5 patch)
int hueAround(const QImage& image, const QPoint& at) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  long red = 0, green = 0, blue = 0, n = 0;
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) {
      const QPoint p = at + QPoint(dx, dy);
      if (!rgb.rect().contains(p)) continue;
      const QRgb pixel = rgb.pixel(p);
      red += qRed(pixel);
      green += qGreen(pixel);
      blue += qBlue(pixel);
      ++n;
    }
  }
  if (n == 0) return -1;
  return QColor(static_cast<int>(red / n), static_cast<int>(green / n), static_cast<int>(blue / n))
      .hsvHue();
}

// the distance between two hues on the colour wheel [degrees]; an achromatic colour (-1) is far
// from every hue
double hueDistance(int hue, double expected) {
  if (hue < 0) return 360.0;
  const double d = std::fmod(std::abs(hue - expected), 360.0);
  return std::min(d, 360.0 - d);
}

class ConstantCurvatureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(test::showAndWait(&window_));
  }

  QAction* action(const char* name) { return test::findAction(window_, name); }
  PropertyPanel& panel() { return *window_.propertyPanel(); }

  void typeIntoField(const QString& pointer, const QString& text) {
    test::typeIntoField(panel(), pointer, text);
  }

  /// Opens the editor of the enumerated field at \p pointer (a list of its choices), returns the
  /// choices offered and picks \p choice, as a person would.
  QStringList chooseInField(const QString& pointer, const QString& choice) {
    EXPECT_TRUE(panel().editField(pointer)) << pointer.toStdString();
    QPointer<QComboBox> box;
    for (QComboBox* candidate : panel().tree()->findChildren<QComboBox*>()) {
      if (candidate->isVisible()) box = candidate;
    }
    if (box.isNull()) {
      ADD_FAILURE() << "no list of choices for " << pointer.toStdString();
      return {};
    }
    QStringList choices;
    for (int i = 0; i < box->count(); ++i) choices << box->itemText(i);
    box->setCurrentText(choice);
    QTest::keyClick(box, Qt::Key_Return);
    EXPECT_TRUE(QTest::qWaitFor([&box] { return box.isNull(); }, 2000));
    QTest::qWait(20);
    return choices;
  }

  /// Clicks the viewport where the middle of link \p link's tube is drawn.
  void clickTubeOf(int link) {
    const FramePtr frame = window_.viewport()->currentFrame();
    ASSERT_NE(frame, nullptr);
    const RodShape* rod = rodOf(*frame, link);
    ASSERT_NE(rod, nullptr) << "link " << link << " is drawn as no tube";
    const QPoint at =
        window_.viewport()->projectToWidget(rod->points[rod->points.size() / 2]).toPoint();
    QTest::mouseClick(window_.viewport(), Qt::LeftButton, {}, at);
    QTest::qWait(20);
  }

  /// Where the middle of link \p link's tube is drawn, in the viewport's picture (device pixels).
  QPoint tubeMiddleInPicture(int link, const QImage& picture) {
    const RodShape* rod = rodOf(*window_.viewport()->currentFrame(), link);
    if (rod == nullptr) return {};
    const QPointF at = window_.viewport()->projectToWidget(rod->points[rod->points.size() / 2]);
    const double scale = static_cast<double>(picture.width()) / window_.viewport()->width();
    return (at * scale).toPoint();
  }

  MainWindow window_;
};

TEST_F(ConstantCurvatureTest, BuilderAddsPlanarAndSpatialSegmentsAtTheTipOfTheSelection) {
  // the entries sit beside Add Soft Rod, in the Model menu, the context menu and the tool bar
  auto* menu = window_.findChild<QMenu*>("addConstantCurvatureMenu");
  ASSERT_NE(menu, nullptr);
  EXPECT_TRUE(menu->actions().contains(action("addPlanarSegmentAction")));
  EXPECT_TRUE(menu->actions().contains(action("addSpatialSegmentAction")));
  {
    std::unique_ptr<QMenu> context(window_.createContextMenu());
    EXPECT_TRUE(context->actions().contains(menu->menuAction()));
  }
  auto* button = window_.findChild<QToolButton*>("addSegmentButton");
  ASSERT_NE(button, nullptr);
  EXPECT_EQ(button->menu(), menu);

  ASSERT_TRUE(window_.addRigidLink(JointType::Revolute));  // link1, selected
  const double rod_length = centrelineLength(makeSoftLink("rod"));

  action("addPlanarSegmentAction")->trigger();
  ASSERT_EQ(window_.robot().links.size(), 2u);
  const LinkDesc planar = window_.robot().links[1];  // a copy: every edit replaces the robot
  ASSERT_EQ(planar.kind(), BodyKind::ConstantCurvature);
  EXPECT_EQ(planar.constantCurvature().model, CurvatureModel::Planar);
  EXPECT_EQ(planar.parent, "link1");
  EXPECT_DOUBLE_EQ(planar.constantCurvature().length, rod_length);
  EXPECT_DOUBLE_EQ(planar.constantCurvature().radius, 0.1 * rod_length);
  EXPECT_EQ(window_.selection(), "/links/1");

  // the new segment is selected: the spatial one goes on its tip
  action("addSpatialSegmentAction")->trigger();
  ASSERT_EQ(window_.robot().links.size(), 3u);
  const LinkDesc spatial = window_.robot().links[2];
  ASSERT_EQ(spatial.kind(), BodyKind::ConstantCurvature);
  EXPECT_EQ(spatial.constantCurvature().model, CurvatureModel::Spatial);
  EXPECT_EQ(spatial.parent, planar.name);
  EXPECT_NE(spatial.name, planar.name);

  // the tool button's own click adds a planar one
  QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));
  QTest::qWait(20);
  ASSERT_EQ(window_.robot().links.size(), 4u);
  EXPECT_EQ(window_.robot().links[3].constantCurvature().model, CurvatureModel::Planar);
  EXPECT_EQ(window_.robot().links[3].parent, spatial.name);

  // the tree and the Properties title name the kind
  QTreeWidgetItem* item = window_.modelTree()->itemFor("/links/2");
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->text(1), "constant-curvature segment");
  EXPECT_EQ(item->parent()->text(0), QString::fromStdString(planar.name));
  EXPECT_EQ(window_.modelTree()->itemFor("/links/0")->text(1), "rigid body");
  window_.select("/links/2");
  auto* title = panel().findChild<QLabel*>("propertyTitle");
  ASSERT_NE(title, nullptr);
  EXPECT_TRUE(title->text().contains("constant-curvature segment")) << title->text().toStdString();

  // each segment is drawn as a tube, straight at rest: the chain ends 0.2 + 3 x 0.4 m out
  const FramePtr shown = window_.viewport()->currentFrame();
  ASSERT_NE(shown, nullptr);
  for (int link : {1, 2, 3}) EXPECT_NE(rodOf(*shown, link), nullptr) << link;
  ASSERT_EQ(shown->tips_W.size(), 1u);
  EXPECT_LT((shown->tips_W[0] - Eigen::Vector3d(0.2 + 3.0 * rod_length, 0.0, 0.0)).norm(), 1e-9);
  window_.select(QString());  // untinted, so that the tubes count as rod pixels
  const QImage picture = window_.viewport()->grabFramebuffer();
  EXPECT_GT(test::countRodPixels(picture), 2000);
  EXPECT_LT(test::countBlackPixels(picture), picture.width() * picture.height() / 20);
  test::saveScreenshot(test::grabWindow(window_), "cc_segments_built");

  // one undoable edit each
  EXPECT_EQ(window_.undoStack()->count(), 4);
  window_.undoStack()->undo();
  window_.undoStack()->undo();
  ASSERT_EQ(window_.robot().links.size(), 2u);
  EXPECT_EQ(window_.modelTree()->linkItemCount(), 2);
  window_.undoStack()->redo();
  ASSERT_EQ(window_.robot().links.size(), 3u);
  EXPECT_EQ(window_.robot().links[2].constantCurvature().model, CurvatureModel::Spatial);
}

TEST_F(ConstantCurvatureTest, PropertiesEditEveryFieldWithUnitsAndRefuseInvalidValues) {
  ASSERT_TRUE(window_.addConstantCurvatureSegment(CurvatureModel::Planar));
  ASSERT_EQ(window_.selection(), "/links/0");
  ASSERT_EQ(panel().shownPointer(), "/links/0");

  // every field has a row, with the unit core gives it (none for counts and choices)
  const std::pair<const char*, const char*> kUnits[] = {
      {"/model", ""},
      {"/length", "m"},
      {"/radius", "m"},
      {"/material/youngs_modulus", "Pa"},
      {"/material/poisson_ratio", ""},
      {"/material/density", "kg/m^3"},
      {"/material/damping", "Pa s"},
      {"/stress_model", ""},
      {"/gauss_points", ""},
  };
  for (const auto& [field, unit] : kUnits) {
    QTreeWidgetItem* row = panel().itemFor(kSegment + field);
    ASSERT_NE(row, nullptr) << field;
    EXPECT_TRUE(row->flags() & Qt::ItemIsEditable) << field;
    EXPECT_EQ(row->text(2), unit) << field;
  }

  // length and radius typed in: the values land in the description, one edit each
  typeIntoField(kSegment + "/length", "0.3");
  EXPECT_DOUBLE_EQ(window_.robot().links[0].constantCurvature().length, 0.3)
      << panel().errorText().toStdString();
  typeIntoField(kSegment + "/radius", "0.02");
  EXPECT_DOUBLE_EQ(window_.robot().links[0].constantCurvature().radius, 0.02)
      << panel().errorText().toStdString();
  EXPECT_EQ(window_.undoStack()->count(), 3);
  EXPECT_EQ(panel().itemFor(kSegment + "/length")->text(1), "0.3");
  // the tube follows: it now ends 0.3 m out
  EXPECT_LT((window_.viewport()->currentFrame()->tips_W.at(0) - Eigen::Vector3d(0.3, 0, 0)).norm(),
            1e-9);

  // invalid values are refused with the place (as people read it) and the reason, never applied
  const RobotDescription edited = window_.robot();
  typeIntoField(kSegment + "/radius", "0");
  EXPECT_EQ(window_.robot(), edited);
  QString reason = panel().errorText();
  EXPECT_TRUE(reason.contains("Constant-curvature segment › Radius: ")) << reason.toStdString();
  EXPECT_TRUE(reason.contains("must be positive")) << reason.toStdString();
  EXPECT_EQ(panel().itemFor(kSegment + "/radius")->text(1), "0.02");  // the old value stays
  test::saveScreenshot(test::grabWindow(window_), "cc_invalid_radius_refused");
  typeIntoField(kSegment + "/length", "-1");
  reason = panel().errorText();
  EXPECT_TRUE(reason.contains("Constant-curvature segment › Length: ")) << reason.toStdString();
  EXPECT_TRUE(reason.contains("must be positive")) << reason.toStdString();
  typeIntoField(kSegment + "/gauss_points", "0");
  reason = panel().errorText();
  EXPECT_TRUE(reason.contains("Constant-curvature segment › Gauss points: "))
      << reason.toStdString();
  typeIntoField(kSegment + "/material/poisson_ratio", "0.7");
  reason = panel().errorText();
  EXPECT_TRUE(reason.contains("› Material › Poisson's ratio: ")) << reason.toStdString();
  EXPECT_EQ(window_.robot(), edited);
  EXPECT_EQ(window_.undoStack()->count(), 3);

  // the rest of the fields
  typeIntoField(kSegment + "/material/youngs_modulus", "2e6");
  typeIntoField(kSegment + "/material/density", "1100");
  typeIntoField(kSegment + "/material/damping", "500");
  typeIntoField(kSegment + "/material/poisson_ratio", "0.45");
  typeIntoField(kSegment + "/gauss_points", "6");
  const ConstantCurvatureBodyDesc& body = window_.robot().links[0].constantCurvature();
  EXPECT_DOUBLE_EQ(body.material.youngs_modulus, 2e6);
  EXPECT_DOUBLE_EQ(body.material.density, 1100.0);
  EXPECT_DOUBLE_EQ(body.material.damping, 500.0);
  EXPECT_EQ(body.material.poisson_ratio, 0.45);
  EXPECT_EQ(body.gauss_points, 6);

  // the two choices, offered as core lists them
  EXPECT_EQ(chooseInField(kSegment + "/model", "spatial"), QStringList({"planar", "spatial"}));
  EXPECT_EQ(window_.robot().links[0].constantCurvature().model, CurvatureModel::Spatial)
      << panel().errorText().toStdString();
  EXPECT_EQ(chooseInField(kSegment + "/stress_model", "linear_elastic"),
            QStringList({"linear_elastic"}));
  EXPECT_EQ(window_.robot().links[0].constantCurvature().stress, StressModel::LinearElastic);
  EXPECT_TRUE(panel().errorText().isEmpty()) << panel().errorText().toStdString();
  test::saveScreenshot(test::grabWindow(window_), "cc_property_panel");

  // undo walks back through every edit to the segment as it was added, redo forward again
  const RobotDescription last = window_.robot();
  const int edits = window_.undoStack()->count();
  EXPECT_EQ(edits, 9);  // add, length, radius, 5 fields, model (the same stress model: no edit)
  while (window_.undoStack()->index() > 1) window_.undoStack()->undo();
  EXPECT_DOUBLE_EQ(window_.robot().links[0].constantCurvature().length, 0.4);
  EXPECT_EQ(window_.robot().links[0].constantCurvature().model, CurvatureModel::Planar);
  window_.undoStack()->redo();
  EXPECT_DOUBLE_EQ(window_.robot().links[0].constantCurvature().length, 0.3);
  EXPECT_EQ(panel().itemFor(kSegment + "/length")->text(1), "0.3");
  while (window_.undoStack()->canRedo()) window_.undoStack()->redo();
  EXPECT_EQ(window_.robot(), last);
}

// what hangs on a centreline hangs on a segment too: a cable, a load at its tip, a closed loop at
// its tip, a joint glyph; only a GVS rod can be split to attach along it
TEST_F(ConstantCurvatureTest, CablesLoadsJointsAndLoopsOnASegmentAreDrawn) {
  ASSERT_TRUE(window_.addConstantCurvatureSegment(CurvatureModel::Spatial));
  EXPECT_TRUE(action("addCableAction")->isEnabled());
  EXPECT_TRUE(action("addPointLoadAction")->isEnabled());
  EXPECT_FALSE(action("addAlongRodAction")->isEnabled());
  EXPECT_FALSE(action("addToFluidAction")->isEnabled());

  action("addCableAction")->trigger();
  ASSERT_EQ(window_.robot().cables.size(), 1u);
  EXPECT_EQ(window_.viewport()->cableLineCount(), 1);
  window_.select("/links/0");
  action("addPointLoadAction")->trigger();
  ASSERT_EQ(window_.robot().point_loads.size(), 1u);
  EXPECT_EQ(window_.viewport()->loadArrowCount(), 1);

  // a jointed segment shows its joint; a loop from its tip to the world shows the loop's
  const int glyphs = window_.viewport()->jointGlyphCount();
  window_.select("/links/0");
  ASSERT_TRUE(window_.setField("/links/0/joint/type", "revolute"))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), glyphs + 1);
  ASSERT_TRUE(window_.addClosedLoopJoint("segment1", "world", JointType::Spherical))
      << window_.lastError().toStdString();
  EXPECT_EQ(window_.viewport()->jointGlyphCount(), glyphs + 2);
  EXPECT_LT((Eigen::Vector3d(window_.robot().closed_chains[0].b.placement.position.data()) -
             Eigen::Vector3d(0.4, 0, 0))
                .norm(),
            1e-9);
  test::saveScreenshot(test::grabWindow(window_), "cc_cable_load_loop");

  // splitting is for GVS rods: refused with the reason, nothing changed
  window_.select("/links/0");
  const RobotDescription before = window_.robot();
  EXPECT_FALSE(window_.addLinkAlongRod(0.2, /*soft=*/false));
  EXPECT_TRUE(window_.lastError().contains("soft rod")) << window_.lastError().toStdString();
  EXPECT_EQ(window_.robot(), before);
}

// Simulate > Run on a planar segment carrying a spatial one: frames arrive, the segments sag,
// a click on a tube selects its link and the tubes colour by their (constant) curvature
TEST_F(ConstantCurvatureTest, SimulatesPicksAndColoursSegmentsByCurvature) {
  ASSERT_TRUE(window_.addConstantCurvatureSegment(CurvatureModel::Planar));
  ASSERT_TRUE(window_.addConstantCurvatureSegment(CurvatureModel::Spatial));
  ASSERT_EQ(window_.robot().links[1].parent, window_.robot().links[0].name);

  // picking at rest, from nothing selected
  window_.select(QString());
  clickTubeOf(1);
  EXPECT_EQ(window_.selection(), "/links/1");
  EXPECT_EQ(window_.viewport()->highlightedLink(), 1);
  clickTubeOf(0);
  EXPECT_EQ(window_.selection(), "/links/0");

  SimulationOptions options = window_.simulationOptions();
  options.t_end = 0.5;
  options.output_interval = 0.01;
  window_.setSimulationOptions(options);
  QSignalSpy finished(window_.simulation(), &SimulationController::runFinished);
  QSignalSpy frames(window_.simulation(), &SimulationController::frameAvailable);
  ASSERT_TRUE(window_.runAction()->isEnabled());
  window_.runAction()->trigger();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !finished.isEmpty(); }, test::kRunTimeoutMs));
  ASSERT_TRUE(finished.first().at(1).toBool()) << finished.first().at(0).toString().toStdString();
  EXPECT_GE(frames.count(), 1);
  EXPECT_EQ(window_.simulation()->frameCount(), 51u);  // t = 0, 0.01, ..., 0.5 s

  // the last frame is shown: both segments sag under gravity, each with one curvature
  const FramePtr last = window_.viewport()->currentFrame();
  ASSERT_EQ(last, window_.simulation()->frameAt(50));
  const RodShape* first = rodOf(*last, 0);
  const RodShape* second = rodOf(*last, 1);
  ASSERT_TRUE(first != nullptr && second != nullptr);
  EXPECT_LT(second->points.back().z(), -0.05);
  const auto curvature = [](const RodShape& rod) {
    return rod.value(rod.points.size() / 2, RodQuantity::Curvature);
  };
  EXPECT_GT(curvature(*first), 0.1);
  EXPECT_GT(curvature(*second), 0.1);
  for (const auto& values : first->interval_values) {
    EXPECT_NEAR(values[static_cast<int>(RodQuantity::Curvature)], curvature(*first),
                1e-6 * curvature(*first));
  }
  test::saveScreenshot(test::grabWindow(window_), "cc_simulated_window");

  // a click on the bent tube still selects its link
  window_.select(QString());
  clickTubeOf(1);
  EXPECT_EQ(window_.selection(), "/links/1");
  window_.select(QString());

  // plain, then coloured by curvature with a legend
  const QImage plain = window_.viewport()->grabFramebuffer();
  const int plain_rod_pixels = test::countRodPixels(plain);
  EXPECT_GT(plain_rod_pixels, 1000);
  auto* by_curvature = action("curvatureColourAction");
  by_curvature->setChecked(true);
  EXPECT_EQ(window_.viewport()->rodColouring(), RodQuantity::Curvature);
  EXPECT_TRUE(window_.viewport()->showsColourLegend());
  const QImage coloured = window_.viewport()->grabFramebuffer();
  test::saveScreenshot(coloured, "cc_curvature_colour_map");
  test::saveScreenshot(test::grabWindow(window_), "cc_curvature_colour_map_window");
  EXPECT_LT(test::countRodPixels(coloured), plain_rod_pixels / 4);
  EXPECT_GT(test::countDifferentPixels(plain, coloured), plain_rod_pixels / 2);
  EXPECT_LT(test::countBlackPixels(coloured), coloured.width() * coloured.height() / 20);
  // the legend (right side of the view) appeared with the map
  const QRect legend(coloured.width() * 3 / 4, 0, coloured.width() / 4, coloured.height());
  EXPECT_GT(test::countDifferentPixels(plain.copy(legend), coloured.copy(legend)), 500);

  // the map runs blue (0) to red (the largest curvature shown): the more curved segment is red,
  // the other at its share of the way from blue
  const double k0 = curvature(*first), k1 = curvature(*second);
  const double top = std::max(k0, k1);
  const auto expected_hue = [top](double k) { return 240.0 * (1.0 - k / top); };
  const int hue0 = hueAround(coloured, tubeMiddleInPicture(0, coloured));
  const int hue1 = hueAround(coloured, tubeMiddleInPicture(1, coloured));
  EXPECT_LT(hueDistance(hue0, expected_hue(k0)), 25.0)
      << "hue " << hue0 << ", curvatures " << k0 << ", " << k1;
  EXPECT_LT(hueDistance(hue1, expected_hue(k1)), 25.0)
      << "hue " << hue1 << ", curvatures " << k0 << ", " << k1;

  by_curvature->setChecked(false);
  EXPECT_FALSE(window_.viewport()->showsColourLegend());
  EXPECT_LT(test::countDifferentPixels(plain, window_.viewport()->grabFramebuffer()), 50);
}

}  // namespace
}  // namespace tendril
