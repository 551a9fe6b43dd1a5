#pragma once
// Left panel: the robot's links as a tree that follows the parent names.

#include <QTreeWidget>

#include "core/model/description.hpp"

namespace tendril {

class ModelTreePanel : public QTreeWidget {
  Q_OBJECT

 public:
  explicit ModelTreePanel(QWidget* parent = nullptr);

  /// \brief Shows the links of \p robot under one root item named after the robot.
  void setRobot(const RobotDescription& robot);

  /// \brief Index of the selected link in RobotDescription::links, or -1 (robot or nothing).
  [[nodiscard]] int selectedLink() const;

  /// \brief Number of link items (tests compare it with the description).
  [[nodiscard]] int linkItemCount() const;

 signals:
  /// \brief The selection changed: a link index, or -1 for the robot itself or nothing.
  void linkSelected(int link_index);

 private:
  void onSelectionChanged();
};

}  // namespace tendril
