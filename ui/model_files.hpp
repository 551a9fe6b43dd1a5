#pragma once
// The studio's document: which file the model being edited came from, whether it has unsaved
// changes, the recent files, and the autosave that offers to recover unsaved work after a crash.
// Opening, importing or starting a model replaces the description through ModelEditor::reset,
// after RunController asked what becomes of a computation still holding the model.

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

#include "core/model/description.hpp"

class QTimer;
class QWidget;

namespace tendril {

class ModelEditor;
class RunController;
struct SweepSpec;

class ModelFiles : public QObject {
  Q_OBJECT

 public:
  /// \brief Files of the model \p editor edits; questions and messages are children of \p window.
  ModelFiles(QWidget* window, ModelEditor* editor, RunController* run);

  /// \brief Loads a model and shows it at rest. On failure the current model stays and
  ///        errorRaised says why. \return true when loaded
  bool openFile(const QString& path);
  /// \brief Writes the model to \p path and makes it the current file. \return true on success
  bool saveFile(const QString& path);
  /// \brief Starts a new, empty model.
  void newModel();
  /// \brief Imports the URDF robot \p path as a new, unsaved model.
  bool importUrdfFile(const QString& path);
  /// \brief Shows case \p index of \p spec as a new, unsaved model.
  bool openSweepCase(const SweepSpec& spec, int index, const QString& sweep_name);

  [[nodiscard]] QString currentFile() const { return current_file_; }
  /// \brief Unsaved: edited since the last save, or recovered or imported.
  [[nodiscard]] bool isModified() const;
  [[nodiscard]] QStringList recentFiles() const { return recent_files_; }
  void setRecentFiles(const QStringList& files);
  /// \brief The bundled example models (File > Examples).
  [[nodiscard]] static QStringList exampleFiles();

  /// \brief Where the autosave goes: recovery.json in the application's data directory.
  [[nodiscard]] static QString recoveryFilePath();
  [[nodiscard]] QTimer* autosaveTimer() const { return autosave_timer_; }
  /// \brief Writes the model to the recovery file when it has unsaved changes (every minute).
  bool autosave();
  /// \brief Loads the recovery file as an unsaved model. \return true when loaded
  bool recoverAutosave();
  /// \brief After a crash (a recovery file exists) asks whether to recover it.
  void offerRecovery();
  void removeRecoveryFile();

 signals:
  void statusMessage(const QString& text, int timeout_ms);
  void errorRaised(const QString& title, const QString& message);
  /// \brief The current file or its unsaved state changed (the window title follows).
  void documentChanged();
  void recentFilesChanged(const QStringList& files);
  /// \brief Another model replaced the one shown (opened, imported, new, recovered).
  void modelOpened();

 private:
  /// \brief Shows the description \p read returns as the model, once it builds; else reports
  ///        "<failure>: <reason>" and changes nothing.
  bool adoptDescription(const std::function<RobotDescription()>& read, const QString& failure);
  void setCurrentFile(const QString& path, bool unsaved = false);
  void addRecentFile(const QString& path);

  QWidget* window_ = nullptr;
  ModelEditor* editor_ = nullptr;
  RunController* run_ = nullptr;
  QString current_file_;
  QStringList recent_files_;
  bool recovered_unsaved_ = false;  ///< recovered or imported: unsaved without an edit
  QTimer* autosave_timer_ = nullptr;
};

}  // namespace tendril
