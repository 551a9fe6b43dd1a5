#include "ui/model_editor.hpp"

#include <QRegularExpression>
#include <QUndoStack>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/edit/description_edit.hpp"
#include "core/io/json_io.hpp"
#include "core/model/validate.hpp"
#include "ui/edit_commands.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/panels/field_help.hpp"

namespace tendril {

using main_window_detail::indexIn;

namespace {

QString linkPointer(int index) {
  return QString("/links/%1").arg(index);
}

}  // namespace

ModelEditor::ModelEditor(QObject* parent) : QObject(parent), undo_stack_(new QUndoStack(this)) {}

void ModelEditor::reset(const RobotDescription& robot) {
  undo_stack_->clear();
  apply(robot, QString());
}

void ModelEditor::apply(const RobotDescription& robot, const QString& selection) {
  const RobotDescription previous = std::move(robot_);
  robot_ = robot;
  selection_ = selection;
  emit applied(previous, selection);
}

bool ModelEditor::undo() {
  if (!undo_stack_->canUndo() || (guard_ && !guard_(tr("Undo")))) return false;
  undo_stack_->undo();
  return true;
}

bool ModelEditor::redo() {
  if (!undo_stack_->canRedo() || (guard_ && !guard_(tr("Redo")))) return false;
  undo_stack_->redo();
  return true;
}

void ModelEditor::fail(const QString& title, const QString& message) {
  last_error_ = message;
  emit errorRaised(title, message);
}

bool ModelEditor::applyEdit(const QString& text, const RobotDescription& after,
                            const QString& selection) {
  if (after == robot_) {
    return false;
  }
  try {
    checkDescription(after);
  } catch (const std::exception& error) {
    fail(tr("Cannot %1").arg(text.toLower()), QString::fromStdString(error.what()));
    return false;
  }
  if (guard_ && !guard_(text)) {
    last_error_ = tr("the edit was cancelled: a computation is running");
    return false;
  }
  undo_stack_->push(new DescriptionCommand(
      text, robot_, selection_, after, selection,
      [this](const RobotDescription& robot, const QString& pointer) { apply(robot, pointer); }));
  return true;
}

bool ModelEditor::editWith(const QString& text, const QString& failure,
                           const std::function<QString(RobotDescription&)>& change) {
  RobotDescription after = robot_;
  QString selection;
  try {
    selection = change(after);
  } catch (const std::exception& error) {
    fail(failure, QString::fromStdString(error.what()));
    return false;
  }
  return applyEdit(text, after, selection);
}

int ModelEditor::selectedLinkIndex() const {
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

std::string ModelEditor::attachmentParent() const {
  const int link = selectedLinkIndex();
  return link < 0 ? std::string("world") : robot_.links[static_cast<std::size_t>(link)].name;
}

bool ModelEditor::addRigidLink(JointType joint) {
  return editWith(tr("Add rigid link"), tr("Cannot add a rigid link"), [&](RobotDescription& r) {
    const double length = typicalLinkLength(robot_);
    return linkPointer(
        addLink(r, makeRigidLink(uniqueName(robot_, "link"), joint, length), attachmentParent()));
  });
}

bool ModelEditor::addSoftRod(int divisions) {
  return editWith(tr("Add soft rod"), tr("Cannot add a soft rod"), [&](RobotDescription& r) {
    const double length = 2.0 * typicalLinkLength(robot_);
    return linkPointer(
        addLink(r, makeSoftLink(uniqueName(robot_, "rod"), divisions, length), attachmentParent()));
  });
}

// the length of the soft rod the builder makes (twice the model's typical link length), so that
// the two kinds compare side by side; the radius is then a tenth of it (makeConstantCurvatureLink)
bool ModelEditor::addConstantCurvatureSegment(CurvatureModel model) {
  return editWith(tr("Add constant-curvature segment"),
                  tr("Cannot add a constant-curvature segment"), [&](RobotDescription& r) {
                    const double length = 2.0 * typicalLinkLength(robot_);
                    LinkDesc link =
                        makeConstantCurvatureLink(uniqueName(robot_, "segment"), model, length);
                    return linkPointer(addLink(r, std::move(link), attachmentParent()));
                  });
}

bool ModelEditor::addLvpBody(LvpPreset preset) {
  return editWith(tr("Add volume-preserving body"), tr("Cannot add a volume-preserving body"),
                  [&](RobotDescription& r) {
                    LinkDesc link = makeLvpLink(uniqueName(robot_, "body"), preset);
                    return linkPointer(addLvpLink(r, std::move(link), attachmentParent()));
                  });
}

bool ModelEditor::addCable() {
  const int link = selectedLinkIndex();
  if (link >= 0 && robot_.links[static_cast<std::size_t>(link)].kind() == BodyKind::Lvp) {
    return editWith(tr("Add tendon"), tr("Cannot add a tendon"), [&](RobotDescription& r) {
      return QString("/lvp_tendons/%1").arg(addLvpTendon(r, attachmentParent()));
    });
  }
  return editWith(tr("Add cable"), tr("Cannot add a cable"), [&](RobotDescription& r) {
    return QString("/cables/%1").arg(tendril::addCable(r, attachmentParent()));
  });
}

bool ModelEditor::addPointLoad() {
  return editWith(tr("Add point load"), tr("Cannot add a point load"), [&](RobotDescription& r) {
    return QString("/point_loads/%1").arg(tendril::addPointLoad(r, attachmentParent()));
  });
}

bool ModelEditor::addJointInput() {
  return editWith(tr("Add joint input"), tr("Cannot add a joint input"), [&](RobotDescription& r) {
    return QString("/joint_inputs/%1").arg(tendril::addJointInput(r, attachmentParent()));
  });
}

bool ModelEditor::addController() {
  return editWith(tr("Add controller"), tr("Cannot add a controller"), [&](RobotDescription& r) {
    return QString("/controllers/%1").arg(tendril::addController(r, attachmentParent()));
  });
}

bool ModelEditor::addClosedLoopJoint(const QString& link_a, const QString& link_b, JointType type,
                                     bool planar) {
  return editWith(tr("Add closed-loop joint"), tr("Cannot add a closed-loop joint"),
                  [&](RobotDescription& r) {
                    return QString("/closed_chains/%1")
                        .arg(tendril::addClosedChain(r, link_a.toStdString(), link_b.toStdString(),
                                                     type, planar));
                  });
}

bool ModelEditor::addLinkAlongRod(double abscissa, bool soft, JointType joint) {
  return editWith(
      tr("Add link along rod"), tr("Cannot attach along the rod"), [&](RobotDescription& r) {
        const double length = typicalLinkLength(robot_);
        LinkDesc link = soft ? makeSoftLink(uniqueName(robot_, "rod"), 1, 2.0 * length)
                             : makeRigidLink(uniqueName(robot_, "link"), joint, length);
        return linkPointer(
            tendril::addLinkAlongRod(r, std::move(link), selectedLinkIndex(), abscissa));
      });
}

bool ModelEditor::setEnvironment(const EnvironmentDesc& environment) {
  RobotDescription after = robot_;
  after.environment = environment;
  return applyEdit(tr("Edit environment"), after, selection_);
}

int ModelEditor::selectedControllerIndex() const {
  static const QRegularExpression kController("^/controllers/(\\d+)(/|$)");
  const QRegularExpressionMatch match = kController.match(selection_);
  if (!match.hasMatch()) return -1;
  const int index = match.captured(1).toInt();
  return index < static_cast<int>(robot_.controllers.size()) ? index : -1;
}

bool ModelEditor::setControlledVariableKind(int controller, int variable,
                                            ControlledVariableDesc::Kind kind) {
  return editWith(tr("Change controlled variable"), tr("Cannot drive that"),
                  [&](RobotDescription& r) {
                    tendril::setControlledVariableKind(r, controller, variable, kind);
                    return QString("/controllers/%1").arg(controller);
                  });
}

bool ModelEditor::editSelectedController(const QString& text, const QString& failure,
                                         void (*change)(RobotDescription&, int)) {
  return editWith(text, failure, [&](RobotDescription& r) {
    const int controller = selectedControllerIndex();
    if (controller < 0) throw ParseError("/controllers", "select a controller first");
    change(r, controller);
    return QString("/controllers/%1").arg(controller);
  });
}

bool ModelEditor::addControllerWindow() {
  return editSelectedController(tr("Add controller window"), tr("Cannot add a window"),
                                &tendril::addControllerWindow);
}

bool ModelEditor::removeControllerWindow() {
  return editSelectedController(tr("Remove controller window"), tr("Cannot remove the window"),
                                &tendril::removeControllerWindow);
}

bool ModelEditor::addSelectedLinkToFluid() {
  return editWith(tr("Add link to fluid"), tr("Cannot add the link to the fluid"),
                  [&](RobotDescription& r) {
                    const int link = selectedLinkIndex();
                    if (link < 0) {
                      throw ParseError("/environment/fluid/bodies", "select a rigid link first");
                    }
                    const std::string& name = robot_.links[static_cast<std::size_t>(link)].name;
                    return QString("/environment/fluid/bodies/%1").arg(addFluidBody(r, name));
                  });
}

bool ModelEditor::removeSelectedLinkFromFluid() {
  const int link = selectedLinkIndex();
  const int entry =
      link < 0 ? -1 : findFluidBody(robot_, robot_.links[static_cast<std::size_t>(link)].name);
  if (entry < 0) {
    fail(tr("Cannot remove the link from the fluid"),
         tr("The selected link has no entry of its own in the fluid."));
    return false;
  }
  RobotDescription after = robot_;
  try {
    removeItem(after, QString("/environment/fluid/bodies/%1").arg(entry).toStdString());
  } catch (const std::exception& error) {
    fail(tr("Cannot remove the link from the fluid"), QString::fromStdString(error.what()));
    return false;
  }
  return applyEdit(tr("Remove link from fluid"), after, QString("/links/%1").arg(link));
}

bool ModelEditor::addTablePoint(const QString& points_pointer, int after) {
  RobotDescription edited = robot_;
  try {
    (void)tendril::addTablePoint(edited, points_pointer.toStdString(), after);
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    emit valueRefused(last_error_);
    return false;
  }
  return applyEdit(tr("Add table point"), edited, selection_);
}

bool ModelEditor::removeTablePoint(const QString& points_pointer, int index) {
  RobotDescription edited = robot_;
  try {
    tendril::removeTablePoint(edited, points_pointer.toStdString(), index);
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    emit valueRefused(last_error_);
    return false;
  }
  return applyEdit(tr("Remove table point"), edited, selection_);
}

bool ModelEditor::removeSelected() {
  if (selection_.isEmpty()) {
    return false;
  }
  return editWith(tr("Remove"), tr("Cannot remove"), [&](RobotDescription& r) {
    removeItem(r, selection_.toStdString());
    return QString();
  });
}

bool ModelEditor::reparentLink(int link, const QString& parent) {
  return editWith(tr("Move link"), tr("Cannot move the link"), [&](RobotDescription& r) {
    tendril::reparentLink(r, link, parent.toStdString());
    return linkPointer(link);
  });
}

bool ModelEditor::setField(const QString& pointer, const QString& text) {
  const std::string where = pointer.toStdString();
  RobotDescription after;
  try {
    const nlohmann::json value = valueFromText(text.toStdString(), valueAt(robot_, where), where);
    after = withValue(robot_, where, value);
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    emit valueRefused(last_error_);
    return false;
  }
  if (!applyEdit(tr("Set %1").arg(fieldLabel(where)), after, selection_)) {
    emit valueRefused(QString());  // the panel shows the value in force again
    return false;
  }
  return true;
}

}  // namespace tendril
