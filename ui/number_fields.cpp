#include "ui/number_fields.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <cmath>

namespace tendril {

std::optional<double> numberIn(const QString& text) {
  bool ok = false;
  const double value = text.trimmed().toDouble(&ok);
  return ok && std::isfinite(value) ? std::optional(value) : std::nullopt;
}

std::optional<double> numberIn(const QLineEdit* field) {
  return numberIn(field->text());
}

QLineEdit* addNumberRow(QWidget* owner, QFormLayout* form, const QString& label,
                        const QString& unit, double value, const QString& object_name) {
  auto* row = new QHBoxLayout();
  auto* field = new QLineEdit(QString::number(value, 'g', 8), owner);
  field->setObjectName(object_name);
  row->addWidget(field, 1);
  auto* unit_label = new QLabel(unit.isEmpty() ? QStringLiteral("-") : unit, owner);
  unit_label->setMinimumWidth(40);
  row->addWidget(unit_label);
  form->addRow(label, row);
  return field;
}

QLabel* addProblemLabel(QWidget* owner, QBoxLayout* layout) {
  auto* problem = new QLabel(owner);
  problem->setObjectName("problem");
  problem->setStyleSheet("QLabel { color: #b00020; }");
  problem->setWordWrap(true);
  layout->addWidget(problem);
  return problem;
}

}  // namespace tendril
