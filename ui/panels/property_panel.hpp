#pragma once
// Right panel: every field of the selected item (a link, a cable, a point load, a rigid link's
// entry in the fluid, or the robot) with its unit, straight from the engine's JSON form of the
// description, each under its human name with the schema's explanation as its tooltip
// (field_help.hpp). A time-function table is edited as a whole ("t0, v0; t1, v1; ...") or point by
// point, and its context menu adds and removes points. Leaves are edited in
// place (a list of choices for enumerated fields); the panel only reports what was typed
// (editRequested): the main window checks it, applies it as an undoable edit, or hands the reason
// back (showError) while the old value stays.

#include <QString>
#include <QWidget>
#include <memory>
#include <nlohmann/json_fwd.hpp>

#include "core/model/description.hpp"

class QLabel;
class QMenu;
class QTreeWidget;
class QTreeWidgetItem;

namespace tendril {

class PropertyPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PropertyPanel(QWidget* parent = nullptr);

  /// \brief Shows the fields of the item at \p pointer ("" or an unknown pointer: the robot's
  ///        own fields). Clears any error shown.
  void showSelection(const RobotDescription& robot, const QString& pointer);
  /// \brief Shows link \p link_index, or the robot for an invalid index.
  void showSelection(const RobotDescription& robot, int link_index);

  /// \brief Text of the value whose property is named \p name (its JSON key or the label shown)
  ///        at any depth, or empty.
  [[nodiscard]] QString valueOf(const QString& name) const;
  /// \brief Unit shown beside the property named \p name, or empty.
  [[nodiscard]] QString unitOf(const QString& name) const;
  /// \brief The JSON pointer of the field a row shows.
  [[nodiscard]] static QString pointerOf(const QTreeWidgetItem* item);
  /// \brief The row of the field at JSON pointer \p pointer, or nullptr.
  [[nodiscard]] QTreeWidgetItem* itemFor(const QString& pointer) const;
  /// \brief Opens the editor of the field at \p pointer. \return false when it is not editable
  bool editField(const QString& pointer);
  [[nodiscard]] QTreeWidget* tree() const;
  /// \brief Pointer of the item shown.
  [[nodiscard]] QString shownPointer() const;

  /// \brief The context menu of the field at \p pointer (caller owns it), or nullptr when it has
  ///        none: a time-function table and its points offer "Add Point" and "Remove Point"; a
  ///        controller's controlled variable offers "Drive" (a joint coordinate, a cable or
  ///        tendon length, or a tip position).
  [[nodiscard]] QMenu* createContextMenu(const QString& pointer);

  /// \brief Shows why the last edit was refused (empty: hides the message).
  void showError(const QString& message);
  [[nodiscard]] QString errorText() const;

 signals:
  /// \brief The field at \p pointer was given the text \p text (not yet checked).
  void editRequested(const QString& pointer, const QString& text);
  /// \brief A point should be inserted after point \p after of the table at \p points_pointer.
  void addTablePointRequested(const QString& points_pointer, int after);
  /// \brief Point \p index of the table at \p points_pointer should be removed.
  void removeTablePointRequested(const QString& points_pointer, int index);
  /// \brief Controlled variable \p variable of controller \p controller should become a \p kind
  ///        (a ControlledVariableDesc::Kind).
  void controlledKindRequested(int controller, int variable, int kind);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void onItemChanged(QTreeWidgetItem* item, int column);
  void addTablePointActions(QMenu* menu, const QTreeWidgetItem* item);
  void addControlledKindActions(QMenu* menu, const QString& pointer);
  /// the property and unit columns sized so that all three fit the panel
  void fitColumns();
  [[nodiscard]] QTreeWidgetItem* itemNamed(const QString& name) const;

  QLabel* title_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  QLabel* error_ = nullptr;
  QString pointer_;
  std::shared_ptr<const nlohmann::json> robot_json_;  // what is shown, to name things in errors
  bool populating_ = false;
};

}  // namespace tendril
