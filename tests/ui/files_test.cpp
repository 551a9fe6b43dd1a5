// GUI tests of File > Examples, dropping a model file on the window, and the autosave that offers
// to recover unsaved work after a crash.

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
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
#include "ui/main_window.hpp"
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
