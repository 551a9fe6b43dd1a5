// MainWindow, part three: File > Examples, File > Import URDF, File > Open Sweep Result and the
// autosave that offers to recover unsaved work after a crash (ui/main_window.hpp).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <stdexcept>
#include <utility>

#include "core/edit/description_edit.hpp"
#include "core/io/json_io.hpp"
#include "core/io/urdf_import.hpp"
#include "core/sim/rest_frame.hpp"
#include "core/study/sweep_result.hpp"
#include "core/study/sweep_run.hpp"
#include "ui/app_paths.hpp"
#include "ui/main_window.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_editor.hpp"
#include "ui/sweep_result_dialog.hpp"

namespace tendril {

using main_window_detail::kRecoveredFileKey;
using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

// ---- files

QStringList MainWindow::exampleFiles() {
  const QString directory = examplesDirectory();
  QStringList files;
  if (directory.isEmpty()) {
    return files;
  }
  const QDir examples(directory);
  for (const QString& name : examples.entryList({"*.json"}, QDir::Files, QDir::Name)) {
    files << examples.filePath(name);
  }
  return files;
}

bool MainWindow::importUrdfFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  if (!adoptDescription([&] { return importUrdf(toPath(path)); }, tr("Cannot import %1").arg(name)))
    return false;
  setCurrentFile(QString());  // a new document: Save asks where it goes
  recovered_unsaved_ = true;
  updateTitle();
  statusBar()->showMessage(tr("Imported %1").arg(name), kStatusMessageMs);
  return true;
}

bool MainWindow::openSweepResult(const QString& path) {
  SweepResult result;
  try {
    result = loadSweepResult(toPath(path));
  } catch (const std::exception& error) {
    showError(tr("Cannot open the sweep result %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(error.what()));
    return false;
  }
  auto* dialog = new SweepResultDialog(std::move(result), path, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &SweepResultDialog::caseRequested, this, [this, dialog](int index) {
    if (confirmDiscardChanges()) openSweepCase(dialog->result().spec, index, dialog->sweepName());
  });
  dialog->show();
  return true;
}

bool MainWindow::openSweepCase(const SweepSpec& spec, int index, const QString& sweep_name) {
  const QString failure = tr("Cannot open case %1 of sweep %2").arg(index).arg(sweep_name);
  const auto read = [&] {
    CaseModel model = caseDescription(spec, index);  // throws for an index outside the sweep
    if (!model.description) throw std::runtime_error(model.error);
    return *model.description;
  };
  if (!adoptDescription(read, failure)) return false;
  setCurrentFile(QString());  // a new document: Save asks where it goes
  recovered_unsaved_ = true;
  updateTitle();
  statusBar()->showMessage(tr("Opened case %1 of sweep %2").arg(index).arg(sweep_name),
                           kStatusMessageMs);
  return true;
}

QString MainWindow::recoveryFilePath() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("recovery.json");
}

QTimer* MainWindow::autosaveTimer() const {
  return autosave_timer_;
}

bool MainWindow::autosave() {
  if (!isWindowModified()) {
    return false;
  }
  const QString path = recoveryFilePath();
  QDir().mkpath(QFileInfo(path).absolutePath());
  try {
    writeFileAtomically(toPath(path), serializeRobot(editor_->robot()));
  } catch (const std::exception& error) {
    statusBar()->showMessage(tr("Autosave failed: %1").arg(error.what()), kStatusMessageMs);
    return false;
  }
  QSettings().setValue(kRecoveredFileKey, current_file_);
  return true;
}

bool MainWindow::recoverAutosave() {
  const QString path = recoveryFilePath();
  if (!QFileInfo::exists(path)) {
    return false;
  }
  RobotDescription robot;
  try {
    robot = loadRobot(toPath(path));
    checkDescription(robot);
  } catch (const std::exception& error) {
    showError(tr("Cannot recover the autosaved model"), QString::fromStdString(error.what()));
    removeRecoveryFile();
    return false;
  }
  if (!askEditDuringRun(tr("Recover the autosaved model"))) return false;
  clearReference();
  editor_->reset(robot);
  setCurrentFile(QSettings().value(kRecoveredFileKey).toString());
  recovered_unsaved_ = true;
  updateTitle();
  statusBar()->showMessage(tr("Recovered the autosaved model"), kStatusMessageMs);
  return true;
}

void MainWindow::offerRecovery() {
  if (!QFileInfo::exists(recoveryFilePath())) {
    return;
  }
  const auto answer = QMessageBox::question(
      this, tr("Recover unsaved work"),
      tr("Tendril did not close normally last time. Recover the model autosaved then?"),
      QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) {
    recoverAutosave();
  } else {
    removeRecoveryFile();
  }
}

void MainWindow::removeRecoveryFile() {
  QFile::remove(recoveryFilePath());
  QSettings().remove(kRecoveredFileKey);
}

}  // namespace tendril
