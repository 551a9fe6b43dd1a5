// MainWindow, part three: File > Open Sweep Result, and the files of the model as ModelFiles keeps
// them (ui/main_window.hpp).

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
#include "ui/model_files.hpp"
#include "ui/sweep_result_dialog.hpp"

namespace tendril {

using main_window_detail::kRecoveredFileKey;
using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

// ---- files

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

// clang-format off
bool MainWindow::openFile(const QString& path) { return files_->openFile(path); }
bool MainWindow::saveFile(const QString& path) { return files_->saveFile(path); }
void MainWindow::newModel() { files_->newModel(); }
bool MainWindow::importUrdfFile(const QString& path) { return files_->importUrdfFile(path); }
QString MainWindow::currentFile() const { return files_->currentFile(); }
QStringList MainWindow::recentFiles() const { return files_->recentFiles(); }
QStringList MainWindow::exampleFiles() { return ModelFiles::exampleFiles(); }
QString MainWindow::recoveryFilePath() { return ModelFiles::recoveryFilePath(); }
QTimer* MainWindow::autosaveTimer() const { return files_->autosaveTimer(); }
bool MainWindow::autosave() { return files_->autosave(); }
bool MainWindow::recoverAutosave() { return files_->recoverAutosave(); }
void MainWindow::offerRecovery() { files_->offerRecovery(); }
// clang-format on

bool MainWindow::openSweepCase(const SweepSpec& spec, int index, const QString& sweep_name) {
  return files_->openSweepCase(spec, index, sweep_name);
}

}  // namespace tendril
