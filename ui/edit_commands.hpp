#pragma once
// The undoable edits of the studio. Every edit is a whole-description snapshot pair: the
// description before and after (a few kilobytes), plus the item selected before and after, so
// undo and redo restore exactly what was shown. Checking an edit (buildModel) happens before the
// command exists: a command only ever holds a valid description.

#include <QString>
#include <QUndoCommand>
#include <functional>

#include "core/model/description.hpp"

namespace tendril {

class DescriptionCommand : public QUndoCommand {
 public:
  /// \brief Shows a description and selects the item at a JSON pointer.
  using Apply = std::function<void(const RobotDescription& robot, const QString& selection)>;

  DescriptionCommand(const QString& text, RobotDescription before, QString selection_before,
                     RobotDescription after, QString selection_after, Apply apply);

  void undo() override;
  void redo() override;

  [[nodiscard]] const RobotDescription& before() const { return before_; }
  [[nodiscard]] const RobotDescription& after() const { return after_; }

 private:
  RobotDescription before_;
  QString selection_before_;
  RobotDescription after_;
  QString selection_after_;
  Apply apply_;
};

}  // namespace tendril
