#pragma once
// The application window: menus, tool bars, the 3D viewport in the centre and dockable panels
// around it. Window layout and recent files persist through QSettings, whose scope (organisation
// and application names) is chosen by main() or by the tests.

#include <QMainWindow>
#include <QStringList>
#include <array>
#include <cstddef>
#include <optional>

#include "core/model/description.hpp"
#include "core/sim/simulation.hpp"
#include "ui/frame_metatype.hpp"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QUndoStack;

namespace tendril {

class ModelTreePanel;
class PlotPanel;
class PropertyPanel;
class SimulationController;
class TimelineBar;
class ViewportWidget;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  /// \brief Builds the window with an empty model and restores the saved layout.
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// \brief Loads a model and shows it at rest. On failure the current model stays, an error
  ///        box opens (non-blocking) and lastError() says why. \return true when loaded
  bool openFile(const QString& path);
  /// \brief Opens resources/examples/hybrid_serial_robot.json (see app_paths.hpp).
  bool openDefaultExample();
  /// \brief Writes the model to \p path and makes it the current file. \return true on success
  bool saveFile(const QString& path);
  /// \brief Starts a new, empty model.
  void newModel();

  [[nodiscard]] QString currentFile() const;
  [[nodiscard]] const RobotDescription& robot() const;
  [[nodiscard]] QString lastError() const;
  [[nodiscard]] QStringList recentFiles() const;

  /// \brief Text of Help > About: versions of Tendril, Qt, VTK and Eigen.
  [[nodiscard]] static QString aboutText();

  [[nodiscard]] ViewportWidget* viewport() const;
  [[nodiscard]] ModelTreePanel* modelTree() const;
  [[nodiscard]] PropertyPanel* propertyPanel() const;
  [[nodiscard]] PlotPanel* plotPanel() const;
  [[nodiscard]] TimelineBar* timeline() const;
  [[nodiscard]] QUndoStack* undoStack() const;
  [[nodiscard]] QProgressBar* progressBar() const;
  [[nodiscard]] QList<QDockWidget*> docks() const;
  [[nodiscard]] SimulationController* simulation() const;
  [[nodiscard]] QAction* runAction() const;
  [[nodiscard]] QAction* cancelAction() const;

  /// \brief Settings of the next Simulate > Run (default: BDF, 2 s, a frame every 0.01 s).
  void setSimulationOptions(const SimulationOptions& options);
  [[nodiscard]] const SimulationOptions& simulationOptions() const;
  /// \brief Starts the dynamics of the current model from rest on the simulation thread.
  ///        \return false (with an error box) when the model cannot be built or none is loaded
  bool runSimulation();

  /// \brief Stores geometry, dock/tool bar state and recent files (also done on close).
  void saveSettings() const;

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createPanels();
  QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& object_name,
                        Qt::DockWidgetArea area);
  void createActions();
  void createFileMenu();
  void createEditMenu();
  void createViewMenu();
  void createSimulateMenu();
  void createHelpMenu();
  void createToolBars();
  void createStatusBar();
  void restoreSettings();

  void onOpen();
  void onSave();
  void onSaveAs();
  void onExportScreenshot();
  void onAbout();
  void onLinkSelected(int link_index);
  void onSimulationFrame(const FramePtr& frame);
  void onSimulationProgress(double fraction);
  void onSimulationFinished(const QString& message, bool ok);
  void onFrameRequested(int frame);
  void preparePlotsForRun();
  void plotFramesUpTo(std::size_t count);
  void stopSimulation();
  void updateSimulationActions();
  void rebuildRecentMenu();
  void addRecentFile(const QString& path);

  void showRobot(const RobotDescription& robot);
  void setCurrentFile(const QString& path);
  void setBusy(bool busy);
  void showError(const QString& title, const QString& message);
  bool confirmDiscardChanges();

  RobotDescription robot_;
  QString current_file_;
  QString last_error_;
  QStringList recent_files_;

  ViewportWidget* viewport_ = nullptr;
  ModelTreePanel* model_tree_ = nullptr;
  PropertyPanel* property_panel_ = nullptr;
  PlotPanel* plot_panel_ = nullptr;
  TimelineBar* timeline_ = nullptr;
  QUndoStack* undo_stack_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;
  QList<QDockWidget*> docks_;

  QMenu* recent_menu_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QAction* run_action_ = nullptr;
  QAction* cancel_action_ = nullptr;

  SimulationController* simulation_ = nullptr;
  SimulationOptions simulation_options_;
  std::size_t plotted_frames_ = 0;             // recorded frames already appended to the plots
  std::array<int, 3> tip_series_{-1, -1, -1};  // plot handles of the first tip's x, y, z
  int energy_series_ = -1;
  QList<QAction*> camera_actions_;
};

}  // namespace tendril
