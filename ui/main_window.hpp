#pragma once
// The application window: menus, tool bars, the 3D viewport in the centre and dockable panels
// around it. Window layout and recent files persist through QSettings, whose scope (organisation
// and application names) is chosen by main() or by the tests.
//
// Editing: every change of the model is a DescriptionCommand on the undo stack (ui/edit_commands),
// made from a description already checked by buildModel (core/edit/description_edit). The
// selection is the JSON pointer of an item ("" for the robot, "/links/2", "/cables/0", ...) shared
// by the model tree, the property panel and the viewport highlight.
//
// The window lays out the panels and shows what the classes that own each job report: the
// description, selection and undo history with every edit (ModelEditor), the document's file,
// recent files and autosave (ModelFiles), menus and tool bars (MainWindowActions), dynamics runs
// with their finite-difference twin, the statics solve, results and recordings (RunController,
// StaticsRunner, ResultPlots) and replay exports (ReplayExporter). While a run holds the model an
// edit asks first (stop the run / keep it running on the old model / cancel the edit); results of
// an earlier version of the model stay viewable, marked stale, until a new run replaces them.

#include <QMainWindow>
#include <QStringList>
#include <array>
#include <functional>

#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"
#include "ui/simulation_dialog.hpp"
#include "ui/tip_reference.hpp"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTimer;
class QUndoStack;

namespace tendril {

class MainWindowActions;
class ModelEditor;
class ModelFiles;
class ModelTreePanel;
class PlotPanel;
class PropertyPanel;
class ReplayExporter;
class ResultPlots;
class RunController;
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
  /// \brief Edit > Add Controller on the selected link's joint.
  bool addController();
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
  ///        While a run holds the model it asks first (askEditDuringRun).
  bool applyEdit(const QString& text, const RobotDescription& after, const QString& selection);
  /// \brief Edit > Undo and Redo: step through the history (asking first while a run holds the
  ///        model). \return false when nothing changed
  bool undoEdit();
  bool redoEdit();
  /// \brief What an edit does to a run (or statics solve) that holds the model.
  enum class EditDuringRun {
    StopRun,      ///< stop it (its results so far stay, stale) and apply the edit
    KeepRunning,  ///< apply the edit; the run goes on with the old model, its results stale
    CancelEdit,   ///< leave everything as it is
  };
  /// \brief Asks what to do with the running computation before \p edit ("editDuringRunBox",
  ///        buttons "stopRunButton", "keepRunningButton", "cancelEditButton"); nothing is asked
  ///        when none runs. \return false when the edit is cancelled
  bool askEditDuringRun(const QString& edit);
  /// \brief The results shown come from an earlier version of the model (the banner
  ///        "staleResultsLabel" and the plot titles say so).
  [[nodiscard]] bool resultsAreStale() const;
  [[nodiscard]] QLabel* staleResultsLabel() const;

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
  using ReferenceSource = tendril::ReferenceSource;
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
  [[nodiscard]] RunController* runController() const;
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
  friend class MainWindowActions;  // builds the menus and tool bars on the window's operations

  void createPanels();
  QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& object_name,
                        Qt::DockWidgetArea area);
  void createStatusBar();
  void restoreSettings();

  void onOpen();
  void onSave();
  void onSaveAs();
  void onPointerSelected(const QString& pointer);
  void onViewportClicked(int link);
  /// \brief Pops up createContextMenu() at \p global_position (the tree's and the 3D view's).
  void popupContextMenu(const QPoint& global_position);
  void onSimulationSettings();
  void onRun();
  void createEditor();
  /// \brief Draws the description ModelEditor applied (from \p previous), selecting \p selection.
  void onDescriptionApplied(const RobotDescription& previous, const QString& selection);
  /// the link the camera follows: the selection, else a free-floating base (-1: none)
  [[nodiscard]] int followTarget() const;
  /// the model of the description on screen, or nullptr after showing why it does not build
  [[nodiscard]] ModelPtr modelForRun(const QString& failure);
  void updateTitle();
  void updateSimulationActions();

  void setBusy(bool busy);
  /// \brief A non-blocking warning box; \p detail (if any) behind its Show Details button.
  void showError(const QString& title, const QString& message, const QString& detail = {});
  bool confirmDiscardChanges();

  ModelEditor* editor_ = nullptr;  // the description, its selection and undo history
  QString last_error_;
  Analysis analysis_ = Analysis::Dynamics;

  ViewportWidget* viewport_ = nullptr;
  ModelTreePanel* model_tree_ = nullptr;
  PropertyPanel* property_panel_ = nullptr;
  ResultPlots* plots_ = nullptr;
  TimelineBar* timeline_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;
  QLabel* stale_label_ = nullptr;  // the banner over stale results, in the status bar
  QList<QDockWidget*> docks_;

  ModelFiles* files_ = nullptr;  // the file, unsaved state, recent files and autosave
  MainWindowActions* actions_ = nullptr;
  RunController* run_ = nullptr;
  ReplayExporter* exporter_ = nullptr;
};

}  // namespace tendril
