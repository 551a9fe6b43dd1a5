#pragma once
// Bottom panel: time series (tip position, energies) as a Qt Charts line chart, with a vertical
// cursor at the time shown by the timeline. Rubber-band zoom (drag), wheel zoom, pan with the
// middle button or the arrow keys, double-click (or the context menu) to fit everything again;
// the context menu also exports the data as CSV and the picture as PNG.

#include <QChartView>
#include <QImage>
#include <QList>
#include <QPointF>
#include <optional>
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

  /// \brief Draws series \p series dashed in the colour of series \p of and leaves it out of the
  ///        legend: a set-point drawn beside its value, which the legend names once.
  void setSeriesCompanion(int series, int of);

  /// \brief Appends \p points (x = t) to series \p series at once: one relayout of the chart
  ///        for the whole batch, which keeps long live plots cheap.
  void appendPoints(int series, const QList<QPointF>& points);

  /// \brief Removes every series and resets the axes (and their titles: t [s] and none) and the
  ///        placeholder text.
  void clear();
  /// \brief A hint drawn centred over the chart while no series has a point ("": none), e.g. why
  ///        it is empty. It disappears with the first points.
  void setPlaceholderText(const QString& text);
  [[nodiscard]] QString placeholderText() const;
  /// \brief The placeholder text is drawn now (it is set and no series has a point).
  [[nodiscard]] bool showsPlaceholder() const;
  /// \brief Titles of the horizontal and vertical axes until the next clear().
  void setAxisTitles(const QString& x, const QString& y);

  [[nodiscard]] int seriesCount() const;
  [[nodiscard]] int pointCount(int series) const;
  /// \brief The points of series \p series (empty for an unknown handle).
  [[nodiscard]] QList<QPointF> points(int series) const;
  /// \brief The points the chart draws for series \p series, after drawing what is pending:
  ///        all of them up to twice the plot's width in pixels, then the minimum and maximum of
  ///        each pixel-wide slice of the visible time range (and the neighbours just outside it).
  [[nodiscard]] QList<QPointF> drawnPoints(int series);
  [[nodiscard]] int drawnPointCount(int series);
  /// \brief The most points drawnPoints() holds for a series: two per slice, plus the neighbours.
  [[nodiscard]] int maxDrawnPoints() const;

  /// \brief Moves the vertical cursor to time \p t [s] (NaN hides it).
  void setCursorTime(double t);
  /// \brief Time of the cursor, NaN when hidden.
  [[nodiscard]] double cursorTime() const;
  /// \brief Where the cursor is drawn, in widget pixels (x), or -1 when hidden.
  [[nodiscard]] double cursorPixel() const;

  /// \brief Writes one row per time: t, then every series (empty where a series has no point).
  ///        \return false when the file cannot be written (the reason in exportError())
  bool exportCsv(const QString& path) const;
  /// \brief Saves the chart as a PNG image, laid out again at \p size (axes, ticks and legend
  ///        for that size, not a scaled screen grab), or as on screen when \p size is empty.
  ///        \return false on failure (the reason in exportError())
  bool exportPng(const QString& path, QSize size = {});
  /// \brief The chart laid out and drawn at \p size [px]; the panel itself is left as it was.
  [[nodiscard]] QImage renderAt(QSize size);
  /// \brief Why the last failed export failed (QFile's or QImageWriter's message).
  [[nodiscard]] QString exportError() const;
  /// \brief What the context menu's Export CSV and Export PNG do: exportCsv() or exportPng(), and
  ///        on failure a message box (objectName "exportErrorBox") naming the file and the reason.
  bool exportCsvOrReport(const QString& path);
  bool exportPngOrReport(const QString& path, QSize size = {});
  /// \brief Fits the axes to every point again (after zooming or panning).
  void fitAll();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void reportExportFailure(const QString& path);
  void placeLegend();
  void resetAxes();
  void growAxes(const QPointF& low, const QPointF& high);
  void updateCursor();
  /// the lowest and highest time (x) and value (y) of some points
  struct Bounds {
    QPointF low, high;
  };
  static Bounds boundsOf(const QList<QPointF>& points);  ///< of a non-empty list
  static Bounds merged(const Bounds& a, const Bounds& b);
  /// two points per slice, plus the neighbours just outside the visible range
  static constexpr qsizetype drawnPointsFor(int buckets) { return 2 * qsizetype{buckets} + 2; }
  [[nodiscard]] int bucketCount() const;
  void scheduleRedraw();
  void markDecimatedStale();
  void redrawStale();
  static QList<QPointF> decimated(const QList<QPointF>& points, double t0, double t1, int buckets);

  QValueAxis* time_axis_ = nullptr;
  QValueAxis* value_axis_ = nullptr;
  std::vector<QLineSeries*> series_;
  std::vector<QList<QPointF>> data_;  ///< every point of each series; the chart draws a subset
  std::vector<bool> stale_;           ///< the chart does not yet draw what data_ holds
  std::vector<bool> named_;           ///< the legend names the series (not a companion)
  bool redraw_scheduled_ = false;
  bool in_redraw_ = false;
  std::optional<Bounds> pending_bounds_;  ///< of the points appended since the last redraw
  QLineSeries* cursor_ = nullptr;
  double cursor_time_;
  bool has_points_ = false;
  bool zoomed_ = false;  ///< the user zoomed or panned: new points no longer move the axes
  std::optional<QPointF> pan_from_;
  mutable QString export_error_;
  QString placeholder_;
};

}  // namespace tendril
