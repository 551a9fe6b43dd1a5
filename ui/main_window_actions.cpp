#include "ui/main_window_actions.hpp"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <algorithm>
#include <functional>

#include "core/edit/description_edit.hpp"
#include "ui/environment_dialog.hpp"
#include "ui/inverse_statics_target.hpp"
#include "ui/main_window.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_dialogs.hpp"
#include "ui/model_editor.hpp"
#include "ui/model_files.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/replay_exporter.hpp"
#include "ui/run_controller.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/user_guide_dialog.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

using main_window_detail::kStatusMessageMs;

namespace {

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

constexpr CameraView kCameraViews[] = {
    {"&Front", "1", ViewDirection::Front},
    {"&Side", "3", ViewDirection::Side},
    {"&Top", "7", ViewDirection::Top},
    {"&Isometric", "5", ViewDirection::Isometric},
};

}  // namespace

MainWindowActions::MainWindowActions(MainWindow& window) : QObject(&window), w_(window) {
  createFileMenu();
  createEditMenu();
  createViewMenu();
  createModelMenu();
  createSimulateMenu();
  createHelpMenu();
  createToolBar();
}

void MainWindowActions::createFileMenu() {
  QMenu* menu = w_.menuBar()->addMenu(tr("&File"));
  menu->addAction(tr("&New"), QKeySequence::New, &w_, [this] {
    if (w_.confirmDiscardChanges()) w_.newModel();
  });
  menu->addAction(w_.style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open..."),
                  QKeySequence::Open, &w_, &MainWindow::onOpen);
  QAction* import_urdf = menu->addAction(tr("&Import URDF..."), &w_, [this] {
    if (!w_.confirmDiscardChanges()) return;
    const QString path = QFileDialog::getOpenFileName(&w_, tr("Import URDF"), QString(),
                                                      tr("URDF robots (*.urdf);;All files (*)"));
    if (!path.isEmpty()) w_.importUrdfFile(path);
  });
  import_urdf->setObjectName("importUrdfAction");
  QAction* open_sweep = menu->addAction(tr("Open S&weep Result..."), &w_, [this] {
    const QString path = QFileDialog::getOpenFileName(&w_, tr("Open Sweep Result"), QString(),
                                                      tr("Sweep results (*.csv);;All files (*)"));
    if (!path.isEmpty()) w_.openSweepResult(path);
  });
  open_sweep->setObjectName("openSweepResultAction");
  recent_menu_ = menu->addMenu(tr("Open &Recent"));
  examples_menu_ = menu->addMenu(tr("&Examples"));
  examples_menu_->setObjectName("examplesMenu");
  populateExamplesMenu();
  menu->addAction(w_.style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"),
                  QKeySequence::Save, &w_, &MainWindow::onSave);
  menu->addAction(tr("Save &As..."), QKeySequence::SaveAs, &w_, &MainWindow::onSaveAs);
  menu->addSeparator();
  createExportActions(menu);
  menu->addSeparator();
  menu->addAction(tr("&Quit"), QKeySequence::Quit, &w_, &QWidget::close);
}

void MainWindowActions::createExportActions(QMenu* menu) {
  menu->addAction(tr("Export Screens&hot..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                  &MainWindowActions::exportScreenshot);
  menu->addAction(tr("Save Recordin&g..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(&w_, tr("Save Recording"), "recording.csv",
                                                      tr("Trajectories (*.csv)"));
    if (!path.isEmpty() && !w_.saveRecording(path)) {
      w_.showError(tr("Cannot save the recording"), w_.lastError());
    }
  });
  menu->addAction(tr("Open Re&cording..."), this, [this] {
    const QString path = QFileDialog::getOpenFileName(&w_, tr("Open Recording"), QString(),
                                                      tr("Trajectories (*.csv)"));
    if (!path.isEmpty() && !w_.openRecording(path)) {
      w_.showError(tr("Cannot open the recording"), w_.lastError());
    }
  });
  menu->addAction(tr("Export Replay as &PNG Sequence..."), this, &MainWindowActions::exportReplay);
  QAction* video =
      menu->addAction(tr("Export Replay as &Video..."), this, &MainWindowActions::exportVideo);
  video->setObjectName("exportVideoAction");
  video->setEnabled(!ReplayExporter::ffmpegPath().isEmpty());
  video->setToolTip(video->isEnabled() ? tr("Encode the recording as an MP4 video with ffmpeg")
                                       : tr("Needs ffmpeg on the PATH"));
}

void MainWindowActions::populateExamplesMenu() {
  for (const QString& path : MainWindow::exampleFiles()) {
    QString title = QFileInfo(path).completeBaseName().replace('_', ' ');
    title[0] = title[0].toUpper();
    QAction* action = examples_menu_->addAction(title, &w_, [this, path] {
      if (w_.confirmDiscardChanges()) w_.openFile(path);
    });
    action->setToolTip(path);
    action->setData(path);
  }
  examples_menu_->setEnabled(!examples_menu_->isEmpty());
}

void MainWindowActions::rebuildRecentMenu(const QStringList& files) {
  recent_menu_->clear();
  for (int i = 0; i < files.size(); ++i) {
    const QString path = files[i];
    QAction* action = recent_menu_->addAction(
        tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), &w_, [this, path] {
          if (w_.confirmDiscardChanges()) w_.openFile(path);
        });
    action->setToolTip(path);
  }
  recent_menu_->addSeparator();
  QAction* clear = recent_menu_->addAction(tr("&Clear Recent Files"), &w_,
                                           [this] { w_.files_->setRecentFiles({}); });
  clear->setEnabled(!files.isEmpty());
}

// undo and redo go through MainWindow, which asks first while a run holds the model
void MainWindowActions::createEditMenu() {
  QMenu* menu = w_.menuBar()->addMenu(tr("&Edit"));
  QUndoStack* stack = w_.editor_->undoStack();
  auto* undo = new QAction(tr("&Undo"), &w_);
  auto* redo = new QAction(tr("&Redo"), &w_);
  undo->setShortcut(QKeySequence::Undo);
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
  undo->setEnabled(stack->canUndo());
  redo->setEnabled(stack->canRedo());
  connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
  connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
  connect(stack, &QUndoStack::undoTextChanged, undo, [undo](const QString& text) {
    undo->setText(text.isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(text));
  });
  connect(stack, &QUndoStack::redoTextChanged, redo, [redo](const QString& text) {
    redo->setText(text.isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(text));
  });
  connect(undo, &QAction::triggered, &w_, [this] { w_.editor_->undo(); });
  connect(redo, &QAction::triggered, &w_, [this] { w_.editor_->redo(); });
  menu->addAction(undo);
  menu->addAction(redo);
}

void MainWindowActions::createModelMenu() {
  QMenu* menu = w_.menuBar()->addMenu(tr("&Model"));
  add_link_menu_ = menu->addMenu(tr("Add &Rigid Link"));
  add_link_menu_->setToolTip(tr("Add a rigid link at the tip of the selected link"));
  for (const JointChoice& choice : kJointChoices) {
    const JointType type = choice.type;
    QAction* action = add_link_menu_->addAction(tr(choice.label), &w_,
                                                [this, type] { w_.editor_->addRigidLink(type); });
    action->setObjectName(choice.object_name);
  }
  add_rod_menu_ = menu->addMenu(tr("Add &Soft Rod"));
  for (int divisions : {1, 2, 3, 4}) {
    QAction* action = add_rod_menu_->addAction(
        divisions == 1 ? tr("&1 division") : tr("&%1 divisions").arg(divisions), &w_,
        [this, divisions] { w_.editor_->addSoftRod(divisions); });
    action->setObjectName(QString("addSoftRod%1Action").arg(divisions));
  }
  createConstantCurvatureMenu(menu);
  createLvpMenu(menu);
  struct Entry {
    QAction** action;
    QString text;
    const char* object_name;
    QString tip;
    std::function<void()> slot;
  };
  const Entry entries[] = {
      {&add_cable, tr("Add &Cable"), "addCableAction",
       tr("Add a cable through the selected soft rod or constant-curvature segment, or a tendon "
          "on the surface of the selected volume-preserving body"),
       [this] { w_.editor_->addCable(); }},
      {&add_load, tr("Add Point &Load"), "addPointLoadAction",
       tr("Add a force at the tip of the selected link"), [this] { w_.editor_->addPointLoad(); }},
      {&add_input, tr("Add &Joint Input"), "addJointInputAction",
       tr("Drive the joint of the selected link with a force (or a prescribed position)"),
       [this] { w_.editor_->addJointInput(); }},
      {&add_controller, tr("Add C&ontroller"), "addControllerAction",
       tr("Drive the joint of the selected link to a set-point with a PD controller that cancels "
          "gravity and elasticity (type, set-points, gains and limits in the Properties panel)"),
       [this] { w_.editor_->addController(); }},
      {&add_window, tr("Add Active &Window"), "addControllerWindowAction",
       tr("Let the selected controller act only from one time to another (from, until and what "
          "follows in the Properties panel: off, or hold its last set-point)"),
       [this] { w_.editor_->addControllerWindow(); }},
      {&remove_window, tr("Remove Active W&indow"), "removeControllerWindowAction",
       tr("Let the selected controller act for the whole run"),
       [this] { w_.editor_->removeControllerWindow(); }},
      {&add_along_rod, tr("Add Link &Along Rod..."), "addAlongRodAction",
       tr("Attach a new link at a chosen point of the selected rod"),
       [this] { addLinkAlongRodAsked(); }},
      {&add_loop, tr("Add Closed-&Loop Joint..."), "addClosedLoopAction",
       tr("Join two bodies (or a body and the world) with a joint"),
       [this] { addClosedLoopJointAsked(); }},
      {nullptr, {}, nullptr, {}, {}},
      {&environment, tr("&Environment..."), "environmentAction",
       tr("Contact obstacles and the surrounding fluid"), [this] { editEnvironmentAsked(); }},
      {&add_to_fluid, tr("Add Link to &Fluid"), "addToFluidAction",
       tr("Give the selected rigid link a volume, drag and added mass of its own in the fluid "
          "(edited in the Properties panel)"),
       [this] { w_.editor_->addSelectedLinkToFluid(); }},
      {&remove_from_fluid, tr("Remove Link from F&luid"), "removeFromFluidAction",
       tr("The selected rigid link then displaces its shape's volume, without drag or added "
          "mass"),
       [this] { w_.editor_->removeSelectedLinkFromFluid(); }},
  };
  for (const Entry& entry : entries) {
    if (entry.action == nullptr) {
      menu->addSeparator();
      continue;
    }
    *entry.action = menu->addAction(entry.text, &w_, entry.slot);
    (*entry.action)->setObjectName(entry.object_name);
    (*entry.action)->setToolTip(entry.tip);
  }
  menu->addSeparator();
  remove = menu->addAction(w_.style()->standardIcon(QStyle::SP_TrashIcon), tr("Re&move"),
                           QKeySequence::Delete, &w_, [this] { w_.editor_->removeSelected(); });
  remove->setObjectName("removeAction");
  remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  w_.model_tree_->addAction(remove);
  w_.viewport_->addAction(remove);
}

namespace {

// one entry of a builder submenu: its action's object name, text, tooltip and edit
struct BuilderEntry {
  const char* object_name;
  QString text, tip;
  std::function<void()> edit;
};

// a submenu of \p parent (tooltips shown) with an action per entry
QMenu* addBuilderMenu(QMenu* parent, const QString& title, const char* object_name,
                      std::initializer_list<BuilderEntry> entries, QObject* context) {
  QMenu* menu = parent->addMenu(title);
  menu->setObjectName(object_name);
  menu->setToolTipsVisible(true);
  for (const BuilderEntry& entry : entries) {
    QAction* action = menu->addAction(entry.text, context, entry.edit);
    action->setObjectName(entry.object_name);
    action->setToolTip(entry.tip);
  }
  return menu;
}

}  // namespace

// Model > Add Constant-Curvature Segment and its tool button (beside Soft Rod)
void MainWindowActions::createConstantCurvatureMenu(QMenu* model_menu) {
  add_cc_menu_ = addBuilderMenu(
      model_menu, tr("Add Constant-C&urvature Segment"), "addConstantCurvatureMenu",
      {{"addPlanarSegmentAction", tr("&Planar (bending angle)"),
        tr("One coordinate: the bending angle about the segment's y axis"),
        [this] { w_.editor_->addConstantCurvatureSegment(CurvatureModel::Planar); }},
       {"addSpatialSegmentAction", tr("&Spatial (two bending angles, elongation)"),
        tr("Three coordinates: the bending angles about y and z and the elongation"),
        [this] { w_.editor_->addConstantCurvatureSegment(CurvatureModel::Spatial); }}},
      &w_);
}

// Model > Add Volume-Preserving Body: the seed paper's helicoid and inflatable bodies
void MainWindowActions::createLvpMenu(QMenu* model_menu) {
  add_lvp_menu_ = addBuilderMenu(
      model_menu, tr("Add &Volume-Preserving Body"), "addLvpMenu",
      {{"addHelicoidBodyAction", tr("&Helicoid (stretch, bend, twist, shear)"),
        tr("A soft body that keeps its volume everywhere: 8 coordinates (stretch, two bendings, "
           "twist, two shears; the seed paper's Table 4), for tendons on its surface"),
        [this] { w_.editor_->addLvpBody(LvpPreset::Helicoid); }},
       {"addInflatableBodyAction", tr("&Inflatable (stretch, cavity)"),
        tr("A soft body with an inner cavity that a pressure inflates: 2 coordinates (stretch and "
           "the cavity's source; Table 5), its pressure added as an input"),
        [this] { w_.editor_->addLvpBody(LvpPreset::Inflatable); }}},
      &w_);
}

QToolButton* MainWindowActions::createMenuButton(QWidget* parent, const char* name,
                                                 const QString& text, const QString& tip,
                                                 QMenu* menu) {
  auto* button = new QToolButton(parent);
  button->setObjectName(name);
  button->setText(text);
  button->setToolTip(tip);
  button->setMenu(menu);
  button->setPopupMode(QToolButton::MenuButtonPopup);
  return button;
}

QToolButton* MainWindowActions::createConstantCurvatureButton(QWidget* parent) {
  QToolButton* button = createMenuButton(
      parent, "addSegmentButton", tr("CC Segment"),
      tr("Add a planar constant-curvature segment at the tip of the selection (menu: planar or "
         "spatial)"),
      add_cc_menu_);
  connect(button, &QToolButton::clicked, &w_,
          [this] { w_.editor_->addConstantCurvatureSegment(CurvatureModel::Planar); });
  return button;
}

QMenu* MainWindowActions::createContextMenu(QWidget* parent) const {
  auto* menu = new QMenu(parent);
  menu->addMenu(add_link_menu_);
  menu->addMenu(add_rod_menu_);
  menu->addMenu(add_cc_menu_);
  menu->addMenu(add_lvp_menu_);
  for (QAction* action : {add_cable, add_load, add_input, add_controller, add_window, remove_window,
                          add_along_rod, add_loop}) {
    menu->addAction(action);
  }
  menu->addSeparator();
  for (QAction* action : {environment, add_to_fluid, remove_from_fluid}) {
    menu->addAction(action);
  }
  menu->addSeparator();
  menu->addAction(remove);
  return menu;
}

void MainWindowActions::createViewMenu() {
  ViewportWidget* viewport = w_.viewport_;
  view_menu_ = w_.menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : w_.docks_) {
    view_menu_->addAction(dock->toggleViewAction());
  }
  view_menu_->addAction(w_.timeline_->toggleViewAction());
  view_menu_->addSeparator();
  camera_actions_.append(view_menu_->addAction(tr("&Fit View"), QKeySequence(tr("F")), viewport,
                                               &ViewportWidget::fitView));
  camera_actions_.append(view_menu_->addAction(tr("&Reset View"), QKeySequence(tr("R")), viewport,
                                               &ViewportWidget::resetView));
  for (const CameraView& view : kCameraViews) {
    const ViewDirection direction = view.direction;
    camera_actions_.append(
        view_menu_->addAction(tr(view.label), QKeySequence(view.shortcut), viewport,
                              [viewport, direction] { viewport->setViewDirection(direction); }));
  }
  view_menu_->addSeparator();
  follow = view_menu_->addAction(tr("F&ollow Selection"));
  follow->setObjectName("followAction");
  follow->setCheckable(true);
  follow->setShortcut(QKeySequence(tr("Shift+F")));
  follow->setToolTip(tr("Keep the selected body (or rod tip) in the centre of the view"));
  connect(follow, &QAction::toggled, &w_,
          [this, viewport](bool on) { viewport->setFollowedLink(on ? w_.followTarget() : -1); });
  addRodColouringMenu();
  QAction* joints = view_menu_->addAction(tr("Show &Joints"));
  joints->setObjectName("showJointsAction");
  joints->setCheckable(true);
  joints->setChecked(viewport->showsJoints());
  joints->setToolTip(
      tr("Draw the joints as glyphs: discs for revolute axes, bars for prismatic "
         "ones, balls for the others; closed-loop joints in magenta"));
  connect(joints, &QAction::toggled, viewport, &ViewportWidget::setShowJoints);
  QAction* frames = view_menu_->addAction(tr("Show Computational &Frames"));
  frames->setObjectName("showFramesAction");
  frames->setCheckable(true);
  frames->setChecked(viewport->showsFrames());
  frames->setToolTip(
      tr("Draw x (red), y (green), z (blue) at every computational point of the "
         "rods and at every rigid link frame"));
  connect(frames, &QAction::toggled, viewport, &ViewportWidget::setShowFrames);
}

// View > Colour Rods By: one quantity at a time, or none (unchecking the checked one)
void MainWindowActions::addRodColouringMenu() {
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
  ViewportWidget* viewport = w_.viewport_;
  for (const Entry& entry : entries) {
    QAction* action = menu->addAction(entry.text);
    action->setObjectName(entry.object_name);
    action->setCheckable(true);
    action->setData(static_cast<int>(entry.quantity));
    group->addAction(action);
    // switching fires twice (the old action off, the new one on): follow the group's state
    connect(action, &QAction::toggled, viewport, [viewport, group](bool) {
      const QAction* checked = group->checkedAction();
      viewport->setRodColouring(
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

void MainWindowActions::createSimulateMenu() {
  QMenu* menu = w_.menuBar()->addMenu(tr("&Simulate"));
  run = menu->addAction(w_.style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"),
                        QKeySequence(tr("F5")), &w_, &MainWindow::onRun);
  run->setObjectName("runAction");
  run->setToolTip(tr("Simulate the dynamics of the model from rest"));
  run->setStatusTip(run->toolTip());
  QAction* settings = menu->addAction(tr("&Settings..."), QKeySequence(tr("Ctrl+F5")), &w_,
                                      &MainWindow::onSimulationSettings);
  settings->setObjectName("simulationSettingsAction");
  menu->addSeparator();
  QAction* reference = menu->addAction(tr("Use Run as &Reference"), &w_, [this] {
    if (!w_.useRunAsReference()) {
      w_.showError(tr("No reference"), tr("Run a simulation of a model with a tip first."));
    }
  });
  reference->setObjectName("referenceAction");
  reference->setToolTip(tr("Later runs plot their tip error against this one"));
  fd_reference = menu->addAction(tr("Compare with &Finite-Difference Reference"));
  fd_reference->setObjectName("fdReferenceAction");
  fd_reference->setCheckable(true);
  fd_reference->setToolTip(
      tr("With each run, simulate a twin with the finite-difference Jacobian in the background "
         "and plot the tip error against it"));
  connect(fd_reference, &QAction::toggled, w_.run_,
          &RunController::setCompareWithFiniteDifferences);
  mismatch = menu->addAction(tr("Sample Jacobian &Mismatch"));
  mismatch->setObjectName("mismatchAction");
  mismatch->setCheckable(true);
  mismatch->setChecked(w_.run_->jacobianMismatchSamples() > 0);
  mismatch->setToolTip(
      tr("Compare the analytical inverse-dynamics derivatives with finite differences at about "
         "50 frames of each run (on the simulation thread)"));
  connect(mismatch, &QAction::toggled, w_.run_,
          [this](bool on) { w_.run_->setJacobianMismatchSamples(on ? 50 : 0); });
  createInverseStaticsTargetAction(menu);
  QAction* clear_reference =
      menu->addAction(tr("Clear Reference"), &w_, &MainWindow::clearReference);
  clear_reference->setObjectName("clearReferenceAction");
  cancel = menu->addAction(w_.style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"),
                           QKeySequence(tr("Shift+F5")), &w_, &MainWindow::cancelAnalysis);
  cancel->setObjectName("cancelAction");
  cancel->setToolTip(
      tr("Stop the running simulation, keeping its frames (or the statics solve, keeping its "
         "last iterate)"));
  cancel->setStatusTip(cancel->toolTip());
}

// Simulate > Inverse Statics Target: the mode lives in ui/inverse_statics_target.*; this only
// starts it on the selected link (or the last leaf) and shows its status
void MainWindowActions::createInverseStaticsTargetAction(QMenu* menu) {
  QAction* action = menu->addAction(tr("Inverse Statics &Target"));
  action->setObjectName("inverseStaticsTargetAction");
  action->setCheckable(true);
  action->setToolTip(
      tr("Drag the sphere at the selected link's tip: the cable tensions and joint inputs are "
         "solved so that the tip follows it"));
  auto* mode = new InverseStaticsTargetMode(w_.viewport_, &w_);
  connect(w_.viewport_, &ViewportWidget::targetDragged, mode, &InverseStaticsTargetMode::setTarget);
  connect(mode, &InverseStaticsTargetMode::updated, &w_,
          [this](const QString& status) { w_.statusBar()->showMessage(status); });
  connect(action, &QAction::toggled, &w_, [this, action, mode](bool on) {
    if (!on) {
      mode->stop();
      return;
    }
    const RobotDescription& robot = w_.editor_->robot();
    int link = w_.editor_->selectedLinkIndex();
    for (int i = 0; link < 0 && i < static_cast<int>(robot.links.size()); ++i) {
      const bool has_child =
          std::any_of(robot.links.begin(), robot.links.end(),
                      [&](const LinkDesc& other) { return other.parent == robot.links[i].name; });
      if (!has_child) link = i;  // the first leaf
    }
    const QString error =
        robot.links.empty() ? tr("Open a model first.") : mode->start(robot, link);
    if (!error.isEmpty()) {
      const QSignalBlocker blocker(action);
      action->setChecked(false);
      w_.showError(tr("Cannot drag an inverse-statics target"), error);
    }
  });
}

void MainWindowActions::createHelpMenu() {
  QMenu* menu = w_.menuBar()->addMenu(tr("&Help"));
  QAction* guide = menu->addAction(tr("&User Guide"), QKeySequence::HelpContents, &w_, [this] {
    auto* dialog = w_.findChild<UserGuideDialog*>();
    if (dialog == nullptr) dialog = new UserGuideDialog(&w_);
    dialog->show();
    dialog->raise();
  });
  guide->setObjectName("userGuideAction");
  guide->setToolTip(tr("How to build, simulate, review and export a robot"));
  menu->addAction(tr("&About Tendril"), &w_, [this] {
    auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Tendril"), MainWindow::aboutText(),
                                QMessageBox::Ok, &w_);
    box->setIconPixmap(w_.windowIcon().pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
}

void MainWindowActions::createToolBar() {
  QToolBar* bar = w_.addToolBar(tr("Main"));
  bar->setObjectName("mainToolBar");
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(w_.style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open"), &w_,
                 &MainWindow::onOpen);
  bar->addAction(w_.style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save"), &w_,
                 &MainWindow::onSave);
  bar->addSeparator();
  QToolButton* add_link = createMenuButton(
      bar, "addLinkButton", tr("Rigid Link"),
      tr("Add a revolute rigid link at the tip of the selection (menu: other joints)"),
      add_link_menu_);
  connect(add_link, &QToolButton::clicked, &w_,
          [this] { w_.editor_->addRigidLink(JointType::Revolute); });
  bar->addWidget(add_link);
  QToolButton* add_rod = createMenuButton(
      bar, "addRodButton", tr("Soft Rod"),
      tr("Add a soft rod at the tip of the selection (menu: divisions)"), add_rod_menu_);
  connect(add_rod, &QToolButton::clicked, &w_, [this] { w_.editor_->addSoftRod(1); });
  bar->addWidget(add_rod);
  bar->addWidget(createConstantCurvatureButton(bar));
  bar->addAction(add_cable);
  bar->addAction(add_load);
  bar->addAction(remove);
  bar->addSeparator();
  bar->addAction(camera_actions_[0]);
  bar->addAction(camera_actions_[1]);
  follow->setIconText(tr("Follow"));
  bar->addAction(follow);
  bar->addSeparator();
  // what Run computes, in sight beside it (the same choice as Simulate > Settings)
  analysis_combo = new QComboBox(bar);
  analysis_combo->setObjectName("analysisCombo");
  analysis_combo->addItem(tr("Dynamics"), static_cast<int>(Analysis::Dynamics));
  analysis_combo->addItem(tr("Statics"), static_cast<int>(Analysis::Statics));
  analysis_combo->setCurrentIndex(analysis_combo->findData(static_cast<int>(w_.analysis_)));
  analysis_combo->setToolTip(
      tr("What Run computes: the dynamics from rest, or the static "
         "equilibrium under the loads at t = 0 (also in Simulate > "
         "Settings)"));
  connect(analysis_combo, &QComboBox::currentIndexChanged, &w_,
          [this] { w_.setAnalysis(static_cast<Analysis>(analysis_combo->currentData().toInt())); });
  bar->addWidget(analysis_combo);
  bar->addAction(run);
  bar->addAction(cancel);
  // everything in sight at 1024 px: the file buttons and Remove by their icons alone (their
  // tooltips and the menus name them), the additions by short names
  QList<QAction*> icon_only_actions = bar->actions().mid(0, 2);  // Open, Save
  icon_only_actions << remove;
  for (QAction* icon_only : icon_only_actions) {
    if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(icon_only))) {
      button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }
  }
  add_cable->setIconText(tr("Cable"));
  add_load->setIconText(tr("Point Load"));
  view_menu_->insertAction(view_menu_->actions().value(w_.docks_.size() + 1),
                           bar->toggleViewAction());
}

// ---- the state of the Model menu, and its dialogs

void MainWindowActions::updateModelActions(const ModelEditor& editor) {
  const RobotDescription& robot = editor.robot();
  const int link = editor.selectedLinkIndex();
  const LinkDesc* selected = link >= 0 ? &robot.links[static_cast<std::size_t>(link)] : nullptr;
  const BodyKind kind = selected != nullptr ? selected->kind() : BodyKind::Rigid;
  // cables run along any centreline; only a GVS rod can be split to attach along it
  add_cable->setEnabled(selected != nullptr && (hasCentreline(kind) || kind == BodyKind::Lvp));
  add_load->setEnabled(selected != nullptr);
  add_input->setEnabled(selected != nullptr && selected->joint.type != JointType::Fixed);
  add_controller->setEnabled(add_input->isEnabled());
  const int controller = editor.selectedControllerIndex();
  const bool windowed =
      controller >= 0 && robot.controllers[static_cast<std::size_t>(controller)].active.has_value();
  add_window->setEnabled(controller >= 0 && !windowed);
  remove_window->setEnabled(windowed);
  add_along_rod->setEnabled(selected != nullptr && kind == BodyKind::Soft);
  add_loop->setEnabled(!robot.links.empty());
  // a rigid link gets an entry of its own in the fluid (rods use the fluid's coefficients)
  const bool rigid = selected != nullptr && kind == BodyKind::Rigid;
  const bool listed = rigid && findFluidBody(robot, selected->name) >= 0;
  add_to_fluid->setEnabled(rigid && !listed && robot.environment.fluid.has_value());
  add_to_fluid->setStatusTip(
      robot.environment.fluid ? QString() : tr("Switch the fluid on first (Model > Environment)"));
  remove_from_fluid->setEnabled(listed);
  remove->setEnabled(!editor.selection().isEmpty());
}

void MainWindowActions::addClosedLoopJointAsked() {
  ModelEditor& editor = *w_.editor_;
  const int link = editor.selectedLinkIndex();
  const RobotDescription& robot = editor.robot();
  ClosedChainDialog dialog(
      robot,
      link >= 0 ? QString::fromStdString(robot.links[static_cast<std::size_t>(link)].name)
                : QString(),
      &w_);
  dialog.setObjectName("closedChainDialog");
  if (dialog.exec() == QDialog::Accepted) {
    editor.addClosedLoopJoint(dialog.linkA(), dialog.linkB(), dialog.jointType(), dialog.planar());
  }
}

void MainWindowActions::addLinkAlongRodAsked() {
  ModelEditor& editor = *w_.editor_;
  const int link = editor.selectedLinkIndex();
  const RobotDescription& robot = editor.robot();
  const BodyKind kind =
      link >= 0 ? robot.links[static_cast<std::size_t>(link)].kind() : BodyKind::Rigid;
  if (link < 0 || kind != BodyKind::Soft) {
    // only a GVS rod can be split in two; a constant-curvature segment bends as one piece
    w_.showError(tr("Cannot attach along a rod"),
                 link >= 0 && kind == BodyKind::ConstantCurvature
                     ? tr("A constant-curvature segment cannot be split: attach at its tip "
                          "(Model > Add ...) instead.")
                     : tr("Select a soft rod first."));
    return;
  }
  AttachAlongRodDialog dialog(robot.links[static_cast<std::size_t>(link)], &w_);
  dialog.setObjectName("attachAlongRodDialog");
  if (dialog.exec() == QDialog::Accepted) {
    editor.addLinkAlongRod(dialog.abscissa(), dialog.soft(), dialog.jointType());
  }
}

void MainWindowActions::editEnvironmentAsked() {
  EnvironmentDialog dialog(w_.editor_->robot(), &w_);
  dialog.setObjectName("environmentDialog");
  if (dialog.exec() == QDialog::Accepted) {
    w_.editor_->setEnvironment(dialog.environment());
  }
}

// ---- the File menu's exports: pictures and videos at the size (and rate) the user chooses,
// remembered for the next export

std::optional<ExportSettings> MainWindowActions::askExportSettings(
    ExportSettingsDialog::Kind kind) {
  const SimulationController& run = *w_.simulation();
  const double duration =
      run.frameCount() > 1 ? run.frameAt(run.frameCount() - 1)->t - run.frameAt(0)->t : 0.0;
  ExportSettingsDialog dialog(kind, ExportSettings::remembered(), duration, &w_);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  const ExportSettings settings = dialog.settings();
  settings.remember();
  return settings;
}

void MainWindowActions::exportScreenshot() {
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Picture);
  if (!settings) return;
  const QString path = QFileDialog::getSaveFileName(&w_, tr("Export Screenshot"), "tendril.png",
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  const QImage image = w_.viewport_->renderImageAt(settings->size);
  if (!image.isNull() && image.save(path, "PNG")) {
    w_.statusBar()->showMessage(
        tr("Saved screenshot %1 (%2 × %3 px)").arg(path).arg(image.width()).arg(image.height()),
        kStatusMessageMs);
  } else {
    w_.showError(tr("Cannot export screenshot"), tr("Could not write %1.").arg(path));
  }
}

void MainWindowActions::exportReplay() {
  if (w_.simulation()->frameCount() == 0) {
    w_.showError(tr("Nothing to export"), tr("Run a simulation first."));
    return;
  }
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Picture);
  if (!settings) return;
  const QString directory = QFileDialog::getExistingDirectory(&w_, tr("Export Replay into Folder"));
  if (directory.isEmpty()) return;
  w_.setBusy(true);
  ReplayExporter* exporter = w_.replayExporter();
  const int written = exporter->exportPngSequence(directory, settings->size);
  w_.setBusy(false);
  if (!exporter->cancelled()) {
    w_.statusBar()->showMessage(tr("Wrote %1 images of %2 × %3 px to %4")
                                    .arg(written)
                                    .arg(settings->size.width())
                                    .arg(settings->size.height())
                                    .arg(directory),
                                kStatusMessageMs);
  }
}

void MainWindowActions::exportVideo() {
  if (w_.simulation()->frameCount() == 0) {
    w_.showError(tr("Nothing to export"), tr("Run a simulation first."));
    return;
  }
  const auto settings = askExportSettings(ExportSettingsDialog::Kind::Video);
  if (!settings) return;
  const QString path = QFileDialog::getSaveFileName(&w_, tr("Export Replay as Video"), "replay.mp4",
                                                    tr("MP4 videos (*.mp4)"));
  if (path.isEmpty()) return;
  w_.setBusy(true);
  ReplayExporter* exporter = w_.replayExporter();
  const bool written = exporter->exportVideo(path, *settings);
  w_.setBusy(false);
  if (written) {
    w_.statusBar()->showMessage(
        tr("Wrote %1: %2 × %3 px, %4 frames at %5 frames/s (%6 s)")
            .arg(path)
            .arg(settings->size.width())
            .arg(settings->size.height())
            .arg(exporter->lastVideoFrames())
            .arg(settings->frames_per_second)
            .arg(exporter->lastVideoFrames() / settings->frames_per_second, 0, 'g', 3),
        kStatusMessageMs);
  } else if (!exporter->cancelled()) {  // a cancel said so in the status bar
    w_.showError(tr("Cannot export the video"), exporter->lastError());
  }
}

}  // namespace tendril
