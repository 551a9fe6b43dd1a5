#include "ui/panels/property_panel.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "core/model/description_edit.hpp"

namespace tendril {
namespace {

using Json = nlohmann::json;

constexpr int kPointerRole = Qt::UserRole + 1;
constexpr int kChoicesRole = Qt::UserRole + 2;
constexpr int kValueColumn = 1;
constexpr int kUnitColumn = 2;

// the only editable column is the value; enumerated fields get a list of their choices
class ValueDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override {
    if (index.column() != kValueColumn) {
      return nullptr;
    }
    const QStringList choices = index.siblingAtColumn(0).data(kChoicesRole).toStringList();
    if (choices.isEmpty()) {
      return QStyledItemDelegate::createEditor(parent, option, index);
    }
    auto* box = new QComboBox(parent);
    box->addItems(choices);
    return box;
  }

  void setEditorData(QWidget* editor, const QModelIndex& index) const override {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
      box->setCurrentText(index.data().toString());
      return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
  }

  void setModelData(QWidget* editor, QAbstractItemModel* model,
                    const QModelIndex& index) const override {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
      model->setData(index, box->currentText());
      return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
  }
};

QString labelFor(const QString& key, const Json& parent) {
  // array elements: "division 1" for /divisions/0, "1" for plain lists
  if (parent.is_array()) {
    return QString::number(key.toInt() + 1);
  }
  return key;
}

void addRows(QTreeWidgetItem* parent, const Json& value, const std::string& pointer,
             const QString& label) {
  auto* item = new QTreeWidgetItem(parent, {label});
  item->setData(0, kPointerRole, QString::fromStdString(pointer));
  const bool numeric_list =
      value.is_array() && !value.empty() &&
      std::all_of(value.begin(), value.end(), [](const Json& v) { return v.is_number(); });
  if (value.is_object() || (value.is_array() && !numeric_list)) {
    item->setFlags(Qt::ItemIsEnabled);
    for (const auto& [key, child] : value.items()) {
      addRows(item, child, pointer + "/" + key, labelFor(QString::fromStdString(key), value));
    }
    return;
  }
  item->setText(kValueColumn, QString::fromStdString(textFromValue(value)));
  item->setText(kUnitColumn, QString::fromStdString(fieldUnit(pointer)));
  QStringList choices;
  for (const std::string& choice : fieldChoices(pointer)) {
    choices << QString::fromStdString(choice);
  }
  item->setData(0, kChoicesRole, choices);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable);
  item->setToolTip(kValueColumn, QObject::tr("Double-click to edit"));
}

}  // namespace

PropertyPanel::PropertyPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  title_ = new QLabel(this);
  title_->setObjectName("propertyTitle");
  title_->setContentsMargins(4, 2, 4, 2);
  tree_ = new QTreeWidget(this);
  tree_->setObjectName("propertyTree");
  tree_->setHeaderLabels({tr("Property"), tr("Value"), tr("Unit")});
  tree_->setRootIsDecorated(true);
  tree_->setUniformRowHeights(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                         QAbstractItemView::SelectedClicked);
  tree_->setItemDelegate(new ValueDelegate(tree_));
  // long values are elided rather than pushing the unit out of sight
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(kValueColumn, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(kUnitColumn, QHeaderView::ResizeToContents);
  error_ = new QLabel(this);
  error_->setObjectName("propertyError");
  error_->setWordWrap(true);
  error_->setStyleSheet("QLabel { color: #b00020; padding: 4px; }");
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->hide();
  layout->addWidget(title_);
  layout->addWidget(tree_, 1);
  layout->addWidget(error_);
  connect(tree_, &QTreeWidget::itemChanged, this, &PropertyPanel::onItemChanged);
}

void PropertyPanel::showSelection(const RobotDescription& robot, const QString& pointer) {
  const Json json = descriptionToJson(robot);
  Json::json_pointer where;
  try {
    where = Json::json_pointer(pointer.toStdString());
  } catch (const Json::exception&) {
    where = Json::json_pointer();
  }
  const bool found = !pointer.isEmpty() && json.contains(where);
  // showing the same item again (after an edit) keeps the place in its list
  const int scroll =
      (found ? pointer : QString()) == pointer_ ? tree_->verticalScrollBar()->value() : 0;
  pointer_ = found ? pointer : QString();
  populating_ = true;
  tree_->clear();
  showError({});
  if (found) {
    const Json& item = json[where];
    title_->setText(item.contains("name") ? QString::fromStdString(item["name"].get<std::string>())
                                          : pointer);
    for (const auto& [key, value] : item.items()) {
      addRows(tree_->invisibleRootItem(), value, pointer_.toStdString() + "/" + key,
              QString::fromStdString(key));
    }
  } else {
    title_->setText(tr("Robot"));
    // the robot's own fields; its lists of links, cables, ... are items of the model tree
    for (const auto& [key, value] : json.items()) {
      if (key != "schema_version" &&
          !(value.is_array() && (value.empty() || value[0].is_object()))) {
        addRows(tree_->invisibleRootItem(), value, "/" + key, QString::fromStdString(key));
      }
    }
  }
  tree_->expandAll();
  tree_->verticalScrollBar()->setValue(scroll);
  tree_->horizontalScrollBar()->setValue(0);
  populating_ = false;
}

void PropertyPanel::showSelection(const RobotDescription& robot, int link_index) {
  const bool is_link = link_index >= 0 && link_index < static_cast<int>(robot.links.size());
  showSelection(robot, is_link ? QString("/links/%1").arg(link_index) : QString());
}

QString PropertyPanel::valueOf(const QString& name) const {
  const QList<QTreeWidgetItem*> found =
      tree_->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return found.isEmpty() ? QString() : found.front()->text(kValueColumn);
}

QString PropertyPanel::unitOf(const QString& name) const {
  const QList<QTreeWidgetItem*> found =
      tree_->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return found.isEmpty() ? QString() : found.front()->text(kUnitColumn);
}

QTreeWidgetItem* PropertyPanel::itemFor(const QString& pointer) const {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
    if ((*it)->data(0, kPointerRole).toString() == pointer) {
      return *it;
    }
  }
  return nullptr;
}

bool PropertyPanel::editField(const QString& pointer) {
  QTreeWidgetItem* item = itemFor(pointer);
  if (item == nullptr || !(item->flags() & Qt::ItemIsEditable)) {
    return false;
  }
  tree_->setCurrentItem(item, kValueColumn);
  tree_->editItem(item, kValueColumn);
  return true;
}

QTreeWidget* PropertyPanel::tree() const {
  return tree_;
}

QString PropertyPanel::shownPointer() const {
  return pointer_;
}

void PropertyPanel::showError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

QString PropertyPanel::errorText() const {
  return error_->text();
}

void PropertyPanel::onItemChanged(QTreeWidgetItem* item, int column) {
  if (populating_ || column != kValueColumn) {
    return;
  }
  emit editRequested(item->data(0, kPointerRole).toString(), item->text(kValueColumn));
}

}  // namespace tendril
