#pragma once
// The description being edited, its selection and its undo history. Every edit builds the new
// description, checks it (buildModel) and pushes it as one undoable DescriptionCommand
// (ui/edit_commands); the view follows through applied(). A guard (MainWindow's question while a
// run holds the model) is asked before every edit, undo and redo.

#include <QObject>
#include <QString>
#include <functional>
#include <string>

#include "core/edit/description_edit.hpp"  // LvpPreset
#include "core/model/description.hpp"

class QUndoStack;

namespace tendril {

class ModelEditor : public QObject {
  Q_OBJECT

 public:
  /// \brief Asked before edit \p what; false cancels it.
  using Guard = std::function<bool(const QString& what)>;

  explicit ModelEditor(QObject* parent = nullptr);

  void setGuard(Guard guard) { guard_ = std::move(guard); }
  [[nodiscard]] const RobotDescription& robot() const { return robot_; }
  [[nodiscard]] QUndoStack* undoStack() const { return undo_stack_; }
  [[nodiscard]] QString lastError() const { return last_error_; }
  /// \brief JSON pointer of the selected item ("" for the robot).
  [[nodiscard]] QString selection() const { return selection_; }
  void setSelection(const QString& pointer) { selection_ = pointer; }
  /// \brief The link the selection stands for: the link itself, or the link of a cable, load,
  ///        input, closed loop or fluid entry; -1 for none.
  [[nodiscard]] int selectedLinkIndex() const;

  /// \brief Replaces the description without history (a file opened, a new model).
  void reset(const RobotDescription& robot);
  /// \brief Pushes an undoable edit to \p after (checked first, then the guard asked) and
  ///        selects \p selection. \return false, with lastError(), when nothing changed
  bool applyEdit(const QString& text, const RobotDescription& after, const QString& selection);
  bool undo();
  bool redo();

  // ---- the edits of the builder (each false, with lastError(), when nothing changed)
  bool addRigidLink(JointType joint);
  bool addSoftRod(int divisions);
  bool addConstantCurvatureSegment(CurvatureModel model);
  bool addLvpBody(LvpPreset preset);
  bool addCable();
  bool addPointLoad();
  bool addJointInput();
  /// \brief A PD controller with gravity compensation of the selected link's joint (its force
  ///        input added or named), selected in the properties panel.
  bool addController();
  bool addClosedLoopJoint(const QString& link_a, const QString& link_b, JointType type,
                          bool planar);
  bool addLinkAlongRod(double abscissa, bool soft, JointType joint);
  bool setEnvironment(const EnvironmentDesc& environment);
  /// \brief The selected controller's index ("/controllers/i" or a field under it), or -1.
  [[nodiscard]] int selectedControllerIndex() const;
  /// \brief Gives the selected controller an active window ([0, 1) s, off after), or removes it.
  bool addControllerWindow();
  /// \brief Makes a controller's controlled variable a joint coordinate, a cable or tendon length
  ///        or a tip position (setControlledVariableKind()).
  bool setControlledVariableKind(int controller, int variable, ControlledVariableDesc::Kind kind);
  bool removeControllerWindow();
  bool addSelectedLinkToFluid();
  bool removeSelectedLinkFromFluid();
  bool addTablePoint(const QString& points_pointer, int after);
  bool removeTablePoint(const QString& points_pointer, int index);
  bool removeSelected();
  bool reparentLink(int link, const QString& parent);
  bool setField(const QString& pointer, const QString& text);

 signals:
  /// \brief robot() changed from \p previous (an edit, undo, redo or reset); select \p selection.
  void applied(const tendril::RobotDescription& previous, const QString& selection);
  void errorRaised(const QString& title, const QString& message);
  /// \brief A typed value (or table point) was refused for \p reason (empty: the edit was
  ///        cancelled); the property panel shows the value in force again.
  void valueRefused(const QString& reason);

 private:
  /// \brief Builds \p change applied to the description and pushes it as the edit \p text;
  ///        \p change returns the item to select. On failure reports "<failure>: <reason>".
  bool editWith(const QString& text, const QString& failure,
                const std::function<QString(RobotDescription&)>& change);
  /// \brief editWith() of \p change on the selected controller's index, which stays selected.
  bool editSelectedController(const QString& text, const QString& failure,
                              void (*change)(RobotDescription&, int));
  void apply(const RobotDescription& robot, const QString& selection);
  void fail(const QString& title, const QString& message);
  [[nodiscard]] std::string attachmentParent() const;

  RobotDescription robot_;
  QString selection_;
  QUndoStack* undo_stack_ = nullptr;
  QString last_error_;
  Guard guard_;
};

}  // namespace tendril
