#pragma once
// Right panel: the fields of the selected link (or of the robot), read-only for now.

#include <QTreeWidget>

#include "core/model/description.hpp"

namespace tendril {

class PropertyPanel : public QTreeWidget {
  Q_OBJECT

 public:
  explicit PropertyPanel(QWidget* parent = nullptr);

  /// \brief Shows robot-wide fields, or those of link \p link_index when it is a valid index.
  void showSelection(const RobotDescription& robot, int link_index);

  /// \brief Text of the value whose property is named \p name at any depth, or empty.
  [[nodiscard]] QString valueOf(const QString& name) const;
};

}  // namespace tendril
