#pragma once
// Simulate > Settings: statics or dynamics; duration, output interval, integrator, step, tolerances
// and where the implicit methods (and the statics Newton) get their Jacobian: analytical
// derivatives or finite differences. Every field shows its unit; OK is refused, with the reason
// shown, while a value is invalid.

#include <QDialog>

#include "core/sim/simulation.hpp"

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace tendril {

/// \brief What Simulate > Run computes.
enum class Analysis { Dynamics, Statics };

class SimulationDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SimulationDialog(const SimulationOptions& options,
                            Analysis analysis = Analysis::Dynamics, QWidget* parent = nullptr);

  [[nodiscard]] Analysis analysis() const;
  /// \brief The options as edited (the initial ones for fields left alone).
  [[nodiscard]] SimulationOptions options() const;
  /// \brief Why the fields are invalid, or empty when they are all valid.
  [[nodiscard]] QString problem() const;

  void accept() override;

 private:
  QLineEdit* addNumber(const QString& label, const QString& unit, double value,
                       const QString& object_name);
  void validate();

  SimulationOptions initial_;
  QComboBox* analysis_ = nullptr;
  QLineEdit* duration_ = nullptr;
  QLineEdit* output_interval_ = nullptr;
  QComboBox* integrator_ = nullptr;
  QLineEdit* step_ = nullptr;
  QLineEdit* relative_tolerance_ = nullptr;
  QLineEdit* absolute_tolerance_ = nullptr;
  QComboBox* jacobian_ = nullptr;
  QLabel* problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QFormLayout* form_ = nullptr;
};

}  // namespace tendril
