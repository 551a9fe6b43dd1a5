#pragma once
// File > Open Sweep Result: a window over one sweep's results CSV (docs/SWEEPS.md). A scatter
// plots a column chosen for x (a parameter, or any numeric column) against an output, one point
// per successful case; hovering a point names its case and values, clicking it asks for that
// case's model (caseRequested, which the main window opens). Beside the plot: how many cases the
// file holds, the cases that failed with their messages (double-click one to open its model), and,
// above everything, the note of a partial result.

#include <QDialog>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/study/sweep_result.hpp"

class QChartView;
class QComboBox;
class QLabel;
class QScatterSeries;
class QTableWidget;
class QValueAxis;

namespace tendril {

class SweepResultDialog : public QDialog {
  Q_OBJECT

 public:
  /// \brief Shows \p result, read from \p csv_path (named in the title and the status messages).
  SweepResultDialog(SweepResult result, const QString& csv_path, QWidget* parent = nullptr);

  [[nodiscard]] const SweepResult& result() const { return result_; }
  /// \brief The CSV's file name, e.g. "grid.csv".
  [[nodiscard]] QString sweepName() const;

  [[nodiscard]] QComboBox* xCombo() const { return x_combo_; }
  [[nodiscard]] QComboBox* yCombo() const { return y_combo_; }
  [[nodiscard]] QChartView* chartView() const { return chart_view_; }
  /// \brief The plotted points: one per successful case whose x and y are numbers.
  [[nodiscard]] QScatterSeries* scatter() const { return scatter_; }
  /// \brief The case (the CSV's "case" column) of scatter point \p point.
  [[nodiscard]] int caseOfPoint(int point) const;
  /// \brief The tooltip of scatter point \p point: its case and the values of its columns.
  [[nodiscard]] QString pointDescription(int point) const;
  /// \brief Failed cases: case and message, one row each.
  [[nodiscard]] QTableWidget* failedCases() const { return failed_table_; }
  /// \brief The partial-result note (hidden for a complete result).
  [[nodiscard]] QLabel* partialNote() const { return partial_label_; }
  [[nodiscard]] QLabel* summary() const { return summary_label_; }

 signals:
  /// \brief The user asked for the model of case \p index (a click on a point or a failed case).
  void caseRequested(int index);

 private:
  void buildLayout();
  void fillColumnCombos();
  void fillFailedCases();
  void replot();
  void fitAxis(QValueAxis* axis, double low, double high, const QString& title);
  void onPointHovered(const QPointF& point, bool entered);
  void onPointClicked(const QPointF& point);
  /// \brief The scatter point nearest to \p value (in the plot's pixels), or -1.
  [[nodiscard]] int nearestPoint(const QPointF& value) const;
  [[nodiscard]] bool isSuccess(std::size_t row) const;
  [[nodiscard]] QString columnName(int column) const;

  SweepResult result_;
  QString csv_path_;
  int success_column_ = -1;
  int message_column_ = -1;
  std::vector<int> point_rows_;  ///< table row of each scatter point

  QComboBox* x_combo_ = nullptr;  ///< item data: the table column
  QComboBox* y_combo_ = nullptr;
  QChartView* chart_view_ = nullptr;
  QScatterSeries* scatter_ = nullptr;
  QValueAxis* x_axis_ = nullptr;
  QValueAxis* y_axis_ = nullptr;
  QTableWidget* failed_table_ = nullptr;
  QLabel* partial_label_ = nullptr;
  QLabel* summary_label_ = nullptr;
};

}  // namespace tendril
