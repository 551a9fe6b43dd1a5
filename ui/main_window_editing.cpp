// MainWindow, part two: the model being edited as the window shows it (ui/main_window.hpp). The
// edits themselves are ModelEditor's; this draws what it applies and follows the selection.

#include <QAction>
#include <QMenu>
#include <QSignalBlocker>
#include <QStatusBar>
#include <algorithm>

#include "core/sim/rest_frame.hpp"
#include "ui/main_window.hpp"
#include "ui/main_window_actions.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_editor.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/run_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

using main_window_detail::kStatusMessageMs;

namespace {

// the same links, attached the same way: the first tip of one is the first tip of the other, so a
// tip-error reference still means something after a change of parameters
bool sameLinkStructure(const RobotDescription& a, const RobotDescription& b) {
  return std::equal(a.links.begin(), a.links.end(), b.links.begin(), b.links.end(),
                    [](const LinkDesc& x, const LinkDesc& y) {
                      return x.name == y.name && x.parent == y.parent && x.kind() == y.kind();
                    });
}

}  // namespace

void MainWindow::createEditor() {
  editor_ = new ModelEditor(this);
  editor_->setGuard([this](const QString& edit) { return askEditDuringRun(edit); });
  connect(editor_, &ModelEditor::applied, this, &MainWindow::onDescriptionApplied);
  connect(editor_, &ModelEditor::errorRaised, this,
          [this](const QString& title, const QString& message) { showError(title, message); });
  connect(editor_, &ModelEditor::valueRefused, this, [this](const QString& reason) {
    // the value in force stays on screen, with the reason beneath it
    property_panel_->showSelection(editor_->robot(), editor_->selection());
    if (reason.isEmpty()) return;
    property_panel_->showError(reason);  // where it was refused, as people read it
    last_error_ = property_panel_->errorText();
    statusBar()->showMessage(tr("Value refused: %1").arg(last_error_), kStatusMessageMs);
  });
}

// the results shown stay (stale unless computed from this description); a run still going carries
// on with the model it started with
void MainWindow::onDescriptionApplied(const RobotDescription& previous, const QString& selection) {
  // the dragged inverse-statics target solves the old model: switch it off
  if (auto* target = findChild<QAction*>(QStringLiteral("inverseStaticsTargetAction"))) {
    target->setChecked(false);
  }
  const RobotDescription& robot = editor_->robot();
  if (!sameLinkStructure(previous, robot)) {
    run_->clearReference();
  }
  FramePtr frame;
  try {
    frame = robot.links.empty() ? std::make_shared<const Frame>() : restFrame(robot);
  } catch (const std::exception&) {
    frame = std::make_shared<const Frame>();  // commands and files hold checked models only
  }
  model_tree_->setRobot(robot);
  {
    const QSignalBlocker blocker(model_tree_);
    model_tree_->selectPointer(selection);
  }
  viewport_->setDescription(robot);
  viewport_->showFrame(frame);
  run_->setCurrentDescription(robot);
  onPointerSelected(model_tree_->selectedPointer());
  updateSimulationActions();
}

void MainWindow::select(const QString& pointer) {
  model_tree_->selectPointer(pointer);
  if (model_tree_->selectedPointer() != editor_->selection()) {
    onPointerSelected(model_tree_->selectedPointer());
  }
}

void MainWindow::onPointerSelected(const QString& pointer) {
  editor_->setSelection(pointer);
  property_panel_->showSelection(editor_->robot(), pointer);
  const int link = editor_->selectedLinkIndex();
  viewport_->setHighlightedLink(link);
  if (actions_->follow->isChecked()) {
    viewport_->setFollowedLink(followTarget());
  }
  actions_->updateModelActions(*editor_);
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

QMenu* MainWindow::createContextMenu() {
  return actions_->createContextMenu(this);
}

// ---- the edits, as ModelEditor makes them

// clang-format off
const RobotDescription& MainWindow::robot() const { return editor_->robot(); }
QString MainWindow::selection() const { return editor_->selection(); }
QUndoStack* MainWindow::undoStack() const { return editor_->undoStack(); }
bool MainWindow::undoEdit() { return editor_->undo(); }
bool MainWindow::redoEdit() { return editor_->redo(); }
bool MainWindow::addRigidLink(JointType joint) { return editor_->addRigidLink(joint); }
bool MainWindow::addSoftRod(int divisions) { return editor_->addSoftRod(divisions); }
bool MainWindow::addCable() { return editor_->addCable(); }
bool MainWindow::addPointLoad() { return editor_->addPointLoad(); }
bool MainWindow::addJointInput() { return editor_->addJointInput(); }
bool MainWindow::addController() { return editor_->addController(); }
bool MainWindow::removeSelected() { return editor_->removeSelected(); }
bool MainWindow::addSelectedLinkToFluid() { return editor_->addSelectedLinkToFluid(); }
bool MainWindow::removeSelectedLinkFromFluid() { return editor_->removeSelectedLinkFromFluid(); }
// clang-format on

bool MainWindow::addConstantCurvatureSegment(CurvatureModel model) {
  return editor_->addConstantCurvatureSegment(model);
}
bool MainWindow::addClosedLoopJoint(const QString& link_a, const QString& link_b, JointType type,
                                    bool planar) {
  return editor_->addClosedLoopJoint(link_a, link_b, type, planar);
}
bool MainWindow::addLinkAlongRod(double abscissa, bool soft, JointType joint) {
  return editor_->addLinkAlongRod(abscissa, soft, joint);
}
bool MainWindow::setEnvironment(const EnvironmentDesc& environment) {
  return editor_->setEnvironment(environment);
}
bool MainWindow::addTablePoint(const QString& points_pointer, int after) {
  return editor_->addTablePoint(points_pointer, after);
}
bool MainWindow::removeTablePoint(const QString& points_pointer, int index) {
  return editor_->removeTablePoint(points_pointer, index);
}
bool MainWindow::reparentLink(int link, const QString& parent) {
  return editor_->reparentLink(link, parent);
}
bool MainWindow::setField(const QString& pointer, const QString& text) {
  return editor_->setField(pointer, text);
}
bool MainWindow::applyEdit(const QString& text, const RobotDescription& after,
                           const QString& selection) {
  return editor_->applyEdit(text, after, selection);
}

}  // namespace tendril
