#include "ui/environment_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

#include "core/edit/description_edit.hpp"
#include "ui/number_fields.hpp"

namespace tendril {
namespace {

enum ObstacleColumn { kKind = 0, kPoint, kDirection, kRadius, kColumnCount };

std::optional<Vec3> vectorIn(const QString& text) {
  const QStringList parts = text.split(',');
  if (parts.size() != 3) {
    return std::nullopt;
  }
  Vec3 vector{};
  for (int i = 0; i < 3; ++i) {
    const auto value = numberIn(parts[i]);
    if (!value) {
      return std::nullopt;
    }
    vector[static_cast<std::size_t>(i)] = *value;
  }
  return vector;
}

QString textOf(const Vec3& vector) {
  return QString("%1, %2, %3")
      .arg(vector[0], 0, 'g', 6)
      .arg(vector[1], 0, 'g', 6)
      .arg(vector[2], 0, 'g', 6);
}

}  // namespace

EnvironmentDialog::EnvironmentDialog(const RobotDescription& robot, QWidget* parent)
    : QDialog(parent), robot_(robot) {
  setWindowTitle(tr("Environment"));
  auto* layout = new QVBoxLayout(this);
  const ContactDesc contact = robot.environment.contact.value_or(ContactDesc{});
  const FluidDesc fluid = robot.environment.fluid.value_or(FluidDesc{});

  // contact law and obstacles
  contact_ = new QGroupBox(tr("Contact (penalty force k delta^p against fixed obstacles)"), this);
  contact_->setObjectName("contactGroup");
  contact_->setCheckable(true);
  contact_->setChecked(robot.environment.contact.has_value());
  auto* contact_layout = new QVBoxLayout(contact_);
  auto* contact_form = new QFormLayout();
  contact_layout->addLayout(contact_form);
  stiffness_ =
      addNumber(contact_form, tr("Stiffness k:"), tr("N/m^p"), contact.stiffness, "stiffness");
  exponent_ = addNumber(contact_form, tr("Exponent p:"), QString(), contact.exponent, "exponent");
  damping_ = addNumber(contact_form, tr("Hunt-Crossley damping c:"), tr("s/m"), contact.damping,
                       "contactDamping");
  friction_ = addNumber(contact_form, tr("Friction coefficient mu:"), QString(), contact.friction,
                        "friction");
  smoothing_ = addNumber(contact_form, tr("Smoothing width (0 = off):"), tr("m"), contact.smoothing,
                         "smoothing");
  slip_velocity_ = addNumber(contact_form, tr("Friction slip velocity:"), tr("m/s"),
                             contact.slip_velocity, "slipVelocity");
  rigid_bodies_ = new QCheckBox(tr("Rigid bodies take part (rod points always do)"), contact_);
  rigid_bodies_->setObjectName("rigidBodies");
  rigid_bodies_->setChecked(contact.rigid_bodies);
  contact_form->addRow(QString(), rigid_bodies_);
  obstacles_ = new QTableWidget(0, kColumnCount, contact_);
  obstacles_->setObjectName("obstacles");
  obstacles_->setHorizontalHeaderLabels(
      {tr("Obstacle"), tr("Point / centre [m]"), tr("Normal / axis"), tr("Radius [m]")});
  obstacles_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  obstacles_->verticalHeader()->hide();
  obstacles_->setMinimumHeight(140);
  obstacles_->setToolTip(
      tr("Planes: the robot stays on the normal's side. Spheres: solid, the robot stays outside. "
         "Cylinders: hollow and infinitely long, the robot stays inside."));
  for (const ContactPlaneDesc& plane : contact.planes) {
    addObstacleRow("plane", plane.point, plane.normal, 0.0);
  }
  for (const ContactSphereDesc& sphere : contact.spheres) {
    addObstacleRow("sphere", sphere.centre, {0.0, 0.0, 0.0}, sphere.radius);
  }
  for (const ContactCylinderDesc& cylinder : contact.cylinders) {
    addObstacleRow("cylinder", cylinder.point, cylinder.axis, cylinder.radius);
  }
  contact_layout->addWidget(obstacles_);
  auto* obstacle_buttons = new QHBoxLayout();
  for (const QString& kind :
       {QStringLiteral("plane"), QStringLiteral("sphere"), QStringLiteral("cylinder")}) {
    auto* add = new QPushButton(tr("Add %1").arg(kind), contact_);
    add->setObjectName(QString("add_%1").arg(kind));
    connect(add, &QPushButton::clicked, this, [this, kind] { addObstacle(kind); });
    obstacle_buttons->addWidget(add);
  }
  auto* remove = new QPushButton(tr("Remove"), contact_);
  remove->setObjectName("removeObstacle");
  connect(remove, &QPushButton::clicked, this, [this] {
    if (obstacles_->currentRow() >= 0) {
      obstacles_->removeRow(obstacles_->currentRow());
      validate();
    }
  });
  obstacle_buttons->addWidget(remove);
  contact_layout->addLayout(obstacle_buttons);
  layout->addWidget(contact_);

  // still fluid around the robot
  fluid_ = new QGroupBox(tr("Fluid (buoyancy, drag and added mass)"), this);
  fluid_->setObjectName("fluidGroup");
  fluid_->setCheckable(true);
  fluid_->setChecked(robot.environment.fluid.has_value());
  auto* fluid_form = new QFormLayout(fluid_);
  fluid_density_ =
      addNumber(fluid_form, tr("Density:"), tr("kg/m^3"), fluid.density, "fluidDensity");
  drag_normal_ = addNumber(fluid_form, tr("Rod drag coefficient C_n (transverse):"), QString(),
                           fluid.drag_normal, "dragNormal");
  drag_tangential_ = addNumber(fluid_form, tr("Rod drag coefficient C_t (axial):"), QString(),
                               fluid.drag_tangential, "dragTangential");
  added_mass_ = addNumber(fluid_form, tr("Rod added-mass coefficient C_a:"), QString(),
                          fluid.added_mass_coefficient, "addedMass");
  // rigid links with a volume, drag and added mass of their own
  fluid_bodies_ = fluid.bodies;
  auto* bodies_box = new QWidget(fluid_);
  auto* bodies_layout = new QVBoxLayout(bodies_box);
  bodies_layout->setContentsMargins(0, 0, 0, 0);
  auto* bodies_note = new QLabel(
      tr("Rigid links listed here have a volume, drag and added mass of their own (edit them in "
         "the Properties panel: select \"in fluid\" under the link). Others displace the volume "
         "of their shape, without drag or added mass."),
      bodies_box);
  bodies_note->setWordWrap(true);
  bodies_layout->addWidget(bodies_note);
  fluid_body_list_ = new QListWidget(bodies_box);
  fluid_body_list_->setObjectName("fluidBodies");
  fluid_body_list_->setMaximumHeight(90);
  bodies_layout->addWidget(fluid_body_list_);
  auto* body_buttons = new QHBoxLayout();
  fluid_body_choice_ = new QComboBox(bodies_box);
  fluid_body_choice_->setObjectName("fluidBodyChoice");
  fluid_body_choice_->setToolTip(tr("A rigid link not listed yet"));
  fluid_body_add_ = new QPushButton(tr("Add link"), bodies_box);
  fluid_body_add_->setObjectName("addFluidBody");
  QPushButton* add_body = fluid_body_add_;
  auto* remove_body = new QPushButton(tr("Remove link"), bodies_box);
  remove_body->setObjectName("removeFluidBody");
  body_buttons->addWidget(fluid_body_choice_, 1);
  body_buttons->addWidget(add_body);
  body_buttons->addWidget(remove_body);
  bodies_layout->addLayout(body_buttons);
  fluid_form->addRow(tr("Rigid links in the fluid:"), bodies_box);
  connect(add_body, &QPushButton::clicked, this,
          [this] { addFluidBody(fluid_body_choice_->currentText()); });
  connect(remove_body, &QPushButton::clicked, this, [this] {
    if (const QListWidgetItem* item = fluid_body_list_->currentItem()) {
      removeFluidBody(item->text());
    }
  });
  updateFluidBodies();
  layout->addWidget(fluid_);

  problem_ = addProblemLabel(this, layout);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &EnvironmentDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &EnvironmentDialog::reject);
  connect(contact_, &QGroupBox::toggled, this, &EnvironmentDialog::validate);
  connect(fluid_, &QGroupBox::toggled, this, &EnvironmentDialog::validate);
  connect(rigid_bodies_, &QCheckBox::toggled, this, &EnvironmentDialog::validate);
  connect(obstacles_, &QTableWidget::itemChanged, this, &EnvironmentDialog::validate);
  resize(600, 680);
  validate();
}

QLineEdit* EnvironmentDialog::addNumber(QFormLayout* form, const QString& label,
                                        const QString& unit, double value,
                                        const QString& object_name) {
  QLineEdit* field = addNumberRow(this, form, label, unit, value, object_name);
  connect(field, &QLineEdit::textChanged, this, &EnvironmentDialog::validate);
  return field;
}

void EnvironmentDialog::addObstacleRow(const QString& kind, const Vec3& point,
                                       const Vec3& direction, double radius) {
  const QSignalBlocker blocker(obstacles_);
  const int row = obstacles_->rowCount();
  obstacles_->insertRow(row);
  auto* kind_item = new QTableWidgetItem(kind);
  kind_item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  obstacles_->setItem(row, kKind, kind_item);
  obstacles_->setItem(row, kPoint, new QTableWidgetItem(textOf(point)));
  auto* direction_item = new QTableWidgetItem(kind == "sphere" ? QString() : textOf(direction));
  auto* radius_item = new QTableWidgetItem(kind == "plane" ? QString() : QString::number(radius));
  // a sphere has no direction, a plane no radius
  if (kind == "sphere") direction_item->setFlags(Qt::ItemIsEnabled);
  if (kind == "plane") radius_item->setFlags(Qt::ItemIsEnabled);
  obstacles_->setItem(row, kDirection, direction_item);
  obstacles_->setItem(row, kRadius, radius_item);
}

void EnvironmentDialog::updateFluidBodies() {
  fluid_body_list_->clear();
  for (const FluidBodyDesc& body : fluid_bodies_) {
    fluid_body_list_->addItem(QString::fromStdString(body.link));
  }
  fluid_body_choice_->clear();
  for (const LinkDesc& link : robot_.links) {
    const bool listed =
        std::any_of(fluid_bodies_.begin(), fluid_bodies_.end(),
                    [&link](const FluidBodyDesc& body) { return body.link == link.name; });
    if (link.kind() == BodyKind::Rigid && !listed) {
      fluid_body_choice_->addItem(QString::fromStdString(link.name));
    }
  }
  fluid_body_add_->setEnabled(fluid_body_choice_->count() > 0);
}

bool EnvironmentDialog::addFluidBody(const QString& link) {
  // the same entry as Model > Add Link to Fluid: the volume of its shape, no drag, no added mass
  RobotDescription robot = robot_;
  robot.environment.fluid = robot_.environment.fluid.value_or(FluidDesc{});
  robot.environment.fluid->bodies = fluid_bodies_;
  try {
    const int index = tendril::addFluidBody(robot, link.toStdString());
    fluid_bodies_.push_back(robot.environment.fluid->bodies[static_cast<std::size_t>(index)]);
  } catch (const std::exception& error) {
    problem_->setText(QString::fromStdString(error.what()));
    return false;
  }
  fluid_->setChecked(true);
  updateFluidBodies();
  fluid_body_list_->setCurrentRow(fluid_body_list_->count() - 1);
  validate();
  return true;
}

bool EnvironmentDialog::removeFluidBody(const QString& link) {
  const auto found =
      std::find_if(fluid_bodies_.begin(), fluid_bodies_.end(),
                   [&link](const FluidBodyDesc& body) { return body.link == link.toStdString(); });
  if (found == fluid_bodies_.end()) {
    return false;
  }
  fluid_bodies_.erase(found);
  updateFluidBodies();
  validate();
  return true;
}

void EnvironmentDialog::addObstacle(const QString& kind) {
  if (kind == "plane") {
    addObstacleRow(kind, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, 0.0);
  } else if (kind == "sphere") {
    addObstacleRow(kind, {0.3, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.1);
  } else if (kind == "cylinder") {
    addObstacleRow(kind, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, 0.15);
  } else {
    return;
  }
  contact_->setChecked(true);
  obstacles_->setCurrentCell(obstacles_->rowCount() - 1, kPoint);
  validate();
}

EnvironmentDesc EnvironmentDialog::read(QString& reason) const {
  EnvironmentDesc environment;
  reason.clear();
  auto require = [&reason](const QLineEdit* field, const QString& what,
                           double minimum) -> std::optional<double> {
    const auto value = numberIn(field);
    if (!value || *value < minimum) {
      if (reason.isEmpty()) reason = what;
      return std::nullopt;
    }
    return value;
  };
  if (contact_->isChecked()) {
    ContactDesc contact;
    const auto k = require(stiffness_, tr("The contact stiffness must be a positive number."), 0);
    const auto p = require(exponent_, tr("The contact exponent must be at least 1."), 1.0);
    const auto c = require(damping_, tr("The contact damping must not be negative."), 0);
    const auto mu = require(friction_, tr("The friction coefficient must not be negative."), 0);
    const auto w = require(smoothing_, tr("The smoothing width must not be negative."), 0);
    const auto slip = require(slip_velocity_, tr("The slip velocity must be positive."), 0);
    if (!reason.isEmpty()) return robot_.environment;
    if (*k <= 0.0) reason = tr("The contact stiffness must be a positive number.");
    if (*slip <= 0.0) reason = tr("The slip velocity must be positive.");
    if (!reason.isEmpty()) return robot_.environment;
    contact.stiffness = *k;
    contact.exponent = *p;
    contact.damping = *c;
    contact.friction = *mu;
    contact.smoothing = *w;
    contact.slip_velocity = *slip;
    contact.rigid_bodies = rigid_bodies_->isChecked();
    for (int row = 0; row < obstacles_->rowCount(); ++row) {
      const QString kind = obstacles_->item(row, kKind)->text();
      const auto point = vectorIn(obstacles_->item(row, kPoint)->text());
      const auto direction = vectorIn(obstacles_->item(row, kDirection)->text());
      const auto radius = numberIn(obstacles_->item(row, kRadius)->text());
      const QString where = tr("Obstacle %1 (%2): ").arg(row + 1).arg(kind);
      if (!point) {
        reason = where + tr("the point needs three numbers \"x, y, z\".");
        return robot_.environment;
      }
      if (kind != "sphere" &&
          (!direction || std::hypot((*direction)[0], (*direction)[1], (*direction)[2]) <= 0.0)) {
        reason = where + tr("the direction needs three numbers \"x, y, z\", not all zero.");
        return robot_.environment;
      }
      if (kind != "plane" && (!radius || *radius <= 0.0)) {
        reason = where + tr("the radius must be positive.");
        return robot_.environment;
      }
      if (kind == "plane") {
        contact.planes.push_back({*point, *direction});
      } else if (kind == "sphere") {
        contact.spheres.push_back({*point, *radius});
      } else {
        contact.cylinders.push_back({*point, *direction, *radius});
      }
    }
    environment.contact = contact;
  }
  if (fluid_->isChecked()) {
    FluidDesc fluid = robot_.environment.fluid.value_or(FluidDesc{});
    const auto rho = require(fluid_density_, tr("The fluid density must be positive."), 0);
    const auto cn = require(drag_normal_, tr("The drag coefficients must not be negative."), 0);
    const auto ct = require(drag_tangential_, tr("The drag coefficients must not be negative."), 0);
    const auto ca = require(added_mass_, tr("The added-mass coefficient must not be negative."), 0);
    if (!reason.isEmpty()) return robot_.environment;
    if (*rho <= 0.0) {
      reason = tr("The fluid density must be positive.");
      return robot_.environment;
    }
    fluid.density = *rho;
    fluid.drag_normal = *cn;
    fluid.drag_tangential = *ct;
    fluid.added_mass_coefficient = *ca;
    fluid.bodies = fluid_bodies_;
    environment.fluid = fluid;
  }
  return environment;
}

QString EnvironmentDialog::problem() const {
  QString reason;
  const EnvironmentDesc environment = read(reason);
  if (!reason.isEmpty()) {
    return reason;
  }
  // the engine has the last word (normalisation, ranges it checks itself)
  RobotDescription robot = robot_;
  robot.environment = environment;
  try {
    if (!robot.links.empty()) {
      checkDescription(robot);
    }
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

EnvironmentDesc EnvironmentDialog::environment() const {
  QString reason;
  const EnvironmentDesc environment = read(reason);
  return reason.isEmpty() ? environment : robot_.environment;
}

void EnvironmentDialog::validate() {
  const QString reason = problem();
  problem_->setText(reason);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(reason.isEmpty());
}

void EnvironmentDialog::accept() {
  if (problem().isEmpty()) {
    QDialog::accept();
  }
}

}  // namespace tendril
