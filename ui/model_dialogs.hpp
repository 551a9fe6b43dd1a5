#pragma once
// Small dialogs of the Model menu: a closed-loop joint between two chosen bodies, and a new link
// attached at a chosen point along a soft rod. They only collect the choice; MainWindow applies
// it as one undoable edit (core/edit/description_edit checks it).

#include <QDialog>
#include <QString>

#include "core/model/description.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace tendril {

/// \brief Model > Add Closed-Loop Joint: frame A at the tip of body A, frame B on body B (or the
///        world) where A is in the reference configuration, and the joint type.
class ClosedChainDialog : public QDialog {
  Q_OBJECT

 public:
  /// \param[in] link_a the link preselected for frame A (the selection), or empty
  ClosedChainDialog(const RobotDescription& robot, const QString& link_a,
                    QWidget* parent = nullptr);

  [[nodiscard]] QString linkA() const;
  [[nodiscard]] QString linkB() const;  ///< a link name or "world"
  [[nodiscard]] JointType jointType() const;
  [[nodiscard]] bool planar() const;

 private:
  QComboBox* link_a_ = nullptr;
  QComboBox* link_b_ = nullptr;
  QComboBox* joint_ = nullptr;
  QCheckBox* planar_ = nullptr;
};

/// \brief Model > Add Link Along Rod: where along the selected soft rod [m from its base] and
///        what to attach there (a rigid link with a joint, or a soft rod).
class AttachAlongRodDialog : public QDialog {
  Q_OBJECT

 public:
  AttachAlongRodDialog(const LinkDesc& rod, QWidget* parent = nullptr);

  [[nodiscard]] double abscissa() const;
  /// \brief True for a soft rod, false for a rigid link with jointType().
  [[nodiscard]] bool soft() const;
  [[nodiscard]] JointType jointType() const;

 private:
  QDoubleSpinBox* abscissa_ = nullptr;
  QComboBox* body_ = nullptr;
};

}  // namespace tendril
