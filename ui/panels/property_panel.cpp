#include "ui/panels/property_panel.hpp"

#include <QAction>
#include <QComboBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/edit/description_edit.hpp"
#include "ui/panels/field_help.hpp"

namespace tendril {
namespace {

using Json = nlohmann::json;

constexpr int kPointerRole = Qt::UserRole + 1;
constexpr int kChoicesRole = Qt::UserRole + 2;
constexpr int kTablePointsRole = Qt::UserRole + 3;  // a table's ".../points", on it and its points
constexpr int kTablePointRole = Qt::UserRole + 4;   // the point's index (-1: the whole table)
constexpr int kTableSizeRole = Qt::UserRole + 5;    // how many points the table has
constexpr int kKeyRole = Qt::UserRole + 6;          // the field's JSON key
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

// a strain's polynomial order: -1 switches the strain off, and says so
bool isStrainOrder(const std::string& pointer) {
  return pointer.find("/basis/order/") != std::string::npos;
}

// what a row shows for a value: indices counted from 1, "off" for a strain that is off
QString shownText(const Json& value, const std::string& pointer) {
  if (value.is_number_integer()) {
    if (isStrainOrder(pointer) && value.get<long>() == -1) return QObject::tr("off");
    if (const int offset = shownIndexOffset(pointer); offset != 0) {
      return QString::number(value.get<long>() + offset);
    }
  }
  return QString::fromStdString(textFromValue(value));
}

// the text typed into a row, as the JSON form expects it
QString storedText(const QString& text, const std::string& pointer) {
  const QString trimmed = text.trimmed();
  if (isStrainOrder(pointer) && trimmed.compare(QObject::tr("off"), Qt::CaseInsensitive) == 0) {
    return QStringLiteral("-1");
  }
  bool integer = false;
  const long shown = trimmed.toLong(&integer);
  const int offset = shownIndexOffset(pointer);
  return integer && offset != 0 ? QString::number(shown - offset) : text;
}

// name, unit, the schema's explanation, then the JSON key and pointer
QString fieldToolTip(const Json& robot_json, const std::string& pointer, const QString& unit) {
  QString tip = QStringLiteral("<b>%1</b>").arg(fieldLabel(pointer).toHtmlEscaped());
  if (!unit.isEmpty()) tip += QStringLiteral(" [%1]").arg(unit.toHtmlEscaped());
  if (const QString text = fieldDescription(robot_json, pointer); !text.isEmpty()) {
    tip += QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
  }
  if (shownIndexOffset(pointer) != 0) {
    tip += QObject::tr("<p>Counted from 1 here; the JSON file counts from 0.</p>");
  }
  if (isStrainOrder(pointer)) {
    tip += QObject::tr("<p>Type <i>off</i> (or -1) to switch this strain off.</p>");
  }
  const std::size_t slash = pointer.rfind('/');
  return tip + QObject::tr("<p style='color:gray'>JSON key <code>%1</code> at <code>%2</code></p>")
                   .arg(QString::fromStdString(pointer.substr(slash + 1)).toHtmlEscaped(),
                        QString::fromStdString(pointer).toHtmlEscaped());
}

// the points of a time-function table: [[t0, v0], [t1, v1], ...]
bool isTablePoints(const Json& value, const std::string& pointer) {
  return pointer.size() > 7 && pointer.compare(pointer.size() - 7, 7, "/points") == 0 &&
         value.is_array() && !value.empty() &&
         std::all_of(value.begin(), value.end(), [](const Json& p) {
           return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
         });
}

void setLeaf(QTreeWidgetItem* item, const Json& value, const RobotDescription& robot,
             const std::string& pointer) {
  item->setText(kValueColumn, shownText(value, pointer));
  const QString unit = QString::fromStdString(fieldUnit(robot, pointer));
  item->setText(kUnitColumn, unit);
  item->setToolTip(kUnitColumn, unit);  // the column is narrow: long units are elided
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable);
}

void addRows(QTreeWidgetItem* parent, const Json& value, const RobotDescription& robot,
             const Json& robot_json, const std::string& pointer) {
  auto* item = new QTreeWidgetItem(parent, {fieldLabel(pointer)});
  item->setData(0, kPointerRole, QString::fromStdString(pointer));
  item->setData(0, kKeyRole, QString::fromStdString(pointer.substr(pointer.rfind('/') + 1)));
  item->setToolTip(
      0, fieldToolTip(robot_json, pointer, QString::fromStdString(fieldUnit(robot, pointer))));
  // a table's points: edited as a whole ("t0, v0; t1, v1; ...") or point by point below
  if (isTablePoints(value, pointer)) {
    setLeaf(item, value, robot, pointer);
    item->setData(0, kTablePointsRole, QString::fromStdString(pointer));
    item->setData(0, kTablePointRole, -1);
    item->setData(0, kTableSizeRole, static_cast<int>(value.size()));
    item->setToolTip(kValueColumn,
                     QObject::tr("Double-click to edit all points as \"t0, v0; t1, v1; ...\" "
                                 "(times increasing); right-click to add or remove a point"));
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string at = pointer + "/" + std::to_string(i);
      auto* point = new QTreeWidgetItem(item, {fieldLabel(at)});
      point->setData(0, kPointerRole, QString::fromStdString(at));
      setLeaf(point, value[i], robot, at);
      point->setData(0, kTablePointsRole, QString::fromStdString(pointer));
      point->setData(0, kTablePointRole, static_cast<int>(i));
      point->setData(0, kTableSizeRole, static_cast<int>(value.size()));
      point->setToolTip(0, fieldToolTip(robot_json, at, QString()));
      point->setToolTip(kValueColumn, QObject::tr("Double-click to edit \"t, value\"; "
                                                  "right-click to add or remove a point"));
    }
    return;
  }
  const bool numeric_list =
      value.is_array() && !value.empty() &&
      std::all_of(value.begin(), value.end(), [](const Json& v) { return v.is_number(); });
  if (value.is_object() || (value.is_array() && !numeric_list)) {
    item->setFlags(Qt::ItemIsEnabled);
    for (const auto& [key, child] : value.items()) {
      addRows(item, child, robot, robot_json, pointer + "/" + key);
    }
    return;
  }
  setLeaf(item, value, robot, pointer);
  QStringList choices;
  for (const std::string& choice : fieldChoices(pointer)) {
    choices << QString::fromStdString(choice);
  }
  item->setData(0, kChoicesRole, choices);
  item->setToolTip(kValueColumn, QObject::tr("Double-click to edit"));
}

// "/links/3" -> 3; anything else -> -1
int linkIndexOf(const QString& pointer) {
  static const QString kLinks = QStringLiteral("/links/");
  if (!pointer.startsWith(kLinks)) {
    return -1;
  }
  bool ok = false;
  const int index = pointer.mid(kLinks.size()).toInt(&ok);
  return ok ? index : -1;
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
  tree_->setIndentation(12);  // fields nest five deep (soft, divisions, material, ...)
  tree_->setUniformRowHeights(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                         QAbstractItemView::SelectedClicked);
  tree_->setItemDelegate(new ValueDelegate(tree_));
  // the three columns fit the panel: the value stretches, the property and unit columns are
  // sized by fitColumns (the user may drag them); long units are elided, whole in the tooltip
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->header()->setSectionResizeMode(kValueColumn, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(kUnitColumn, QHeaderView::Interactive);
  tree_->header()->setMinimumSectionSize(24);
  tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tree_->setTextElideMode(Qt::ElideRight);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(tree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& position) {
    QTreeWidgetItem* item = tree_->itemAt(position);
    if (item == nullptr) {
      return;
    }
    tree_->setCurrentItem(item);
    if (QMenu* menu = createContextMenu(item->data(0, kPointerRole).toString())) {
      menu->setAttribute(Qt::WA_DeleteOnClose);
      menu->popup(tree_->viewport()->mapToGlobal(position));
    }
  });
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
  robot_json_ = std::make_shared<const Json>(descriptionToJson(robot));
  const Json& json = *robot_json_;
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
    if (const int link = linkIndexOf(pointer);
        link >= 0 && link < static_cast<int>(robot.links.size())) {
      // a link says what kind of body it carries
      const LinkDesc& desc = robot.links[static_cast<std::size_t>(link)];
      title_->setText(tr("%1 (%2)").arg(QString::fromStdString(desc.name),
                                        QString::fromUtf8(bodyKindName(desc.kind()))));
    } else if (item.contains("name")) {
      title_->setText(QString::fromStdString(item["name"].get<std::string>()));
    } else if (pointer.startsWith("/environment/fluid/bodies/") && item.contains("link")) {
      title_->setText(
          tr("%1 in the fluid").arg(QString::fromStdString(item["link"].get<std::string>())));
    } else {
      title_->setText(pointer);
    }
    for (const auto& [key, value] : item.items()) {
      addRows(tree_->invisibleRootItem(), value, robot, json, pointer_.toStdString() + "/" + key);
    }
  } else {
    title_->setText(tr("Robot"));
    // the robot's own fields; its lists of links, cables, ... are items of the model tree
    for (const auto& [key, value] : json.items()) {
      if (key != "schema_version" &&
          !(value.is_array() && (value.empty() || value[0].is_object()))) {
        addRows(tree_->invisibleRootItem(), value, robot, json, "/" + key);
      }
    }
  }
  tree_->expandAll();
  fitColumns();
  tree_->verticalScrollBar()->setValue(scroll);
  tree_->horizontalScrollBar()->setValue(0);
  populating_ = false;
}

void PropertyPanel::showSelection(const RobotDescription& robot, int link_index) {
  const bool is_link = link_index >= 0 && link_index < static_cast<int>(robot.links.size());
  showSelection(robot, is_link ? QString("/links/%1").arg(link_index) : QString());
}

QTreeWidgetItem* PropertyPanel::itemNamed(const QString& name) const {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
    if ((*it)->data(0, kKeyRole).toString() == name || (*it)->text(0) == name) return *it;
  }
  return nullptr;
}

QString PropertyPanel::valueOf(const QString& name) const {
  const QTreeWidgetItem* item = itemNamed(name);
  return item == nullptr ? QString() : item->text(kValueColumn);
}

QString PropertyPanel::unitOf(const QString& name) const {
  const QTreeWidgetItem* item = itemNamed(name);
  return item == nullptr ? QString() : item->text(kUnitColumn);
}

QString PropertyPanel::pointerOf(const QTreeWidgetItem* item) {
  return item == nullptr ? QString() : item->data(0, kPointerRole).toString();
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

void PropertyPanel::fitColumns() {
  const int available = tree_->viewport()->width();
  const QFontMetrics metrics = tree_->fontMetrics();
  // a unit such as "kg/m^3" whole; longer lists of units are elided (tooltip)
  const int unit = std::clamp(metrics.horizontalAdvance(QStringLiteral("kg/m^3")) + 12, 56,
                              std::max(56, available / 4));
  // property names as wide as they need, but never more than 55 % of the panel
  tree_->resizeColumnToContents(0);
  const int property =
      std::clamp(tree_->header()->sectionSize(0), 60, std::max(60, available * 11 / 20));
  tree_->header()->resizeSection(kUnitColumn, unit);
  tree_->header()->resizeSection(0, property);
}

void PropertyPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitColumns();
}

QMenu* PropertyPanel::createContextMenu(const QString& pointer) {
  const QTreeWidgetItem* item = itemFor(pointer);
  if (item == nullptr) return nullptr;
  auto* menu = new QMenu(this);
  addTablePointActions(menu, item);
  addControlledKindActions(menu, pointer);
  if (menu->isEmpty()) {
    delete menu;
    return nullptr;
  }
  return menu;
}

// "Drive" on a controlled variable's rows: what it is, among the kinds a controller can drive
void PropertyPanel::addControlledKindActions(QMenu* menu, const QString& pointer) {
  static const QRegularExpression kVariable("^/controllers/(\\d+)/controlled/(\\d+)(/|$)");
  const QRegularExpressionMatch match = kVariable.match(pointer);
  if (!match.hasMatch() || robot_json_ == nullptr) return;
  const int controller = match.captured(1).toInt(), variable = match.captured(2).toInt();
  const Json::json_pointer at(
      QString("/controllers/%1/controlled/%2").arg(controller).arg(variable).toStdString());
  if (!robot_json_->contains(at)) return;
  const Json& current = (*robot_json_)[at];
  using Kind = ControlledVariableDesc::Kind;
  struct Choice {
    Kind kind;
    const char* key;
    const char* object_name;
    QString text;
  };
  const Choice choices[] = {
      {Kind::Coordinate, "coordinate", "driveCoordinate", tr("Joint &Coordinate")},
      {Kind::CableLength, "cable_length", "driveCableLength", tr("C&able Length")},
      {Kind::TendonLength, "tendon_length", "driveTendonLength", tr("LVP &Tendon Length")},
      {Kind::TipPosition, "tip_position", "driveTipPosition", tr("Link Tip &Position")},
  };
  QMenu* drive = menu->addMenu(tr("&Drive"));
  drive->setObjectName("driveMenu");
  drive->setToolTipsVisible(true);
  for (const Choice& choice : choices) {
    QAction* action = drive->addAction(choice.text);
    action->setObjectName(choice.object_name);
    action->setCheckable(true);
    // a joint coordinate may be given as {"link", "dof"}
    action->setChecked(current.contains(choice.key) ||
                       (choice.kind == Kind::Coordinate && current.contains("link")));
    const int kind = static_cast<int>(choice.kind);
    connect(action, &QAction::triggered, this, [this, controller, variable, kind] {
      emit controlledKindRequested(controller, variable, kind);
    });
  }
}

void PropertyPanel::addTablePointActions(QMenu* menu, const QTreeWidgetItem* item) {
  if (item->data(0, kTablePointsRole).toString().isEmpty()) return;
  const QString points = item->data(0, kTablePointsRole).toString();
  const int index = item->data(0, kTablePointRole).toInt();
  const int size = item->data(0, kTableSizeRole).toInt();
  QAction* add = menu->addAction(index < 0 ? tr("Add Point at the End") : tr("Add Point After"));
  add->setObjectName("addTablePoint");
  add->setToolTip(tr("Halfway to the next point, or one interval after the last"));
  const int after = index < 0 ? size - 1 : index;
  connect(add, &QAction::triggered, this,
          [this, points, after] { emit addTablePointRequested(points, after); });
  if (index >= 0) {
    QAction* remove = menu->addAction(tr("Remove Point %1").arg(index + 1));
    remove->setObjectName("removeTablePoint");
    remove->setEnabled(size > 2);  // a table keeps two points
    connect(remove, &QAction::triggered, this,
            [this, points, index] { emit removeTablePointRequested(points, index); });
  }
}

void PropertyPanel::showError(const QString& message) {
  QString pointer;
  error_->setText(humanMessage(message, robot_json_.get(), &pointer));
  error_->setToolTip(pointer.isEmpty() ? QString() : tr("JSON pointer: %1").arg(pointer));
  error_->setVisible(!message.isEmpty());
}

QString PropertyPanel::errorText() const {
  return error_->text();
}

void PropertyPanel::onItemChanged(QTreeWidgetItem* item, int column) {
  if (populating_ || column != kValueColumn) {
    return;
  }
  const QString pointer = item->data(0, kPointerRole).toString();
  emit editRequested(pointer, storedText(item->text(kValueColumn), pointer.toStdString()));
}

}  // namespace tendril
