#include "ui/main_window.hpp"

#include <Eigen/Core>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointF>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>

#include "core/io/json_io.hpp"
#include "core/model/model.hpp"
#include "core/sim/rest_frame.hpp"
#include "tendril_version.hpp"
#include "ui/app_paths.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {
namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kWindowStateVersion = 1;
constexpr int kStatusMessageMs = 5000;
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kModelFilter = QStringLiteral("Tendril models (*.json);;All files (*)");
const char* const kTipAxes[] = {"x", "y", "z"};

SimulationOptions defaultSimulationOptions() {
  SimulationOptions options;
  options.integrator = IntegratorKind::Bdf;
  options.t_end = 2.0;
  options.output_interval = 0.01;
  return options;
}

double totalEnergy(const Energies& energy) {
  return energy.kinetic + energy.gravitational + energy.elastic;
}

std::filesystem::path toPath(const QString& path) {
  return std::filesystem::path(QFile::encodeName(path).toStdString());
}

struct CameraView {
  const char* label;
  const char* shortcut;
  ViewDirection direction;
};

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
  connect(undo_stack_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { setWindowModified(!clean); });
  setWindowIcon(QIcon(":/icons/tendril-256.png"));
  createPanels();
  createActions();
  createStatusBar();
  resize(1200, 760);
  restoreSettings();
  newModel();
}

// the worker is joined before the panels it feeds are destroyed
MainWindow::~MainWindow() {
  simulation_->discard();
}

void MainWindow::createPanels() {
  viewport_ = new ViewportWidget(this);
  viewport_->setObjectName("viewport");
  setCentralWidget(viewport_);
  setDockOptions(AnimatedDocks | AllowTabbedDocks);

  model_tree_ = new ModelTreePanel(this);
  property_panel_ = new PropertyPanel(this);
  plot_panel_ = new PlotPanel(this);
  addPanel(model_tree_, tr("Model"), "modelTreeDock", Qt::LeftDockWidgetArea);
  addPanel(property_panel_, tr("Properties"), "propertyDock", Qt::RightDockWidgetArea);
  addPanel(plot_panel_, tr("Plots"), "plotDock", Qt::BottomDockWidgetArea);
  resizeDocks({docks_[0], docks_[1]}, {250, 280}, Qt::Horizontal);
  resizeDocks({docks_[2]}, {150}, Qt::Vertical);

  timeline_ = new TimelineBar(this);
  addToolBar(Qt::BottomToolBarArea, timeline_);
  connect(model_tree_, &ModelTreePanel::linkSelected, this, &MainWindow::onLinkSelected);
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
  recent_menu_ = menu->addMenu(tr("Open &Recent"));
  menu->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"),
                  QKeySequence::Save, this, &MainWindow::onSave);
  menu->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::onSaveAs);
  menu->addSeparator();
  menu->addAction(tr("Export Screens&hot..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                  &MainWindow::onExportScreenshot);
  menu->addSeparator();
  menu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createEditMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = undo_stack_->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_stack_->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  menu->addAction(undo);
  menu->addAction(redo);
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
}

void MainWindow::createSimulateMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Simulate"));
  run_action_ = menu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"),
                                QKeySequence(tr("F5")), this, &MainWindow::runSimulation);
  run_action_->setObjectName("runAction");
  run_action_->setToolTip(tr("Simulate the dynamics of the model from rest"));
  run_action_->setStatusTip(run_action_->toolTip());
  cancel_action_ =
      menu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"),
                      QKeySequence(tr("Shift+F5")), simulation_, &SimulationController::cancel);
  cancel_action_->setObjectName("cancelAction");
  cancel_action_->setToolTip(tr("Stop the running simulation, keeping its frames"));
  cancel_action_->setStatusTip(cancel_action_->toolTip());
  updateSimulationActions();
}

void MainWindow::createHelpMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Help"));
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
  bar->addAction(camera_actions_[0]);
  bar->addAction(camera_actions_[1]);
  bar->addSeparator();
  bar->addAction(run_action_);
  bar->addAction(cancel_action_);
  view_menu_->insertAction(view_menu_->actions().value(docks_.size() + 1), bar->toggleViewAction());
}

void MainWindow::createStatusBar() {
  progress_bar_ = new QProgressBar(this);
  progress_bar_->setMaximumWidth(180);
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
  event->accept();
}

bool MainWindow::openFile(const QString& path) {
  const QString name = QFileInfo(path).fileName();
  setBusy(true);
  try {
    RobotDescription robot = loadRobot(toPath(path));
    FramePtr frame = restFrame(robot);
    robot_ = std::move(robot);
    showRobot(robot_);
    viewport_->showFrame(frame);
  } catch (const std::exception& error) {
    setBusy(false);
    showError(tr("Cannot open %1").arg(name), QString::fromStdString(error.what()));
    return false;
  }
  setBusy(false);
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
  setCurrentFile(path);
  addRecentFile(path);
  statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), kStatusMessageMs);
  return true;
}

void MainWindow::newModel() {
  robot_ = RobotDescription{};
  showRobot(robot_);
  viewport_->showFrame(std::make_shared<const Frame>());
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
SimulationController* MainWindow::simulation() const {
  return simulation_;
}
QAction* MainWindow::runAction() const {
  return run_action_;
}
QAction* MainWindow::cancelAction() const {
  return cancel_action_;
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
  preparePlotsForRun();
  timeline_->setFrameCount(0);
  simulation_->start(std::move(model), simulation_options_);
  progress_bar_->setRange(0, 100);
  progress_bar_->setValue(0);
  progress_bar_->setTextVisible(true);
  progress_bar_->setVisible(true);
  updateSimulationActions();
  statusBar()->showMessage(tr("Simulating..."));
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
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Screenshot"), "tendril.png",
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty()) {
    return;
  }
  if (viewport_->saveScreenshot(path)) {
    statusBar()->showMessage(tr("Saved screenshot %1").arg(path), kStatusMessageMs);
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

void MainWindow::onLinkSelected(int link_index) {
  property_panel_->showSelection(robot_, link_index);
}

// frames arrive coalesced: plot every recorded frame up to this one, show only this one
void MainWindow::onSimulationFrame(const FramePtr& frame) {
  const auto count = static_cast<std::size_t>(frame->index) + 1;
  plotFramesUpTo(count);
  timeline_->setFrameCount(static_cast<int>(count));
  timeline_->setCurrentFrame(static_cast<int>(count) - 1);
  viewport_->showFrame(frame);
}

void MainWindow::onSimulationProgress(double fraction) {
  progress_bar_->setValue(static_cast<int>(std::lround(100.0 * fraction)));
}

void MainWindow::onSimulationFinished(const QString& message, bool ok) {
  progress_bar_->setTextVisible(false);
  setBusy(false);
  updateSimulationActions();
  const std::optional<RunOutcome> outcome = simulation_->lastOutcome();
  const bool cancelled = outcome && outcome->cancelled;
  if (!ok && !cancelled) {
    showError(tr("Simulation stopped"),
              tr("The simulation %1. The frames computed before are kept.").arg(message));
    return;
  }
  statusBar()->showMessage(
      tr("Simulation %1 (%2 frames)").arg(message).arg(timeline_->frameCount()), kStatusMessageMs);
}

void MainWindow::onFrameRequested(int frame) {
  if (FramePtr recorded = simulation_->frameAt(static_cast<std::size_t>(frame))) {
    viewport_->showFrame(recorded);
  }
}

void MainWindow::preparePlotsForRun() {
  plot_panel_->clear();
  for (std::size_t axis = 0; axis < tip_series_.size(); ++axis) {
    tip_series_[axis] = plot_panel_->addSeries(tr("tip %1 [m]").arg(kTipAxes[axis]));
  }
  energy_series_ = plot_panel_->addSeries(tr("energy [J]"));
  plotted_frames_ = 0;
}

// one batch per series: the chart relayouts once per delivery, not once per point
void MainWindow::plotFramesUpTo(std::size_t count) {
  std::array<QList<QPointF>, 3> tip_points;
  QList<QPointF> energy_points;
  for (; plotted_frames_ < count; ++plotted_frames_) {
    const FramePtr frame = simulation_->frameAt(plotted_frames_);
    if (!frame) {
      break;
    }
    if (!frame->tips_W.empty()) {
      for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
        tip_points[axis].append({frame->t, frame->tips_W.front()[static_cast<Eigen::Index>(axis)]});
      }
    }
    energy_points.append({frame->t, totalEnergy(frame->energy)});
  }
  for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
    plot_panel_->appendPoints(tip_series_[axis], tip_points[axis]);
  }
  plot_panel_->appendPoints(energy_series_, energy_points);
}

// the model the run simulates goes away: drop the run and its frames, silently
void MainWindow::stopSimulation() {
  simulation_->discard();
  progress_bar_->setTextVisible(false);
  setBusy(false);
  updateSimulationActions();
}

void MainWindow::updateSimulationActions() {
  const bool running = simulation_->isRunning();
  run_action_->setEnabled(!running && !robot_.links.empty());
  cancel_action_->setEnabled(running);
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

void MainWindow::showRobot(const RobotDescription& robot) {
  stopSimulation();
  model_tree_->setRobot(robot);
  property_panel_->showSelection(robot, -1);
  plot_panel_->clear();
  timeline_->setFrameCount(1);
}

void MainWindow::setCurrentFile(const QString& path) {
  current_file_ = path;
  undo_stack_->clear();
  setWindowModified(false);
  const QString shown = path.isEmpty() ? tr("untitled") : QFileInfo(path).fileName();
  setWindowTitle(tr("%1[*] - Tendril").arg(shown));
}

// an idle progress bar is hidden; a busy one shows an indefinite sweep
void MainWindow::setBusy(bool busy) {
  progress_bar_->setRange(0, busy ? 0 : 100);
  progress_bar_->setVisible(busy);
}

void MainWindow::showError(const QString& title, const QString& message) {
  last_error_ = message;
  statusBar()->showMessage(title + ": " + message);
  // non-blocking, so that tests (and a running simulation) carry on while it is shown
  auto* box = new QMessageBox(QMessageBox::Warning, title, title, QMessageBox::Ok, this);
  box->setInformativeText(message);
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

}  // namespace tendril
