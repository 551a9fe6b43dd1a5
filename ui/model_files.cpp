#include "ui/model_files.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>
#include <QWidget>
#include <stdexcept>

#include "core/edit/description_edit.hpp"
#include "core/io/json_io.hpp"
#include "core/io/urdf_import.hpp"
#include "core/sim/rest_frame.hpp"
#include "core/study/sweep_run.hpp"
#include "ui/app_paths.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_editor.hpp"
#include "ui/run_controller.hpp"

namespace tendril {

using main_window_detail::kRecoveredFileKey;
using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kAutosaveIntervalMs = 60 * 1000;
const QString kRecentFilesKey = QStringLiteral("recentFiles");

}  // namespace

ModelFiles::ModelFiles(QWidget* window, ModelEditor* editor, RunController* run)
    : QObject(window), window_(window), editor_(editor), run_(run) {
  connect(editor_->undoStack(), &QUndoStack::cleanChanged, this, &ModelFiles::documentChanged);
  recent_files_ = QSettings().value(kRecentFilesKey).toStringList();
  autosave_timer_ = new QTimer(this);
  autosave_timer_->setInterval(kAutosaveIntervalMs);
  connect(autosave_timer_, &QTimer::timeout, this, &ModelFiles::autosave);
  autosave_timer_->start();
}

bool ModelFiles::isModified() const {
  return recovered_unsaved_ || !editor_->undoStack()->isClean();
}

QStringList ModelFiles::exampleFiles() {
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

bool ModelFiles::adoptDescription(const std::function<RobotDescription()>& read,
                                  const QString& failure) {
  try {
    const RobotDescription robot = read();
    (void)restFrame(robot);  // throws for a physically invalid model before anything changes
    if (!run_->askBeforeEdit(window_, tr("Opening another model"))) return false;
    run_->clearReference();  // a reference of another model, however alike
    editor_->reset(robot);
  } catch (const std::exception& error) {
    emit errorRaised(failure, QString::fromStdString(error.what()));
    return false;
  }
  emit modelOpened();
  return true;
}

bool ModelFiles::openFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  if (!adoptDescription([&] { return loadRobot(toPath(path)); }, tr("Cannot open %1").arg(name)))
    return false;
  setCurrentFile(path);
  addRecentFile(path);
  emit statusMessage(tr("Opened %1").arg(name), kStatusMessageMs);
  return true;
}

bool ModelFiles::saveFile(const QString& path) {
  try {
    saveRobot(editor_->robot(), toPath(path));
  } catch (const std::exception& error) {
    emit errorRaised(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
                     QString::fromStdString(error.what()));
    return false;
  }
  current_file_ = path;
  recovered_unsaved_ = false;
  editor_->undoStack()->setClean();  // the history stays: undo works on after a save
  emit documentChanged();
  removeRecoveryFile();
  addRecentFile(path);
  emit statusMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), kStatusMessageMs);
  return true;
}

void ModelFiles::newModel() {
  if (!run_->askBeforeEdit(window_, tr("A new model"))) return;
  run_->clearReference();
  editor_->reset(RobotDescription{});
  setCurrentFile(QString());
  emit modelOpened();
}

bool ModelFiles::importUrdfFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  if (!adoptDescription([&] { return importUrdf(toPath(path)); }, tr("Cannot import %1").arg(name)))
    return false;
  setCurrentFile(QString(), /*unsaved=*/true);  // a new document: Save asks where it goes
  emit statusMessage(tr("Imported %1").arg(name), kStatusMessageMs);
  return true;
}

bool ModelFiles::openSweepCase(const SweepSpec& spec, int index, const QString& sweep_name) {
  const QString failure = tr("Cannot open case %1 of sweep %2").arg(index).arg(sweep_name);
  const auto read = [&] {
    CaseModel model = caseDescription(spec, index);  // throws for an index outside the sweep
    if (!model.description) throw std::runtime_error(model.error);
    return *model.description;
  };
  if (!adoptDescription(read, failure)) return false;
  setCurrentFile(QString(), /*unsaved=*/true);  // a new document: Save asks where it goes
  emit statusMessage(tr("Opened case %1 of sweep %2").arg(index).arg(sweep_name), kStatusMessageMs);
  return true;
}

void ModelFiles::setCurrentFile(const QString& path, bool unsaved) {
  current_file_ = path;
  recovered_unsaved_ = unsaved;
  editor_->undoStack()->clear();
  emit documentChanged();
}

void ModelFiles::addRecentFile(const QString& path) {
  QStringList files = recent_files_;
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  setRecentFiles(files.mid(0, kMaxRecentFiles));
}

void ModelFiles::setRecentFiles(const QStringList& files) {
  recent_files_ = files;
  QSettings().setValue(kRecentFilesKey, recent_files_);
  emit recentFilesChanged(recent_files_);
}

// ---- autosave and recovery

QString ModelFiles::recoveryFilePath() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("recovery.json");
}

bool ModelFiles::autosave() {
  if (!isModified()) {
    return false;
  }
  const QString path = recoveryFilePath();
  QDir().mkpath(QFileInfo(path).absolutePath());
  try {
    writeFileAtomically(toPath(path), serializeRobot(editor_->robot()));
  } catch (const std::exception& error) {
    emit statusMessage(tr("Autosave failed: %1").arg(error.what()), kStatusMessageMs);
    return false;
  }
  QSettings().setValue(kRecoveredFileKey, current_file_);
  return true;
}

bool ModelFiles::recoverAutosave() {
  const QString path = recoveryFilePath();
  if (!QFileInfo::exists(path)) {
    return false;
  }
  RobotDescription robot;
  try {
    robot = loadRobot(toPath(path));
    checkDescription(robot);
  } catch (const std::exception& error) {
    emit errorRaised(tr("Cannot recover the autosaved model"),
                     QString::fromStdString(error.what()));
    removeRecoveryFile();
    return false;
  }
  if (!run_->askBeforeEdit(window_, tr("Recovering the autosaved model"))) return false;
  run_->clearReference();
  editor_->reset(robot);
  setCurrentFile(QSettings().value(kRecoveredFileKey).toString(), /*unsaved=*/true);
  emit statusMessage(tr("Recovered the autosaved model"), kStatusMessageMs);
  return true;
}

void ModelFiles::offerRecovery() {
  if (!QFileInfo::exists(recoveryFilePath())) {
    return;
  }
  const auto answer = QMessageBox::question(
      window_, tr("Recover unsaved work"),
      tr("Tendril did not close normally last time. Recover the model autosaved then?"),
      QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) {
    recoverAutosave();
  } else {
    removeRecoveryFile();
  }
}

void ModelFiles::removeRecoveryFile() {
  QFile::remove(recoveryFilePath());
  QSettings().remove(kRecoveredFileKey);
}

}  // namespace tendril
