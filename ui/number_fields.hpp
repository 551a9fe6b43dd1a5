#pragma once
// Numeric fields of the settings dialogs: a line edit with its unit beside it, and the value it
// holds when it parses as a finite number. Shared so that every dialog accepts the same syntax.

#include <QString>
#include <optional>

class QBoxLayout;
class QFormLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace tendril {

/// \brief A finite number in \p text (surrounding blanks allowed), or nothing.
[[nodiscard]] std::optional<double> numberIn(const QString& text);
[[nodiscard]] std::optional<double> numberIn(const QLineEdit* field);

/// \brief Adds the row "label [field] unit" to \p form, the field showing \p value and named
///        \p object_name (tests find it by that name); an empty unit shows as "-".
QLineEdit* addNumberRow(QWidget* owner, QFormLayout* form, const QString& label,
                        const QString& unit, double value, const QString& object_name);

/// \brief Adds to \p layout the label (objectName "problem", red, wrapped) where a dialog says
///        why its fields are invalid.
QLabel* addProblemLabel(QWidget* owner, QBoxLayout* layout);

}  // namespace tendril
