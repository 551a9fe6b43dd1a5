#include "ui/panels/model_tree_panel.hpp"

#include <QHeaderView>
#include <map>
#include <vector>

namespace tendril {
namespace {

constexpr int kLinkIndexRole = Qt::UserRole + 1;
constexpr int kNotALink = -1;

QString jointName(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return "fixed";
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Helical:
      return "helical";
    case JointType::Cylindrical:
      return "cylindrical";
    case JointType::Universal:
      return "universal";
    case JointType::Planar:
      return "planar";
    case JointType::Spherical:
      return "spherical";
    case JointType::Free:
      return "free";
  }
  return "?";
}

QTreeWidgetItem* makeLinkItem(const LinkDesc& link, int index) {
  auto* item = new QTreeWidgetItem({QString::fromStdString(link.name),
                                    link.kind == BodyKind::Soft ? "soft" : "rigid",
                                    jointName(link.joint.type)});
  item->setData(0, kLinkIndexRole, index);
  item->setToolTip(0, QString("parent: %1").arg(QString::fromStdString(link.parent)));
  return item;
}

bool isAncestorOrSelf(const QTreeWidgetItem* candidate, const QTreeWidgetItem* item) {
  for (; item != nullptr; item = item->parent()) {
    if (item == candidate) {
      return true;
    }
  }
  return false;
}

}  // namespace

ModelTreePanel::ModelTreePanel(QWidget* parent) : QTreeWidget(parent) {
  setHeaderLabels({tr("Link"), tr("Body"), tr("Joint")});
  setSelectionMode(QAbstractItemView::SingleSelection);
  setUniformRowHeights(true);
  header()->setSectionResizeMode(0, QHeaderView::Stretch);
  header()->setStretchLastSection(false);
  connect(this, &QTreeWidget::itemSelectionChanged, this, &ModelTreePanel::onSelectionChanged);
}

void ModelTreePanel::setRobot(const RobotDescription& robot) {
  clear();
  auto* root = new QTreeWidgetItem({QString::fromStdString(robot.name), tr("robot"), QString()});
  root->setData(0, kLinkIndexRole, kNotALink);
  addTopLevelItem(root);

  // parents are named, in any order: create every item, then attach each under its parent
  std::vector<QTreeWidgetItem*> items;
  std::map<std::string, QTreeWidgetItem*> by_name;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    items.push_back(makeLinkItem(robot.links[i], static_cast<int>(i)));
    by_name.emplace(robot.links[i].name, items.back());
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto parent = by_name.find(robot.links[i].parent);
    QTreeWidgetItem* parent_item = parent == by_name.end() ? root : parent->second;
    // an unknown parent or a cycle (invalid, but still worth showing) hangs off the root
    if (isAncestorOrSelf(items[i], parent_item)) {
      parent_item = root;
    }
    parent_item->addChild(items[i]);
  }
  expandAll();
  for (int column = 1; column < columnCount(); ++column) {
    resizeColumnToContents(column);
  }
}

int ModelTreePanel::selectedLink() const {
  const QList<QTreeWidgetItem*> selected = selectedItems();
  return selected.isEmpty() ? kNotALink : selected.front()->data(0, kLinkIndexRole).toInt();
}

int ModelTreePanel::linkItemCount() const {
  int count = 0;
  for (QTreeWidgetItemIterator it(const_cast<ModelTreePanel*>(this)); *it; ++it) {
    count += (*it)->data(0, kLinkIndexRole).toInt() != kNotALink ? 1 : 0;
  }
  return count;
}

void ModelTreePanel::onSelectionChanged() {
  emit linkSelected(selectedLink());
}

}  // namespace tendril
