#pragma once
// The menus, tool bars and their actions of the studio's MainWindow, and the dialogs behind the
// File menu's exports. MainWindow keeps the state; this class only builds the actions, wires them
// to MainWindow's operations and lets MainWindow enable them (a friend of MainWindow).

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "ui/export_settings.hpp"

class QAction;
class QComboBox;
class QMenu;
class QToolButton;
class QWidget;

namespace tendril {

class MainWindow;
class ModelEditor;

class MainWindowActions : public QObject {
  Q_OBJECT

 public:
  /// \brief Builds every menu and the main tool bar of \p window.
  explicit MainWindowActions(MainWindow& window);

  /// \brief Lists \p files under File > Open Recent.
  void rebuildRecentMenu(const QStringList& files);
  /// \brief The context menu of the model tree and the 3D view (caller owns it).
  [[nodiscard]] QMenu* createContextMenu(QWidget* parent) const;
  /// \brief Enables the Model menu's entries that apply to \p editor's selection.
  void updateModelActions(const ModelEditor& editor);

  QAction* run = nullptr;
  QAction* cancel = nullptr;
  QAction* follow = nullptr;
  QAction* mismatch = nullptr;
  QAction* fd_reference = nullptr;
  QAction* remove = nullptr;
  QAction* add_cable = nullptr;
  QAction* add_load = nullptr;
  QAction* add_input = nullptr;
  QAction* add_controller = nullptr;
  QAction* add_window = nullptr;
  QAction* remove_window = nullptr;
  QAction* add_loop = nullptr;
  QAction* add_along_rod = nullptr;
  QAction* environment = nullptr;
  QAction* add_to_fluid = nullptr;
  QAction* remove_from_fluid = nullptr;
  QComboBox* analysis_combo = nullptr;  // beside Run on the tool bar

 private:
  void createFileMenu();
  void createExportActions(QMenu* menu);
  void createEditMenu();
  void createViewMenu();
  void addRodColouringMenu();
  void createModelMenu();
  void createConstantCurvatureMenu(QMenu* model_menu);
  void createLvpMenu(QMenu* model_menu);
  QToolButton* createConstantCurvatureButton(QWidget* parent);
  QToolButton* createMenuButton(QWidget* parent, const char* name, const QString& text,
                                const QString& tip, QMenu* menu);
  void createSimulateMenu();
  void createInverseStaticsTargetAction(QMenu* menu);
  void createHelpMenu();
  void createToolBar();
  void populateExamplesMenu();
  void addClosedLoopJointAsked();
  void addLinkAlongRodAsked();
  void editEnvironmentAsked();

  void exportScreenshot();
  void exportReplay();
  void exportVideo();
  std::optional<ExportSettings> askExportSettings(ExportSettingsDialog::Kind kind);

  MainWindow& w_;
  QMenu* view_menu_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* examples_menu_ = nullptr;
  QMenu* add_link_menu_ = nullptr;
  QMenu* add_rod_menu_ = nullptr;
  QMenu* add_cc_menu_ = nullptr;   // planar and spatial constant-curvature segments
  QMenu* add_lvp_menu_ = nullptr;  // locally volume-preserving bodies
  QList<QAction*> camera_actions_;
};

}  // namespace tendril
