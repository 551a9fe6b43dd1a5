#pragma once
// The application window: menus, tool bars, the 3D viewport in the centre and dockable panels
// around it. Window layout and recent files persist through QSettings, whose scope (organisation
// and application names) is chosen by main() or by the tests.
//
// Editing: every change of the model is a DescriptionCommand on the undo stack (ui/edit_commands),
// made from a description already checked by buildModel (core/edit/description_edit). The
// selection is the JSON pointer of an item ("" for the robot, "/links/2", "/cables/0", ...) shared
// by the model tree, the property panel and the viewport highlight.

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointF>
#include <QStringList>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"
#include "ui/export_settings.hpp"
#include "ui/frame_metatype.hpp"
#include "ui/simulation_dialog.hpp"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QThread;
class QTimer;
class QToolButton;
class QUndoStack;

namespace tendril {

class ModelTreePanel;
class PlotPanel;
class PropertyPanel;
class ReplayExporter;
class SimulationController;
struct SweepSpec;
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
  /// \brief Imports the URDF robot \p path as a new, unsaved model (File > Import URDF). On
  ///        failure the current model stays and an error box says why. \return true when imported
  bool importUrdfFile(const QString& path);
  /// \brief File > Open Sweep Result: reads a sweep's results CSV and the spec beside it and
  ///        shows them in a SweepResultDialog, whose points open their case's model. On failure
  ///        an error box names the file and lastError() says why. \return true when shown
  bool openSweepResult(const QString& path);
  /// \brief Shows case \p index of \p spec as a new, unsaved model ("Opened case N of sweep
  ///        \p sweep_name"). On failure the current model stays. \return true when opened
  bool openSweepCase(const SweepSpec& spec, int index, const QString& sweep_name);

  // ---- editing (each returns false, with the reason in lastError(), when nothing changed)
  /// \brief Adds a rigid link with a \p joint at the tip of the selected link (or the world).
  bool addRigidLink(JointType joint);
  /// \brief Adds a soft rod of \p divisions divisions at the tip of the selected link.
  bool addSoftRod(int divisions = 1);
  /// \brief Adds a constant-curvature segment of \p model at the tip of the selected link, as
  ///        long as the soft rod addSoftRod() makes (0.4 m; radius a tenth of that).
  bool addConstantCurvatureSegment(CurvatureModel model);
  /// \brief Adds a cable through the selected soft rod or constant-curvature segment.
  bool addCable();
  /// \brief Adds a point load at the tip of the selected link.
  bool addPointLoad();
  /// \brief Adds a force input (constant 0) on the joint of the selected link.
  bool addJointInput();
  /// \brief Adds a closed-loop joint of \p type between the tip of \p link_a and \p link_b (a
  ///        link or "world"), assembled in the reference configuration.
  bool addClosedLoopJoint(const QString& link_a, const QString& link_b, JointType type,
                          bool planar = false);
  /// \brief Attaches a new link at \p abscissa [m] along the selected soft rod: a rigid link with
  ///        \p joint, or a soft rod when \p soft (see splitSoftLink).
  bool addLinkAlongRod(double abscissa, bool soft, JointType joint = JointType::Revolute);
  /// \brief Replaces the contact and fluid settings (one undoable edit).
  bool setEnvironment(const EnvironmentDesc& environment);
  /// \brief Lists the selected rigid link in the fluid (volume of its shape, no drag, no added
  ///        mass; then edited in the Properties panel) and selects its entry.
  bool addSelectedLinkToFluid();
  /// \brief Removes the selected rigid link's entry from the fluid.
  bool removeSelectedLinkFromFluid();
  /// \brief Inserts a point after point \p after of the time-function table at \p points_pointer.
  bool addTablePoint(const QString& points_pointer, int after);
  /// \brief Removes point \p index of the table at \p points_pointer (a table keeps two).
  bool removeTablePoint(const QString& points_pointer, int index);
  /// \brief Removes the selected item (a link with its descendants and what refers to them).
  bool removeSelected();
  /// \brief Attaches link \p link at the tip of \p parent (a link name or "world").
  bool reparentLink(int link, const QString& parent);
  /// \brief Sets the field at JSON pointer \p pointer from typed \p text; an invalid value is
  ///        refused and its reason shown in the property panel.
  bool setField(const QString& pointer, const QString& text);
  /// \brief Pushes an undoable edit to \p after (checked first) and selects \p selection.
  bool applyEdit(const QString& text, const RobotDescription& after, const QString& selection);

  /// \brief JSON pointer of the selected item ("" for the robot).
  [[nodiscard]] QString selection() const;
  void select(const QString& pointer);
  /// \brief The context menu of the model tree and the 3D view for the current selection (caller
  ///        owns it).
  [[nodiscard]] QMenu* createContextMenu();

  // ---- files
  /// \brief The bundled example models (File > Examples).
  [[nodiscard]] static QStringList exampleFiles();
  /// \brief Where the autosave goes: recovery.json in the application's data directory.
  [[nodiscard]] static QString recoveryFilePath();
  /// \brief Writes the model to the recovery file when it has unsaved changes (every minute).
  ///        \return true when written
  bool autosave();
  /// \brief Loads the recovery file as an unsaved model. \return true when loaded
  bool recoverAutosave();
  /// \brief After a crash (a recovery file exists) asks whether to recover it.
  void offerRecovery();
  [[nodiscard]] QTimer* autosaveTimer() const;

  // ---- replay
  /// \brief The exports of the recording (PNG sequence, video); its messages reach the status
  ///        bar.
  [[nodiscard]] ReplayExporter* replayExporter() const;
  /// \brief Where the tip-error reference came from.
  enum class ReferenceSource {
    None,                 ///< no reference
    Recording,            ///< Use Run as Reference: the run or loaded recording shown then
    FiniteDifferenceRun,  ///< the twin run with the finite-difference Jacobian
  };
  /// \brief Keeps the first tip's path of the current recording as the reference: later runs
  ///        plot their tip error |p - p_ref(t)| [m] against it. \return false without frames
  bool useRunAsReference();
  void clearReference();
  [[nodiscard]] bool hasReference() const;
  [[nodiscard]] ReferenceSource referenceSource() const;
  /// \brief Plot handle (in tipErrorPlot()) of the tip-error series of the current run, or -1.
  [[nodiscard]] int tipErrorSeries() const;
  /// \brief Simulate > Compare with Finite-Difference Reference: each dynamics run starts a twin
  ///        run with the finite-difference Jacobian in the background, whose tips become the
  ///        reference when it completes.
  void setCompareWithFiniteDifferences(bool on);
  [[nodiscard]] bool comparesWithFiniteDifferences() const;
  /// \brief The finite-difference twin of the current run (idle when the comparison is off).
  [[nodiscard]] SimulationController* referenceSimulation() const;

  /// \brief Saves the recorded frames of the current model as a trajectory CSV (t, q, v, tips,
  ///        energies; see core/io/results_io.hpp). \return false with lastError() on failure
  bool saveRecording(const QString& path);
  /// \brief Reads a trajectory CSV saved for the current model back as the recording: timeline,
  ///        plots and viewport replay it. \return false with lastError() when it does not fit
  bool openRecording(const QString& path);
  /// \brief Shows recorded frame \p frame (as the timeline slider does).
  void showRecordedFrame(int frame);

  [[nodiscard]] QString currentFile() const;
  [[nodiscard]] const RobotDescription& robot() const;
  [[nodiscard]] QString lastError() const;
  [[nodiscard]] QStringList recentFiles() const;

  /// \brief Text of Help > About: versions of Tendril, Qt, VTK and Eigen.
  [[nodiscard]] static QString aboutText();

  [[nodiscard]] ViewportWidget* viewport() const;
  [[nodiscard]] ModelTreePanel* modelTree() const;
  [[nodiscard]] PropertyPanel* propertyPanel() const;
  /// \brief The first tip's x, y, z [m] against time.
  [[nodiscard]] PlotPanel* plotPanel() const;
  /// \brief Kinetic, gravitational, elastic, dissipated and total (K + U_g + U_e) energy [J].
  [[nodiscard]] PlotPanel* energyPlot() const;
  /// \brief Plot handles of the energy series, in the order of energyPlot()'s legend.
  [[nodiscard]] std::array<int, 5> energySeries() const;
  /// \brief log10 of the tip error |p - p_ref| [m] against the reference (its own axis: errors
  ///        of 1e-9 m and 1e-2 m both stay readable).
  [[nodiscard]] PlotPanel* tipErrorPlot() const;
  /// \brief The Jacobian-mismatch plot: log10 of ||J_analytic - J_fd|| / ||J_fd|| for dID/dq and
  ///        dID/dv, sampled along each run on the simulation thread (when switched on).
  [[nodiscard]] PlotPanel* mismatchPlot() const;
  /// \brief Plot handles of the mismatch series of the current run: dID/dq, dID/dv (-1 when off).
  [[nodiscard]] std::array<int, 2> mismatchSeries() const;
  /// \brief About this many frames of each run get a Jacobian mismatch sample (0: none, the
  ///        default). Simulate > Sample Jacobian Mismatch switches between 0 and 50.
  void setJacobianMismatchSamples(int samples);
  [[nodiscard]] int jacobianMismatchSamples() const;
  [[nodiscard]] TimelineBar* timeline() const;
  [[nodiscard]] QUndoStack* undoStack() const;
  [[nodiscard]] QProgressBar* progressBar() const;
  [[nodiscard]] QList<QDockWidget*> docks() const;
  [[nodiscard]] SimulationController* simulation() const;
  [[nodiscard]] QAction* runAction() const;
  [[nodiscard]] QAction* cancelAction() const;
  /// \brief View > Follow Selection (checkable).
  [[nodiscard]] QAction* followAction() const;

  /// \brief Settings of the next Simulate > Run (default: BDF, 2 s, a frame every 0.01 s).
  void setSimulationOptions(const SimulationOptions& options);
  [[nodiscard]] const SimulationOptions& simulationOptions() const;
  /// \brief Starts the dynamics of the current model from rest on the simulation thread.
  ///        \return false (with an error box) when the model cannot be built or none is loaded
  bool runSimulation();
  /// \brief What Run (F5) computes: the dynamics, or the static equilibrium (the tool bar's
  ///        selector "analysisCombo" and Simulate > Settings show and change it).
  void setAnalysis(Analysis analysis);
  [[nodiscard]] Analysis analysis() const;
  /// \brief Solves the statics of the current model on a worker thread; the equilibrium is shown
  ///        and the residual of every Newton iteration plotted when it is done.
  bool runStatics();
  [[nodiscard]] bool isStaticsRunning() const;
  /// \brief Simulate > Cancel: stops a running simulation (keeping its frames) or statics solve
  ///        (showing its last iterate).
  void cancelAnalysis();

  /// \brief Stores geometry, dock/tool bar state and recent files (also done on close).
  void saveSettings() const;

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createPanels();
  QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& object_name,
                        Qt::DockWidgetArea area);
  void createActions();
  void createFileMenu();
  void createEditMenu();
  void createViewMenu();
  void addRodColouringMenu();
  void createSimulateMenu();
  void createInverseStaticsTargetAction(QMenu* menu);
  void createHelpMenu();
  void createModelMenu();
  void createConstantCurvatureMenu(QMenu* model_menu);
  QToolButton* createConstantCurvatureButton(QWidget* parent);
  void createToolBars();
  void populateExamplesMenu();
  /// \brief Shows the description \p read returns as the model, once it builds; else shows
  ///        "<failure>: <reason>" and changes nothing. Shared by Open and Import URDF.
  bool adoptDescription(const std::function<RobotDescription()>& read, const QString& failure);
  void createStatusBar();
  void restoreSettings();

  void onOpen();
  void onSave();
  void onSaveAs();
  void onExportScreenshot();
  void onAbout();
  void onPointerSelected(const QString& pointer);
  void onViewportClicked(int link);
  /// \brief Pops up createContextMenu() at \p global_position (the tree's and the 3D view's).
  void popupContextMenu(const QPoint& global_position);
  void onSimulationSettings();
  void onAddClosedLoopJoint();
  void onAddLinkAlongRod();
  void onEditEnvironment();
  void onRun();
  struct StaticsOutcome;
  void onStaticsFinished(const StaticsOutcome& outcome, std::uint64_t generation);
  void onExportReplay();
  void onExportVideo();
  std::optional<ExportSettings> askExportSettings(ExportSettingsDialog::Kind kind);
  void applyDescription(const RobotDescription& robot, const QString& selection);
  [[nodiscard]] int selectedLinkIndex() const;
  /// the link the camera follows: the selection, else a free-floating base (-1: none)
  [[nodiscard]] int followTarget() const;
  [[nodiscard]] std::string attachmentParent() const;
  void updateModelActions();
  void updateTitle();
  void removeRecoveryFile();
  void onSimulationFrame(const FramePtr& frame);
  void onSimulationProgress(double fraction);
  void onReferenceProgress(double fraction);
  void showProgress(double fraction, const QString& what);
  void onSimulationFinished(const QString& message, bool ok);
  void startFiniteDifferenceReference(ModelPtr model);
  void onReferenceFinished(const QString& message, bool ok);
  void replotTipError();
  [[nodiscard]] std::optional<QPointF> tipErrorPoint(const Frame& frame) const;
  void clearPlots();
  void setPlotCursors(double t);
  void onFrameRequested(int frame);
  void preparePlotsForRun(bool awaiting_twin = false);
  void endTipErrorWait(const QString& why);
  void plotFramesUpTo(std::size_t count);
  void plotJacobianMismatch(std::size_t count);
  void stopSimulation();
  void stopStatics();
  void updateSimulationActions();
  void rebuildRecentMenu();
  void addRecentFile(const QString& path);

  void setCurrentFile(const QString& path);
  void setBusy(bool busy);
  /// \brief A non-blocking warning box; \p detail (if any) behind its Show Details button.
  void showError(const QString& title, const QString& message, const QString& detail = {});
  bool confirmDiscardChanges();

  RobotDescription robot_;
  QString current_file_;
  QString last_error_;
  QStringList recent_files_;

  ViewportWidget* viewport_ = nullptr;
  ModelTreePanel* model_tree_ = nullptr;
  PropertyPanel* property_panel_ = nullptr;
  PlotPanel* plot_panel_ = nullptr;
  PlotPanel* energy_plot_ = nullptr;
  PlotPanel* tip_error_plot_ = nullptr;
  PlotPanel* mismatch_plot_ = nullptr;
  QDockWidget* tip_error_dock_ = nullptr;
  QDockWidget* mismatch_dock_ = nullptr;
  TimelineBar* timeline_ = nullptr;
  QUndoStack* undo_stack_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;
  QList<QDockWidget*> docks_;

  QMenu* recent_menu_ = nullptr;
  QMenu* examples_menu_ = nullptr;
  QMenu* add_link_menu_ = nullptr;
  QMenu* add_rod_menu_ = nullptr;
  QMenu* add_cc_menu_ = nullptr;  // planar and spatial constant-curvature segments
  QAction* add_cable_action_ = nullptr;
  QAction* add_load_action_ = nullptr;
  QAction* add_input_action_ = nullptr;
  QAction* add_loop_action_ = nullptr;
  QAction* add_along_rod_action_ = nullptr;
  QAction* environment_action_ = nullptr;
  QAction* add_to_fluid_action_ = nullptr;
  QAction* remove_from_fluid_action_ = nullptr;
  QAction* remove_action_ = nullptr;
  QTimer* autosave_timer_ = nullptr;
  QString selection_;
  bool recovered_unsaved_ = false;  ///< recovered or imported: unsaved without an edit
  Analysis analysis_ = Analysis::Dynamics;
  QComboBox* analysis_combo_ = nullptr;  // beside Run on the tool bar: analysis_, shown
  ReplayExporter* exporter_ = nullptr;
  bool awaiting_twin_ = false;  // the tip-error plot says the twin's reference is being computed
  QThread* statics_thread_ = nullptr;  // owns nothing shared: a model copy and its own Data
  std::shared_ptr<std::atomic<bool>> statics_cancel_;  // set by Cancel, read by the solve
  std::uint64_t statics_generation_ = 0;  // a result for an older model is dropped  // a recovered
                                          // model is unsaved although its history is empty
  QMenu* view_menu_ = nullptr;
  QAction* run_action_ = nullptr;
  QAction* cancel_action_ = nullptr;

  SimulationController* simulation_ = nullptr;
  // the finite-difference twin of the current run, when compared with one (its own worker thread)
  SimulationController* reference_simulation_ = nullptr;
  SimulationOptions simulation_options_;
  QElapsedTimer run_clock_;         // wall time since Run, for the remaining-time estimate
  std::size_t plotted_frames_ = 0;  // recorded frames already appended to the plots
  QElapsedTimer plot_clock_;        // since the plots last caught up with a run
  std::array<int, 3> tip_series_{-1, -1, -1};  // plot handles of the first tip's x, y, z
  std::array<int, 5> energy_series_{-1, -1, -1, -1, -1};
  int tip_error_series_ = -1;
  // off by default, for the worker's sake: a sample costs 6 n inverse dynamics (central
  // differences), about 60 ms on the 80-DoF underwater robot, so 50 samples about double that
  // model's run time. (The GUI stalls once blamed on it came from the repaints its plot forced,
  // docs/PERFORMANCE.md, "Studio".)
  int jacobian_mismatch_samples_ = 0;
  std::array<int, 2> mismatch_series_{-1, -1};
  std::size_t plotted_mismatch_ = 0;  // mismatch samples already appended to their plot
  QAction* mismatch_action_ = nullptr;
  std::vector<std::pair<double, Eigen::Vector3d>>
      reference_tip_;  // (t, first tip) of the reference
  ReferenceSource reference_source_ = ReferenceSource::None;
  QAction* reference_action_ = nullptr;
  QAction* fd_reference_action_ = nullptr;
  QList<QAction*> camera_actions_;
  QAction* follow_action_ = nullptr;
};

}  // namespace tendril
