#include "ui/panels/plot_panel.hpp"

#include <QChart>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontMetrics>
#include <QImageWriter>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QTextStream>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "ui/export_settings.hpp"
#include "ui/panels/nice_ticks.hpp"
#include "ui/turn_queue.hpp"

namespace tendril {
namespace {

constexpr double kWheelZoomFactor = 1.25;
// a series with more points than twice the plot's width in pixels is drawn decimated: the minimum
// and maximum of each pixel-wide slice of the visible time range, which draws the same line (no
// peak is lost) at a cost that no longer grows with the run. Never more than kMaxBuckets slices;
// kMinBuckets until the chart has been laid out
constexpr int kMaxBuckets = 998;
constexpr int kMinBuckets = 200;
constexpr int kPanStepPixels = 20;
const QColor kCursorColor(200, 40, 40);

void applyNiceTicks(QValueAxis* axis, double low, double high) {
  if (!(high > low)) return;
  const NiceTicks ticks = niceTicks(low, high);
  axis->setTickAnchor(ticks.anchor);
  axis->setTickInterval(ticks.interval);
  axis->setLabelFormat(ticks.label_format);
}

// the ticks first: Qt lays a new range out with the interval the axis has, and an old fine
// interval over a much wider range would be millions of ticks (a hang)
void setNiceRange(QValueAxis* axis, double low, double high) {
  applyNiceTicks(axis, low, high);
  axis->setRange(low, high);
}

}  // namespace

PlotPanel::PlotPanel(QWidget* parent)
    : QChartView(parent), cursor_time_(std::numeric_limits<double>::quiet_NaN()) {
  auto* chart = new QChart();
  // below the plot, where long series names have the chart's whole width
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  time_axis_ = new QValueAxis(chart);
  time_axis_->setTitleText(tr("t [s]"));
  value_axis_ = new QValueAxis(chart);
  // ticks at 1, 2, 5 x 10^k with the decimals they need, whatever the range (zoom included)
  for (QValueAxis* axis : {time_axis_, value_axis_}) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTruncateLabels(false);  // "2.5e-..." says nothing: the axis makes room instead
    applyNiceTicks(axis, axis->min(), axis->max());
    // zooming and panning set the range from inside Qt Charts (changes of a few times at most)
    connect(axis, &QValueAxis::rangeChanged, this,
            [axis](double low, double high) { applyNiceTicks(axis, low, high); });
  }
  chart->addAxis(time_axis_, Qt::AlignBottom);
  chart->addAxis(value_axis_, Qt::AlignLeft);
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(140);
  setRubberBand(QChartView::RectangleRubberBand);
  setFocusPolicy(Qt::StrongFocus);
  setToolTip(
      tr("Drag: zoom to a rectangle; wheel: zoom; middle drag or arrows: pan; "
         "double-click: fit; right-click: export"));
  connect(value_axis_, &QValueAxis::rangeChanged, this, [this] { updateCursor(); });
  // zooming or resizing redraws the decimated series at the new resolution
  connect(time_axis_, &QValueAxis::rangeChanged, this, [this] { markDecimatedStale(); });
  connect(chart, &QChart::plotAreaChanged, this, [this] { markDecimatedStale(); });
  resetAxes();
}

int PlotPanel::addSeries(const QString& name) {
  auto* series = new QLineSeries(chart());
  series->setName(name);
  chart()->addSeries(series);
  series->attachAxis(time_axis_);
  series->attachAxis(value_axis_);
  series_.push_back(series);
  data_.emplace_back();
  stale_.push_back(false);
  named_.push_back(true);
  placeLegend();
  return static_cast<int>(series_.size()) - 1;
}

void PlotPanel::setSeriesCompanion(int series, int of) {
  if (series < 0 || series >= seriesCount() || of < 0 || of >= seriesCount()) return;
  QLineSeries* companion = series_[static_cast<std::size_t>(series)];
  QPen pen = companion->pen();
  pen.setColor(series_[static_cast<std::size_t>(of)]->pen().color());
  pen.setStyle(Qt::DashLine);
  pen.setWidthF(std::max(pen.widthF(), 1.5));
  companion->setPen(pen);
  for (QLegendMarker* marker : chart()->legend()->markers(companion)) marker->setVisible(false);
  named_[static_cast<std::size_t>(series)] = false;
  placeLegend();
}

// below the plot while the names fit in one row there (the plot keeps its width), on the right,
// one name a line, when they do not: a row of a dozen names would be cut to their first letters
void PlotPanel::placeLegend() {
  QLegend* legend = chart()->legend();
  const QFontMetrics metrics(legend->font());
  const int marker_and_spacing = 2 * metrics.height();
  int row_width = 0;
  for (std::size_t s = 0; s < series_.size(); ++s) {
    if (named_[s]) row_width += marker_and_spacing + metrics.horizontalAdvance(series_[s]->name());
  }
  const Qt::Alignment wanted = row_width > viewport()->width() ? Qt::AlignRight : Qt::AlignBottom;
  if (legend->alignment() != wanted) legend->setAlignment(wanted);
}

void PlotPanel::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  placeLegend();
}

void PlotPanel::appendPoint(int series, double t, double y) {
  appendPoints(series, {QPointF(t, y)});
}

void PlotPanel::appendPoints(int series, const QList<QPointF>& points) {
  if (series < 0 || series >= seriesCount() || points.isEmpty()) {
    return;
  }
  const bool hinted = showsPlaceholder();
  data_[static_cast<std::size_t>(series)].append(points);
  if (hinted) {
    viewport()->update();  // the hint goes with the first points
  }
  const Bounds added = boundsOf(points);
  pending_bounds_ = pending_bounds_ ? merged(*pending_bounds_, added) : added;
  stale_[static_cast<std::size_t>(series)] = true;
  scheduleRedraw();
}

void PlotPanel::setAxisTitles(const QString& x, const QString& y) {
  time_axis_->setTitleText(x);
  value_axis_->setTitleText(y);
}

void PlotPanel::clear() {
  time_axis_->setTitleText(tr("t [s]"));
  value_axis_->setTitleText(QString());
  chart()->removeAllSeries();
  series_.clear();
  data_.clear();
  stale_.clear();
  named_.clear();
  pending_bounds_.reset();
  cursor_ = nullptr;
  cursor_time_ = std::numeric_limits<double>::quiet_NaN();
  zoomed_ = false;
  resetAxes();
  setPlaceholderText(QString());
}

void PlotPanel::setPlaceholderText(const QString& text) {
  if (text != placeholder_) {
    placeholder_ = text;
    viewport()->update();
  }
}

QString PlotPanel::placeholderText() const {
  return placeholder_;
}

bool PlotPanel::showsPlaceholder() const {
  return !placeholder_.isEmpty() &&
         std::all_of(data_.begin(), data_.end(),
                     [](const QList<QPointF>& points) { return points.isEmpty(); });
}

// the hint over the chart, centred on its plot area
void PlotPanel::paintEvent(QPaintEvent* event) {
  QChartView::paintEvent(event);
  if (!showsPlaceholder()) {
    return;
  }
  QPainter painter(viewport());
  painter.setPen(palette().color(QPalette::PlaceholderText));
  const QRect area = mapFromScene(chart()->mapToScene(chart()->plotArea())).boundingRect();
  painter.drawText(area.isEmpty() ? viewport()->rect() : area, Qt::AlignCenter | Qt::TextWordWrap,
                   placeholder_);
}

int PlotPanel::seriesCount() const {
  return static_cast<int>(series_.size());
}

int PlotPanel::pointCount(int series) const {
  if (series < 0 || series >= seriesCount()) {
    return 0;
  }
  return static_cast<int>(data_[static_cast<std::size_t>(series)].size());
}

QList<QPointF> PlotPanel::points(int series) const {
  if (series < 0 || series >= seriesCount()) {
    return {};
  }
  return data_[static_cast<std::size_t>(series)];
}

QList<QPointF> PlotPanel::drawnPoints(int series) {
  if (series < 0 || series >= seriesCount()) {
    return {};
  }
  redrawStale();
  return series_[static_cast<std::size_t>(series)]->points();
}

int PlotPanel::drawnPointCount(int series) {
  return static_cast<int>(drawnPoints(series).size());
}

int PlotPanel::bucketCount() const {
  const auto width = static_cast<int>(chart()->plotArea().width());
  return std::clamp(width, kMinBuckets, kMaxBuckets);
}

int PlotPanel::maxDrawnPoints() const {
  return static_cast<int>(drawnPointsFor(bucketCount()));
}

// new points and new ranges are drawn in an event of their own, once for however many came
// before it, one panel per turn of the event loop, and not at all while the panel is hidden (a
// tabbed dock): the chart's relayout and repaint are the costly part of a live plot
void PlotPanel::scheduleRedraw() {
  if (redraw_scheduled_) {
    return;
  }
  redraw_scheduled_ = true;
  TurnQueue::instance().post(this, QStringLiteral("plotRedraw"), [this] {
    redraw_scheduled_ = false;
    if (isVisible()) {
      redrawStale();
    }
  });
}

void PlotPanel::markDecimatedStale() {
  for (std::size_t s = 0; s < data_.size(); ++s) {
    stale_[s] = stale_[s] || data_[s].size() > drawnPointsFor(kMinBuckets);
  }
  if (!in_redraw_) {
    scheduleRedraw();
  }
}

// the axes first (one relayout for every new point of every series): the decimation follows
// the visible range
void PlotPanel::redrawStale() {
  if (pending_bounds_) {
    const Bounds box = *pending_bounds_;
    pending_bounds_.reset();
    if (!zoomed_) {
      in_redraw_ = true;
      growAxes(box.low, box.high);
      in_redraw_ = false;
    }
  }
  for (std::size_t s = 0; s < series_.size(); ++s) {
    if (!stale_[s]) {
      continue;
    }
    stale_[s] = false;
    // QXYSeries::append(list) adds point by point, each one updating the chart; replace() updates
    // it once
    const QList<QPointF>& all = data_[s];
    series_[s]->replace(all.size() <= maxDrawnPoints()
                            ? all
                            : decimated(all, time_axis_->min(), time_axis_->max(), bucketCount()));
  }
}

void PlotPanel::showEvent(QShowEvent* event) {
  QChartView::showEvent(event);
  if (std::find(stale_.begin(), stale_.end(), true) != stale_.end()) {
    scheduleRedraw();
  }
}

PlotPanel::Bounds PlotPanel::boundsOf(const QList<QPointF>& points) {
  Bounds bounds{points.front(), points.front()};
  for (const QPointF& point : points) bounds = merged(bounds, {point, point});
  return bounds;
}

PlotPanel::Bounds PlotPanel::merged(const Bounds& a, const Bounds& b) {
  return {QPointF(std::min(a.low.x(), b.low.x()), std::min(a.low.y(), b.low.y())),
          QPointF(std::max(a.high.x(), b.high.x()), std::max(a.high.y(), b.high.y()))};
}

// points sorted by time: the first point before [t0, t1], the lowest and highest point of each of
// the buckets slices of it in time order, and the first point after it
QList<QPointF> PlotPanel::decimated(const QList<QPointF>& points, double t0, double t1,
                                    int buckets) {
  QList<QPointF> drawn;
  drawn.reserve(2 * buckets + 2);
  const auto first = std::lower_bound(points.begin(), points.end(), t0,
                                      [](const QPointF& p, double t) { return p.x() < t; });
  const auto last = std::upper_bound(first, points.end(), t1,
                                     [](double t, const QPointF& p) { return t < p.x(); });
  if (first != points.begin()) drawn.append(*(first - 1));
  const double width = std::max(t1 - t0, std::numeric_limits<double>::min()) / buckets;
  for (auto it = first; it != last;) {
    const double bucket_end = t0 + width * (std::floor((it->x() - t0) / width) + 1.0);
    auto low = it, high = it;
    // the first point always belongs to its slice, whatever the rounding of bucket_end
    for (++it; it != last && it->x() < bucket_end; ++it) {
      if (it->y() < low->y()) low = it;
      if (it->y() > high->y()) high = it;
    }
    drawn.append(low < high ? *low : *high);
    if (low != high) drawn.append(low < high ? *high : *low);
  }
  if (last != points.end()) drawn.append(*last);
  return drawn;
}

void PlotPanel::setCursorTime(double t) {
  cursor_time_ = t;
  updateCursor();
}

double PlotPanel::cursorTime() const {
  return cursor_time_;
}

double PlotPanel::cursorPixel() const {
  if (cursor_ == nullptr || !cursor_->isVisible()) {
    return -1.0;
  }
  const QPointF scene = chart()->mapToPosition(QPointF(cursor_time_, value_axis_->min()), cursor_);
  return mapFromScene(chart()->mapToScene(scene)).x();
}

// a two-point series from the bottom to the top of the value axis, out of the legend
void PlotPanel::updateCursor() {
  if (std::isnan(cursor_time_) || series_.empty()) {
    if (cursor_ != nullptr) {
      cursor_->setVisible(false);
    }
    return;
  }
  if (cursor_ == nullptr) {
    cursor_ = new QLineSeries(chart());
    cursor_->setName(tr("cursor"));
    QPen pen(kCursorColor);
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashLine);
    cursor_->setPen(pen);
    chart()->addSeries(cursor_);
    cursor_->attachAxis(time_axis_);
    cursor_->attachAxis(value_axis_);
    for (QLegendMarker* marker : chart()->legend()->markers(cursor_)) {
      marker->setVisible(false);
    }
  }
  cursor_->replace(
      {QPointF(cursor_time_, value_axis_->min()), QPointF(cursor_time_, value_axis_->max())});
  cursor_->setVisible(true);
}

bool PlotPanel::exportCsv(const QString& path) const {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
    export_error_ = file.errorString();
    return false;
  }
  // rows by time: series recorded from the same frames share their times
  std::map<double, std::vector<std::optional<double>>> rows;
  for (std::size_t s = 0; s < series_.size(); ++s) {
    for (const QPointF& point : data_[s]) {
      auto& row = rows[point.x()];
      row.resize(series_.size());
      row[s] = point.y();
    }
  }
  QTextStream out(&file);
  out << "t";
  for (const QLineSeries* series : series_) {
    QString name = series->name();
    out << ',' << '"' << name.replace('"', "\"\"") << '"';
  }
  out << '\n';
  for (const auto& [t, values] : rows) {
    out << QString::number(t, 'g', 12);
    for (std::size_t s = 0; s < series_.size(); ++s) {
      out << ',';
      if (s < values.size() && values[s]) {
        out << QString::number(*values[s], 'g', 12);
      }
    }
    out << '\n';
  }
  out.flush();
  if (out.status() != QTextStream::Ok || file.error() != QFileDevice::NoError) {
    export_error_ = file.errorString();
    return false;
  }
  return true;
}

QImage PlotPanel::renderAt(QSize size) {
  redrawStale();
  QChart* const plot = chart();
  const QRectF on_screen = plot->geometry();
  plot->setGeometry(QRectF(QPointF(0, 0), size));
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
  painter.end();
  plot->setGeometry(on_screen);
  return image;
}

bool PlotPanel::exportPng(const QString& path, QSize size) {
  // the file opened here, so that a path that cannot be written reports why (QImageWriter's own
  // message would only say "Device not writable")
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    export_error_ = file.errorString();
    return false;
  }
  QImage image;
  if (size.isEmpty()) {
    redrawStale();
    image = grab().toImage();
  } else {
    image = renderAt(size);
  }
  QImageWriter writer(&file, "PNG");
  if (!writer.write(image)) {
    export_error_ = writer.errorString();
    return false;
  }
  return true;
}

QString PlotPanel::exportError() const {
  return export_error_;
}

bool PlotPanel::exportCsvOrReport(const QString& path) {
  const bool written = exportCsv(path);
  if (!written) {
    reportExportFailure(path);
  }
  return written;
}

bool PlotPanel::exportPngOrReport(const QString& path, QSize size) {
  const bool written = exportPng(path, size);
  if (!written) {
    reportExportFailure(path);
  }
  return written;
}

// non-blocking, like the main window's error boxes
void PlotPanel::reportExportFailure(const QString& path) {
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Export failed"),
                              tr("Cannot write %1").arg(QDir::toNativeSeparators(path)),
                              QMessageBox::Ok, this);
  box->setInformativeText(export_error_);
  box->setObjectName("exportErrorBox");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void PlotPanel::fitAll() {
  zoomed_ = false;
  resetAxes();
  for (const QList<QPointF>& points : data_) {
    if (points.isEmpty()) {
      continue;
    }
    const Bounds bounds = boundsOf(points);
    growAxes(bounds.low, bounds.high);
  }
  updateCursor();
}

void PlotPanel::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::MiddleButton) {
    pan_from_ = event->position();
    event->accept();
    return;
  }
  QChartView::mousePressEvent(event);
}

void PlotPanel::mouseMoveEvent(QMouseEvent* event) {
  if (pan_from_) {
    const QPointF delta = event->position() - *pan_from_;
    chart()->scroll(-delta.x(), delta.y());
    pan_from_ = event->position();
    zoomed_ = true;
    event->accept();
    return;
  }
  QChartView::mouseMoveEvent(event);
}

void PlotPanel::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::MiddleButton && pan_from_) {
    pan_from_.reset();
    event->accept();
    return;
  }
  // the rubber band's right-click "zoom out" is replaced by the context menu
  if (event->button() == Qt::RightButton) {
    event->accept();
    return;
  }
  // a rubber band that zoomed: from now on new points leave the axes alone
  const double t_min = time_axis_->min(), t_max = time_axis_->max();
  QChartView::mouseReleaseEvent(event);
  zoomed_ = zoomed_ || t_min != time_axis_->min() || t_max != time_axis_->max();
}

void PlotPanel::mouseDoubleClickEvent(QMouseEvent* event) {
  fitAll();
  event->accept();
}

void PlotPanel::wheelEvent(QWheelEvent* event) {
  const int steps = event->angleDelta().y();
  if (steps == 0) {
    return;
  }
  chart()->zoom(steps > 0 ? kWheelZoomFactor : 1.0 / kWheelZoomFactor);
  zoomed_ = true;
  event->accept();
}

void PlotPanel::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Left:
      chart()->scroll(-kPanStepPixels, 0);
      break;
    case Qt::Key_Right:
      chart()->scroll(kPanStepPixels, 0);
      break;
    case Qt::Key_Up:
      chart()->scroll(0, kPanStepPixels);
      break;
    case Qt::Key_Down:
      chart()->scroll(0, -kPanStepPixels);
      break;
    case Qt::Key_Plus:
      chart()->zoomIn();
      break;
    case Qt::Key_Minus:
      chart()->zoomOut();
      break;
    default:
      QChartView::keyPressEvent(event);
      return;
  }
  zoomed_ = true;
  event->accept();
}

void PlotPanel::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(tr("&Fit All"), this, &PlotPanel::fitAll);
  menu.addSeparator();
  menu.addAction(tr("Export &CSV..."), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Plot Data"), "plot.csv",
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty()) {
      exportCsvOrReport(path);
    }
  });
  menu.addAction(tr("Export &PNG..."), this, [this] {
    ExportSettingsDialog size_dialog(ExportSettingsDialog::Kind::Picture,
                                     ExportSettings::remembered(), 0.0, this);
    if (size_dialog.exec() != QDialog::Accepted) return;
    const ExportSettings settings = size_dialog.settings();
    settings.remember();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Plot Image"), "plot.png",
                                                      tr("PNG images (*.png)"));
    if (!path.isEmpty()) {
      exportPngOrReport(path, settings.size);
    }
  });
  menu.exec(event->globalPos());
}

void PlotPanel::resetAxes() {
  has_points_ = false;
  setNiceRange(time_axis_, 0.0, 1.0);
  setNiceRange(value_axis_, 0.0, 1.0);
}

// the first points set a small range around themselves; later points only widen it, and an
// unchanged range is not set again (every setRange relayouts the chart)
void PlotPanel::growAxes(const QPointF& low, const QPointF& high) {
  double t_min = low.x(), t_max = high.x();
  double y_min = low.y(), y_max = high.y();
  if (has_points_) {
    t_min = std::min(time_axis_->min(), t_min);
    t_max = std::max(time_axis_->max(), t_max);
    y_min = std::min(value_axis_->min(), y_min);
    y_max = std::max(value_axis_->max(), y_max);
  } else {
    // a first point alone still spans a range whose ticks differ (a relative margin, so that a
    // value of -17.2 is not labelled -17.2 at every tick)
    has_points_ = true;
    t_max = std::max(t_max, t_min + std::max(1e-6, 1e-3 * std::abs(t_min)));
    const double margin = std::max(1e-6, 1e-3 * std::max(std::abs(y_min), std::abs(y_max)));
    y_min -= margin;
    y_max += margin;
  }
  if (t_min != time_axis_->min() || t_max != time_axis_->max()) {
    setNiceRange(time_axis_, t_min, t_max);
  }
  if (y_min != value_axis_->min() || y_max != value_axis_->max()) {
    setNiceRange(value_axis_, y_min, y_max);
  }
}

}  // namespace tendril
