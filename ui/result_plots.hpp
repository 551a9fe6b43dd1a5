#pragma once
// The plots of a run's results and their series: the first tip's x, y, z, the energies, the
// tip error against a reference, the Jacobian mismatch, and the controllers' set-points beside
// their values and the inputs they write. Frames are appended in batches (one
// chart relayout per delivery); when the results belong to an earlier version of the model every
// chart's title says so (setStale).

#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "ui/tip_reference.hpp"

class QDockWidget;
class QWidget;

namespace tendril {

class PlotPanel;
class SimulationController;

class ResultPlots : public QObject {
  Q_OBJECT

 public:
  /// \brief Creates the four plots (object names plotPanel, energyPlot, tipErrorPlot,
  ///        mismatchPlot) as children of \p window, which docks them.
  explicit ResultPlots(QWidget* window);

  [[nodiscard]] PlotPanel* tips() const { return tips_; }
  [[nodiscard]] PlotPanel* energy() const { return energy_; }
  [[nodiscard]] PlotPanel* tipError() const { return tip_error_; }
  [[nodiscard]] PlotPanel* mismatch() const { return mismatch_; }
  /// \brief Each controlled variable's set-point (dashed) and value over time.
  [[nodiscard]] PlotPanel* control() const { return control_; }
  /// \brief The inputs the controllers write over time.
  [[nodiscard]] PlotPanel* controlInputs() const { return control_inputs_; }
  /// \brief The dock raised when a run has controllers.
  void setControlDock(QDockWidget* dock) { control_dock_ = dock; }
  /// \brief Series for the controllers of a run (core/sim/controllers.hpp labels): a set-point
  ///        and a value per controlled variable, one per written input; none, and a hint, without.
  void prepareControllers(const std::vector<std::string>& variables,
                          const std::vector<std::string>& inputs);
  /// \brief The docks raised when a run plots a tip error or mismatch samples.
  void setDocks(QDockWidget* tip_error, QDockWidget* mismatch);

  /// \brief Every plot empty, with its axis titles.
  void clear();
  /// \brief Empty series for a run: a tip-error series when \p reference has a path or
  ///        \p awaiting_twin (its twin computes the reference), mismatch series when \p mismatch.
  void prepareForRun(const TipReference& reference, bool awaiting_twin, bool mismatch);
  /// \brief Appends the recorded frames of \p run up to \p count (and their mismatch samples).
  void appendFrames(const SimulationController& run, std::size_t count,
                    const TipReference& reference);
  [[nodiscard]] std::size_t plottedFrames() const { return plotted_frames_; }
  /// \brief Redraws the tip error of the frames plotted so far against a new \p reference, with
  ///        the cursor at \p cursor_t.
  void replotTipError(const SimulationController& run, const TipReference& reference,
                      double cursor_t);
  /// \brief The tip-error plot stops saying the reference is being computed and says \p why
  ///        there is none (only while it waits).
  void endTipErrorWait(const QString& why);
  /// \brief The mismatch plot says why it stays empty when sampling was off.
  void explainEmptyMismatch();
  void setCursors(double t);
  /// \brief log10 of the residual of every Newton iteration of a statics solve.
  void showStaticsResidual(const std::vector<double>& history);
  /// \brief Marks every chart as showing results of an earlier version of the model (or not).
  void setStale(bool stale);

  [[nodiscard]] std::array<int, 5> energySeries() const { return energy_series_; }
  [[nodiscard]] std::array<int, 2> mismatchSeries() const { return mismatch_series_; }
  [[nodiscard]] int tipErrorSeries() const { return tip_error_series_; }
  [[nodiscard]] const std::vector<int>& setpointSeries() const { return setpoint_series_; }
  [[nodiscard]] const std::vector<int>& valueSeries() const { return value_series_; }
  [[nodiscard]] const std::vector<int>& inputSeries() const { return input_series_; }

  /// \brief The chart title of stale results.
  [[nodiscard]] static QString staleTitle();

 private:
  void appendMismatch(const SimulationController& run, std::size_t count);
  void appendControl(const struct Frame& frame, std::vector<QList<QPointF>>& points) const;

  PlotPanel* tips_ = nullptr;
  PlotPanel* energy_ = nullptr;
  PlotPanel* tip_error_ = nullptr;
  PlotPanel* mismatch_ = nullptr;
  PlotPanel* control_ = nullptr;
  PlotPanel* control_inputs_ = nullptr;
  QDockWidget* control_dock_ = nullptr;
  std::vector<int> setpoint_series_, value_series_, input_series_;
  QDockWidget* tip_error_dock_ = nullptr;
  QDockWidget* mismatch_dock_ = nullptr;
  std::array<int, 3> tip_series_{-1, -1, -1};  // plot handles of the first tip's x, y, z
  std::array<int, 5> energy_series_{-1, -1, -1, -1, -1};
  int tip_error_series_ = -1;
  std::array<int, 2> mismatch_series_{-1, -1};
  std::size_t plotted_frames_ = 0;    // recorded frames already appended
  std::size_t plotted_mismatch_ = 0;  // mismatch samples already appended
  bool awaiting_twin_ = false;  // the tip-error plot says the twin's reference is being computed
};

}  // namespace tendril
