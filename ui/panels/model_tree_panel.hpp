#pragma once
// Left panel: the robot's structure as a tree. Links hang below their parents; a link's cables,
// point loads, joint inputs, closed-loop joints (below body A) and entry in the fluid hang below
// it. Every item is addressed by the JSON pointer of what it shows ("" for the robot, "/links/2",
// "/cables/0", "/point_loads/1", "/joint_inputs/0", "/closed_chains/0",
// "/environment/fluid/bodies/0"). Dragging a link onto another link (or
// the robot) asks to re-parent it; the tree itself only changes when the description does.

#include <QTreeWidget>

#include "core/model/description.hpp"

namespace tendril {

class ModelTreePanel : public QTreeWidget {
  Q_OBJECT

 public:
  explicit ModelTreePanel(QWidget* parent = nullptr);

  /// \brief Shows \p robot under one root item named after the robot; keeps the selected pointer
  ///        when it still exists.
  void setRobot(const RobotDescription& robot);

  /// \brief Index of the selected link in RobotDescription::links, or -1 (robot, other, nothing).
  [[nodiscard]] int selectedLink() const;
  /// \brief JSON pointer of the selected item; empty for the robot or nothing.
  [[nodiscard]] QString selectedPointer() const;
  /// \brief Selects the item showing \p pointer (the robot for "" or an unknown pointer).
  void selectPointer(const QString& pointer);
  /// \brief The item showing \p pointer, or nullptr.
  [[nodiscard]] QTreeWidgetItem* itemFor(const QString& pointer) const;

  /// \brief Number of link items (tests compare it with the description).
  [[nodiscard]] int linkItemCount() const;

 signals:
  /// \brief The selection changed: a link index, or -1 for the robot itself or nothing.
  void linkSelected(int link_index);
  /// \brief The selection changed to the item showing \p pointer ("" for the robot or nothing).
  void pointerSelected(const QString& pointer);
  /// \brief Link \p link was dropped onto \p parent (a link name, or "world").
  void reparentRequested(int link, const QString& parent);
  /// \brief A context menu was asked for at \p global_position, on the item now selected.
  void contextMenuRequested(const QPoint& global_position);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  /// The names whole where the panel allows, then the joints; the kinds get the rest (a long one
  /// such as "constant-curvature segment" is elided then, whole in its tooltip).
  void fitColumns();
  /// the width of the names below the robot, indented
  [[nodiscard]] int namesWidth() const;
  /// widens the panel's dock (up to 40 % of the window) until every name below the robot shows
  void widenToFitNames();
  void onSelectionChanged();
  /// The item a link dropped at \p position would hang below (a link or the robot), or nullptr.
  [[nodiscard]] QTreeWidgetItem* dropTarget(const QPoint& position) const;
};

}  // namespace tendril
