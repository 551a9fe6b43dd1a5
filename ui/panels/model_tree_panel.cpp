#include "ui/panels/model_tree_panel.hpp"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>
#include <map>
#include <vector>

namespace tendril {
namespace {

constexpr int kPointerRole = Qt::UserRole + 1;
constexpr int kLinkIndexRole = Qt::UserRole + 2;
constexpr int kNotALink = -1;

// a controller's window in the tree's third column: "0–3 s, then hold", "from 3 s"; empty
// when it acts for the whole run
QString activeWindowText(const ControllerDesc& controller) {
  if (!controller.active) return {};
  const ControllerWindowDesc& window = *controller.active;
  const QString span = window.until ? QObject::tr("%1–%2 s").arg(window.from).arg(*window.until)
                                    : QObject::tr("from %1 s").arg(window.from);
  return window.after == ControllerWindowDesc::After::Hold ? QObject::tr("%1, then hold").arg(span)
                                                           : span;
}

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

QTreeWidgetItem* makeItem(const QStringList& columns, const QString& pointer, int link) {
  auto* item = new QTreeWidgetItem(columns);
  item->setData(0, kPointerRole, pointer);
  item->setData(0, kLinkIndexRole, link);
  // only links move, and only links (or the robot) take a dropped link
  Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (link != kNotALink) {
    flags |= Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
  }
  item->setFlags(flags);
  return item;
}

QTreeWidgetItem* makeLinkItem(const LinkDesc& link, int index) {
  QTreeWidgetItem* item =
      makeItem({QString::fromStdString(link.name), QString::fromUtf8(bodyKindName(link.kind())),
                jointName(link.joint.type)},
               QString("/links/%1").arg(index), index);
  item->setToolTip(0, QString("parent: %1").arg(QString::fromStdString(link.parent)));
  item->setToolTip(1, item->text(1));
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
  setHeaderLabels({tr("Item"), tr("Kind"), tr("Joint")});
  setSelectionMode(QAbstractItemView::SingleSelection);
  setUniformRowHeights(true);
  setDragDropMode(QAbstractItemView::InternalMove);
  setDefaultDropAction(Qt::MoveAction);
  setContextMenuPolicy(Qt::CustomContextMenu);
  header()->setSectionResizeMode(0, QHeaderView::Stretch);
  header()->setStretchLastSection(false);
  connect(this, &QTreeWidget::itemSelectionChanged, this, &ModelTreePanel::onSelectionChanged);
  connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& position) {
    if (QTreeWidgetItem* item = itemAt(position)) {
      setCurrentItem(item);
    }
    emit contextMenuRequested(viewport()->mapToGlobal(position));
  });
}

void ModelTreePanel::setRobot(const RobotDescription& robot) {
  const QString selected = selectedPointer();
  const QSignalBlocker blocker(this);
  clear();
  QTreeWidgetItem* root =
      makeItem({QString::fromStdString(robot.name), tr("robot"), QString()}, QString(), kNotALink);
  root->setFlags(root->flags() | Qt::ItemIsDropEnabled);
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
  auto owner = [&](const std::string& link) {
    const auto found = by_name.find(link);
    return found == by_name.end() ? root : found->second;
  };
  for (std::size_t i = 0; i < robot.cables.size(); ++i) {
    owner(robot.cables[i].link)
        ->addChild(makeItem({QString::fromStdString(robot.cables[i].name), tr("cable"), QString()},
                            QString("/cables/%1").arg(i), kNotALink));
  }
  // an LVP tendon under the body of its first anchor, where it starts
  for (std::size_t i = 0; i < robot.lvp_tendons.size(); ++i) {
    const LvpTendonDesc& tendon = robot.lvp_tendons[i];
    owner(tendon.anchors.empty() ? std::string() : tendon.anchors.front().link)
        ->addChild(makeItem({QString::fromStdString(tendon.name), tr("tendon"), QString()},
                            QString("/lvp_tendons/%1").arg(i), kNotALink));
  }
  for (std::size_t i = 0; i < robot.cavity_pressures.size(); ++i) {
    const CavityPressureDesc& pressure = robot.cavity_pressures[i];
    owner(pressure.link)
        ->addChild(makeItem({QString::fromStdString(pressure.name), tr("pressure"), QString()},
                            QString("/cavity_pressures/%1").arg(i), kNotALink));
  }
  for (std::size_t i = 0; i < robot.point_loads.size(); ++i) {
    owner(robot.point_loads[i].link)
        ->addChild(
            makeItem({QString::fromStdString(robot.point_loads[i].name), tr("load"), QString()},
                     QString("/point_loads/%1").arg(i), kNotALink));
  }
  for (std::size_t i = 0; i < robot.joint_inputs.size(); ++i) {
    const JointInputDesc& input = robot.joint_inputs[i];
    owner(input.link)
        ->addChild(makeItem(
            {input.name.empty()
                 ? QString("%1 input %2").arg(QString::fromStdString(input.link)).arg(input.dof)
                 : QString::fromStdString(input.name),
             input.mode == JointInputDesc::Mode::Position ? tr("position") : tr("input"),
             QString()},
            QString("/joint_inputs/%1").arg(i), kNotALink));
  }
  for (std::size_t i = 0; i < robot.closed_chains.size(); ++i) {
    const ClosedChainDesc& chain = robot.closed_chains[i];
    QTreeWidgetItem* item =
        makeItem({QString::fromStdString(chain.name), tr("loop"), jointName(chain.joint.type)},
                 QString("/closed_chains/%1").arg(i), kNotALink);
    item->setToolTip(
        0, tr("closes a loop: %1 to %2")
               .arg(QString::fromStdString(chain.a.link), QString::fromStdString(chain.b.link)));
    owner(chain.a.link)->addChild(item);
  }
  // controllers belong to the whole robot: under the root
  for (std::size_t i = 0; i < robot.controllers.size(); ++i) {
    const ControllerDesc& controller = robot.controllers[i];
    QTreeWidgetItem* item = makeItem(
        {QString::fromStdString(controller.name), tr("controller"), activeWindowText(controller)},
        QString("/controllers/%1").arg(i), kNotALink);
    QStringList inputs;
    for (const ControllerInputDesc& input : controller.inputs)
      inputs << QString::fromStdString(input.name);
    item->setToolTip(0, tr("writes %1").arg(inputs.join(", ")));
    root->addChild(item);
  }
  // rigid links with a volume, drag and added mass of their own in the fluid
  if (robot.environment.fluid) {
    for (std::size_t i = 0; i < robot.environment.fluid->bodies.size(); ++i) {
      const std::string& link = robot.environment.fluid->bodies[i].link;
      QTreeWidgetItem* item = makeItem({tr("in fluid"), tr("fluid"), QString()},
                                       QString("/environment/fluid/bodies/%1").arg(i), kNotALink);
      item->setToolTip(
          0,
          tr("volume, drag and added mass of %1 in the fluid").arg(QString::fromStdString(link)));
      owner(link)->addChild(item);
    }
  }
  expandAll();
  fitColumns();
  widenToFitNames();
  if (QTreeWidgetItem* item = itemFor(selected)) {
    setCurrentItem(item);
  }
}

int ModelTreePanel::selectedLink() const {
  const QList<QTreeWidgetItem*> selected = selectedItems();
  return selected.isEmpty() ? kNotALink : selected.front()->data(0, kLinkIndexRole).toInt();
}

QString ModelTreePanel::selectedPointer() const {
  const QList<QTreeWidgetItem*> selected = selectedItems();
  return selected.isEmpty() ? QString() : selected.front()->data(0, kPointerRole).toString();
}

QTreeWidgetItem* ModelTreePanel::itemFor(const QString& pointer) const {
  for (QTreeWidgetItemIterator it(const_cast<ModelTreePanel*>(this)); *it; ++it) {
    if ((*it)->data(0, kPointerRole).toString() == pointer) {
      return *it;
    }
  }
  return nullptr;
}

void ModelTreePanel::selectPointer(const QString& pointer) {
  QTreeWidgetItem* item = itemFor(pointer);
  if (item == nullptr) {
    item = topLevelItem(0);
  }
  if (item != nullptr && !item->isSelected()) {
    setCurrentItem(item);
  }
}

int ModelTreePanel::linkItemCount() const {
  int count = 0;
  for (QTreeWidgetItemIterator it(const_cast<ModelTreePanel*>(this)); *it; ++it) {
    count += (*it)->data(0, kLinkIndexRole).toInt() != kNotALink ? 1 : 0;
  }
  return count;
}

QTreeWidgetItem* ModelTreePanel::dropTarget(const QPoint& position) const {
  QTreeWidgetItem* target = itemAt(position);
  if (target == nullptr) {
    return nullptr;
  }
  // near the top or bottom edge of a row: between rows, below that row's parent
  const QRect row = visualItemRect(target);
  const int edge = row.height() / 4;
  if ((position.y() < row.top() + edge || position.y() > row.bottom() - edge) &&
      target->parent() != nullptr) {
    target = target->parent();
  }
  while (target->parent() != nullptr && target->data(0, kLinkIndexRole).toInt() == kNotALink) {
    target = target->parent();  // a cable or load stands for its link
  }
  // never onto the dragged link itself or below one of its descendants
  const QList<QTreeWidgetItem*> selected = selectedItems();
  if (!selected.isEmpty() && isAncestorOrSelf(selected.front(), target)) {
    return nullptr;
  }
  return target;
}

void ModelTreePanel::dragEnterEvent(QDragEnterEvent* event) {
  if (selectedLink() == kNotALink) {
    event->ignore();
    return;
  }
  event->setDropAction(Qt::MoveAction);
  event->accept();
}

void ModelTreePanel::dragMoveEvent(QDragMoveEvent* event) {
  QTreeWidget::dragMoveEvent(event);  // drop indicator and auto-scroll
  if (selectedLink() != kNotALink && dropTarget(event->position().toPoint()) != nullptr) {
    event->setDropAction(Qt::MoveAction);
    event->accept();
  } else {
    event->ignore();
  }
}

// the description decides the structure: report the wish and leave the items where they are
void ModelTreePanel::dropEvent(QDropEvent* event) {
  const int dragged = selectedLink();
  QTreeWidgetItem* target = dropTarget(event->position().toPoint());
  event->setDropAction(Qt::IgnoreAction);
  event->accept();
  stopAutoScroll();
  setState(NoState);
  viewport()->update();
  if (dragged == kNotALink || target == nullptr) {
    return;
  }
  const int parent_link = target->data(0, kLinkIndexRole).toInt();
  emit reparentRequested(dragged,
                         parent_link == kNotALink ? QStringLiteral("world") : target->text(0));
}

int ModelTreePanel::namesWidth() const {
  int names = 0;
  for (QTreeWidgetItemIterator it(const_cast<ModelTreePanel*>(this)); *it; ++it) {
    int depth = 0;
    for (const QTreeWidgetItem* up = (*it)->parent(); up != nullptr; up = up->parent()) {
      ++depth;
    }
    if (depth > 0) {
      names = std::max(
          names, (depth + 1) * indentation() + fontMetrics().horizontalAdvance((*it)->text(0)) + 8);
    }
  }
  return names;
}

void ModelTreePanel::fitColumns() {
  for (int column = 1; column < columnCount(); ++column) {
    resizeColumnToContents(column);
  }
  // the names below the robot come first (the robot's own may be elided), then the joints; the
  // kinds take what is left, at least enough for "rigid body" and "GVS rod"
  constexpr int kMinimumKind = 72;
  const int room =
      std::max(viewport()->width() - namesWidth() - header()->sectionSize(2), kMinimumKind);
  if (header()->sectionSize(1) > room) {
    header()->resizeSection(1, room);
  }
}

void ModelTreePanel::widenToFitNames() {
  auto* dock = qobject_cast<QDockWidget*>(parentWidget());
  auto* window = dock == nullptr ? nullptr : qobject_cast<QMainWindow*>(dock->parentWidget());
  // before the window is shown its size means nothing: widen once it is (showEvent)
  if (window == nullptr || dock->isFloating() || !window->isVisible()) return;
  const int kinds = std::max(header()->sectionSize(1), 72);
  const int needed = namesWidth() + kinds + header()->sectionSize(2) +
                     (width() - viewport()->width()) + verticalScrollBar()->sizeHint().width();
  const int wanted = std::min(needed, window->width() * 2 / 5);
  if (dock->width() < wanted) window->resizeDocks({dock}, {wanted}, Qt::Horizontal);
}

void ModelTreePanel::showEvent(QShowEvent* event) {
  QTreeWidget::showEvent(event);
  // after the window's first layout, which sizes the docks
  QTimer::singleShot(0, this, [this] { widenToFitNames(); });
}

void ModelTreePanel::resizeEvent(QResizeEvent* event) {
  QTreeWidget::resizeEvent(event);
  fitColumns();
}

void ModelTreePanel::onSelectionChanged() {
  emit linkSelected(selectedLink());
  emit pointerSelected(selectedPointer());
}

}  // namespace tendril
