#include "ui/edit_commands.hpp"

#include <utility>

namespace tendril {

DescriptionCommand::DescriptionCommand(const QString& text, RobotDescription before,
                                       QString selection_before, RobotDescription after,
                                       QString selection_after, Apply apply)
    : QUndoCommand(text),
      before_(std::move(before)),
      selection_before_(std::move(selection_before)),
      after_(std::move(after)),
      selection_after_(std::move(selection_after)),
      apply_(std::move(apply)) {}

void DescriptionCommand::undo() {
  apply_(before_, selection_before_);
}

void DescriptionCommand::redo() {
  apply_(after_, selection_after_);
}

}  // namespace tendril
