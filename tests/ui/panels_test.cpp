#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <array>
#include <utility>
#include <vector>

#include "ui/panels/nice_ticks.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui_test_support.hpp"

namespace tendril {
namespace {

TEST(PlotPanel, DrawsAddedSeries) {
  PlotPanel panel;
  panel.resize(600, 300);
  ASSERT_TRUE(test::showAndWait(&panel));
  const QImage empty = test::grabWindow(panel);

  const int sine = panel.addSeries("sin");
  const int ramp = panel.addSeries("ramp");
  for (int i = 0; i <= 100; ++i) {
    const double t = 0.02 * i;
    panel.appendPoint(sine, t, std::sin(6.0 * t));
    panel.appendPoint(ramp, t, 0.5 * t);
  }
  EXPECT_EQ(panel.seriesCount(), 2);
  EXPECT_EQ(panel.pointCount(sine), 101);
  QTest::qWait(50);
  const QImage drawn = test::grabWindow(panel);
  test::saveScreenshot(drawn, "plot_panel");
  EXPECT_GT(test::countDifferentPixels(empty, drawn), 1000);
}

// a set-point drawn beside its value: dashed in the value's colour, named once in the legend,
// which moves to the right of the plot when a row of the names no longer fits below it
TEST(PlotPanel, CompanionSeriesShareTheColourAndTheLegendMovesRightWhenTheNamesDoNotFit) {
  PlotPanel panel;
  panel.resize(1800, 300);
  ASSERT_TRUE(test::showAndWait(&panel));
  std::vector<std::pair<int, int>> pairs;  // (set-point, value)
  for (int k = 0; k < 6; ++k) {
    const QString name = QString("segment%1_tendon length").arg(k + 1);
    const int setpoint = panel.addSeries(name + " set-point");
    const int value = panel.addSeries(name);
    panel.setSeriesCompanion(setpoint, value);
    pairs.emplace_back(setpoint, value);
    for (int i = 0; i <= 50; ++i) {
      panel.appendPoint(setpoint, 0.02 * i, 0.3 - 0.001 * k * i);
      panel.appendPoint(value, 0.02 * i, 0.3 - 0.001 * k * i + 0.002);
    }
  }
  QTest::qWait(50);
  const QList<QAbstractSeries*> series = panel.chart()->series();
  int named = 0;
  for (QLegendMarker* marker : panel.chart()->legend()->markers()) named += marker->isVisible();
  EXPECT_EQ(named, 6);
  for (const auto& [setpoint, value] : pairs) {
    const QPen dashed = static_cast<QLineSeries*>(series[setpoint])->pen();
    const QPen solid = static_cast<QLineSeries*>(series[value])->pen();
    EXPECT_EQ(dashed.color(), solid.color());
    EXPECT_EQ(dashed.style(), Qt::DashLine);
    EXPECT_EQ(solid.style(), Qt::SolidLine);
  }
  EXPECT_EQ(panel.chart()->legend()->alignment(), Qt::AlignBottom);
  panel.resize(420, 300);
  QTest::qWait(50);
  EXPECT_EQ(panel.chart()->legend()->alignment(), Qt::AlignRight);
  test::saveScreenshot(test::grabWindow(panel), "plot_panel_narrow_legend");
  panel.resize(1800, 300);
  QTest::qWait(50);
  EXPECT_EQ(panel.chart()->legend()->alignment(), Qt::AlignBottom);
}

// a placeholder text is drawn over the empty chart and goes with the first points
TEST(PlotPanel, PlaceholderTextShowsUntilTheFirstPoints) {
  PlotPanel panel, plain;
  for (PlotPanel* plot : {&panel, &plain}) {
    plot->resize(600, 300);
    ASSERT_TRUE(test::showAndWait(plot));
  }
  EXPECT_FALSE(panel.showsPlaceholder());
  const QImage empty = test::grabWindow(panel);
  panel.setPlaceholderText("Nothing sampled");
  EXPECT_TRUE(panel.showsPlaceholder());
  // the chart redraws in a turn of the event loop of its own, later on a loaded machine
  EXPECT_TRUE(QTest::qWaitFor(
      [&] { return test::countDifferentPixels(empty, test::grabWindow(panel)) > 100; }, 2000));
  test::saveScreenshot(test::grabWindow(panel), "plot_panel_placeholder");

  const int series = panel.addSeries("ramp");
  EXPECT_TRUE(panel.showsPlaceholder());  // a series without points draws nothing
  panel.appendPoints(series, {{0.0, 0.0}, {1.0, 0.5}});
  EXPECT_FALSE(panel.showsPlaceholder());
  plain.appendPoints(plain.addSeries("ramp"), {{0.0, 0.0}, {1.0, 0.5}});
  const auto sameAsPlain = [&] {
    return test::countDifferentPixels(test::grabWindow(plain), test::grabWindow(panel)) < 10;
  };
  EXPECT_TRUE(QTest::qWaitFor(sameAsPlain, 2000));
  panel.clear();
  EXPECT_TRUE(panel.placeholderText().isEmpty());
}

// an export that cannot be written says so, naming the file and the reason, rather than nothing
TEST(PlotPanel, ExportFailuresShowAMessageNamingTheFileAndTheReason) {
  PlotPanel panel;
  panel.resize(600, 300);
  ASSERT_TRUE(test::showAndWait(&panel));
  const int series = panel.addSeries("ramp");
  panel.appendPoints(series, {{0.0, 0.0}, {1.0, 0.5}});
  QTemporaryDir temp;
  ASSERT_TRUE(temp.isValid());
  auto visible_box = [&panel]() -> QMessageBox* {
    for (QMessageBox* box : panel.findChildren<QMessageBox*>("exportErrorBox")) {
      if (box->isVisible()) return box;
    }
    return nullptr;
  };

  for (const QString& name : {QString("plot.csv"), QString("plot.png")}) {
    SCOPED_TRACE(name.toStdString());
    const QString path = temp.filePath("missing/" + name);  // a folder that does not exist
    const bool csv = name.endsWith(".csv");
    EXPECT_FALSE(csv ? panel.exportCsvOrReport(path) : panel.exportPngOrReport(path));
    EXPECT_TRUE(panel.exportError().contains("No such file or directory"))
        << panel.exportError().toStdString();
    QMessageBox* box = nullptr;
    ASSERT_TRUE(QTest::qWaitFor([&] { return (box = visible_box()) != nullptr; }, 2000));
    EXPECT_TRUE(box->text().contains(QDir::toNativeSeparators(path))) << box->text().toStdString();
    EXPECT_EQ(box->informativeText(), panel.exportError());
    if (!csv) test::saveScreenshot(test::grabWindow(*box), "plot_export_failed");
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    EXPECT_TRUE(QTest::qWaitFor([&] { return visible_box() == nullptr; }, 2000));
  }

  // a path that can be written: no box
  EXPECT_TRUE(panel.exportCsvOrReport(temp.filePath("plot.csv")));
  EXPECT_TRUE(panel.exportPngOrReport(temp.filePath("plot.png")));
  QTest::qWait(20);
  EXPECT_EQ(visible_box(), nullptr);
}

// a 10,000-frame run is drawn from two points per pixel column that keep every peak, the data
// itself is kept whole (export, pointCount), and zooming in draws the visible slice at full
// resolution again
TEST(PlotPanel, LongSeriesAreDrawnDecimatedWithoutLosingPeaksOrData) {
  PlotPanel panel;
  panel.resize(900, 400);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const int series = panel.addSeries("spiky");
  QList<QPointF> points;
  for (int i = 0; i < 10000; ++i) {
    const double t = 0.001 * i;
    // one sample of 5.0 in a slow sine: a decimation that averages or strides would miss it
    points.append({t, i == 6543 ? 5.0 : std::sin(t)});
  }
  for (qsizetype i = 0; i < points.size(); i += 500) panel.appendPoints(series, points.mid(i, 500));
  EXPECT_EQ(panel.pointCount(series), 10000);
  EXPECT_EQ(panel.points(series), points);
  // drawn, then laid out: the grown axes' labels take their width, and the plot redraws for it
  ASSERT_GT(panel.drawnPointCount(series), 0);
  QTest::qWait(100);
  const int plot_width = static_cast<int>(panel.chart()->plotArea().width());
  ASSERT_GT(plot_width, 500);
  EXPECT_EQ(panel.maxDrawnPoints(), 2 * plot_width + 2);
  EXPECT_LE(panel.drawnPointCount(series), panel.maxDrawnPoints());
  EXPECT_GT(panel.drawnPointCount(series), plot_width);
  double highest = -1.0, lowest = 1.0;
  for (const QPointF& point : panel.drawnPoints(series)) {
    highest = std::max(highest, point.y());
    lowest = std::min(lowest, point.y());
  }
  const auto [data_low, data_high] =
      std::minmax_element(points.begin(), points.end(),
                          [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
  EXPECT_EQ(highest, data_high->y());  // the single spike
  EXPECT_EQ(lowest, data_low->y());
  auto* time_axis = qobject_cast<QValueAxis*>(panel.chart()->axes(Qt::Horizontal).value(0));
  ASSERT_NE(time_axis, nullptr);
  time_axis->setRange(6.0, 6.5);  // ~500 samples in view: every one drawn, once
  const QList<QPointF> drawn = panel.drawnPoints(series);
  int in_view = 0;
  for (const QPointF& point : points) {
    if (point.x() < 6.0 || point.x() > 6.5) continue;
    ++in_view;
    EXPECT_EQ(drawn.count(point), 1) << point.x();
  }
  EXPECT_EQ(drawn.size(), in_view + 2);  // and the neighbours just outside, for the line ends
}

// a live plot draws in an event of its own, once for a burst of appends, and a hidden one (a
// tabbed dock) not until it is shown; a narrower plot draws fewer points
TEST(PlotPanel, DrawsLaterOnceForABurstOfPointsAndNotWhileHidden) {
  PlotPanel panel;
  panel.resize(900, 400);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const int series = panel.addSeries("live");
  const auto* line = qobject_cast<QLineSeries*>(panel.chart()->series().value(series));
  ASSERT_NE(line, nullptr);
  QSignalSpy replaced(line, &QXYSeries::pointsReplaced);
  for (int i = 0; i < 10; ++i) panel.appendPoint(series, 0.01 * i, std::sin(0.01 * i));
  EXPECT_EQ(line->count(), 0);  // nothing drawn inside the caller's event
  QTest::qWait(20);
  EXPECT_EQ(line->count(), 10);
  EXPECT_EQ(replaced.count(), 1);

  panel.hide();
  for (int i = 10; i < 3000; ++i) panel.appendPoint(series, 0.01 * i, std::sin(0.01 * i));
  QTest::qWait(20);
  EXPECT_EQ(line->count(), 10);
  EXPECT_EQ(replaced.count(), 1);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  QTest::qWait(20);
  const int wide = static_cast<int>(line->count());
  EXPECT_GT(wide, static_cast<int>(panel.chart()->plotArea().width()));
  EXPECT_LE(wide, panel.maxDrawnPoints());

  panel.resize(500, 400);
  EXPECT_TRUE(QTest::qWaitFor([&] { return line->count() < wide; }, 2000));
  EXPECT_LE(line->count(), panel.maxDrawnPoints());
}

// two live charts do not redraw in the same turn of the event loop: input and timers get a turn
// between them
TEST(PlotPanel, LiveChartsRedrawOnePerTurnOfTheEventLoop) {
  QWidget window;
  auto* layout = new QHBoxLayout(&window);
  std::array<PlotPanel*, 2> panels = {new PlotPanel, new PlotPanel};
  for (PlotPanel* panel : panels) layout->addWidget(panel);
  window.resize(1000, 400);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  std::array<const QLineSeries*, 2> lines{};
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const int series = panels[p]->addSeries("live");
    lines[p] = qobject_cast<QLineSeries*>(panels[p]->chart()->series().value(series));
    ASSERT_NE(lines[p], nullptr);
    panels[p]->appendPoints(series, {QPointF(0.0, 1.0), QPointF(1.0, 2.0)});
  }
  auto drawn = [&] {
    return static_cast<int>(lines[0]->count() > 0) + static_cast<int>(lines[1]->count() > 0);
  };
  EXPECT_EQ(drawn(), 0);
  QCoreApplication::processEvents();
  EXPECT_EQ(drawn(), 1);
  EXPECT_TRUE(QTest::qWaitFor([&] { return drawn() == 2; }, 1000));
}

TEST(PlotPanel, ClearRemovesEverySeriesAndIgnoresUnknownHandles) {
  PlotPanel panel;
  const int series = panel.addSeries("x");
  panel.appendPoint(series, 0.0, 1.0);
  panel.appendPoint(42, 0.0, 1.0);
  panel.appendPoint(-1, 0.0, 1.0);
  EXPECT_EQ(panel.pointCount(series), 1);
  panel.clear();
  EXPECT_EQ(panel.seriesCount(), 0);
  EXPECT_EQ(panel.pointCount(series), 0);
}

TEST(PlotPanel, AppendsBatchesInOrderAndGrowsTheAxesToFitThem) {
  PlotPanel panel;
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const int series = panel.addSeries("x");
  panel.appendPoints(series, {QPointF(0.0, 1.0), QPointF(1.0, -2.0)});
  panel.appendPoints(series, {QPointF(2.0, 3.0)});
  panel.appendPoints(series, {});
  panel.appendPoints(7, {QPointF(5.0, 5.0)});
  EXPECT_EQ(panel.pointCount(series), 3);
  EXPECT_EQ(panel.drawnPointCount(series), 3);  // drawn, and the axes grown, at once on request

  const auto* time_axis = qobject_cast<QValueAxis*>(panel.chart()->axes(Qt::Horizontal).value(0));
  const auto* value_axis = qobject_cast<QValueAxis*>(panel.chart()->axes(Qt::Vertical).value(0));
  ASSERT_NE(time_axis, nullptr);
  ASSERT_NE(value_axis, nullptr);
  EXPECT_DOUBLE_EQ(time_axis->min(), 0.0);
  EXPECT_DOUBLE_EQ(time_axis->max(), 2.0);
  EXPECT_LE(value_axis->min(), -2.0);
  EXPECT_GE(value_axis->max(), 3.0);
}

// the labels an axis shows for its ticks, formatted as QValueAxis formats them
QStringList tickLabels(const QValueAxis& axis) {
  QStringList labels;
  const QByteArray format = axis.labelFormat().toLatin1();
  for (double t = axis.tickAnchor(); t <= axis.max() + 1e-9 * axis.tickInterval();
       t += axis.tickInterval()) {
    if (t >= axis.min() - 1e-9 * axis.tickInterval()) labels << QString::asprintf(format, t);
  }
  return labels;
}

TEST(NiceTicks, StepsAreOneTwoOrFiveTimesAPowerOfTenWithTheDecimalsTheyNeed) {
  const NiceTicks seconds = niceTicks(0.0, 29.9);  // the labels 7.47 / 14.9 / 29.9 of old
  EXPECT_DOUBLE_EQ(seconds.interval, 10.0);
  EXPECT_EQ(seconds.label_format, "%.0f");
  const NiceTicks small = niceTicks(-0.00196, 0.000123);  // "0.000123", "-0.00196"
  EXPECT_DOUBLE_EQ(small.interval, 0.0005);
  EXPECT_EQ(small.label_format, "%.4f");
  EXPECT_LE(small.anchor, -0.00196);
  EXPECT_DOUBLE_EQ(niceTicks(0.0, 1.0).interval, 0.2);
  EXPECT_DOUBLE_EQ(niceTicks(-1.0, 1.0).interval, 0.5);
  EXPECT_EQ(niceTicks(1.2e-5, 1.9e-5).label_format, "%.6f");  // micrometres: 0.000012
  EXPECT_EQ(niceTicks(0.0, 3e-7).label_format, "%.0e");       // scientific below that
  EXPECT_EQ(niceTicks(1e6, 3e6).label_format, "%.1e");        // and from a million on
}

TEST(PlotPanel, TickLabelsAreNiceNumbersThatNeverRepeat) {
  PlotPanel panel;
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const auto* time_axis = qobject_cast<QValueAxis*>(panel.chart()->axes(Qt::Horizontal).value(0));
  const auto* value_axis = qobject_cast<QValueAxis*>(panel.chart()->axes(Qt::Vertical).value(0));
  ASSERT_NE(time_axis, nullptr);
  ASSERT_NE(value_axis, nullptr);
  const auto expectReadable = [](const QValueAxis& axis) {
    const QStringList labels = tickLabels(axis);
    EXPECT_GE(labels.size(), 3) << labels.join(" ").toStdString();
    EXPECT_FALSE(axis.labelsTruncated()) << labels.join(" ").toStdString();
    EXPECT_EQ(QSet<QString>(labels.begin(), labels.end()).size(), labels.size())
        << "repeated labels: " << labels.join(" ").toStdString();
    for (const QString& label : labels) {
      EXPECT_LE(label.size(), 9) << label.toStdString();
      EXPECT_FALSE(label.contains("e-1")) << "rounding noise shown: " << label.toStdString();
    }
  };
  // the statics residual: one Newton iteration at log10 |R| = -17.2
  const int residual = panel.addSeries("statics residual log10 |R|");
  panel.appendPoints(residual, {QPointF(1.0, -17.2)});
  ASSERT_EQ(panel.drawnPointCount(residual), 1);  // drawn now, the axes grown
  EXPECT_NEAR(value_axis->min(), -17.2, 0.1);
  expectReadable(*time_axis);
  expectReadable(*value_axis);
  panel.clear();
  // a tip that moves by micrometres around zero, over 0.3 s
  const int tip = panel.addSeries("tip y [m]");
  panel.appendPoints(tip, {QPointF(0.0, 0.0), QPointF(0.15, -1.96e-6), QPointF(0.3, 1.23e-6)});
  ASSERT_EQ(panel.drawnPointCount(tip), 3);
  EXPECT_LT(value_axis->max() - value_axis->min(), 1e-5);
  expectReadable(*time_axis);
  expectReadable(*value_axis);
  EXPECT_EQ(tickLabels(*time_axis).front(), "0.0");
  // zoomed in, the ticks follow the new range
  panel.chart()->zoomIn();
  expectReadable(*time_axis);
  QTest::qWait(50);  // laid out and painted
  EXPECT_FALSE(value_axis->labelsTruncated());
  test::saveScreenshot(panel.grab().toImage(), "plot_nice_ticks");
}

TEST(TimelineBar, OffersSpeedsFromATenthToTenTimes) {
  TimelineBar bar;
  const auto* speeds = bar.findChild<QComboBox*>();
  ASSERT_NE(speeds, nullptr);
  EXPECT_DOUBLE_EQ(speeds->itemData(0).toDouble(), 0.1);
  EXPECT_DOUBLE_EQ(speeds->itemData(speeds->count() - 1).toDouble(), 10.0);
  EXPECT_DOUBLE_EQ(bar.speed(), 1.0);
}

TEST(TimelineBar, ScrubbingRequestsFramesButSettingTheFrameDoesNot) {
  TimelineBar bar;
  bar.setFrameCount(10);
  QSignalSpy requested(&bar, &TimelineBar::frameRequested);
  bar.findChild<QSlider*>()->setValue(5);
  ASSERT_EQ(requested.count(), 1);
  EXPECT_EQ(requested.front().front().toInt(), 5);
  bar.setCurrentFrame(7);
  EXPECT_EQ(requested.count(), 1);
  EXPECT_EQ(bar.currentFrame(), 7);
}

TEST(TimelineBar, PlaybackRunsToTheLastFrameAndStops) {
  TimelineBar bar;
  bar.setFrameCount(6);
  QSignalSpy requested(&bar, &TimelineBar::frameRequested);
  bar.setPlaying(true);
  EXPECT_TRUE(bar.isPlaying());
  QTRY_VERIFY_WITH_TIMEOUT(!bar.isPlaying(), 3000);
  EXPECT_EQ(bar.currentFrame(), 5);
  // playback follows the clock: frames due within one display tick are skipped, never repeated
  EXPECT_GE(requested.count(), 1);
  EXPECT_LE(requested.count(), 5);
  EXPECT_EQ(requested.back().front().toInt(), 5);
}

TEST(TimelineBar, CannotPlayASingleFrame) {
  TimelineBar bar;
  bar.setFrameCount(1);
  bar.setPlaying(true);
  EXPECT_FALSE(bar.isPlaying());
}

}  // namespace
}  // namespace tendril
