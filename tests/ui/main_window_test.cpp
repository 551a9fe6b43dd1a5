#include "ui/main_window.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <algorithm>

#include "core/io/json_io.hpp"
#include "tendril_version.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

const QString kDefaultExample = QStringLiteral("hybrid_serial_robot.json");

QStringList menuTitles(const MainWindow& window) {
  QStringList titles;
  for (QAction* action : window.menuBar()->actions()) {
    titles << action->text().remove('&');
  }
  return titles;
}

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    ASSERT_TRUE(temp_.isValid());
  }

  void writeFile(const QString& name, const QByteArray& text) {
    QFile file(temp_.filePath(name));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
  }

  QTemporaryDir temp_;
};

TEST_F(MainWindowTest, ShowsEveryPanelMenuAndTheRunButton) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  EXPECT_EQ(window.centralWidget(), window.viewport());
  // model, properties, plots, Jacobian mismatch, energy, tip error, controllers, controller inputs
  ASSERT_EQ(window.docks().size(), 8);
  for (QDockWidget* dock : window.docks()) {
    // shown, or a tab behind a shown one (the tip error and the Jacobian mismatch share a place)
    const QList<QDockWidget*> tabs = window.tabifiedDockWidgets(dock);
    const bool tab_shown = std::any_of(tabs.begin(), tabs.end(),
                                       [](const QDockWidget* tab) { return tab->isVisible(); });
    EXPECT_TRUE(dock->isVisible() || tab_shown) << dock->objectName().toStdString();
    if (dock->isVisible()) {
      EXPECT_GT(dock->width(), 50) << dock->objectName().toStdString();
    }
  }
  EXPECT_TRUE(window.timeline()->isVisible());
  EXPECT_TRUE(window.statusBar()->isAncestorOf(window.progressBar()));
  EXPECT_EQ(menuTitles(window), QStringList({"File", "Edit", "View", "Model", "Simulate", "Help"}));
  const auto* run = window.findChild<QAction*>("runAction");
  ASSERT_NE(run, nullptr);
  EXPECT_FALSE(run->isEnabled());  // nothing to simulate in an empty model
  const auto* cancel = window.findChild<QAction*>("cancelAction");
  ASSERT_NE(cancel, nullptr);
  EXPECT_FALSE(cancel->isEnabled());
  EXPECT_FALSE(run->associatedObjects().isEmpty());
  test::saveScreenshot(test::grabWindow(window), "main_window_empty");
}

TEST_F(MainWindowTest, OpensTheDefaultExampleAndDrawsIt) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample()) << window.lastError().toStdString();
  EXPECT_TRUE(window.currentFile().endsWith(kDefaultExample));
  EXPECT_TRUE(window.windowTitle().contains(kDefaultExample));
  EXPECT_TRUE(window.windowTitle().contains("[*]"));
  EXPECT_FALSE(window.isWindowModified());
  EXPECT_EQ(window.modelTree()->linkItemCount(), static_cast<int>(window.robot().links.size()));
  EXPECT_GT(test::countRodPixels(window.viewport()->grabFramebuffer()), 500);
  test::saveScreenshot(test::grabWindow(window), "main_window_example");
}

TEST_F(MainWindowTest, EveryExampleOpensAndShowsSomething) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  const QDir examples(QFileInfo(test::examplePath(kDefaultExample)).absolutePath());
  const QStringList files = examples.entryList({"*.json"}, QDir::Files);
  ASSERT_FALSE(files.isEmpty());
  for (const QString& file : files) {
    ASSERT_TRUE(window.openFile(examples.filePath(file))) << window.lastError().toStdString();
    const QImage image = window.viewport()->grabFramebuffer();
    EXPECT_LT(test::countBlackPixels(image), image.width() * image.height() / 20)
        << file.toStdString();
    test::saveScreenshot(image, "example_" + QFileInfo(file).baseName());
  }
}

TEST_F(MainWindowTest, SelectingALinkShowsItsProperties) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample());
  const std::string& first_link = window.robot().links.front().name;
  const auto items = window.modelTree()->findItems(QString::fromStdString(first_link),
                                                   Qt::MatchExactly | Qt::MatchRecursive);
  ASSERT_EQ(items.size(), 1);
  window.modelTree()->setCurrentItem(items.front());
  EXPECT_EQ(window.modelTree()->selectedLink(), 0);
  EXPECT_EQ(window.propertyPanel()->valueOf("name"), QString::fromStdString(first_link));
  test::saveScreenshot(test::grabWindow(window), "main_window_link_selected");
}

// a window grabbed right after a change shows the 3D view as it is now, not the picture painted
// before the change (the view renders in an event of its own, which has not run yet)
TEST_F(MainWindowTest, AGrabbedWindowShowsTheViewOfTheModelJustLoaded) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));   // paints the empty view
  ASSERT_TRUE(window.openDefaultExample());  // no event loop since: its render is pending
  const QImage grabbed = test::grabWindow(window);
  ViewportWidget* view = window.viewport();
  const QImage current = view->grabFramebuffer();
  const QImage shown = grabbed.copy(QRect(view->mapTo(&window, QPoint(0, 0)), current.size()))
                           .convertToFormat(QImage::Format_RGB32);
  EXPECT_GT(test::countRodPixels(shown), 500);
  EXPECT_LT(test::countDifferentPixels(shown, current), current.width() * current.height() / 100);
}

// the timeline's "frame i / n" is never clipped, whatever n
TEST_F(MainWindowTest, TimelineFrameLabelShowsItsWholeText) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample());
  auto* label = window.timeline()->findChild<QLabel*>("frameLabel");
  ASSERT_NE(label, nullptr);
  for (const int count : {201, 100000}) {
    window.timeline()->setFrameCount(count);
    window.timeline()->setCurrentFrame(count - 1);
    QTest::qWait(50);  // the tool bar lays itself out again
    EXPECT_TRUE(label->isVisible());
    EXPECT_EQ(label->text(), QString("frame %1 / %1").arg(count));
    const int text = label->fontMetrics().horizontalAdvance(label->text());
    EXPECT_GE(label->contentsRect().width(), text) << count << " frames";
    // nor can a narrower window squeeze it below its text: the tool bar keeps a minimum width
    EXPECT_GE(label->minimumWidth(), text) << count << " frames";
    if (count == 201) {
      test::saveScreenshot(test::grabWindow(*window.timeline()), "timeline_frame_label");
    }
  }
}

TEST_F(MainWindowTest, BrokenJsonShowsAnErrorAndKeepsTheModel) {
  writeFile("broken.json", "{ \"schema_version\": 1, \"links\": [ {\"name\": ");
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample());
  const RobotDescription before = window.robot();

  EXPECT_FALSE(window.openFile(temp_.filePath("broken.json")));
  EXPECT_FALSE(window.lastError().isEmpty());
  QMessageBox* box = test::visibleErrorBox(window);
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->text().contains("broken.json"));
  EXPECT_EQ(box->informativeText(), window.lastError());
  test::saveScreenshot(test::grabWindow(*box), "error_box");
  box->close();
  EXPECT_EQ(window.robot(), before);
  EXPECT_TRUE(window.currentFile().endsWith(kDefaultExample));
  EXPECT_GT(test::countRodPixels(window.viewport()->grabFramebuffer()), 500);
}

TEST_F(MainWindowTest, MissingAndInvalidFilesFailWithoutCrashing) {
  writeFile("not_a_robot.json", "[1, 2, 3]");
  writeFile("empty.json", "");
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  for (const char* name : {"does_not_exist.json", "not_a_robot.json", "empty.json"}) {
    EXPECT_FALSE(window.openFile(temp_.filePath(name))) << name;
    EXPECT_FALSE(window.lastError().isEmpty());
  }
  EXPECT_TRUE(window.currentFile().isEmpty());
}

TEST_F(MainWindowTest, SaveWritesAModelThatLoadsBack) {
  MainWindow window;
  ASSERT_TRUE(window.openDefaultExample());
  const QString path = temp_.filePath("copy.json");
  ASSERT_TRUE(window.saveFile(path)) << window.lastError().toStdString();
  EXPECT_EQ(loadRobot(path.toStdString()), window.robot());
  EXPECT_EQ(window.currentFile(), path);
  EXPECT_EQ(window.recentFiles().front(), QFileInfo(path).absoluteFilePath());
}

TEST_F(MainWindowTest, LayoutAndRecentFilesSurviveARestart) {
  const QString example = QFileInfo(test::examplePath(kDefaultExample)).absoluteFilePath();
  {
    MainWindow first;
    ASSERT_TRUE(test::showAndWait(&first));
    first.resize(900, 620);
    first.docks().back()->hide();
    ASSERT_TRUE(first.openFile(example));
    QTest::qWait(50);
    first.close();
  }
  MainWindow second;
  ASSERT_TRUE(test::showAndWait(&second));
  EXPECT_EQ(second.size(), QSize(900, 620));
  EXPECT_FALSE(second.docks().back()->isVisible());
  EXPECT_TRUE(second.docks().front()->isVisible());
  ASSERT_FALSE(second.recentFiles().isEmpty());
  EXPECT_EQ(second.recentFiles().front(), example);
}

TEST_F(MainWindowTest, ScreenshotExportWritesANonEmptyPng) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample());
  const QString path = temp_.filePath("export.png");
  ASSERT_TRUE(window.viewport()->saveScreenshot(path));
  EXPECT_GT(QFileInfo(path).size(), 1000);
  EXPECT_FALSE(QImage(path).isNull());
}

TEST_F(MainWindowTest, NewModelClearsTheView) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  ASSERT_TRUE(window.openDefaultExample());
  window.newModel();
  EXPECT_TRUE(window.currentFile().isEmpty());
  EXPECT_EQ(window.modelTree()->linkItemCount(), 0);
  EXPECT_EQ(test::countRodPixels(window.viewport()->grabFramebuffer()), 0);
}

// a free-floating robot swims out of a fixed camera: the camera follows its base by default,
// and Follow is a tool-bar button, not hidden in the View menu
TEST_F(MainWindowTest, TheCameraFollowsAFreeFloatingRobotByDefault) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  auto* bar = window.findChild<QToolBar*>("mainToolBar");
  ASSERT_NE(bar, nullptr);
  QWidget* follow_button = bar->widgetForAction(window.followAction());
  ASSERT_NE(follow_button, nullptr);
  EXPECT_TRUE(follow_button->isVisible());

  ASSERT_TRUE(window.openFile(test::examplePath("underwater_robot.json")));
  const auto& links = window.robot().links;
  const auto base = std::find_if(links.begin(), links.end(), [](const LinkDesc& link) {
    return link.joint.type == JointType::Free && link.parent == "world";
  });
  ASSERT_NE(base, links.end());
  EXPECT_TRUE(window.followAction()->isChecked());
  EXPECT_EQ(window.viewport()->followedLink(), static_cast<int>(base - links.begin()));

  ASSERT_TRUE(window.openFile(test::examplePath("soft_cantilever.json")));  // fixed to the world
  EXPECT_FALSE(window.followAction()->isChecked());
  EXPECT_EQ(window.viewport()->followedLink(), -1);
}

// the model tree keeps its default width until a model needs more (it was sized to an empty
// model before the window was first laid out)
TEST_F(MainWindowTest, TheModelTreeStartsAtItsDefaultWidth) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  QTest::qWait(50);
  auto* dock = window.findChild<QDockWidget*>("modelTreeDock");
  ASSERT_NE(dock, nullptr);
  EXPECT_GE(dock->width(), 240);
}

// at 1024 px every tool-bar button is in sight (Cancel was hidden behind the overflow arrow)
TEST_F(MainWindowTest, EveryToolBarButtonShowsAt1024Pixels) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  window.resize(1024, 700);
  QTest::qWait(100);
  ASSERT_EQ(window.width(), 1024);
  auto* bar = window.findChild<QToolBar*>("mainToolBar");
  ASSERT_NE(bar, nullptr);
  for (QAction* action : bar->actions()) {
    if (action->isSeparator()) continue;
    QWidget* button = bar->widgetForAction(action);
    ASSERT_NE(button, nullptr) << action->text().toStdString();
    EXPECT_TRUE(button->isVisible()) << action->text().toStdString() << " is hidden";
  }
  EXPECT_TRUE(bar->widgetForAction(window.cancelAction())->isVisible());
  test::saveScreenshot(test::grabWindow(window), "main_window_1024");
}

TEST(MainWindowAbout, NamesTheVersionsOfTendrilQtVtkAndEigen) {
  const QString text = MainWindow::aboutText();
  EXPECT_TRUE(text.contains(QStringLiteral("Tendril " TENDRIL_VERSION)));
  EXPECT_TRUE(text.contains(QString("Qt ") + qVersion()));
  EXPECT_TRUE(text.contains("VTK 9."));
  EXPECT_TRUE(text.contains("Eigen 3."));
}

}  // namespace
}  // namespace tendril
