#pragma once
// Model > Environment: the contact law with its obstacles (planes, spheres, hollow cylinders) and
// the surrounding fluid (RobotDescription::environment, docs/theory/gvs.md §13.2, §13.3). Every
// field shows its unit; OK is refused, with the reason shown, while a value is invalid or the robot
// would not build with the environment. Rigid links can be listed in the fluid (or taken off the
// list) here; their volume, drag and added mass are then edited in the Properties panel. The
// result is applied by the caller as one undoable edit.

#include <QDialog>
#include <QString>
#include <vector>

#include "core/model/description.hpp"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace tendril {

class EnvironmentDialog : public QDialog {
  Q_OBJECT

 public:
  /// \param[in] robot the model whose environment is edited (checked with the new one)
  explicit EnvironmentDialog(const RobotDescription& robot, QWidget* parent = nullptr);

  /// \brief The environment as edited (the initial one while a field is invalid).
  [[nodiscard]] EnvironmentDesc environment() const;
  /// \brief Why the fields are invalid, or empty when the robot builds with them.
  [[nodiscard]] QString problem() const;

  /// \brief Adds an obstacle row: "plane", "sphere" or "cylinder" with default values.
  void addObstacle(const QString& kind);

  /// \brief Lists rigid link \p link in the fluid (switching the fluid on), as
  ///        addFluidBody() does. \return false, with the reason shown, when it cannot be
  bool addFluidBody(const QString& link);
  /// \brief Takes \p link off the fluid's list. \return false when it is not listed
  bool removeFluidBody(const QString& link);

  void accept() override;

 private:
  QLineEdit* addNumber(QFormLayout* form, const QString& label, const QString& unit, double value,
                       const QString& object_name);
  void addObstacleRow(const QString& kind, const Vec3& point, const Vec3& direction, double radius);
  /// the environment read from the fields, or the reason it cannot be
  [[nodiscard]] EnvironmentDesc read(QString& reason) const;
  void validate();
  void updateFluidBodies();

  RobotDescription robot_;
  QGroupBox* contact_ = nullptr;
  QLineEdit* stiffness_ = nullptr;
  QLineEdit* exponent_ = nullptr;
  QLineEdit* damping_ = nullptr;
  QLineEdit* friction_ = nullptr;
  QLineEdit* smoothing_ = nullptr;
  QLineEdit* slip_velocity_ = nullptr;
  QCheckBox* rigid_bodies_ = nullptr;
  QTableWidget* obstacles_ = nullptr;
  QGroupBox* fluid_ = nullptr;
  QLineEdit* fluid_density_ = nullptr;
  QLineEdit* drag_normal_ = nullptr;
  QLineEdit* drag_tangential_ = nullptr;
  QLineEdit* added_mass_ = nullptr;
  std::vector<FluidBodyDesc> fluid_bodies_;
  QListWidget* fluid_body_list_ = nullptr;
  QComboBox* fluid_body_choice_ = nullptr;
  QPushButton* fluid_body_add_ = nullptr;
  QLabel* problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace tendril
