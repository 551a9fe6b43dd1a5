#pragma once
// Bottom panel: time series (energies, joint signals) as a Qt Charts line chart.

#include <QChartView>
#include <QList>
#include <QPointF>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace tendril {

class PlotPanel : public QChartView {
  Q_OBJECT

 public:
  explicit PlotPanel(QWidget* parent = nullptr);

  /// \brief Adds an empty line series shown in the legend as \p name.
  /// \return its handle for appendPoint()
  int addSeries(const QString& name);

  /// \brief Appends (t, y) to series \p series (ignored for an unknown handle); the axes grow
  ///        to keep every point in view.
  void appendPoint(int series, double t, double y);

  /// \brief Appends \p points (x = t) to series \p series at once: one relayout of the chart
  ///        for the whole batch, which keeps long live plots cheap.
  void appendPoints(int series, const QList<QPointF>& points);

  /// \brief Removes every series and resets the axes.
  void clear();

  [[nodiscard]] int seriesCount() const;
  [[nodiscard]] int pointCount(int series) const;

 private:
  void resetAxes();
  void growAxes(const QPointF& low, const QPointF& high);

  QValueAxis* time_axis_ = nullptr;
  QValueAxis* value_axis_ = nullptr;
  std::vector<QLineSeries*> series_;
  bool has_points_ = false;
};

}  // namespace tendril
