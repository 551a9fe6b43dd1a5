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
  if (series < 0 || series >= seriesCount()) {
    return;
  }
  series_[static_cast<std::size_t>(series)]->append(t, y);
  growAxes(t, y);
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

// the first point sets a small range around itself; later points only widen it
void PlotPanel::growAxes(double t, double y) {
  if (!has_points_) {
    has_points_ = true;
    time_axis_->setRange(t, t + 1e-6);
    value_axis_->setRange(y - 1e-6, y + 1e-6);
  }
  time_axis_->setRange(std::min(time_axis_->min(), t), std::max(time_axis_->max(), t));
  value_axis_->setRange(std::min(value_axis_->min(), y), std::max(value_axis_->max(), y));
}

}  // namespace tendril
