#include "ui/sweep_result_dialog.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/study/sweep_run.hpp"
#include "ui/panels/nice_ticks.hpp"

namespace tendril {
namespace {

constexpr double kAxisPadding = 0.05;  // of the data's span, so no point sits on a border
// the chart takes most of the width; the failed cases' messages wrap in the rest
constexpr int kChartWidth = 640;
constexpr int kFailedListWidth = 300;
// about this many tick intervals: labels such as "1.5e+06" fit a chart a few hundred pixels wide
constexpr int kXTicks = 5;
constexpr int kYTicks = 6;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// \brief Markers shrink as points crowd: 1000 cases at full size would be one blot.
double markerSize(int points) {
  return points <= 50 ? 10.0 : points <= 500 ? 7.0 : 5.0;
}

QString formatValue(double value) {
  return QString::number(value, 'g', 6);
}

}  // namespace

SweepResultDialog::SweepResultDialog(SweepResult result, const QString& csv_path, QWidget* parent)
    : QDialog(parent), result_(std::move(result)), csv_path_(csv_path) {
  setObjectName("sweepResultDialog");
  setWindowTitle(tr("Sweep Result - %1").arg(sweepName()));
  success_column_ = result_.table.column("success");
  message_column_ = result_.table.column("message");
  buildLayout();
  fillColumnCombos();
  fillFailedCases();
  replot();
  resize(960, 640);
}

QString SweepResultDialog::sweepName() const {
  return QFileInfo(csv_path_).fileName();
}

void SweepResultDialog::buildLayout() {
  partial_label_ = new QLabel(this);
  partial_label_->setObjectName("partialNote");
  partial_label_->setWordWrap(true);
  partial_label_->setStyleSheet(
      "QLabel { background: #fff3cd; color: #5c3c00; border: 2px solid #e0a800;"
      " padding: 6px; font-weight: bold; }");
  const std::string& note = result_.table.partial_note;
  partial_label_->setText(QString::fromStdString(note).remove(QRegularExpression("^#\\s*")));
  partial_label_->setVisible(!note.empty());

  summary_label_ = new QLabel(this);
  summary_label_->setObjectName("sweepSummary");
  summary_label_->setWordWrap(true);

  x_combo_ = new QComboBox(this);
  x_combo_->setObjectName("sweepXCombo");
  y_combo_ = new QComboBox(this);
  y_combo_->setObjectName("sweepYCombo");
  for (QComboBox* combo : {x_combo_, y_combo_}) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(combo, &QComboBox::currentIndexChanged, this, [this] { replot(); });
  }
  auto* axes_row = new QHBoxLayout;
  axes_row->addWidget(new QLabel(tr("x:"), this));
  axes_row->addWidget(x_combo_);
  axes_row->addSpacing(16);
  axes_row->addWidget(new QLabel(tr("y:"), this));
  axes_row->addWidget(y_combo_);
  axes_row->addStretch();

  auto* chart = new QChart();
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  scatter_ = new QScatterSeries(chart);
  scatter_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  chart->addSeries(scatter_);
  x_axis_ = new QValueAxis(chart);
  y_axis_ = new QValueAxis(chart);
  chart->addAxis(x_axis_, Qt::AlignBottom);
  chart->addAxis(y_axis_, Qt::AlignLeft);
  scatter_->attachAxis(x_axis_);
  scatter_->attachAxis(y_axis_);
  connect(scatter_, &QScatterSeries::hovered, this, &SweepResultDialog::onPointHovered);
  connect(scatter_, &QScatterSeries::clicked, this, &SweepResultDialog::onPointClicked);
  chart_view_ = new QChartView(chart, this);
  chart_view_->setObjectName("sweepChart");
  chart_view_->setRenderHint(QPainter::Antialiasing);
  chart_view_->setMinimumSize(360, 260);

  failed_table_ = new QTableWidget(0, 2, this);
  failed_table_->setObjectName("failedCases");
  failed_table_->setHorizontalHeaderLabels({tr("Case"), tr("Message")});
  failed_table_->verticalHeader()->hide();
  failed_table_->horizontalHeader()->setStretchLastSection(true);
  failed_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  failed_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  failed_table_->setWordWrap(true);
  // long messages wrap: their rows grow or shrink with the message column
  connect(failed_table_->horizontalHeader(), &QHeaderView::sectionResized, failed_table_,
          &QTableWidget::resizeRowsToContents);
  failed_table_->setToolTip(tr("Double-click a case to open its model"));
  connect(failed_table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    emit caseRequested(failed_table_->item(row, 0)->data(Qt::UserRole).toInt());
  });
  auto* failed_box = new QGroupBox(tr("Failed cases"), this);
  failed_box->setObjectName("failedCasesBox");
  auto* failed_layout = new QVBoxLayout(failed_box);
  failed_layout->addWidget(failed_table_);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(chart_view_);
  splitter->addWidget(failed_box);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 0);
  splitter->setSizes({kChartWidth, kFailedListWidth});

  auto* hint = new QLabel(tr("Hover a point for its case; click it to open the case's model."));
  hint->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(partial_label_);
  layout->addWidget(summary_label_);
  layout->addLayout(axes_row);
  layout->addWidget(splitter, 1);
  layout->addWidget(hint);
}

QString SweepResultDialog::columnName(int column) const {
  return QString::fromStdString(result_.table.columns.at(static_cast<std::size_t>(column)));
}

bool SweepResultDialog::isSuccess(std::size_t row) const {
  return result_.table.number(row, success_column_) == 1.0;
}

void SweepResultDialog::fillColumnCombos() {
  const SweepTable& table = result_.table;
  std::vector<std::string> parameters;
  for (const SweepParameter& parameter : result_.spec.parameters)
    parameters.push_back(parameter.name);
  const std::vector<std::string> outputs = sweepOutputColumns(result_.spec);
  const auto numeric = [&](int column) {
    for (std::size_t row = 0; row < table.cells.size(); ++row)
      if (std::isfinite(table.number(row, column))) return true;
    return false;
  };
  // x: the parameters first (what a sweep is plotted against), then every other numeric column;
  // y: the outputs first, then the other numeric columns except the parameters and the case
  std::vector<int> x_first, x_rest, y_first, y_rest;
  for (int column = 0; column < static_cast<int>(table.columns.size()); ++column) {
    if (column == success_column_ || column == message_column_ || !numeric(column)) continue;
    const std::string& name = table.columns[static_cast<std::size_t>(column)];
    const bool parameter = contains(parameters, name);
    (parameter ? x_first : x_rest).push_back(column);
    if (contains(outputs, name))
      y_first.push_back(column);
    else if (!parameter && column != 0)
      y_rest.push_back(column);
  }
  const QSignalBlocker block_x(x_combo_), block_y(y_combo_);
  const auto fill = [this](QComboBox* combo, const std::vector<int>& first,
                           const std::vector<int>& rest) {
    for (int column : first) combo->addItem(columnName(column), column);
    if (!first.empty() && !rest.empty()) combo->insertSeparator(combo->count());
    for (int column : rest) combo->addItem(columnName(column), column);
  };
  fill(x_combo_, x_first, x_rest);
  fill(y_combo_, y_first, y_rest);
}

void SweepResultDialog::fillFailedCases() {
  const SweepTable& table = result_.table;
  int failed = 0;
  for (std::size_t row = 0; row < table.cells.size(); ++row) {
    if (isSuccess(row)) continue;
    const int index = static_cast<int>(table.number(row, 0));
    auto* case_item = new QTableWidgetItem(QString::number(index));
    case_item->setData(Qt::UserRole, index);
    const QString message =
        message_column_ < 0
            ? QString()
            : QString::fromStdString(table.cells[row][static_cast<std::size_t>(message_column_)]);
    auto* message_item = new QTableWidgetItem(message);
    message_item->setToolTip(message);
    failed_table_->insertRow(failed);
    failed_table_->setItem(failed, 0, case_item);
    failed_table_->setItem(failed, 1, message_item);
    ++failed;
  }
  failed_table_->resizeColumnToContents(0);
  failed_table_->resizeRowsToContents();
  if (auto* box = findChild<QGroupBox*>("failedCasesBox"))
    box->setTitle(tr("Failed cases: %1").arg(failed));

  const int rows = static_cast<int>(table.cells.size());
  const int total = result_.spec.caseCount();
  const QString counts = tr("%1 succeeded, %2 failed").arg(rows - failed).arg(failed);
  const QString description =
      result_.spec.job.kind == SweepJob::Kind::Statics ? tr("statics") : tr("a simulation");
  summary_label_->setText(
      rows == total
          ? tr("%1: %2 cases (%3), %4 of each.").arg(sweepName()).arg(rows).arg(counts, description)
          : tr("%1: %2 of the sweep's %3 cases (%4), %5 of each.")
                .arg(sweepName())
                .arg(rows)
                .arg(total)
                .arg(counts, description));
}

void SweepResultDialog::replot() {
  point_rows_.clear();
  QList<QPointF> points;
  const int x_column = x_combo_->currentData().isValid() ? x_combo_->currentData().toInt() : -1;
  const int y_column = y_combo_->currentData().isValid() ? y_combo_->currentData().toInt() : -1;
  double x_low = std::numeric_limits<double>::infinity(), x_high = -x_low;
  double y_low = x_low, y_high = -x_low;
  if (x_column >= 0 && y_column >= 0) {
    for (std::size_t row = 0; row < result_.table.cells.size(); ++row) {
      const double x = result_.table.number(row, x_column);
      const double y = result_.table.number(row, y_column);
      if (!isSuccess(row) || !std::isfinite(x) || !std::isfinite(y)) continue;
      points.append(QPointF(x, y));
      point_rows_.push_back(static_cast<int>(row));
      x_low = std::min(x_low, x), x_high = std::max(x_high, x);
      y_low = std::min(y_low, y), y_high = std::max(y_high, y);
    }
  }
  scatter_->setMarkerSize(markerSize(static_cast<int>(points.size())));
  scatter_->replace(points);
  scatter_->setName(y_column >= 0 ? columnName(y_column) : QString());
  fitAxis(x_axis_, x_low, x_high, x_column >= 0 ? columnName(x_column) : QString());
  fitAxis(y_axis_, y_low, y_high, y_column >= 0 ? columnName(y_column) : QString());
}

void SweepResultDialog::fitAxis(QValueAxis* axis, double low, double high, const QString& title) {
  axis->setTitleText(title);
  if (!(low <= high)) {  // no point
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(0.0, 1.0);
    return;
  }
  // the range hugs the data with a margin (a single value gets a span around it), and the ticks
  // sit at round multiples inside it: rounding the range outwards instead would turn 0..20 into
  // -10..30, a third of the plot empty
  const double span = high > low ? high - low : std::max(std::abs(low), 1.0);
  const double min = low - kAxisPadding * span, max = high + kAxisPadding * span;
  const NiceTicks ticks = niceTicks(min, max, axis == x_axis_ ? kXTicks : kYTicks);
  // the ticks before the range: Qt lays the new range out with the interval it has, and an old
  // fine interval over a wide new range would be millions of ticks
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(ticks.anchor);
  axis->setTickInterval(ticks.interval);
  axis->setLabelFormat(ticks.label_format);
  axis->setTruncateLabels(false);  // a cut label says nothing: the axis makes room instead
  axis->setRange(min, max);
}

int SweepResultDialog::caseOfPoint(int point) const {
  const auto row = static_cast<std::size_t>(point_rows_.at(static_cast<std::size_t>(point)));
  return static_cast<int>(result_.table.number(row, 0));
}

QString SweepResultDialog::pointDescription(int point) const {
  const auto row = static_cast<std::size_t>(point_rows_.at(static_cast<std::size_t>(point)));
  QStringList lines{tr("Case %1").arg(caseOfPoint(point))};
  std::vector<int> shown;
  for (const SweepParameter& parameter : result_.spec.parameters)
    shown.push_back(result_.table.column(parameter.name));
  for (int column : {x_combo_->currentData().toInt(), y_combo_->currentData().toInt()})
    if (std::find(shown.begin(), shown.end(), column) == shown.end()) shown.push_back(column);
  for (int column : shown) {
    if (column < 0) continue;
    const double value = result_.table.number(row, column);
    const QString text =
        std::isfinite(value)
            ? formatValue(value)
            : QString::fromStdString(result_.table.cells[row][static_cast<std::size_t>(column)]);
    lines << QStringLiteral("%1 = %2").arg(columnName(column), text);
  }
  return lines.join('\n');
}

int SweepResultDialog::nearestPoint(const QPointF& value) const {
  const QPointF target = chart_view_->chart()->mapToPosition(value, scatter_);
  int nearest = -1;
  double nearest_distance = std::numeric_limits<double>::infinity();
  const QList<QPointF> points = scatter_->points();
  for (int i = 0; i < points.size(); ++i) {
    const QPointF offset = chart_view_->chart()->mapToPosition(points[i], scatter_) - target;
    const double distance = QPointF::dotProduct(offset, offset);
    if (distance < nearest_distance) nearest = i, nearest_distance = distance;
  }
  return nearest;
}

void SweepResultDialog::onPointHovered(const QPointF& point, bool entered) {
  if (!entered) {
    QToolTip::hideText();
    return;
  }
  const int index = nearestPoint(point);
  if (index >= 0) QToolTip::showText(QCursor::pos(), pointDescription(index), chart_view_);
}

void SweepResultDialog::onPointClicked(const QPointF& point) {
  const int index = nearestPoint(point);
  if (index >= 0) emit caseRequested(caseOfPoint(index));
}

}  // namespace tendril
