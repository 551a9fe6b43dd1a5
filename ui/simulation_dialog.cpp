#include "ui/simulation_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <optional>

#include "ui/number_fields.hpp"

namespace tendril {
namespace {

struct IntegratorChoice {
  const char* label;
  IntegratorKind kind;
};

constexpr IntegratorChoice kIntegrators[] = {
    {"BDF (variable step and order, SUNDIALS)", IntegratorKind::Bdf},
    {"IDA (BDF on the residual form, SUNDIALS; no closed chains)", IntegratorKind::Ida},
    {"Implicit Euler (fixed step)", IntegratorKind::ImplicitEuler},
    {"Newmark-beta (fixed step)", IntegratorKind::Newmark},
    {"Runge-Kutta 4 (explicit, fixed step)", IntegratorKind::Rk4},
};

}  // namespace

SimulationDialog::SimulationDialog(const SimulationOptions& options, Analysis analysis,
                                   QWidget* parent)
    : QDialog(parent), initial_(options) {
  setWindowTitle(tr("Simulation Settings"));
  auto* layout = new QVBoxLayout(this);
  form_ = new QFormLayout();
  layout->addLayout(form_);

  analysis_ = new QComboBox(this);
  analysis_->setObjectName("analysis");
  analysis_->addItem(tr("Dynamics from rest"), static_cast<int>(Analysis::Dynamics));
  analysis_->addItem(tr("Statics (equilibrium under the loads at t = 0)"),
                     static_cast<int>(Analysis::Statics));
  analysis_->setCurrentIndex(analysis_->findData(static_cast<int>(analysis)));
  form_->addRow(tr("Analysis:"), analysis_);
  duration_ = addNumber(tr("Duration:"), tr("s"), options.t_end - options.t_start, "duration");
  output_interval_ =
      addNumber(tr("Output interval:"), tr("s"), options.output_interval, "outputInterval");
  integrator_ = new QComboBox(this);
  integrator_->setObjectName("integrator");
  for (const IntegratorChoice& choice : kIntegrators) {
    integrator_->addItem(tr(choice.label), static_cast<int>(choice.kind));
  }
  integrator_->setCurrentIndex(integrator_->findData(static_cast<int>(options.integrator)));
  form_->addRow(tr("Integrator:"), integrator_);
  step_ = addNumber(tr("Step (BDF, IDA: maximum, 0 = none):"), tr("s"), options.step, "step");
  relative_tolerance_ =
      addNumber(tr("Relative tolerance:"), QString(), options.relative_tolerance, "rtol");
  absolute_tolerance_ =
      addNumber(tr("Absolute tolerance:"), QString(), options.absolute_tolerance, "atol");
  jacobian_ = new QComboBox(this);
  jacobian_->setObjectName("jacobian");
  jacobian_->addItem(tr("Analytical derivatives"), static_cast<int>(JacobianKind::Analytic));
  jacobian_->addItem(tr("Finite differences (central)"),
                     static_cast<int>(JacobianKind::FiniteDifference));
  jacobian_->setCurrentIndex(jacobian_->findData(static_cast<int>(options.jacobian)));
  jacobian_->setToolTip(tr("Where the implicit integrators get dFD/dq and dFD/dv"));
  form_->addRow(tr("Jacobian:"), jacobian_);

  problem_ = addProblemLabel(this, layout);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &SimulationDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &SimulationDialog::reject);
  connect(integrator_, &QComboBox::currentIndexChanged, this, &SimulationDialog::validate);
  // the time-stepping fields mean nothing to statics
  auto enable_dynamics = [this] {
    const bool dynamics = this->analysis() == Analysis::Dynamics;
    for (QWidget* field :
         {static_cast<QWidget*>(duration_), static_cast<QWidget*>(output_interval_),
          static_cast<QWidget*>(integrator_), static_cast<QWidget*>(step_)}) {
      field->setEnabled(dynamics);
    }
  };
  connect(analysis_, &QComboBox::currentIndexChanged, this, enable_dynamics);
  enable_dynamics();
  validate();
}

QLineEdit* SimulationDialog::addNumber(const QString& label, const QString& unit, double value,
                                       const QString& object_name) {
  QLineEdit* field = addNumberRow(this, form_, label, unit, value, object_name);
  connect(field, &QLineEdit::textChanged, this, &SimulationDialog::validate);
  return field;
}

QString SimulationDialog::problem() const {
  const auto duration = numberIn(duration_);
  const auto interval = numberIn(output_interval_);
  const auto step = numberIn(step_);
  const auto rtol = numberIn(relative_tolerance_);
  const auto atol = numberIn(absolute_tolerance_);
  if (!duration || *duration <= 0.0)
    return tr("The duration must be a positive number of seconds.");
  if (!interval || *interval <= 0.0) return tr("The output interval must be positive.");
  if (*interval > *duration) return tr("The output interval must not exceed the duration.");
  const bool variable =
      variableStep(static_cast<IntegratorKind>(integrator_->currentData().toInt()));
  if (!step || *step < 0.0 || (!variable && *step == 0.0)) {
    return variable ? tr("The maximum step must be zero (none) or positive.")
                    : tr("The step of a fixed-step integrator must be positive.");
  }
  if (!rtol || *rtol <= 0.0 || *rtol >= 1.0)
    return tr("The relative tolerance must lie in (0, 1).");
  if (!atol || *atol <= 0.0) return tr("The absolute tolerance must be positive.");
  return {};
}

void SimulationDialog::validate() {
  const QString reason = problem();
  problem_->setText(reason);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(reason.isEmpty());
}

Analysis SimulationDialog::analysis() const {
  return static_cast<Analysis>(analysis_->currentData().toInt());
}

SimulationOptions SimulationDialog::options() const {
  SimulationOptions options = initial_;
  if (!problem().isEmpty()) {
    return options;
  }
  options.t_end = options.t_start + *numberIn(duration_);
  options.output_interval = *numberIn(output_interval_);
  options.integrator = static_cast<IntegratorKind>(integrator_->currentData().toInt());
  options.step = *numberIn(step_);
  options.relative_tolerance = *numberIn(relative_tolerance_);
  options.absolute_tolerance = *numberIn(absolute_tolerance_);
  options.jacobian = static_cast<JacobianKind>(jacobian_->currentData().toInt());
  return options;
}

void SimulationDialog::accept() {
  if (problem().isEmpty()) {
    QDialog::accept();
  }
}

}  // namespace tendril
