// GUI tests of File > Examples, File > Import URDF, dropping a model file on the window, and the
// autosave that offers to recover unsaved work after a crash.

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "core/io/json_io.hpp"
#include "core/io/urdf_import.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport/viewport_widget.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    QFile::remove(MainWindow::recoveryFilePath());
    ASSERT_TRUE(temp_.isValid());
  }
  void TearDown() override { QFile::remove(MainWindow::recoveryFilePath()); }

  QTemporaryDir temp_;
};

TEST_F(FilesTest, ExamplesMenuListsEveryBundledRobotAndOpensOne) {
  MainWindow window;
  const auto* menu = window.findChild<QMenu*>("examplesMenu");
  ASSERT_NE(menu, nullptr);
  const QStringList files = MainWindow::exampleFiles();
  ASSERT_GE(files.size(), 3);
  ASSERT_EQ(menu->actions().size(), files.size());
  for (const QString& file : files) {
    EXPECT_TRUE(file.endsWith(".json"));
  }
  QAction* last = menu->actions().back();
  last->trigger();
  EXPECT_EQ(QFileInfo(window.currentFile()).absoluteFilePath(),
            QFileInfo(last->data().toString()).absoluteFilePath());
  EXPECT_FALSE(window.robot().links.empty());
}

TEST_F(FilesTest, ImportUrdfShowsTheRobotAsANewUnsavedModel) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  const QImage empty = window.viewport()->grabFramebuffer();
  const QString urdf = QString(TENDRIL_TEST_DATA_DIR) + "/urdf/arm6/arm6.urdf";
  // File > Import URDF... opens a file dialog: go to the folder, type the file name and press
  // Return, as a person would
  bool picked = false;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    auto* name = dialog ? dialog->findChild<QLineEdit*>("fileNameEdit") : nullptr;
    if (name == nullptr || picked) return;
    picked = true;
    dialog->setDirectory(QFileInfo(urdf).absolutePath());
    QTest::keyClicks(name, QFileInfo(urdf).fileName());
    QTest::keyClick(name, Qt::Key_Return);
  });
  poll.start(20);
  test::findAction(window, "importUrdfAction")->trigger();
  poll.stop();
  ASSERT_TRUE(picked);

  EXPECT_EQ(window.robot(), importUrdf(urdf.toStdString()));
  EXPECT_EQ(window.robot().name, "arm6");
  EXPECT_TRUE(window.currentFile().isEmpty());  // a new document: Save asks where
  EXPECT_TRUE(window.isWindowModified());
  EXPECT_EQ(test::visibleErrorBox(window), nullptr);

  // in the view: every link's body, the meshes among them, and the picture changed
  const FramePtr frame = window.viewport()->currentFrame();
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->bodies.size(), window.robot().links.size());
  const auto mesh =
      std::find_if(frame->bodies.begin(), frame->bodies.end(),
                   [](const BodyShape& b) { return b.shape.type == ShapeType::Mesh; });
  ASSERT_NE(mesh, frame->bodies.end());
  const QImage shown = window.viewport()->grabFramebuffer();
  test::saveScreenshot(test::grabWindow(window), "imported_urdf_arm");
  EXPECT_GT(test::countDifferentPixels(empty, shown), 2000);
}

TEST_F(FilesTest, ImportingABadUrdfKeepsTheModelAndSaysWhy) {
  MainWindow window;
  ASSERT_TRUE(window.openDefaultExample());
  const RobotDescription before = window.robot();
  const QString urdf = temp_.filePath("cycle.urdf");
  QFile file(urdf);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(R"(<robot name="c"><link name="a"/><link name="b"/>
    <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
    <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint></robot>)");
  file.close();
  EXPECT_FALSE(window.importUrdfFile(urdf));
  EXPECT_EQ(window.robot(), before);
  ASSERT_NE(test::visibleErrorBox(window), nullptr);
  EXPECT_TRUE(window.lastError().contains("cycle")) << window.lastError().toStdString();
}

TEST_F(FilesTest, DroppingAModelFileOnTheWindowOpensIt) {
  MainWindow window;
  ASSERT_TRUE(test::showAndWait(&window));
  const QString path = test::examplePath("cable_manipulator.json");
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  const QPoint centre = window.rect().center();
  QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, {});
  QApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, {});
  QApplication::sendEvent(&window, &drop);
  EXPECT_EQ(window.currentFile(), path);
  EXPECT_EQ(window.robot(), loadRobot(path.toStdString()));

  // anything but a .json file is not taken
  QMimeData text;
  text.setUrls({QUrl::fromLocalFile(temp_.filePath("notes.txt"))});
  QDragEnterEvent refused(centre, Qt::CopyAction, &text, Qt::LeftButton, {});
  refused.setAccepted(false);
  QApplication::sendEvent(&window, &refused);
  EXPECT_FALSE(refused.isAccepted());
}

TEST_F(FilesTest, AutosaveWritesARecoveryFileThatTheNextStartRecovers) {
  RobotDescription unsaved;
  {
    MainWindow crashed;
    EXPECT_TRUE(crashed.autosaveTimer()->isActive());
    EXPECT_EQ(crashed.autosaveTimer()->interval(), 60 * 1000);
    EXPECT_FALSE(crashed.autosave());  // nothing unsaved yet
    EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFilePath()));
    ASSERT_TRUE(crashed.addRigidLink(JointType::Revolute));
    ASSERT_TRUE(crashed.addSoftRod(2));
    // let the minute pass quickly: the timer fires and writes the recovery file
    crashed.autosaveTimer()->start(10);
    ASSERT_TRUE(QTest::qWaitFor([] { return QFileInfo::exists(MainWindow::recoveryFilePath()); }));
    unsaved = crashed.robot();
    // destroyed without closing: what a crash leaves behind
  }
  ASSERT_TRUE(QFileInfo::exists(MainWindow::recoveryFilePath()));

  MainWindow next;
  ASSERT_TRUE(next.recoverAutosave());
  EXPECT_EQ(next.robot(), unsaved);
  EXPECT_TRUE(next.isWindowModified());  // recovered work is not saved work
  EXPECT_TRUE(next.currentFile().isEmpty());

  // saving makes the recovery file unnecessary
  ASSERT_TRUE(next.saveFile(temp_.filePath("recovered.json")));
  EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFilePath()));
  EXPECT_FALSE(next.isWindowModified());
}

TEST_F(FilesTest, StartUpOffersRecoveryAndDiscardingRemovesTheFile) {
  {
    MainWindow crashed;
    ASSERT_TRUE(crashed.addRigidLink(JointType::Revolute));
    ASSERT_TRUE(crashed.autosave());
  }
  MainWindow next;
  QString question;
  QTimer::singleShot(100, [&question] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      question = box->text();
      box->button(QMessageBox::Discard)->click();
    }
  });
  next.offerRecovery();
  EXPECT_TRUE(question.contains("did not close normally"));
  EXPECT_TRUE(next.robot().links.empty());
  EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFilePath()));
}

TEST_F(FilesTest, ACleanCloseLeavesNoRecoveryFile) {
  MainWindow window;
  ASSERT_TRUE(window.openDefaultExample());
  ASSERT_TRUE(window.saveFile(temp_.filePath("saved.json")));
  ASSERT_TRUE(window.addRigidLink(JointType::Fixed));
  ASSERT_TRUE(window.autosave());
  ASSERT_TRUE(QFileInfo::exists(MainWindow::recoveryFilePath()));
  window.undoStack()->undo();  // back to the saved state: closing asks nothing
  EXPECT_FALSE(window.isWindowModified());
  EXPECT_TRUE(window.close());
  EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFilePath()));
}

}  // namespace
}  // namespace tendril
