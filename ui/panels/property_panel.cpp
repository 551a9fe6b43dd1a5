#include "ui/panels/property_panel.hpp"

#include <QHeaderView>

namespace tendril {
namespace {

QString number(double value) {
  return QString::number(value, 'g', 6);
}

QString vector(const Vec3& v) {
  return QString("%1, %2, %3").arg(number(v[0]), number(v[1]), number(v[2]));
}

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& name, const QString& value = {}) {
  return new QTreeWidgetItem(parent, {name, value});
}

QString shapeName(ShapeType type) {
  switch (type) {
    case ShapeType::Box:
      return "box";
    case ShapeType::Cylinder:
      return "cylinder";
    case ShapeType::Sphere:
      return "sphere";
  }
  return "?";
}

void addRigidRows(QTreeWidgetItem* root, const RigidBodyDesc& body) {
  QTreeWidgetItem* group = addRow(root, "rigid body");
  addRow(group, "mass [kg]", number(body.mass));
  addRow(group, "com [m]", vector(body.com));
  addRow(group, "tip position [m]", vector(body.tip.position));
  addRow(group, "shape", shapeName(body.shape.type));
  addRow(group, "shape size [m]", vector(body.shape.size));
  addRow(group, "colour", vector(body.shape.color));
}

void addSoftRows(QTreeWidgetItem* root, const SoftBodyDesc& soft) {
  QTreeWidgetItem* group = addRow(root, "soft body");
  addRow(group, "divisions", QString::number(soft.divisions.size()));
  for (std::size_t i = 0; i < soft.divisions.size(); ++i) {
    const DivisionDesc& division = soft.divisions[i];
    QTreeWidgetItem* row = addRow(group, QString("division %1").arg(i + 1));
    addRow(row, "length [m]", number(division.length));
    addRow(row, "radius start/end [m]",
           number(division.section.radius_start) + " / " + number(division.section.radius_end));
    addRow(row, "Young's modulus [Pa]", number(division.material.youngs_modulus));
    addRow(row, "density [kg/m^3]", number(division.material.density));
  }
}

void addLinkRows(QTreeWidgetItem* root, const LinkDesc& link) {
  addRow(root, "name", QString::fromStdString(link.name));
  addRow(root, "parent", QString::fromStdString(link.parent));
  addRow(root, "origin position [m]", vector(link.origin.position));
  addRow(root, "origin rpy [rad]", vector(link.origin.rpy));
  addRow(root, "joint axis", vector(link.joint.axis));
  if (link.kind == BodyKind::Rigid) {
    addRigidRows(root, link.rigid);
  } else {
    addSoftRows(root, link.soft);
  }
}

void addRobotRows(QTreeWidgetItem* root, const RobotDescription& robot) {
  addRow(root, "name", QString::fromStdString(robot.name));
  addRow(root, "gravity [m/s^2]", vector(robot.gravity));
  addRow(root, "links", QString::number(robot.links.size()));
}

}  // namespace

PropertyPanel::PropertyPanel(QWidget* parent) : QTreeWidget(parent) {
  setHeaderLabels({tr("Property"), tr("Value")});
  setRootIsDecorated(true);
  setUniformRowHeights(true);
  setSelectionMode(QAbstractItemView::NoSelection);
  header()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void PropertyPanel::showSelection(const RobotDescription& robot, int link_index) {
  clear();
  QTreeWidgetItem* root = invisibleRootItem();
  const bool is_link = link_index >= 0 && link_index < static_cast<int>(robot.links.size());
  if (is_link) {
    addLinkRows(root, robot.links[static_cast<std::size_t>(link_index)]);
  } else {
    addRobotRows(root, robot);
  }
  expandAll();
}

QString PropertyPanel::valueOf(const QString& name) const {
  const QList<QTreeWidgetItem*> found = findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return found.isEmpty() ? QString() : found.front()->text(1);
}

}  // namespace tendril
