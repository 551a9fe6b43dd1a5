#include "ui/model_dialogs.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "core/model/validate.hpp"

namespace tendril {
namespace {

struct JointChoice {
  const char* label;
  JointType type;
};

// the types a closed-chain joint may have (ClosedChainDesc)
constexpr JointChoice kLoopJoints[] = {
    {"Revolute (about y)", JointType::Revolute},
    {"Spherical", JointType::Spherical},
    {"Universal", JointType::Universal},
    {"Prismatic (along y)", JointType::Prismatic},
    {"Planar", JointType::Planar},
    {"Fixed (weld)", JointType::Fixed},
};

constexpr JointChoice kLinkJoints[] = {
    {"Rigid link, revolute joint", JointType::Revolute},
    {"Rigid link, prismatic joint", JointType::Prismatic},
    {"Rigid link, spherical joint", JointType::Spherical},
    {"Rigid link, fixed", JointType::Fixed},
};

QDialogButtonBox* addButtons(QDialog* dialog, QVBoxLayout* layout) {
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
  layout->addWidget(buttons);
  QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
  return buttons;
}

}  // namespace

ClosedChainDialog::ClosedChainDialog(const RobotDescription& robot, const QString& link_a,
                                     QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Add Closed-Loop Joint"));
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout();
  layout->addLayout(form);
  link_a_ = new QComboBox(this);
  link_a_->setObjectName("linkA");
  link_b_ = new QComboBox(this);
  link_b_->setObjectName("linkB");
  link_b_->addItem(tr("world"), QStringLiteral("world"));
  for (const LinkDesc& link : robot.links) {
    const QString name = QString::fromStdString(link.name);
    link_a_->addItem(name, name);
    link_b_->addItem(name, name);
  }
  if (const int preselected = link_a_->findData(link_a); preselected >= 0) {
    link_a_->setCurrentIndex(preselected);
  }
  form->addRow(tr("Body A (its tip):"), link_a_);
  form->addRow(tr("Body B:"), link_b_);
  joint_ = new QComboBox(this);
  joint_->setObjectName("loopJoint");
  for (const JointChoice& choice : kLoopJoints) {
    joint_->addItem(tr(choice.label), static_cast<int>(choice.type));
  }
  form->addRow(tr("Joint:"), joint_);
  planar_ = new QCheckBox(tr("Planar loop (constrain only the in-plane directions)"), this);
  planar_->setObjectName("planarLoop");
  form->addRow(QString(), planar_);
  auto* note = new QLabel(
      tr("Frame B is placed where frame A is in the reference configuration, so the loop starts "
         "closed. Both frames can be moved later in the property panel."),
      this);
  note->setWordWrap(true);
  layout->addWidget(note);
  addButtons(this, layout);
}

QString ClosedChainDialog::linkA() const {
  return link_a_->currentData().toString();
}
QString ClosedChainDialog::linkB() const {
  return link_b_->currentData().toString();
}
JointType ClosedChainDialog::jointType() const {
  return static_cast<JointType>(joint_->currentData().toInt());
}
bool ClosedChainDialog::planar() const {
  return planar_->isChecked();
}

AttachAlongRodDialog::AttachAlongRodDialog(const LinkDesc& rod, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Add Link Along %1").arg(QString::fromStdString(rod.name)));
  const double length = centrelineLength(rod);
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout();
  layout->addLayout(form);
  abscissa_ = new QDoubleSpinBox(this);
  abscissa_->setObjectName("abscissa");
  abscissa_->setDecimals(4);
  abscissa_->setRange(1e-4, length);
  abscissa_->setSingleStep(length / 20.0);
  abscissa_->setSuffix(tr(" m"));
  abscissa_->setValue(0.5 * length);
  form->addRow(tr("Point along the rod (from its base, %1 m long):").arg(length), abscissa_);
  body_ = new QComboBox(this);
  body_->setObjectName("attachedBody");
  for (const JointChoice& choice : kLinkJoints) {
    body_->addItem(tr(choice.label), static_cast<int>(choice.type));
  }
  body_->addItem(tr("Soft rod"), -1);
  form->addRow(tr("Attach:"), body_);
  auto* note = new QLabel(
      tr("Before its tip the rod is split there into two rods, the second continuing the first: "
         "each gets its own strain modes. Cables cannot span the split."),
      this);
  note->setWordWrap(true);
  layout->addWidget(note);
  addButtons(this, layout);
}

double AttachAlongRodDialog::abscissa() const {
  return abscissa_->value();
}
bool AttachAlongRodDialog::soft() const {
  return body_->currentData().toInt() < 0;
}
JointType AttachAlongRodDialog::jointType() const {
  return soft() ? JointType::Fixed : static_cast<JointType>(body_->currentData().toInt());
}

}  // namespace tendril
