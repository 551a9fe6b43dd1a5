#include "ui/main_window.hpp"

#include <Eigen/Core>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <exception>
#include <memory>

#include "tendril_version.hpp"
#include "ui/app_paths.hpp"
#include "ui/main_window_actions.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_editor.hpp"
#include "ui/model_files.hpp"
#include "ui/panels/field_help.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/replay_exporter.hpp"
#include "ui/result_plots.hpp"
#include "ui/run_controller.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_dialog.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

namespace {

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

}  // namespace

using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

namespace {

constexpr int kWindowStateVersion = 1;
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kModelFilter = QStringLiteral("Tendril models (*.json);;All files (*)");

SimulationOptions defaultSimulationOptions() {
  SimulationOptions options;
  options.integrator = IntegratorKind::Bdf;
  options.t_end = 2.0;
  options.output_interval = 0.01;
  options.jacobian = JacobianKind::Analytic;
  return options;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  createEditor();
  setWindowIcon(QIcon(":/icons/tendril-256.png"));
  setAcceptDrops(true);
  createPanels();
  createStatusBar();
  run_ = new RunController(plots_, timeline_, viewport_, progress_bar_, this);
  run_->setOptions(defaultSimulationOptions());
  connect(run_, &RunController::statusMessage, this,
          [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
  connect(run_, &RunController::errorRaised, this, &MainWindow::showError);
  connect(run_, &RunController::runningChanged, this, &MainWindow::updateSimulationActions);
  connect(run_, &RunController::staleChanged, stale_label_, &QLabel::setVisible);
  exporter_ = new ReplayExporter(
      this, viewport_, run_->simulation(), [this](int frame) { showRecordedFrame(frame); },
      [this] { return timeline_->currentFrame(); });
  connect(exporter_, &ReplayExporter::statusMessage, this,
          [this](const QString& message) { statusBar()->showMessage(message, kStatusMessageMs); });
  files_ = new ModelFiles(this, editor_, run_);
  connect(files_, &ModelFiles::documentChanged, this, &MainWindow::updateTitle);
  connect(files_, &ModelFiles::statusMessage, this,
          [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
  connect(files_, &ModelFiles::errorRaised, this,
          [this](const QString& title, const QString& message) { showError(title, message); });
  actions_ = new MainWindowActions(*this);
  connect(files_, &ModelFiles::recentFilesChanged, actions_, &MainWindowActions::rebuildRecentMenu);
  connect(files_, &ModelFiles::modelOpened, this, [this] {
    // a free-floating robot swims out of a fixed camera: the camera follows it by default
    actions_->follow->setChecked(freeBaseLink(editor_->robot()) >= 0);
    viewport_->setFollowedLink(actions_->follow->isChecked() ? followTarget() : -1);
  });
  updateSimulationActions();
  resize(1200, 760);
  restoreSettings();
  newModel();
}

// the workers are joined before the panels they feed are destroyed
MainWindow::~MainWindow() {
  delete run_;
}

void MainWindow::createPanels() {
  viewport_ = new ViewportWidget(this);
  viewport_->setObjectName("viewport");
  setCentralWidget(viewport_);
  setDockOptions(AnimatedDocks | AllowTabbedDocks);

  model_tree_ = new ModelTreePanel(this);
  property_panel_ = new PropertyPanel(this);
  plots_ = new ResultPlots(this);
  addPanel(model_tree_, tr("Model"), "modelTreeDock", Qt::LeftDockWidgetArea);
  addPanel(property_panel_, tr("Properties"), "propertyDock", Qt::RightDockWidgetArea);
  QDockWidget* plots = addPanel(plots_->tips(), tr("Plots"), "plotDock", Qt::BottomDockWidgetArea);
  QDockWidget* mismatch = addPanel(plots_->mismatch(), tr("Jacobian Mismatch"), "mismatchDock",
                                   Qt::BottomDockWidgetArea);
  QDockWidget* energy =
      addPanel(plots_->energy(), tr("Energy"), "energyDock", Qt::BottomDockWidgetArea);
  QDockWidget* tip_error =
      addPanel(plots_->tipError(), tr("Tip Error"), "tipErrorDock", Qt::BottomDockWidgetArea);
  plots_->setDocks(tip_error, mismatch);
  QDockWidget* control =
      addPanel(plots_->control(), tr("Controllers"), "controlDock", Qt::BottomDockWidgetArea);
  QDockWidget* control_inputs = addPanel(plots_->controlInputs(), tr("Controller Inputs"),
                                         "controlInputsDock", Qt::BottomDockWidgetArea);
  plots_->setControlDock(control);
  // the two diagnostics, each off by default, share a place as tabs
  splitDockWidget(plots, energy, Qt::Horizontal);
  splitDockWidget(energy, mismatch, Qt::Horizontal);
  tabifyDockWidget(mismatch, tip_error);
  tabifyDockWidget(tip_error, control);
  tabifyDockWidget(control, control_inputs);
  // the properties need room for three columns: names (indented), values and units
  resizeDocks({docks_[0], docks_[1]}, {250, 330}, Qt::Horizontal);
  resizeDocks({plots, energy, mismatch}, {420, 420, 360}, Qt::Horizontal);
  // tall enough for a vertical axis title such as "log10 mismatch" to fit unclipped
  resizeDocks({plots}, {230}, Qt::Vertical);

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
  connect(
      property_panel_, &PropertyPanel::controlledKindRequested, this,
      [this](int controller, int variable, int kind) {
        editor_->setControlledVariableKind(controller, variable,
                                           static_cast<ControlledVariableDesc::Kind>(kind));
      },
      Qt::QueuedConnection);
  connect(viewport_, &ViewportWidget::linkClicked, this, &MainWindow::onViewportClicked);
  // right-clicking a body selects it, as a left click does, and offers the tree's menu for it
  connect(viewport_, &ViewportWidget::linkContextMenuRequested, this,
          [this](int link, const QPoint& at) {
            onViewportClicked(link);
            popupContextMenu(at);
          });
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

void MainWindow::createStatusBar() {
  stale_label_ = new QLabel(ResultPlots::staleTitle(), this);
  stale_label_->setObjectName("staleResultsLabel");
  stale_label_->setStyleSheet(
      "QLabel { background: #fff3bf; color: #5c3c00; border: 1px solid #e0b84a; "
      "border-radius: 3px; padding: 1px 6px; }");
  stale_label_->setToolTip(
      tr("The model was edited after these results were computed: the timeline replays them on "
         "the model they came from. Run to update them, or undo back to that model."));
  stale_label_->setVisible(false);
  statusBar()->addPermanentWidget(stale_label_);
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
  actions_->rebuildRecentMenu(files_->recentFiles());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kWindowStateVersion));
  settings.setValue(kRecentFilesKey, files_->recentFiles());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscardChanges()) {
    event->ignore();
    return;
  }
  saveSettings();
  run_->discard();
  files_->removeRecoveryFile();
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

bool MainWindow::openDefaultExample() {
  const QString path = defaultExamplePath();
  if (path.isEmpty()) {
    showError(tr("No examples"), tr("The example models were not found next to the program."));
    return false;
  }
  return openFile(path);
}

void MainWindow::onOpen() {
  if (!confirmDiscardChanges()) {
    return;
  }
  const QString start = currentFile().isEmpty() ? examplesDirectory() : currentFile();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), start, kModelFilter);
  if (!path.isEmpty()) {
    openFile(path);
  }
}

void MainWindow::onSave() {
  if (currentFile().isEmpty()) {
    onSaveAs();
  } else {
    saveFile(currentFile());
  }
}

void MainWindow::onSaveAs() {
  const QString start = currentFile().isEmpty()
                            ? QString::fromStdString(editor_->robot().name + ".json")
                            : currentFile();
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Model"), start, kModelFilter);
  if (!path.isEmpty()) {
    saveFile(path);
  }
}

void MainWindow::updateTitle() {
  const QString file = files_->currentFile();
  const QString shown = file.isEmpty() ? tr("untitled") : QFileInfo(file).fileName();
  setWindowTitle(tr("%1[*] - Tendril").arg(shown));
  setWindowModified(files_->isModified());
}

// an idle progress bar is hidden; a busy one shows an indefinite sweep
void MainWindow::setBusy(bool busy) {
  progress_bar_->setTextVisible(false);
  progress_bar_->setRange(0, busy ? 0 : 100);
  progress_bar_->setVisible(busy);
}

int MainWindow::followTarget() const {
  const int selected = editor_->selectedLinkIndex();
  return selected >= 0 ? selected : freeBaseLink(editor_->robot());
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

// ---- runs: the window builds the model and shows what comes back

bool MainWindow::askEditDuringRun(const QString& edit) {
  return run_->askBeforeEdit(this, edit);
}

bool MainWindow::resultsAreStale() const {
  return run_->resultsAreStale();
}

QLabel* MainWindow::staleResultsLabel() const {
  return stale_label_;
}

void MainWindow::cancelAnalysis() {
  run_->cancel();
}

void MainWindow::updateSimulationActions() {
  const bool running = run_->isRunning() || run_->isStaticsRunning();
  actions_->run->setEnabled(!running && !editor_->robot().links.empty());
  // a finite-difference twin may outlast its run; a new run replaces it
  actions_->cancel->setEnabled(running || run_->isTwinRunning());
}

void MainWindow::onSimulationSettings() {
  SimulationDialog dialog(run_->options(), analysis_, this);
  if (dialog.exec() == QDialog::Accepted) {
    run_->setOptions(dialog.options());
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
  if (QComboBox* combo = actions_->analysis_combo) {
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(combo->findData(static_cast<int>(analysis)));
  }
  actions_->run->setToolTip(analysis == Analysis::Statics
                                ? tr("Solve the static equilibrium of the model")
                                : tr("Simulate the dynamics of the model from rest"));
  actions_->run->setStatusTip(actions_->run->toolTip());
}

ModelPtr MainWindow::modelForRun(const QString& failure) {
  try {
    return std::make_shared<const Model>(buildModel(editor_->robot()));
  } catch (const std::exception& error) {
    showError(failure, QString::fromStdString(error.what()));
    return nullptr;
  }
}

bool MainWindow::runSimulation() {
  if (editor_->robot().links.empty()) return false;
  ModelPtr model = modelForRun(tr("Cannot simulate"));
  if (model == nullptr) return false;
  run_->start(std::move(model), editor_->robot());
  return true;
}

bool MainWindow::runStatics() {
  if (editor_->robot().links.empty() || run_->isStaticsRunning() || run_->isRunning()) {
    return false;
  }
  ModelPtr model = modelForRun(tr("Cannot solve the statics"));
  if (model == nullptr) return false;
  run_->startStatics(std::move(model), editor_->robot());
  return true;
}

bool MainWindow::saveRecording(const QString& path) {
  const bool saved = run_->saveRecording(path);
  if (!saved) last_error_ = run_->lastError();
  return saved;
}

bool MainWindow::openRecording(const QString& path) {
  ModelPtr model;
  try {
    model = std::make_shared<const Model>(buildModel(editor_->robot()));
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    return false;
  }
  if (!run_->openRecording(std::move(model), editor_->robot(), path)) {
    last_error_ = run_->lastError();
    return false;
  }
  return true;
}

// ---- accessors

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

// clang-format off
QString MainWindow::lastError() const { return last_error_; }
ViewportWidget* MainWindow::viewport() const { return viewport_; }
ModelTreePanel* MainWindow::modelTree() const { return model_tree_; }
PropertyPanel* MainWindow::propertyPanel() const { return property_panel_; }
PlotPanel* MainWindow::plotPanel() const { return plots_->tips(); }
PlotPanel* MainWindow::energyPlot() const { return plots_->energy(); }
std::array<int, 5> MainWindow::energySeries() const { return plots_->energySeries(); }
PlotPanel* MainWindow::tipErrorPlot() const { return plots_->tipError(); }
PlotPanel* MainWindow::mismatchPlot() const { return plots_->mismatch(); }
std::array<int, 2> MainWindow::mismatchSeries() const { return plots_->mismatchSeries(); }
int MainWindow::tipErrorSeries() const { return plots_->tipErrorSeries(); }
TimelineBar* MainWindow::timeline() const { return timeline_; }
QProgressBar* MainWindow::progressBar() const { return progress_bar_; }
QList<QDockWidget*> MainWindow::docks() const { return docks_; }
ReplayExporter* MainWindow::replayExporter() const { return exporter_; }
SimulationController* MainWindow::simulation() const { return run_->simulation(); }
RunController* MainWindow::runController() const { return run_; }
SimulationController* MainWindow::referenceSimulation() const {
  return run_->referenceSimulation();
}
QAction* MainWindow::runAction() const { return actions_->run; }
QAction* MainWindow::cancelAction() const { return actions_->cancel; }
QAction* MainWindow::followAction() const { return actions_->follow; }
Analysis MainWindow::analysis() const { return analysis_; }
bool MainWindow::isStaticsRunning() const { return run_->isStaticsRunning(); }
void MainWindow::setSimulationOptions(const SimulationOptions& options) {
  run_->setOptions(options);
}
const SimulationOptions& MainWindow::simulationOptions() const { return run_->options(); }
int MainWindow::jacobianMismatchSamples() const { return run_->jacobianMismatchSamples(); }
bool MainWindow::comparesWithFiniteDifferences() const {
  return run_->comparesWithFiniteDifferences();
}
void MainWindow::setCompareWithFiniteDifferences(bool on) {
  actions_->fd_reference->setChecked(on);
}
bool MainWindow::useRunAsReference() { return run_->useRunAsReference(); }
void MainWindow::clearReference() { run_->clearReference(); }
bool MainWindow::hasReference() const { return !run_->reference().empty(); }
MainWindow::ReferenceSource MainWindow::referenceSource() const {
  return run_->reference().source();
}
void MainWindow::showRecordedFrame(int frame) { run_->showRecordedFrame(frame); }
// clang-format on

void MainWindow::setJacobianMismatchSamples(int samples) {
  const QSignalBlocker blocker(actions_->mismatch);
  actions_->mismatch->setChecked(samples > 0);
  run_->setJacobianMismatchSamples(samples);
}

}  // namespace tendril
