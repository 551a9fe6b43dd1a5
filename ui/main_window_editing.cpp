// MainWindow, part two: the edits of the model (ui/main_window.hpp). Every edit builds the new
// description, checks it (buildModel) and pushes it as one undoable DescriptionCommand.

#include <QAction>
#include <QMenu>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/edit/description_edit.hpp"
#include "core/io/json_io.hpp"
#include "core/model/validate.hpp"
#include "core/sim/rest_frame.hpp"
#include "ui/edit_commands.hpp"
#include "ui/environment_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/panels/field_help.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/model_dialogs.hpp"
#include "ui/panels/model_tree_panel.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/property_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

using main_window_detail::indexIn;
using main_window_detail::kStatusMessageMs;

// ---- editing

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

void MainWindow::applyDescription(const RobotDescription& robot, const QString& selection) {
  stopSimulation();
  ++statics_generation_;  // a statics result still coming belongs to the old model
  // the dragged inverse-statics target solves the old model: switch it off
  if (auto* target = findChild<QAction*>(QStringLiteral("inverseStaticsTargetAction"))) {
    target->setChecked(false);
  }
  if (!sameLinkStructure(robot_, robot)) {
    clearReference();
  }
  robot_ = robot;
  FramePtr frame;
  try {
    frame = robot_.links.empty() ? std::make_shared<const Frame>() : restFrame(robot_);
  } catch (const std::exception&) {
    frame = std::make_shared<const Frame>();  // commands and files hold checked models only
  }
  model_tree_->setRobot(robot_);
  {
    const QSignalBlocker blocker(model_tree_);
    model_tree_->selectPointer(selection);
  }
  viewport_->setDescription(robot_);
  viewport_->showFrame(frame);
  clearPlots();
  timeline_->setFrameCount(1);
  onPointerSelected(model_tree_->selectedPointer());
  updateSimulationActions();
}

bool MainWindow::applyEdit(const QString& text, const RobotDescription& after,
                           const QString& selection) {
  if (after == robot_) {
    return false;
  }
  try {
    checkDescription(after);
  } catch (const std::exception& error) {
    showError(tr("Cannot %1").arg(text.toLower()), QString::fromStdString(error.what()));
    return false;
  }
  undo_stack_->push(
      new DescriptionCommand(text, robot_, selection_, after, selection,
                             [this](const RobotDescription& robot, const QString& pointer) {
                               applyDescription(robot, pointer);
                             }));
  return true;
}

QString MainWindow::selection() const {
  return selection_;
}

void MainWindow::select(const QString& pointer) {
  model_tree_->selectPointer(pointer);
  if (model_tree_->selectedPointer() != selection_) {
    onPointerSelected(model_tree_->selectedPointer());
  }
}

// the link the selection stands for: the link itself, or the link of a cable, load, input,
// closed loop or fluid entry
int MainWindow::selectedLinkIndex() const {
  if (const int link = indexIn(selection_, "links"); link >= 0) {
    return link < static_cast<int>(robot_.links.size()) ? link : -1;
  }
  std::string name;
  static const QString kFluidBodies = QStringLiteral("/environment/fluid/bodies/");
  if (selection_.startsWith(kFluidBodies) && robot_.environment.fluid) {
    bool ok = false;
    const int entry = selection_.mid(kFluidBodies.size()).toInt(&ok);
    const auto& bodies = robot_.environment.fluid->bodies;
    if (ok && entry >= 0 && entry < static_cast<int>(bodies.size())) {
      return findLink(robot_, bodies[static_cast<std::size_t>(entry)].link);
    }
  }
  if (const int cable = indexIn(selection_, "cables");
      cable >= 0 && cable < static_cast<int>(robot_.cables.size())) {
    name = robot_.cables[static_cast<std::size_t>(cable)].link;
  } else if (const int load = indexIn(selection_, "point_loads");
             load >= 0 && load < static_cast<int>(robot_.point_loads.size())) {
    name = robot_.point_loads[static_cast<std::size_t>(load)].link;
  } else if (const int input = indexIn(selection_, "joint_inputs");
             input >= 0 && input < static_cast<int>(robot_.joint_inputs.size())) {
    name = robot_.joint_inputs[static_cast<std::size_t>(input)].link;
  } else if (const int loop = indexIn(selection_, "closed_chains");
             loop >= 0 && loop < static_cast<int>(robot_.closed_chains.size())) {
    name = robot_.closed_chains[static_cast<std::size_t>(loop)].a.link;
  }
  return name.empty() ? -1 : findLink(robot_, name);
}

std::string MainWindow::attachmentParent() const {
  const int link = selectedLinkIndex();
  return link < 0 ? std::string("world") : robot_.links[static_cast<std::size_t>(link)].name;
}

bool MainWindow::addRigidLink(JointType joint) {
  RobotDescription after = robot_;
  try {
    const int index =
        addLink(after, makeRigidLink(uniqueName(robot_, "link"), joint, typicalLinkLength(robot_)),
                attachmentParent());
    return applyEdit(tr("Add rigid link"), after, QString("/links/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a rigid link"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::addSoftRod(int divisions) {
  RobotDescription after = robot_;
  try {
    const int index = addLink(
        after, makeSoftLink(uniqueName(robot_, "rod"), divisions, 2.0 * typicalLinkLength(robot_)),
        attachmentParent());
    return applyEdit(tr("Add soft rod"), after, QString("/links/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a soft rod"), QString::fromStdString(error.what()));
    return false;
  }
}

// the length of the soft rod the builder makes (twice the model's typical link length), so that
// the two kinds compare side by side; the radius is then a tenth of it (makeConstantCurvatureLink)
bool MainWindow::addConstantCurvatureSegment(CurvatureModel model) {
  const double length = 2.0 * typicalLinkLength(robot_);
  RobotDescription after = robot_;
  try {
    const int index =
        addLink(after, makeConstantCurvatureLink(uniqueName(robot_, "segment"), model, length),
                attachmentParent());
    return applyEdit(tr("Add constant-curvature segment"), after, QString("/links/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a constant-curvature segment"), QString::fromStdString(error.what()));
    return false;
  }
}

// Model > Add Constant-Curvature Segment and its tool button (beside Soft Rod)
void MainWindow::createConstantCurvatureMenu(QMenu* model_menu) {
  add_cc_menu_ = model_menu->addMenu(tr("Add Constant-C&urvature Segment"));
  add_cc_menu_->setObjectName("addConstantCurvatureMenu");
  add_cc_menu_->setToolTipsVisible(true);
  struct Entry {
    CurvatureModel model;
    const char* object_name;
    QString text, tip;
  };
  const Entry entries[] = {
      {CurvatureModel::Planar, "addPlanarSegmentAction", tr("&Planar (bending angle)"),
       tr("One coordinate: the bending angle about the segment's y axis")},
      {CurvatureModel::Spatial, "addSpatialSegmentAction",
       tr("&Spatial (two bending angles, elongation)"),
       tr("Three coordinates: the bending angles about y and z and the elongation")},
  };
  for (const Entry& entry : entries) {
    const CurvatureModel model = entry.model;
    QAction* action = add_cc_menu_->addAction(
        entry.text, this, [this, model] { addConstantCurvatureSegment(model); });
    action->setObjectName(entry.object_name);
    action->setToolTip(entry.tip);
  }
}

QToolButton* MainWindow::createConstantCurvatureButton(QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setObjectName("addSegmentButton");
  button->setText(tr("CC Segment"));
  button->setToolTip(
      tr("Add a planar constant-curvature segment at the tip of the selection (menu: planar or "
         "spatial)"));
  button->setMenu(add_cc_menu_);
  button->setPopupMode(QToolButton::MenuButtonPopup);
  connect(button, &QToolButton::clicked, this,
          [this] { addConstantCurvatureSegment(CurvatureModel::Planar); });
  return button;
}

bool MainWindow::addCable() {
  RobotDescription after = robot_;
  try {
    const int index = tendril::addCable(after, attachmentParent());
    return applyEdit(tr("Add cable"), after, QString("/cables/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a cable"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::addPointLoad() {
  RobotDescription after = robot_;
  try {
    const int index = tendril::addPointLoad(after, attachmentParent());
    return applyEdit(tr("Add point load"), after, QString("/point_loads/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a point load"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::addJointInput() {
  RobotDescription after = robot_;
  try {
    const int index = tendril::addJointInput(after, attachmentParent());
    return applyEdit(tr("Add joint input"), after, QString("/joint_inputs/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a joint input"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::addClosedLoopJoint(const QString& link_a, const QString& link_b, JointType type,
                                    bool planar) {
  RobotDescription after = robot_;
  try {
    const int index =
        tendril::addClosedChain(after, link_a.toStdString(), link_b.toStdString(), type, planar);
    return applyEdit(tr("Add closed-loop joint"), after, QString("/closed_chains/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add a closed-loop joint"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::addLinkAlongRod(double abscissa, bool soft, JointType joint) {
  RobotDescription after = robot_;
  try {
    const double length = typicalLinkLength(robot_);
    LinkDesc link = soft ? makeSoftLink(uniqueName(robot_, "rod"), 1, 2.0 * length)
                         : makeRigidLink(uniqueName(robot_, "link"), joint, length);
    const int index =
        tendril::addLinkAlongRod(after, std::move(link), selectedLinkIndex(), abscissa);
    return applyEdit(tr("Add link along rod"), after, QString("/links/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot attach along the rod"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::setEnvironment(const EnvironmentDesc& environment) {
  RobotDescription after = robot_;
  after.environment = environment;
  return applyEdit(tr("Edit environment"), after, selection_);
}

bool MainWindow::addSelectedLinkToFluid() {
  RobotDescription after = robot_;
  try {
    const int link = selectedLinkIndex();
    if (link < 0) {
      throw ParseError("/environment/fluid/bodies", "select a rigid link first");
    }
    const int index = addFluidBody(after, robot_.links[static_cast<std::size_t>(link)].name);
    return applyEdit(tr("Add link to fluid"), after,
                     QString("/environment/fluid/bodies/%1").arg(index));
  } catch (const std::exception& error) {
    showError(tr("Cannot add the link to the fluid"), QString::fromStdString(error.what()));
    return false;
  }
}

bool MainWindow::removeSelectedLinkFromFluid() {
  const int link = selectedLinkIndex();
  const int entry =
      link < 0 ? -1 : findFluidBody(robot_, robot_.links[static_cast<std::size_t>(link)].name);
  if (entry < 0) {
    showError(tr("Cannot remove the link from the fluid"),
              tr("The selected link has no entry of its own in the fluid."));
    return false;
  }
  RobotDescription after = robot_;
  try {
    removeItem(after, QString("/environment/fluid/bodies/%1").arg(entry).toStdString());
  } catch (const std::exception& error) {
    showError(tr("Cannot remove the link from the fluid"), QString::fromStdString(error.what()));
    return false;
  }
  return applyEdit(tr("Remove link from fluid"), after, QString("/links/%1").arg(link));
}

bool MainWindow::addTablePoint(const QString& points_pointer, int after) {
  RobotDescription edited = robot_;
  try {
    (void)tendril::addTablePoint(edited, points_pointer.toStdString(), after);
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    property_panel_->showError(last_error_);
    return false;
  }
  return applyEdit(tr("Add table point"), edited, selection_);
}

bool MainWindow::removeTablePoint(const QString& points_pointer, int index) {
  RobotDescription edited = robot_;
  try {
    tendril::removeTablePoint(edited, points_pointer.toStdString(), index);
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    property_panel_->showError(last_error_);
    return false;
  }
  return applyEdit(tr("Remove table point"), edited, selection_);
}

void MainWindow::onAddClosedLoopJoint() {
  const int link = selectedLinkIndex();
  ClosedChainDialog dialog(
      robot_,
      link >= 0 ? QString::fromStdString(robot_.links[static_cast<std::size_t>(link)].name)
                : QString(),
      this);
  dialog.setObjectName("closedChainDialog");
  if (dialog.exec() == QDialog::Accepted) {
    addClosedLoopJoint(dialog.linkA(), dialog.linkB(), dialog.jointType(), dialog.planar());
  }
}

void MainWindow::onAddLinkAlongRod() {
  const int link = selectedLinkIndex();
  if (link < 0 || robot_.links[static_cast<std::size_t>(link)].kind() != BodyKind::Soft) {
    // only a GVS rod can be split in two; a constant-curvature segment bends as one piece
    const bool segment = link >= 0 && robot_.links[static_cast<std::size_t>(link)].kind() ==
                                          BodyKind::ConstantCurvature;
    showError(tr("Cannot attach along a rod"),
              segment ? tr("A constant-curvature segment cannot be split: attach at its tip "
                           "(Model > Add ...) instead.")
                      : tr("Select a soft rod first."));
    return;
  }
  AttachAlongRodDialog dialog(robot_.links[static_cast<std::size_t>(link)], this);
  dialog.setObjectName("attachAlongRodDialog");
  if (dialog.exec() == QDialog::Accepted) {
    addLinkAlongRod(dialog.abscissa(), dialog.soft(), dialog.jointType());
  }
}

void MainWindow::onEditEnvironment() {
  EnvironmentDialog dialog(robot_, this);
  dialog.setObjectName("environmentDialog");
  if (dialog.exec() == QDialog::Accepted) {
    setEnvironment(dialog.environment());
  }
}

bool MainWindow::removeSelected() {
  if (selection_.isEmpty()) {
    return false;
  }
  RobotDescription after = robot_;
  try {
    removeItem(after, selection_.toStdString());
  } catch (const std::exception& error) {
    showError(tr("Cannot remove"), QString::fromStdString(error.what()));
    return false;
  }
  return applyEdit(tr("Remove"), after, QString());
}

bool MainWindow::reparentLink(int link, const QString& parent) {
  RobotDescription after = robot_;
  try {
    tendril::reparentLink(after, link, parent.toStdString());
  } catch (const std::exception& error) {
    showError(tr("Cannot move the link"), QString::fromStdString(error.what()));
    return false;
  }
  return applyEdit(tr("Move link"), after, QString("/links/%1").arg(link));
}

bool MainWindow::setField(const QString& pointer, const QString& text) {
  const std::string where = pointer.toStdString();
  RobotDescription after;
  try {
    const nlohmann::json value = valueFromText(text.toStdString(), valueAt(robot_, where), where);
    after = withValue(robot_, where, value);
  } catch (const std::exception& error) {
    // the old value stays on screen, with the reason beneath it
    const QString reason = QString::fromStdString(error.what());
    last_error_ = reason;
    property_panel_->showSelection(robot_, selection_);
    property_panel_->showError(reason);
    statusBar()->showMessage(tr("Value refused: %1").arg(reason), kStatusMessageMs);
    return false;
  }
  if (!applyEdit(tr("Set %1").arg(fieldLabel(where)), after, selection_)) {
    property_panel_->showSelection(robot_, selection_);
    return false;
  }
  return true;
}

QMenu* MainWindow::createContextMenu() {
  auto* menu = new QMenu(this);
  menu->addMenu(add_link_menu_);
  menu->addMenu(add_rod_menu_);
  menu->addMenu(add_cc_menu_);
  menu->addAction(add_cable_action_);
  menu->addAction(add_load_action_);
  menu->addAction(add_input_action_);
  menu->addAction(add_along_rod_action_);
  menu->addAction(add_loop_action_);
  menu->addSeparator();
  menu->addAction(environment_action_);
  menu->addAction(add_to_fluid_action_);
  menu->addAction(remove_from_fluid_action_);
  menu->addSeparator();
  menu->addAction(remove_action_);
  return menu;
}

void MainWindow::updateModelActions() {
  const int link = selectedLinkIndex();
  const BodyKind kind =
      link >= 0 ? robot_.links[static_cast<std::size_t>(link)].kind() : BodyKind::Rigid;
  // cables run along any centreline; only a GVS rod can be split to attach along it
  add_cable_action_->setEnabled(link >= 0 && hasCentreline(kind));
  add_load_action_->setEnabled(link >= 0);
  add_input_action_->setEnabled(
      link >= 0 && robot_.links[static_cast<std::size_t>(link)].joint.type != JointType::Fixed);
  add_along_rod_action_->setEnabled(link >= 0 && kind == BodyKind::Soft);
  add_loop_action_->setEnabled(!robot_.links.empty());
  // a rigid link gets an entry of its own in the fluid (rods use the fluid's coefficients)
  const bool rigid = link >= 0 && kind == BodyKind::Rigid;
  const bool listed =
      rigid && findFluidBody(robot_, robot_.links[static_cast<std::size_t>(link)].name) >= 0;
  add_to_fluid_action_->setEnabled(rigid && !listed && robot_.environment.fluid.has_value());
  add_to_fluid_action_->setStatusTip(
      robot_.environment.fluid ? QString() : tr("Switch the fluid on first (Model > Environment)"));
  remove_from_fluid_action_->setEnabled(listed);
  remove_action_->setEnabled(!selection_.isEmpty());
}

}  // namespace tendril
