#include "ui/main_window.hpp"

#include <Eigen/Core>
#include <QActionGroup>
#include <QChart>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLegend>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointF>
#include <QProcess>
#include <QProgressBar>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "core/algorithm/data.hpp"
#include "core/algorithm/statics.hpp"
#include "core/edit/description_edit.hpp"
#include "core/io/json_io.hpp"
#include "core/io/results_io.hpp"
#include "core/model/model.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/rest_frame.hpp"
#include "core/sim/thread_priority.hpp"
#include "tendril_version.hpp"
#include "ui/app_paths.hpp"
#include "ui/edit_commands.hpp"
#include "ui/inverse_statics_target.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/panels/field_help.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/replay_exporter.hpp"
#include "ui/run_messages.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_dialog.hpp"
#include "ui/user_guide_dialog.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kWindowStateVersion = 1;
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kRecentFilesKey = QStringLiteral("recentFiles");
constexpr int kAutosaveIntervalMs = 60 * 1000;
// while a run streams, the plots catch up with it this often (the viewport: every frame delivered)
constexpr int kStreamingPlotIntervalMs = 100;
const QString kModelFilter = QStringLiteral("Tendril models (*.json);;All files (*)");
const char* const kTipAxes[] = {"x", "y", "z"};

SimulationOptions defaultSimulationOptions() {
  SimulationOptions options;
  options.integrator = IntegratorKind::Bdf;
  options.t_end = 2.0;
  options.output_interval = 0.01;
  options.jacobian = JacobianKind::Analytic;
  return options;
}

// the energy plot's series, in legend order
constexpr const char* kEnergyNames[] = {QT_TR_NOOP("kinetic"), QT_TR_NOOP("gravitational"),
                                        QT_TR_NOOP("elastic"), QT_TR_NOOP("dissipated"),
                                        QT_TR_NOOP("total")};

std::array<double, 5> energySeriesValues(const Energies& energy) {
  return {energy.kinetic, energy.gravitational, energy.elastic, energy.dissipated,
          energy.kinetic + energy.gravitational + energy.elastic};
}

// the tip error is drawn as log10; an exact match (a rerun of the reference) would be -infinity
constexpr double kTipErrorFloor = 1e-15;  // [m]

double logTipError(const Eigen::Vector3d& tip, const Eigen::Vector3d& reference) {
  return std::log10(std::max((tip - reference).norm(), kTipErrorFloor));
}

QString tipErrorName(MainWindow::ReferenceSource source) {
  return source == MainWindow::ReferenceSource::FiniteDifferenceRun
             ? MainWindow::tr("vs finite-difference run")
             : MainWindow::tr("vs reference");
}

struct CameraView {
  const char* label;
  const char* shortcut;
  ViewDirection direction;
};

struct JointChoice {
  const char* label;
  const char* object_name;
  JointType type;
};

constexpr JointChoice kJointChoices[] = {
    {"&Revolute", "addRevoluteLinkAction", JointType::Revolute},
    {"&Prismatic", "addPrismaticLinkAction", JointType::Prismatic},
    {"&Helical", "addHelicalLinkAction", JointType::Helical},
    {"&Cylindrical", "addCylindricalLinkAction", JointType::Cylindrical},
    {"&Universal", "addUniversalLinkAction", JointType::Universal},
    {"Pla&nar", "addPlanarLinkAction", JointType::Planar},
    {"&Spherical", "addSphericalLinkAction", JointType::Spherical},
    {"F&ree", "addFreeLinkAction", JointType::Free},
    {"Fi&xed", "addFixedLinkAction", JointType::Fixed},
};

// the first link on a free joint to the world: a floating base (-1: none)
int freeBaseLink(const RobotDescription& robot) {
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const LinkDesc& link = robot.links[i];
    if (link.joint.type == JointType::Free && (link.parent.empty() || link.parent == "world")) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

constexpr CameraView kCameraViews[] = {
    {"&Front", "1", ViewDirection::Front},
    {"&Side", "3", ViewDirection::Side},
    {"&Top", "7", ViewDirection::Top},
    {"&Isometric", "5", ViewDirection::Isometric},
};

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), simulation_options_(defaultSimulationOptions()) {
  undo_stack_ = new QUndoStack(this);
  simulation_ = new SimulationController(this);
  connect(simulation_, &SimulationController::frameAvailable, this, &MainWindow::onSimulationFrame);
  connect(simulation_, &SimulationController::progress, this, &MainWindow::onSimulationProgress);
  connect(simulation_, &SimulationController::runFinished, this, &MainWindow::onSimulationFinished);
  reference_simulation_ = new SimulationController(this);
  reference_simulation_->setObjectName("referenceSimulation");
  connect(reference_simulation_, &SimulationController::progress, this,
          &MainWindow::onReferenceProgress);
  connect(reference_simulation_, &SimulationController::runFinished, this,
          &MainWindow::onReferenceFinished);
  connect(undo_stack_, &QUndoStack::cleanChanged, this, [this] { updateTitle(); });
  setWindowIcon(QIcon(":/icons/tendril-256.png"));
  setAcceptDrops(true);
  createPanels();
  exporter_ = new ReplayExporter(
      this, viewport_, simulation_, [this](int frame) { showRecordedFrame(frame); },
      [this] { return timeline_->currentFrame(); });
  connect(exporter_, &ReplayExporter::statusMessage, this,
          [this](const QString& message) { statusBar()->showMessage(message, kStatusMessageMs); });
  createActions();
  createStatusBar();
  resize(1200, 760);
  restoreSettings();
  newModel();
  autosave_timer_ = new QTimer(this);
  autosave_timer_->setInterval(kAutosaveIntervalMs);
  connect(autosave_timer_, &QTimer::timeout, this, &MainWindow::autosave);
  autosave_timer_->start();
}

// the worker is joined before the panels it feeds are destroyed
MainWindow::~MainWindow() {
  simulation_->discard();
  reference_simulation_->discard();
  stopStatics();
}

void MainWindow::cancelAnalysis() {
  simulation_->cancel();
  reference_simulation_->cancel();
  endTipErrorWait(
      tr("No tip error: the run was cancelled before its finite-difference reference "
         "finished."));
  if (statics_cancel_) {
    *statics_cancel_ = true;
  }
}

// cancels a statics solve and waits for its thread (it stops before its next Newton iteration)
void MainWindow::stopStatics() {
  if (statics_thread_ == nullptr) {
    return;
  }
  *statics_cancel_ = true;
  statics_thread_->wait();
}

struct MainWindow::StaticsOutcome {
  StaticsResult result;
  FramePtr frame;
  std::string error;
};

void MainWindow::createPanels() {
  viewport_ = new ViewportWidget(this);
  viewport_->setObjectName("viewport");
  setCentralWidget(viewport_);
  setDockOptions(AnimatedDocks | AllowTabbedDocks);

  model_tree_ = new ModelTreePanel(this);
  property_panel_ = new PropertyPanel(this);
  plot_panel_ = new PlotPanel(this);
  plot_panel_->setObjectName("plotPanel");
  energy_plot_ = new PlotPanel(this);
  energy_plot_->setObjectName("energyPlot");
  tip_error_plot_ = new PlotPanel(this);
  tip_error_plot_->setObjectName("tipErrorPlot");
  tip_error_plot_->chart()->legend()->hide();  // one series in a narrow tab: the plot needs room
  tip_error_plot_->setToolTip(
      tr("log10 of the distance [m] between the first tip of this run and the reference's at the "
         "same time (Simulate > Use Run as Reference, or Compare with Finite-Difference "
         "Reference); an exact match is drawn at -15.\n") +
      tip_error_plot_->toolTip());
  mismatch_plot_ = new PlotPanel(this);
  mismatch_plot_->setObjectName("mismatchPlot");
  mismatch_plot_->setToolTip(
      tr("log10 of |J_analytic - J_fd| / |J_fd| for the inverse-dynamics derivatives dID/dq and "
         "dID/dv, sampled along the run (Simulate > Sample Jacobian Mismatch).\n") +
      mismatch_plot_->toolTip());
  addPanel(model_tree_, tr("Model"), "modelTreeDock", Qt::LeftDockWidgetArea);
  addPanel(property_panel_, tr("Properties"), "propertyDock", Qt::RightDockWidgetArea);
  QDockWidget* plots = addPanel(plot_panel_, tr("Plots"), "plotDock", Qt::BottomDockWidgetArea);
  mismatch_dock_ =
      addPanel(mismatch_plot_, tr("Jacobian Mismatch"), "mismatchDock", Qt::BottomDockWidgetArea);
  QDockWidget* energy =
      addPanel(energy_plot_, tr("Energy"), "energyDock", Qt::BottomDockWidgetArea);
  tip_error_dock_ =
      addPanel(tip_error_plot_, tr("Tip Error"), "tipErrorDock", Qt::BottomDockWidgetArea);
  // the two diagnostics, each off by default, share a place as tabs
  splitDockWidget(plots, energy, Qt::Horizontal);
  splitDockWidget(energy, mismatch_dock_, Qt::Horizontal);
  tabifyDockWidget(mismatch_dock_, tip_error_dock_);
  // the properties need room for three columns: names (indented), values and units
  resizeDocks({docks_[0], docks_[1]}, {250, 330}, Qt::Horizontal);
  resizeDocks({plots, energy, mismatch_dock_}, {420, 420, 360}, Qt::Horizontal);
  // tall enough for a vertical axis title such as "log10 mismatch" to fit unclipped
  resizeDocks({plots}, {230}, Qt::Vertical);
  clearPlots();

  timeline_ = new TimelineBar(this);
  addToolBar(Qt::BottomToolBarArea, timeline_);
  connect(model_tree_, &ModelTreePanel::pointerSelected, this, &MainWindow::onPointerSelected);
  connect(model_tree_, &ModelTreePanel::reparentRequested, this, &MainWindow::reparentLink);
  connect(model_tree_, &ModelTreePanel::contextMenuRequested, this, &MainWindow::popupContextMenu);
  // queued: the panel's editor is still closing when it reports the text
  connect(property_panel_, &PropertyPanel::editRequested, this, &MainWindow::setField,
          Qt::QueuedConnection);
  connect(property_panel_, &PropertyPanel::addTablePointRequested, this, &MainWindow::addTablePoint,
          Qt::QueuedConnection);
  connect(property_panel_, &PropertyPanel::removeTablePointRequested, this,
          &MainWindow::removeTablePoint, Qt::QueuedConnection);
  connect(viewport_, &ViewportWidget::linkClicked, this, &MainWindow::onViewportClicked);
  // right-clicking a body selects it, as a left click does, and offers the tree's menu for it
  connect(viewport_, &ViewportWidget::linkContextMenuRequested, this,
          [this](int link, const QPoint& at) {
            onViewportClicked(link);
            popupContextMenu(at);
          });
  connect(timeline_, &TimelineBar::frameRequested, this, &MainWindow::onFrameRequested);
}

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, const QString& object_name,
                                  Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(object_name);
  dock->setWidget(panel);
  addDockWidget(area, dock);
  docks_.append(dock);
  return dock;
}

void MainWindow::createActions() {
  createFileMenu();
  createEditMenu();
  createViewMenu();
  createModelMenu();
  createSimulateMenu();
  createHelpMenu();
  createToolBars();
}

void MainWindow::createFileMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&File"));
  menu->addAction(tr("&New"), QKeySequence::New, this, [this] {
    if (confirmDiscardChanges()) {
      newModel();
    }
  });
  menu->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open..."),
                  QKeySequence::Open, this, &MainWindow::onOpen);
  QAction* import_urdf = menu->addAction(tr("&Import URDF..."), this, [this] {
    if (!confirmDiscardChanges()) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Import URDF"), QString(),
                                                      tr("URDF robots (*.urdf);;All files (*)"));
    if (!path.isEmpty()) importUrdfFile(path);
  });
  import_urdf->setObjectName("importUrdfAction");
  QAction* open_sweep = menu->addAction(tr("Open S&weep Result..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep Result"), QString(),
                                                      tr("Sweep results (*.csv);;All files (*)"));
    if (!path.isEmpty()) openSweepResult(path);
  });
  open_sweep->setObjectName("openSweepResultAction");
  recent_menu_ = menu->addMenu(tr("Open &Recent"));
  examples_menu_ = menu->addMenu(tr("&Examples"));
  examples_menu_->setObjectName("examplesMenu");
  populateExamplesMenu();
  menu->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"),
                  QKeySequence::Save, this, &MainWindow::onSave);
  menu->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::onSaveAs);
  menu->addSeparator();
  menu->addAction(tr("Export Screens&hot..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                  &MainWindow::onExportScreenshot);
  menu->addAction(tr("Save Recordin&g..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Recording"), "recording.csv",
                                                      tr("Trajectories (*.csv)"));
    if (!path.isEmpty() && !saveRecording(path)) {
      showError(tr("Cannot save the recording"), last_error_);
    }
  });
  menu->addAction(tr("Open Re&cording..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Recording"), QString(),
                                                      tr("Trajectories (*.csv)"));
    if (!path.isEmpty() && !openRecording(path)) {
      showError(tr("Cannot open the recording"), last_error_);
    }
  });
  menu->addAction(tr("Export Replay as &PNG Sequence..."), this, &MainWindow::onExportReplay);
  QAction* video =
      menu->addAction(tr("Export Replay as &Video..."), this, &MainWindow::onExportVideo);
  video->setObjectName("exportVideoAction");
  video->setEnabled(!ReplayExporter::ffmpegPath().isEmpty());
  video->setToolTip(video->isEnabled() ? tr("Encode the recording as an MP4 video with ffmpeg")
                                       : tr("Needs ffmpeg on the PATH"));
  menu->addSeparator();
  menu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createEditMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = undo_stack_->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_stack_->createRedoAction(this, tr("&Redo"));
  // Ctrl+Shift+Z and Ctrl+Y everywhere (every platform's Redo has one of them, not both); a
  // duplicate would be ambiguous
  QList<QKeySequence> redo_keys = QKeySequence::keyBindings(QKeySequence::Redo);
  for (const QKeySequence& key :
       {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)}) {
    if (!redo_keys.contains(key)) redo_keys.append(key);
  }
  redo->setShortcuts(redo_keys);
  undo->setObjectName("undoAction");
  redo->setObjectName("redoAction");
  menu->addAction(undo);
  menu->addAction(redo);
}

void MainWindow::createModelMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Model"));
  add_link_menu_ = menu->addMenu(tr("Add &Rigid Link"));
  add_link_menu_->setToolTip(tr("Add a rigid link at the tip of the selected link"));
  for (const JointChoice& choice : kJointChoices) {
    const JointType type = choice.type;
    QAction* action =
        add_link_menu_->addAction(tr(choice.label), this, [this, type] { addRigidLink(type); });
    action->setObjectName(choice.object_name);
  }
  add_rod_menu_ = menu->addMenu(tr("Add &Soft Rod"));
  for (int divisions : {1, 2, 3, 4}) {
    QAction* action = add_rod_menu_->addAction(
        divisions == 1 ? tr("&1 division") : tr("&%1 divisions").arg(divisions), this,
        [this, divisions] { addSoftRod(divisions); });
    action->setObjectName(QString("addSoftRod%1Action").arg(divisions));
  }
  createConstantCurvatureMenu(menu);
  add_cable_action_ = menu->addAction(tr("Add &Cable"), this, &MainWindow::addCable);
  add_cable_action_->setObjectName("addCableAction");
  add_cable_action_->setToolTip(
      tr("Add a cable through the selected soft rod or constant-curvature segment"));
  add_load_action_ = menu->addAction(tr("Add Point &Load"), this, &MainWindow::addPointLoad);
  add_load_action_->setObjectName("addPointLoadAction");
  add_load_action_->setToolTip(tr("Add a force at the tip of the selected link"));
  add_input_action_ = menu->addAction(tr("Add &Joint Input"), this, &MainWindow::addJointInput);
  add_input_action_->setObjectName("addJointInputAction");
  add_input_action_->setToolTip(
      tr("Drive the joint of the selected link with a force (or a prescribed position)"));
  add_along_rod_action_ =
      menu->addAction(tr("Add Link &Along Rod..."), this, &MainWindow::onAddLinkAlongRod);
  add_along_rod_action_->setObjectName("addAlongRodAction");
  add_along_rod_action_->setToolTip(tr("Attach a new link at a chosen point of the selected rod"));
  add_loop_action_ =
      menu->addAction(tr("Add Closed-&Loop Joint..."), this, &MainWindow::onAddClosedLoopJoint);
  add_loop_action_->setObjectName("addClosedLoopAction");
  add_loop_action_->setToolTip(tr("Join two bodies (or a body and the world) with a joint"));
  menu->addSeparator();
  environment_action_ =
      menu->addAction(tr("&Environment..."), this, &MainWindow::onEditEnvironment);
  environment_action_->setObjectName("environmentAction");
  environment_action_->setToolTip(tr("Contact obstacles and the surrounding fluid"));
  add_to_fluid_action_ =
      menu->addAction(tr("Add Link to &Fluid"), this, &MainWindow::addSelectedLinkToFluid);
  add_to_fluid_action_->setObjectName("addToFluidAction");
  add_to_fluid_action_->setToolTip(
      tr("Give the selected rigid link a volume, drag and added mass of its own in the fluid "
         "(edited in the Properties panel)"));
  remove_from_fluid_action_ = menu->addAction(tr("Remove Link from F&luid"), this,
                                              &MainWindow::removeSelectedLinkFromFluid);
  remove_from_fluid_action_->setObjectName("removeFromFluidAction");
  remove_from_fluid_action_->setToolTip(
      tr("The selected rigid link then displaces its shape's volume, without drag or added mass"));
  menu->addSeparator();
  remove_action_ = menu->addAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Re&move"),
                                   QKeySequence::Delete, this, &MainWindow::removeSelected);
  remove_action_->setObjectName("removeAction");
  remove_action_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  model_tree_->addAction(remove_action_);
  viewport_->addAction(remove_action_);
}

void MainWindow::createViewMenu() {
  view_menu_ = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : docks_) {
    view_menu_->addAction(dock->toggleViewAction());
  }
  view_menu_->addAction(timeline_->toggleViewAction());
  view_menu_->addSeparator();
  camera_actions_.append(view_menu_->addAction(tr("&Fit View"), QKeySequence(tr("F")), viewport_,
                                               &ViewportWidget::fitView));
  camera_actions_.append(view_menu_->addAction(tr("&Reset View"), QKeySequence(tr("R")), viewport_,
                                               &ViewportWidget::resetView));
  for (const CameraView& view : kCameraViews) {
    const ViewDirection direction = view.direction;
    camera_actions_.append(
        view_menu_->addAction(tr(view.label), QKeySequence(view.shortcut), viewport_,
                              [this, direction] { viewport_->setViewDirection(direction); }));
  }
  view_menu_->addSeparator();
  follow_action_ = view_menu_->addAction(tr("F&ollow Selection"));
  follow_action_->setObjectName("followAction");
  follow_action_->setCheckable(true);
  follow_action_->setShortcut(QKeySequence(tr("Shift+F")));
  follow_action_->setToolTip(tr("Keep the selected body (or rod tip) in the centre of the view"));
  connect(follow_action_, &QAction::toggled, this,
          [this](bool on) { viewport_->setFollowedLink(on ? followTarget() : -1); });
  addRodColouringMenu();
  QAction* joints = view_menu_->addAction(tr("Show &Joints"));
  joints->setObjectName("showJointsAction");
  joints->setCheckable(true);
  joints->setChecked(viewport_->showsJoints());
  joints->setToolTip(
      tr("Draw the joints as glyphs: discs for revolute axes, bars for prismatic "
         "ones, balls for the others; closed-loop joints in magenta"));
  connect(joints, &QAction::toggled, viewport_, &ViewportWidget::setShowJoints);
  QAction* frames = view_menu_->addAction(tr("Show Computational &Frames"));
  frames->setObjectName("showFramesAction");
  frames->setCheckable(true);
  frames->setChecked(viewport_->showsFrames());
  frames->setToolTip(
      tr("Draw x (red), y (green), z (blue) at every computational point of the "
         "rods and at every rigid link frame"));
  connect(frames, &QAction::toggled, viewport_, &ViewportWidget::setShowFrames);
}

// View > Colour Rods By: one quantity at a time, or none (unchecking the checked one)
void MainWindow::addRodColouringMenu() {
  QMenu* menu = view_menu_->addMenu(tr("&Colour Rods By"));
  auto* group = new QActionGroup(menu);
  group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  struct Entry {
    RodQuantity quantity;
    const char* object_name;
    QString text;
  };
  const Entry entries[] = {
      {RodQuantity::Curvature, "curvatureColourAction", tr("&Curvature [1/m]")},
      {RodQuantity::AxialStrain, "axialStrainColourAction", tr("&Axial Strain")},
      {RodQuantity::BendingMoment, "bendingMomentColourAction", tr("&Bending Moment [N m]")},
      {RodQuantity::AxialForce, "axialForceColourAction", tr("Axial &Force [N]")},
  };
  for (const Entry& entry : entries) {
    QAction* action = menu->addAction(entry.text);
    action->setObjectName(entry.object_name);
    action->setCheckable(true);
    action->setData(static_cast<int>(entry.quantity));
    group->addAction(action);
    // switching fires twice (the old action off, the new one on): follow the group's state
    connect(action, &QAction::toggled, this, [this, group](bool) {
      const QAction* checked = group->checkedAction();
      viewport_->setRodColouring(
          checked ? std::optional(static_cast<RodQuantity>(checked->data().toInt()))
                  : std::nullopt);
    });
  }
  menu->setToolTipsVisible(true);
  menu->setToolTip(
      tr("Bending moment and axial force are those of the internal wrench, elastic and viscous "
         "(the section stiffness times xi - xi* plus its damping times the strain rate), from "
         "each interval's mean strain and strain rate"));
}

void MainWindow::createSimulateMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Simulate"));
  run_action_ = menu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"),
                                QKeySequence(tr("F5")), this, &MainWindow::onRun);
  run_action_->setObjectName("runAction");
  run_action_->setToolTip(tr("Simulate the dynamics of the model from rest"));
  run_action_->setStatusTip(run_action_->toolTip());
  QAction* settings = menu->addAction(tr("&Settings..."), QKeySequence(tr("Ctrl+F5")), this,
                                      &MainWindow::onSimulationSettings);
  menu->addSeparator();
  reference_action_ = menu->addAction(tr("Use Run as &Reference"), this, [this] {
    if (!useRunAsReference()) {
      showError(tr("No reference"), tr("Run a simulation of a model with a tip first."));
    }
  });
  reference_action_->setObjectName("referenceAction");
  reference_action_->setToolTip(tr("Later runs plot their tip error against this one"));
  fd_reference_action_ = menu->addAction(tr("Compare with &Finite-Difference Reference"));
  fd_reference_action_->setObjectName("fdReferenceAction");
  fd_reference_action_->setCheckable(true);
  fd_reference_action_->setToolTip(
      tr("With each run, simulate a twin with the finite-difference Jacobian in the background "
         "and plot the tip error against it"));
  mismatch_action_ = menu->addAction(tr("Sample Jacobian &Mismatch"));
  mismatch_action_->setObjectName("mismatchAction");
  mismatch_action_->setCheckable(true);
  mismatch_action_->setChecked(jacobian_mismatch_samples_ > 0);
  mismatch_action_->setToolTip(
      tr("Compare the analytical inverse-dynamics derivatives with finite differences at about "
         "50 frames of each run (on the simulation thread)"));
  connect(mismatch_action_, &QAction::toggled, this,
          [this](bool on) { jacobian_mismatch_samples_ = on ? 50 : 0; });
  createInverseStaticsTargetAction(menu);
  QAction* clear_reference =
      menu->addAction(tr("Clear Reference"), this, &MainWindow::clearReference);
  clear_reference->setObjectName("clearReferenceAction");
  settings->setObjectName("simulationSettingsAction");
  cancel_action_ = menu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"),
                                   QKeySequence(tr("Shift+F5")), this, &MainWindow::cancelAnalysis);
  cancel_action_->setObjectName("cancelAction");
  cancel_action_->setToolTip(
      tr("Stop the running simulation, keeping its frames (or the statics solve, keeping its "
         "last iterate)"));
  cancel_action_->setStatusTip(cancel_action_->toolTip());
  updateSimulationActions();
}

// Simulate > Inverse Statics Target: the mode lives in ui/inverse_statics_target.*; this only
// starts it on the selected link (or the last leaf) and shows its status
void MainWindow::createInverseStaticsTargetAction(QMenu* menu) {
  QAction* action = menu->addAction(tr("Inverse Statics &Target"));
  action->setObjectName("inverseStaticsTargetAction");
  action->setCheckable(true);
  action->setToolTip(
      tr("Drag the sphere at the selected link's tip: the cable tensions and joint inputs are "
         "solved so that the tip follows it"));
  auto* mode = new InverseStaticsTargetMode(viewport_, this);
  connect(viewport_, &ViewportWidget::targetDragged, mode, &InverseStaticsTargetMode::setTarget);
  connect(mode, &InverseStaticsTargetMode::updated, this,
          [this](const QString& status) { statusBar()->showMessage(status); });
  connect(action, &QAction::toggled, this, [this, action, mode](bool on) {
    if (!on) {
      mode->stop();
      return;
    }
    int link = selectedLinkIndex();
    for (int i = 0; link < 0 && i < static_cast<int>(robot_.links.size()); ++i) {
      const bool has_child =
          std::any_of(robot_.links.begin(), robot_.links.end(),
                      [&](const LinkDesc& other) { return other.parent == robot_.links[i].name; });
      if (!has_child) link = i;  // the first leaf
    }
    const QString error =
        robot_.links.empty() ? tr("Open a model first.") : mode->start(robot_, link);
    if (!error.isEmpty()) {
      const QSignalBlocker blocker(action);
      action->setChecked(false);
      showError(tr("Cannot drag an inverse-statics target"), error);
    }
  });
}

void MainWindow::createHelpMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Help"));
  QAction* guide = menu->addAction(tr("&User Guide"), QKeySequence::HelpContents, this, [this] {
    auto* dialog = findChild<UserGuideDialog*>();
    if (dialog == nullptr) dialog = new UserGuideDialog(this);
    dialog->show();
    dialog->raise();
  });
  guide->setObjectName("userGuideAction");
  guide->setToolTip(tr("How to build, simulate, review and export a robot"));
  menu->addAction(tr("&About Tendril"), this, &MainWindow::onAbout);
}

void MainWindow::createToolBars() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName("mainToolBar");
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open"), this,
                 &MainWindow::onOpen);
  bar->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save"), this,
                 &MainWindow::onSave);
  bar->addSeparator();
  auto* add_link = new QToolButton(bar);
  add_link->setObjectName("addLinkButton");
  add_link->setText(tr("Rigid Link"));
  add_link->setToolTip(
      tr("Add a revolute rigid link at the tip of the selection (menu: other "
         "joints)"));
  add_link->setMenu(add_link_menu_);
  add_link->setPopupMode(QToolButton::MenuButtonPopup);
  connect(add_link, &QToolButton::clicked, this, [this] { addRigidLink(JointType::Revolute); });
  bar->addWidget(add_link);
  auto* add_rod = new QToolButton(bar);
  add_rod->setObjectName("addRodButton");
  add_rod->setText(tr("Soft Rod"));
  add_rod->setToolTip(tr("Add a soft rod at the tip of the selection (menu: divisions)"));
  add_rod->setMenu(add_rod_menu_);
  add_rod->setPopupMode(QToolButton::MenuButtonPopup);
  connect(add_rod, &QToolButton::clicked, this, [this] { addSoftRod(1); });
  bar->addWidget(add_rod);
  bar->addWidget(createConstantCurvatureButton(bar));
  bar->addAction(add_cable_action_);
  bar->addAction(add_load_action_);
  bar->addAction(remove_action_);
  bar->addSeparator();
  bar->addAction(camera_actions_[0]);
  bar->addAction(camera_actions_[1]);
  follow_action_->setIconText(tr("Follow"));
  bar->addAction(follow_action_);
  bar->addSeparator();
  // what Run computes, in sight beside it (the same choice as Simulate > Settings)
  analysis_combo_ = new QComboBox(bar);
  analysis_combo_->setObjectName("analysisCombo");
  analysis_combo_->addItem(tr("Dynamics"), static_cast<int>(Analysis::Dynamics));
  analysis_combo_->addItem(tr("Statics"), static_cast<int>(Analysis::Statics));
  analysis_combo_->setCurrentIndex(analysis_combo_->findData(static_cast<int>(analysis_)));
  analysis_combo_->setToolTip(
      tr("What Run computes: the dynamics from rest, or the static "
         "equilibrium under the loads at t = 0 (also in Simulate > "
         "Settings)"));
  connect(analysis_combo_, &QComboBox::currentIndexChanged, this,
          [this] { setAnalysis(static_cast<Analysis>(analysis_combo_->currentData().toInt())); });
  bar->addWidget(analysis_combo_);
  bar->addAction(run_action_);
  bar->addAction(cancel_action_);
  // everything in sight at 1024 px: the file buttons and Remove by their icons alone (their
  // tooltips and the menus name them), the additions by short names
  QList<QAction*> icon_only_actions = bar->actions().mid(0, 2);  // Open, Save
  icon_only_actions << remove_action_;
  for (QAction* icon_only : icon_only_actions) {
    if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(icon_only))) {
      button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
  }
  add_cable_action_->setIconText(tr("Cable"));
  add_load_action_->setIconText(tr("Point Load"));
  view_menu_->insertAction(view_menu_->actions().value(docks_.size() + 1), bar->toggleViewAction());
}

void MainWindow::createStatusBar() {
  progress_bar_ = new QProgressBar(this);
  progress_bar_->setMaximumWidth(240);  // room for "42 % \u2014 3 min 20 s left"
  progress_bar_->setTextVisible(false);
  statusBar()->addPermanentWidget(progress_bar_);
  setBusy(false);
  statusBar()->showMessage(tr("Ready"));
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(kGeometryKey).toByteArray());
  restoreState(settings.value(kStateKey).toByteArray(), kWindowStateVersion);
  recent_files_ = settings.value(kRecentFilesKey).toStringList();
  rebuildRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kWindowStateVersion));
  settings.setValue(kRecentFilesKey, recent_files_);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscardChanges()) {
    event->ignore();
    return;
  }
  saveSettings();
  stopSimulation();
  stopStatics();
  removeRecoveryFile();
  event->accept();
}

namespace {

// the first local .json file among dropped URLs, or empty
QString droppedModel(const QMimeData* mime) {
  if (mime == nullptr || !mime->hasUrls()) {
    return {};
  }
  for (const QUrl& url : mime->urls()) {
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive)) {
      return url.toLocalFile();
    }
  }
  return {};
}

}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedModel(event->mimeData()).isEmpty()) {
    event->acceptProposedAction();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppedModel(event->mimeData());
  if (path.isEmpty()) {
    return;
  }
  event->acceptProposedAction();
  if (confirmDiscardChanges()) {
    openFile(path);
  }
}

bool MainWindow::adoptDescription(const std::function<RobotDescription()>& read,
                                  const QString& failure) {
  setBusy(true);
  try {
    const RobotDescription robot = read();
    (void)restFrame(robot);  // throws for a physically invalid model before anything changes
    clearReference();        // a reference of another model, however alike
    applyDescription(robot, QString());
    // a free-floating robot swims out of a fixed camera: the camera follows it by default
    follow_action_->setChecked(freeBaseLink(robot_) >= 0);
    viewport_->setFollowedLink(follow_action_->isChecked() ? followTarget() : -1);
  } catch (const std::exception& error) {
    setBusy(false);
    showError(failure, QString::fromStdString(error.what()));
    return false;
  }
  setBusy(false);
  return true;
}

bool MainWindow::openFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  if (!adoptDescription([&] { return loadRobot(toPath(path)); }, tr("Cannot open %1").arg(name)))
    return false;
  setCurrentFile(path);
  addRecentFile(path);
  statusBar()->showMessage(tr("Opened %1").arg(name), kStatusMessageMs);
  return true;
}

bool MainWindow::openDefaultExample() {
  const QString path = defaultExamplePath();
  if (path.isEmpty()) {
    showError(tr("No examples"), tr("The example models were not found next to the program."));
    return false;
  }
  return openFile(path);
}

bool MainWindow::saveFile(const QString& path) {
  try {
    saveRobot(robot_, toPath(path));
  } catch (const std::exception& error) {
    showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
              QString::fromStdString(error.what()));
    return false;
  }
  current_file_ = path;
  recovered_unsaved_ = false;
  undo_stack_->setClean();  // the history stays: undo works on after a save
  updateTitle();
  removeRecoveryFile();
  addRecentFile(path);
  statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), kStatusMessageMs);
  return true;
}

void MainWindow::newModel() {
  clearReference();
  applyDescription(RobotDescription{}, QString());
  setCurrentFile(QString());
}

QString MainWindow::currentFile() const {
  return current_file_;
}

const RobotDescription& MainWindow::robot() const {
  return robot_;
}

QString MainWindow::lastError() const {
  return last_error_;
}

QStringList MainWindow::recentFiles() const {
  return recent_files_;
}

QString MainWindow::aboutText() {
  return tr("<h3>Tendril %1</h3>"
            "<p>Design and simulate hybrid soft-rigid robots.</p>"
            "<p>Qt %2<br>VTK %3<br>Eigen %4.%5.%6</p>")
      .arg(QStringLiteral(TENDRIL_VERSION), QString::fromLatin1(qVersion()),
           ViewportWidget::vtkVersion())
      .arg(EIGEN_WORLD_VERSION)
      .arg(EIGEN_MAJOR_VERSION)
      .arg(EIGEN_MINOR_VERSION);
}

ViewportWidget* MainWindow::viewport() const {
  return viewport_;
}
ModelTreePanel* MainWindow::modelTree() const {
  return model_tree_;
}
PropertyPanel* MainWindow::propertyPanel() const {
  return property_panel_;
}
PlotPanel* MainWindow::plotPanel() const {
  return plot_panel_;
}
PlotPanel* MainWindow::energyPlot() const {
  return energy_plot_;
}
std::array<int, 5> MainWindow::energySeries() const {
  return energy_series_;
}
PlotPanel* MainWindow::tipErrorPlot() const {
  return tip_error_plot_;
}
PlotPanel* MainWindow::mismatchPlot() const {
  return mismatch_plot_;
}
std::array<int, 2> MainWindow::mismatchSeries() const {
  return mismatch_series_;
}
void MainWindow::setJacobianMismatchSamples(int samples) {
  jacobian_mismatch_samples_ = std::max(samples, 0);
  if (mismatch_action_ != nullptr) {
    const QSignalBlocker blocker(mismatch_action_);
    mismatch_action_->setChecked(jacobian_mismatch_samples_ > 0);
  }
}
int MainWindow::jacobianMismatchSamples() const {
  return jacobian_mismatch_samples_;
}
TimelineBar* MainWindow::timeline() const {
  return timeline_;
}
QUndoStack* MainWindow::undoStack() const {
  return undo_stack_;
}
QProgressBar* MainWindow::progressBar() const {
  return progress_bar_;
}
QList<QDockWidget*> MainWindow::docks() const {
  return docks_;
}
ReplayExporter* MainWindow::replayExporter() const {
  return exporter_;
}

SimulationController* MainWindow::simulation() const {
  return simulation_;
}
SimulationController* MainWindow::referenceSimulation() const {
  return reference_simulation_;
}
void MainWindow::setCompareWithFiniteDifferences(bool on) {
  fd_reference_action_->setChecked(on);
}
bool MainWindow::comparesWithFiniteDifferences() const {
  return fd_reference_action_->isChecked();
}
QAction* MainWindow::runAction() const {
  return run_action_;
}
QAction* MainWindow::cancelAction() const {
  return cancel_action_;
}
QAction* MainWindow::followAction() const {
  return follow_action_;
}

void MainWindow::setSimulationOptions(const SimulationOptions& options) {
  simulation_options_ = options;
}

const SimulationOptions& MainWindow::simulationOptions() const {
  return simulation_options_;
}

bool MainWindow::runSimulation() {
  if (robot_.links.empty()) {
    return false;
  }
  ModelPtr model;
  try {
    model = std::make_shared<const Model>(buildModel(robot_));
  } catch (const std::exception& error) {
    showError(tr("Cannot simulate"), QString::fromStdString(error.what()));
    return false;
  }
  reference_simulation_->discard();  // a twin of the previous run
  // a run that already uses finite differences, or no Jacobian (RK4), would only be repeated
  const bool uses_analytic_jacobian = simulation_options_.jacobian == JacobianKind::Analytic &&
                                      simulation_options_.integrator != IntegratorKind::Rk4;
  const bool twin = comparesWithFiniteDifferences() && uses_analytic_jacobian;
  if (twin) {
    clearReference();  // this run's twin will be the reference
  }
  preparePlotsForRun(twin);
  timeline_->setFrameCount(0);
  timeline_->setFrameInterval(simulation_options_.output_interval);
  RunDiagnostics diagnostics;
  diagnostics.jacobian_mismatch_samples = jacobian_mismatch_samples_;
  simulation_->start(model, simulation_options_, diagnostics);
  if (twin) {
    startFiniteDifferenceReference(std::move(model));
  }
  run_clock_.start();
  showProgress(0.0, QString());
  updateSimulationActions();
  statusBar()->showMessage(comparesWithFiniteDifferences() && !twin
                               ? tr("Simulating... (no finite-difference reference: this run "
                                    "uses no analytical Jacobian)")
                               : tr("Simulating..."));
  return true;
}

void MainWindow::onOpen() {
  if (!confirmDiscardChanges()) {
    return;
  }
  const QString start = current_file_.isEmpty() ? examplesDirectory() : current_file_;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), start, kModelFilter);
  if (!path.isEmpty()) {
    openFile(path);
  }
}

void MainWindow::onSave() {
  if (current_file_.isEmpty()) {
    onSaveAs();
  } else {
    saveFile(current_file_);
  }
}

void MainWindow::onSaveAs() {
  const QString start =
      current_file_.isEmpty() ? QString::fromStdString(robot_.name + ".json") : current_file_;
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Model"), start, kModelFilter);
  if (!path.isEmpty()) {
    saveFile(path);
  }
}

void MainWindow::onExportScreenshot() {
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Picture);
  if (!settings) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Screenshot"), "tendril.png",
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  const QImage image = viewport_->renderImageAt(settings->size);
  if (!image.isNull() && image.save(path, "PNG")) {
    statusBar()->showMessage(
        tr("Saved screenshot %1 (%2 × %3 px)").arg(path).arg(image.width()).arg(image.height()),
        kStatusMessageMs);
  } else {
    showError(tr("Cannot export screenshot"), tr("Could not write %1.").arg(path));
  }
}

void MainWindow::onAbout() {
  auto* box =
      new QMessageBox(QMessageBox::NoIcon, tr("About Tendril"), aboutText(), QMessageBox::Ok, this);
  box->setIconPixmap(windowIcon().pixmap(64, 64));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::onPointerSelected(const QString& pointer) {
  selection_ = pointer;
  property_panel_->showSelection(robot_, pointer);
  viewport_->setHighlightedLink(selectedLinkIndex());
  if (follow_action_ != nullptr && follow_action_->isChecked()) {
    viewport_->setFollowedLink(followTarget());
  }
  updateModelActions();
}

int MainWindow::followTarget() const {
  const int selected = selectedLinkIndex();
  return selected >= 0 ? selected : freeBaseLink(robot_);
}

void MainWindow::popupContextMenu(const QPoint& global_position) {
  QMenu* menu = createContextMenu();
  menu->setObjectName("contextMenu");
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(global_position);
}

void MainWindow::onViewportClicked(int link) {
  select(link >= 0 ? QString("/links/%1").arg(link) : QString());
}

// frames arrive coalesced: show only this one, and plot every recorded frame up to it; while the
// run streams, the plots (whose axes relayout and whose lines repaint with every batch) catch up
// only every kStreamingPlotIntervalMs, and completely when it ends. A user who holds the timeline
// slider or has scrubbed back keeps the frame they chose (and the plot cursors stay there too)
void MainWindow::onSimulationFrame(const FramePtr& frame) {
  const auto count = static_cast<std::size_t>(frame->index) + 1;
  const bool follows_live_end = timeline_->extendLive(static_cast<int>(count));
  if (follows_live_end) {
    viewport_->showFrame(frame);
  }
  if (simulation_->isRunning() && plot_clock_.isValid() &&
      plot_clock_.elapsed() < kStreamingPlotIntervalMs) {
    return;
  }
  plot_clock_.start();
  plotFramesUpTo(count);
  if (follows_live_end) {
    setPlotCursors(frame->t);
  }
}

void MainWindow::setPlotCursors(double t) {
  for (PlotPanel* plot : {plot_panel_, energy_plot_, tip_error_plot_, mismatch_plot_}) {
    plot->setCursorTime(t);
  }
}

namespace {

// before this much wall time the rate is dominated by the solver's start-up
constexpr qint64 kRemainingTimeWarmUpMs = 1000;

QString durationText(double seconds) {
  const auto whole = static_cast<qint64>(std::ceil(seconds));
  if (whole < 60) {
    return MainWindow::tr("%1 s").arg(whole);
  }
  if (whole < 3600) {
    return MainWindow::tr("%1 min %2 s").arg(whole / 60).arg(whole % 60);
  }
  return MainWindow::tr("%1 h %2 min").arg(whole / 3600).arg(whole / 60 % 60);
}

// "42 %", and after the warm-up "42 % \u2014 3 s left": elapsed (1 - f) / f at a constant rate
QString progressText(double fraction, qint64 elapsed_ms) {
  const QString percent = MainWindow::tr("%1 %").arg(std::lround(100.0 * fraction));
  if (elapsed_ms < kRemainingTimeWarmUpMs || fraction <= 0.0 || fraction >= 1.0) {
    return percent;
  }
  const double remaining_s = 1e-3 * static_cast<double>(elapsed_ms) * (1.0 - fraction) / fraction;
  return MainWindow::tr("%1 \u2014 %2 left").arg(percent, durationText(remaining_s));
}

}  // namespace

void MainWindow::onSimulationProgress(double fraction) {
  showProgress(fraction, QString());
}

// once the run itself has finished, the bar follows its finite-difference twin
void MainWindow::onReferenceProgress(double fraction) {
  if (!simulation_->isRunning()) {
    showProgress(fraction, tr("FD reference "));
  }
}

void MainWindow::showProgress(double fraction, const QString& what) {
  progress_bar_->setRange(0, 100);
  progress_bar_->setValue(static_cast<int>(std::lround(100.0 * fraction)));
  // a literal text: QProgressBar would replace a %p, %v or %m in it, and there is none
  progress_bar_->setFormat(what + progressText(fraction, run_clock_.elapsed()));
  progress_bar_->setTextVisible(true);
  progress_bar_->setVisible(true);
}

void MainWindow::onSimulationFinished(const QString& message, bool ok) {
  if (!reference_simulation_->isRunning()) {
    progress_bar_->setTextVisible(false);
    setBusy(false);
  }
  updateSimulationActions();
  if (mismatch_series_[0] < 0) {  // say why its plot stays empty
    mismatch_plot_->setPlaceholderText(tr("Sampling is off: Simulate > Sample Jacobian Mismatch"));
  }
  const std::optional<RunOutcome> outcome = simulation_->lastOutcome();
  const bool cancelled = outcome && outcome->cancelled;
  if (!ok && reference_simulation_->isRunning()) {
    // a twin of a run that stopped has nothing left to be compared with
    reference_simulation_->cancel();
    endTipErrorWait(cancelled ? tr("No tip error: the run was cancelled before its "
                                   "finite-difference reference finished.")
                              : tr("No tip error: the run stopped before its finite-difference "
                                   "reference finished."));
  }
  if (!ok && !cancelled) {
    const StopExplanation why = explainStop(message);
    showError(tr("Simulation stopped"), why.text, why.detail);
    return;
  }
  statusBar()->showMessage(
      tr("Simulation %1 (%2 frames)").arg(message).arg(timeline_->frameCount()), kStatusMessageMs);
}

void MainWindow::onFrameRequested(int frame) {
  if (FramePtr recorded = simulation_->frameAt(static_cast<std::size_t>(frame))) {
    viewport_->showFrame(recorded);
    setPlotCursors(recorded->t);
  }
}

void MainWindow::showRecordedFrame(int frame) {
  timeline_->setCurrentFrame(frame);
  onFrameRequested(frame);
}

namespace {

// why the tip-error plot is empty, until it has points
QString noReferenceHint() {
  return MainWindow::tr(
      "No reference: Simulate > Compare with Finite-Difference Reference, or Use Run as "
      "Reference");
}

}  // namespace

// every plot empty, with its axis titles
void MainWindow::clearPlots() {
  plot_panel_->clear();
  plot_panel_->setAxisTitles(tr("t [s]"), tr("tip [m]"));
  energy_plot_->clear();
  energy_plot_->setAxisTitles(tr("t [s]"), tr("energy [J]"));
  tip_error_plot_->clear();
  tip_error_plot_->setAxisTitles(tr("t [s]"), tr("log10 error [m]"));
  tip_error_plot_->setPlaceholderText(noReferenceHint());
  mismatch_plot_->clear();
  mismatch_plot_->setAxisTitles(tr("t [s]"), tr("log10 mismatch"));
  tip_series_ = {-1, -1, -1};
  energy_series_ = {-1, -1, -1, -1, -1};
  tip_error_series_ = -1;
  mismatch_series_ = {-1, -1};
  awaiting_twin_ = false;
}

void MainWindow::preparePlotsForRun(bool awaiting_twin) {
  clearPlots();
  for (std::size_t axis = 0; axis < tip_series_.size(); ++axis) {
    tip_series_[axis] = plot_panel_->addSeries(tr("tip %1 [m]").arg(kTipAxes[axis]));
  }
  for (std::size_t kind = 0; kind < energy_series_.size(); ++kind) {
    energy_series_[kind] = energy_plot_->addSeries(tr(kEnergyNames[kind]));
  }
  plotted_frames_ = 0;
  plot_clock_.invalidate();
  if (jacobian_mismatch_samples_ > 0) {
    mismatch_series_ = {mismatch_plot_->addSeries(tr("dID/dq")),
                        mismatch_plot_->addSeries(tr("dID/dv"))};
    mismatch_dock_->raise();
  }
  plotted_mismatch_ = 0;
  // the series of a twin still computing the reference is filled when it completes
  if (!reference_tip_.empty() || awaiting_twin) {
    tip_error_series_ = tip_error_plot_->addSeries(
        tipErrorName(awaiting_twin ? ReferenceSource::FiniteDifferenceRun : reference_source_));
    if (awaiting_twin) {
      tip_error_plot_->setPlaceholderText(tr("Computing the finite-difference reference run..."));
      awaiting_twin_ = true;
    }
    tip_error_dock_->raise();
  }
}

namespace {

// the reference tip at time t, linear between its samples; none outside its time span
std::optional<Eigen::Vector3d> referenceAt(
    const std::vector<std::pair<double, Eigen::Vector3d>>& reference, double t) {
  if (reference.empty() || t < reference.front().first - 1e-12 ||
      t > reference.back().first + 1e-12) {
    return std::nullopt;
  }
  const auto after = std::lower_bound(reference.begin(), reference.end(), t,
                                      [](const std::pair<double, Eigen::Vector3d>& sample,
                                         double time) { return sample.first < time; });
  if (after == reference.begin()) return reference.front().second;
  if (after == reference.end()) return reference.back().second;
  const auto before = after - 1;
  const double span = after->first - before->first;
  const double s = span > 0.0 ? (t - before->first) / span : 0.0;
  return ((1.0 - s) * before->second + s * after->second).eval();
}

// (t, first tip) of every recorded frame that has a tip
std::vector<std::pair<double, Eigen::Vector3d>> firstTipPath(const SimulationController& run) {
  std::vector<std::pair<double, Eigen::Vector3d>> path;
  path.reserve(run.frameCount());
  for (std::size_t i = 0; i < run.frameCount(); ++i) {
    const FramePtr frame = run.frameAt(i);
    if (!frame->tips_W.empty()) {
      path.emplace_back(frame->t, frame->tips_W.front());
    }
  }
  return path;
}

}  // namespace

bool MainWindow::useRunAsReference() {
  std::vector<std::pair<double, Eigen::Vector3d>> reference = firstTipPath(*simulation_);
  if (reference.empty()) {
    return false;
  }
  reference_tip_ = std::move(reference);
  reference_source_ = ReferenceSource::Recording;
  statusBar()->showMessage(
      tr("Later runs plot their tip error against this run (%1 frames)").arg(reference_tip_.size()),
      kStatusMessageMs);
  return true;
}

void MainWindow::clearReference() {
  reference_tip_.clear();
  reference_source_ = ReferenceSource::None;
}

bool MainWindow::hasReference() const {
  return !reference_tip_.empty();
}

MainWindow::ReferenceSource MainWindow::referenceSource() const {
  return reference_source_;
}

int MainWindow::tipErrorSeries() const {
  return tip_error_series_;
}

// the same model and options but the central-difference Jacobian, on a worker thread of its own
void MainWindow::startFiniteDifferenceReference(ModelPtr model) {
  SimulationOptions options = simulation_options_;
  options.jacobian = JacobianKind::FiniteDifference;
  reference_simulation_->start(std::move(model), options);
}

// a failed twin is reported and leaves no reference; the run itself is unaffected
void MainWindow::onReferenceFinished(const QString& message, bool ok) {
  if (!simulation_->isRunning()) {
    progress_bar_->setTextVisible(false);
    setBusy(false);
  }
  updateSimulationActions();
  const std::optional<RunOutcome> outcome = reference_simulation_->lastOutcome();
  if (outcome && outcome->cancelled) {
    endTipErrorWait(tr("No tip error: the finite-difference reference run was cancelled."));
    return;
  }
  if (!ok) {
    last_error_ = tr("The finite-difference reference %1: no tip error is plotted.")
                      .arg(withoutFinalStop(message));
    statusBar()->showMessage(last_error_);
    endTipErrorWait(last_error_);
    return;
  }
  // the user's own choice made while the twin ran wins: a reference taken by hand, or the
  // comparison switched off
  if (reference_source_ == ReferenceSource::Recording || !comparesWithFiniteDifferences()) {
    return;
  }
  reference_tip_ = firstTipPath(*reference_simulation_);
  reference_source_ = ReferenceSource::FiniteDifferenceRun;
  replotTipError();
  statusBar()->showMessage(tr("Tip error against the finite-difference run: %1 frames")
                               .arg(tip_error_plot_->pointCount(tip_error_series_)),
                           kStatusMessageMs);
}

// the frames plotted so far against the new reference; later ones are added as they are plotted
// (t, log10 tip error) of a frame with a tip, where the reference covers its time
std::optional<QPointF> MainWindow::tipErrorPoint(const Frame& frame) const {
  const auto reference = referenceAt(reference_tip_, frame.t);
  if (!reference) {
    return std::nullopt;
  }
  return QPointF(frame.t, logTipError(frame.tips_W.front(), *reference));
}

// the tip-error plot stops saying the reference is being computed, and says why there is none
void MainWindow::endTipErrorWait(const QString& why) {
  if (!awaiting_twin_) return;
  awaiting_twin_ = false;
  tip_error_plot_->setPlaceholderText(why);
}

void MainWindow::replotTipError() {
  awaiting_twin_ = false;
  tip_error_plot_->clear();
  tip_error_plot_->setAxisTitles(tr("t [s]"), tr("log10 error [m]"));
  tip_error_plot_->setPlaceholderText(noReferenceHint());
  tip_error_series_ = tip_error_plot_->addSeries(tipErrorName(reference_source_));
  QList<QPointF> points;
  for (std::size_t i = 0; i < plotted_frames_; ++i) {
    const FramePtr frame = simulation_->frameAt(i);
    if (!frame || frame->tips_W.empty()) {
      continue;
    }
    if (const auto point = tipErrorPoint(*frame)) {
      points.append(*point);
    }
  }
  tip_error_plot_->appendPoints(tip_error_series_, points);
  if (FramePtr shown = simulation_->frameAt(static_cast<std::size_t>(timeline_->currentFrame()))) {
    tip_error_plot_->setCursorTime(shown->t);
  }
  tip_error_dock_->raise();
}

// one batch per series: the chart relayouts once per delivery, not once per point
void MainWindow::plotFramesUpTo(std::size_t count) {
  std::array<QList<QPointF>, 3> tip_points;
  std::array<QList<QPointF>, 5> energy_points;
  QList<QPointF> error_points;
  for (; plotted_frames_ < count; ++plotted_frames_) {
    const FramePtr frame = simulation_->frameAt(plotted_frames_);
    if (!frame) {
      break;
    }
    if (!frame->tips_W.empty()) {
      for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
        tip_points[axis].append({frame->t, frame->tips_W.front()[static_cast<Eigen::Index>(axis)]});
      }
      if (tip_error_series_ >= 0) {
        if (const auto point = tipErrorPoint(*frame)) {
          error_points.append(*point);
        }
      }
    }
    const std::array<double, 5> energies = energySeriesValues(frame->energy);
    for (std::size_t kind = 0; kind < energies.size(); ++kind) {
      energy_points[kind].append({frame->t, energies[kind]});
    }
  }
  for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
    plot_panel_->appendPoints(tip_series_[axis], tip_points[axis]);
  }
  for (std::size_t kind = 0; kind < energy_points.size(); ++kind) {
    energy_plot_->appendPoints(energy_series_[kind], energy_points[kind]);
  }
  tip_error_plot_->appendPoints(tip_error_series_, error_points);
  plotJacobianMismatch(count);
}

// the samples of frames up to count; log10 so that 1e-12 and 1e-3 share an axis
void MainWindow::plotJacobianMismatch(std::size_t count) {
  if (mismatch_series_[0] < 0) {
    return;
  }
  const std::vector<JacobianMismatchSample> samples =
      simulation_->jacobianMismatchSince(plotted_mismatch_);
  auto log_of = [](double mismatch) { return std::log10(std::max(mismatch, 1e-16)); };
  std::array<QList<QPointF>, 2> points;
  for (const JacobianMismatchSample& sample : samples) {
    if (sample.frame >= count) {
      break;
    }
    if (std::isfinite(sample.dID_dq)) points[0].append({sample.t, log_of(sample.dID_dq)});
    if (std::isfinite(sample.dID_dv)) points[1].append({sample.t, log_of(sample.dID_dv)});
    ++plotted_mismatch_;
  }
  mismatch_plot_->appendPoints(mismatch_series_[0], points[0]);
  mismatch_plot_->appendPoints(mismatch_series_[1], points[1]);
}

// the model the run simulates goes away: drop the run and its frames, silently
void MainWindow::stopSimulation() {
  simulation_->discard();
  reference_simulation_->discard();
  endTipErrorWait(
      tr("No tip error: the run was stopped before its finite-difference reference "
         "finished."));
  progress_bar_->setTextVisible(false);
  setBusy(false);
  updateSimulationActions();
}

void MainWindow::updateSimulationActions() {
  const bool running = simulation_->isRunning() || statics_thread_ != nullptr;
  run_action_->setEnabled(!running && !robot_.links.empty());
  // a finite-difference twin may outlast its run; a new run replaces it
  cancel_action_->setEnabled(running || reference_simulation_->isRunning());
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  for (int i = 0; i < recent_files_.size(); ++i) {
    const QString path = recent_files_[i];
    QAction* action = recent_menu_->addAction(
        tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this, [this, path] {
          if (confirmDiscardChanges()) {
            openFile(path);
          }
        });
    action->setToolTip(path);
  }
  recent_menu_->addSeparator();
  QAction* clear = recent_menu_->addAction(tr("&Clear Recent Files"), this, [this] {
    recent_files_.clear();
    QSettings().setValue(kRecentFilesKey, recent_files_);
    rebuildRecentMenu();
  });
  clear->setEnabled(!recent_files_.isEmpty());
}

void MainWindow::addRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent_files_.removeAll(absolute);
  recent_files_.prepend(absolute);
  while (recent_files_.size() > kMaxRecentFiles) {
    recent_files_.removeLast();
  }
  QSettings().setValue(kRecentFilesKey, recent_files_);
  rebuildRecentMenu();
}

void MainWindow::setCurrentFile(const QString& path) {
  current_file_ = path;
  recovered_unsaved_ = false;
  undo_stack_->clear();
  updateTitle();
}

void MainWindow::updateTitle() {
  const QString shown =
      current_file_.isEmpty() ? tr("untitled") : QFileInfo(current_file_).fileName();
  setWindowTitle(tr("%1[*] - Tendril").arg(shown));
  setWindowModified(recovered_unsaved_ || !undo_stack_->isClean());
}

// an idle progress bar is hidden; a busy one shows an indefinite sweep
void MainWindow::setBusy(bool busy) {
  progress_bar_->setRange(0, busy ? 0 : 100);
  progress_bar_->setVisible(busy);
}

void MainWindow::showError(const QString& title, const QString& message, const QString& detail) {
  // "/links/2/mass: ..." reads "Link 3 › Mass: ...", the pointer one click away
  QString pointer;
  const QString shown = humanMessage(message, nullptr, &pointer);
  last_error_ = shown;
  statusBar()->showMessage(title + ": " + shown.section('\n', 0, 0));
  // non-blocking, so that tests (and a running simulation) carry on while it is shown
  auto* box = new QMessageBox(QMessageBox::Warning, title, title, QMessageBox::Ok, this);
  box->setInformativeText(shown);
  const QString where = pointer.isEmpty() ? QString() : tr("JSON pointer: %1").arg(pointer);
  if (!detail.isEmpty() || !where.isEmpty()) {
    box->setDetailedText(detail.isEmpty()  ? where
                         : where.isEmpty() ? detail
                                           : where + "\n\n" + detail);
  }
  box->setObjectName("errorBox");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

bool MainWindow::confirmDiscardChanges() {
  if (!isWindowModified()) {
    return true;
  }
  const auto answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("The model has unsaved changes. Save them first?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) {
    onSave();
    return !isWindowModified();
  }
  return answer == QMessageBox::Discard;
}

// ---- replay and settings

// pictures and videos at the size (and rate) the user chooses, remembered for the next export
std::optional<ExportSettings> MainWindow::askExportSettings(ExportSettingsDialog::Kind kind) {
  const double duration =
      simulation_->frameCount() > 1
          ? simulation_->frameAt(simulation_->frameCount() - 1)->t - simulation_->frameAt(0)->t
          : 0.0;
  ExportSettingsDialog dialog(kind, ExportSettings::remembered(), duration, this);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  const ExportSettings settings = dialog.settings();
  settings.remember();
  return settings;
}

void MainWindow::onExportReplay() {
  if (simulation_->frameCount() == 0) {
    showError(tr("Nothing to export"), tr("Run a simulation first."));
    return;
  }
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Picture);
  if (!settings) return;
  const QString directory =
      QFileDialog::getExistingDirectory(this, tr("Export Replay into Folder"));
  if (directory.isEmpty()) return;
  setBusy(true);
  const int written = exporter_->exportPngSequence(directory, settings->size);
  setBusy(false);
  if (!exporter_->cancelled()) {
    statusBar()->showMessage(tr("Wrote %1 images of %2 × %3 px to %4")
                                 .arg(written)
                                 .arg(settings->size.width())
                                 .arg(settings->size.height())
                                 .arg(directory),
                             kStatusMessageMs);
  }
}

bool MainWindow::saveRecording(const QString& path) {
  if (simulation_->frameCount() == 0 || simulation_->isRunning()) {
    last_error_ = tr("there is no finished recording to save");
    return false;
  }
  try {
    const Model model = buildModel(robot_);
    std::vector<Sample> samples;
    samples.reserve(simulation_->frameCount());
    for (std::size_t i = 0; i < simulation_->frameCount(); ++i) {
      const FramePtr frame = simulation_->frameAt(i);
      samples.push_back(Sample{frame->t, frame->q, frame->v, frame->energy});
    }
    saveTrajectoryCsv(model, samples, toPath(path));
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    return false;
  }
  statusBar()->showMessage(tr("Saved the recording to %1").arg(path), kStatusMessageMs);
  return true;
}

bool MainWindow::openRecording(const QString& path) {
  std::vector<FramePtr> frames;
  try {
    const Model model = buildModel(robot_);
    const std::vector<Sample> samples = loadTrajectoryCsv(model, toPath(path));
    Data data(model);
    for (std::size_t row = 0; row < samples.size(); ++row) {
      const Sample& s = samples[row];
      frames.push_back(makeFrame(model, data, s.q, s.v, s.t, row, s.energy));
    }
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    return false;
  }
  if (frames.empty()) {
    last_error_ = tr("the recording holds no frames");
    return false;
  }
  const auto count = static_cast<int>(frames.size());
  reference_simulation_->discard();  // its run is replaced; it reports no end, so end it here
  progress_bar_->setTextVisible(false);
  setBusy(false);
  updateSimulationActions();
  simulation_->setRecording(std::move(frames));
  preparePlotsForRun();
  plotFramesUpTo(simulation_->frameCount());
  timeline_->setFrameCount(count);
  timeline_->setFrameInterval(count > 1 ? (simulation_->frameAt(1)->t - simulation_->frameAt(0)->t)
                                        : simulation_options_.output_interval);
  showRecordedFrame(0);
  updateSimulationActions();
  statusBar()->showMessage(tr("Opened a recording of %1 frames").arg(count), kStatusMessageMs);
  return true;
}

void MainWindow::onExportVideo() {
  if (simulation_->frameCount() == 0) {
    showError(tr("Nothing to export"), tr("Run a simulation first."));
    return;
  }
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Video);
  if (!settings) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Replay as Video"),
                                                    "replay.mp4", tr("MP4 videos (*.mp4)"));
  if (path.isEmpty()) return;
  setBusy(true);
  const bool written = exporter_->exportVideo(path, *settings);
  setBusy(false);
  if (written) {
    statusBar()->showMessage(
        tr("Wrote %1: %2 × %3 px, %4 frames at %5 frames/s (%6 s)")
            .arg(path)
            .arg(settings->size.width())
            .arg(settings->size.height())
            .arg(exporter_->lastVideoFrames())
            .arg(settings->frames_per_second)
            .arg(exporter_->lastVideoFrames() / settings->frames_per_second, 0, 'g', 3),
        kStatusMessageMs);
  } else if (!exporter_->cancelled()) {  // a cancel said so in the status bar
    showError(tr("Cannot export the video"), exporter_->lastError());
  }
}

void MainWindow::onSimulationSettings() {
  SimulationDialog dialog(simulation_options_, analysis_, this);
  if (dialog.exec() == QDialog::Accepted) {
    simulation_options_ = dialog.options();
    setAnalysis(dialog.analysis());
  }
}

void MainWindow::onRun() {
  // a run shows its own frames: the dragged inverse-statics target stops
  if (auto* target = findChild<QAction*>(QStringLiteral("inverseStaticsTargetAction"))) {
    target->setChecked(false);
  }
  if (analysis_ == Analysis::Statics) {
    runStatics();
  } else {
    runSimulation();
  }
}

void MainWindow::setAnalysis(Analysis analysis) {
  analysis_ = analysis;
  if (analysis_combo_ != nullptr) {
    const QSignalBlocker blocker(analysis_combo_);
    analysis_combo_->setCurrentIndex(analysis_combo_->findData(static_cast<int>(analysis)));
  }
  run_action_->setToolTip(analysis == Analysis::Statics
                              ? tr("Solve the static equilibrium of the model")
                              : tr("Simulate the dynamics of the model from rest"));
  run_action_->setStatusTip(run_action_->toolTip());
}

Analysis MainWindow::analysis() const {
  return analysis_;
}

bool MainWindow::isStaticsRunning() const {
  return statics_thread_ != nullptr;
}

bool MainWindow::runStatics() {
  if (robot_.links.empty() || statics_thread_ != nullptr || simulation_->isRunning()) {
    return false;
  }
  ModelPtr model;
  try {
    model = std::make_shared<const Model>(buildModel(robot_));
  } catch (const std::exception& error) {
    showError(tr("Cannot solve the statics"), QString::fromStdString(error.what()));
    return false;
  }
  stopSimulation();
  timeline_->setFrameCount(1);
  StaticsOptions options;
  options.analytic_jacobian = simulation_options_.jacobian == JacobianKind::Analytic;
  statics_cancel_ = std::make_shared<std::atomic<bool>>(false);
  options.cancel = statics_cancel_.get();
  auto outcome = std::make_shared<StaticsOutcome>();
  // the worker alone owns its Data; the model is immutable and shared, the flag kept alive by it
  statics_thread_ = QThread::create([model, options, outcome, cancel = statics_cancel_] {
    lowerCurrentThreadPriority();  // QThread::LowPriority does nothing on Linux
    try {
      Data data(*model);
      const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model->nq);
      outcome->result = solveStatics(*model, data, q0, options);
      outcome->frame = makeFrame(*model, data, outcome->result.q, Eigen::VectorXd::Zero(model->nv),
                                 options.time);
    } catch (const std::exception& error) {
      outcome->error = error.what();
    }
  });
  const std::uint64_t generation = ++statics_generation_;
  connect(statics_thread_, &QThread::finished, this,
          [this, outcome, generation] { onStaticsFinished(*outcome, generation); });
  statics_thread_->start();
  setBusy(true);
  updateSimulationActions();
  statusBar()->showMessage(tr("Solving the statics..."));
  return true;
}

void MainWindow::onStaticsFinished(const StaticsOutcome& outcome, std::uint64_t generation) {
  statics_thread_->wait();
  delete statics_thread_;
  statics_thread_ = nullptr;
  setBusy(false);
  updateSimulationActions();
  if (generation != statics_generation_) {
    return;  // the model changed meanwhile
  }
  if (!outcome.error.empty()) {
    showError(tr("Statics failed"), QString::fromStdString(outcome.error));
    return;
  }
  if (outcome.frame) {
    viewport_->showFrame(outcome.frame);
  }
  clearPlots();
  plot_panel_->setAxisTitles(tr("Newton iteration"), tr("log10 |R|"));
  const int series = plot_panel_->addSeries(tr("statics residual log10 |R|"));
  QList<QPointF> points;
  const std::vector<double>& history = outcome.result.residual_history;
  for (std::size_t i = 0; i < history.size(); ++i) {
    points.append({static_cast<double>(i + 1), std::log10(std::max(history[i], 1e-300))});
  }
  plot_panel_->appendPoints(series, points);
  if (statics_cancel_ && *statics_cancel_) {
    statusBar()->showMessage(tr("Statics cancelled after %1 iterations (|R| = %2)")
                                 .arg(outcome.result.iterations)
                                 .arg(outcome.result.residual_norm, 0, 'g', 3),
                             kStatusMessageMs);
    return;
  }
  if (!outcome.result.converged) {
    showError(tr("Statics did not converge"), QString::fromStdString(outcome.result.message));
    return;
  }
  statusBar()->showMessage(tr("Statics converged in %1 iterations (|R| = %2)")
                               .arg(outcome.result.iterations)
                               .arg(outcome.result.residual_norm, 0, 'g', 3),
                           kStatusMessageMs);
}

}  // namespace tendril
