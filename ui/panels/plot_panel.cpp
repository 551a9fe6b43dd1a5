#include "ui/panels/plot_panel.hpp"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace tendril {

PlotPanel::PlotPanel(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart();
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setMargins(QMargins(4, 4, 4, 4));
  time_axis_ = new QValueAxis(chart);
  time_axis_->setTitleText(tr("t [s]"));
  value_axis_ = new QValueAxis(chart);
  chart->addAxis(time_axis_, Qt::AlignBottom);
  chart->addAxis(value_axis_, Qt::AlignLeft);
  setChart(chart);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(140);
  resetAxes();
}

int PlotPanel::addSeries(const QString& name) {
  auto* series = new QLineSeries(chart());
  series->setName(name);
  chart()->addSeries(series);
  series->attachAxis(time_axis_);
  series->attachAxis(value_axis_);
  series_.push_back(series);
  return static_cast<int>(series_.size()) - 1;
}

void PlotPanel::appendPoint(int series, double t, double y) {
  appendPoints(series, {QPointF(t, y)});
}

void PlotPanel::appendPoints(int series, const QList<QPointF>& points) {
  if (series < 0 || series >= seriesCount() || points.isEmpty()) {
    return;
  }
  // QXYSeries::append(list) adds point by point, each one updating the chart; replace() updates it
  // once
  QLineSeries* line = series_[static_cast<std::size_t>(series)];
  QList<QPointF> all = line->points();
  all.append(points);
  line->replace(all);
  QPointF low = points.front();
  QPointF high = points.front();
  for (const QPointF& point : points) {
    low = QPointF(std::min(low.x(), point.x()), std::min(low.y(), point.y()));
    high = QPointF(std::max(high.x(), point.x()), std::max(high.y(), point.y()));
  }
  growAxes(low, high);
}

void PlotPanel::clear() {
  chart()->removeAllSeries();
  series_.clear();
  resetAxes();
}

int PlotPanel::seriesCount() const {
  return static_cast<int>(series_.size());
}

int PlotPanel::pointCount(int series) const {
  if (series < 0 || series >= seriesCount()) {
    return 0;
  }
  return static_cast<int>(series_[static_cast<std::size_t>(series)]->count());
}

void PlotPanel::resetAxes() {
  has_points_ = false;
  time_axis_->setRange(0.0, 1.0);
  value_axis_->setRange(0.0, 1.0);
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
    has_points_ = true;
    t_max = std::max(t_max, t_min + 1e-6);
    y_min -= 1e-6;
    y_max += 1e-6;
  }
  if (t_min != time_axis_->min() || t_max != time_axis_->max()) {
    time_axis_->setRange(t_min, t_max);
  }
  if (y_min != value_axis_->min() || y_max != value_axis_->max()) {
    value_axis_->setRange(y_min, y_max);
  }
}

}  // namespace tendril
