#include "ui/result_plots.hpp"

#include <QChart>
#include <QDockWidget>
#include <QLegend>
#include <QList>
#include <QPointF>
#include <algorithm>
#include <cmath>

#include "core/sim/simulation.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/simulation_controller.hpp"

namespace tendril {

namespace {

// "controller: variable" labels without the controller's name when one controller writes them all:
// a legend with little room shows what tells the series apart
QString withoutSharedController(const std::string& label, const std::vector<std::string>& all) {
  const std::size_t colon = label.find(": ");
  if (colon == std::string::npos) return QString::fromStdString(label);
  const std::string prefix = label.substr(0, colon + 2);
  for (const std::string& other : all) {
    if (other.compare(0, prefix.size(), prefix) != 0) return QString::fromStdString(label);
  }
  return QString::fromStdString(label.substr(prefix.size()));
}

const char* const kTipAxes[] = {"x", "y", "z"};

// the energy plot's series, in legend order
constexpr const char* kEnergyNames[] = {QT_TR_NOOP("kinetic"), QT_TR_NOOP("gravitational"),
                                        QT_TR_NOOP("elastic"), QT_TR_NOOP("dissipated"),
                                        QT_TR_NOOP("total")};

std::array<double, 5> energySeriesValues(const Energies& energy) {
  return {energy.kinetic, energy.gravitational, energy.elastic, energy.dissipated,
          energy.kinetic + energy.gravitational + energy.elastic};
}

QString tipErrorName(ReferenceSource source) {
  return source == ReferenceSource::FiniteDifferenceRun
             ? ResultPlots::tr("vs finite-difference run")
             : ResultPlots::tr("vs reference");
}

// why the tip-error plot is empty, until it has points
QString noReferenceHint() {
  return ResultPlots::tr(
      "No reference: Simulate > Compare with Finite-Difference Reference, or Use Run as "
      "Reference");
}

PlotPanel* makePlot(QWidget* window, const char* name, const QString& tip = {}) {
  auto* plot = new PlotPanel(window);
  plot->setObjectName(name);
  if (!tip.isEmpty()) plot->setToolTip(tip + plot->toolTip());
  return plot;
}

}  // namespace

ResultPlots::ResultPlots(QWidget* window) : QObject(window) {
  tips_ = makePlot(window, "plotPanel");
  energy_ = makePlot(window, "energyPlot");
  tip_error_ = makePlot(
      window, "tipErrorPlot",
      tr("log10 of the distance [m] between the first tip of this run and the reference's at "
         "the same time (Simulate > Use Run as Reference, or Compare with Finite-Difference "
         "Reference); an exact match is drawn at -15.\n"));
  tip_error_->chart()->legend()->hide();  // one series in a narrow tab: the plot needs room
  control_ = makePlot(window, "controlPlot",
                      tr("Each controlled variable: its set-point (dashed) and its value over time "
                         "[rad, m].\n"));
  control_inputs_ = makePlot(window, "controlInputsPlot",
                             tr("The inputs the controllers write over time [N m, N].\n"));
  mismatch_ = makePlot(
      window, "mismatchPlot",
      tr("log10 of |J_analytic - J_fd| / |J_fd| for the inverse-dynamics derivatives dID/dq "
         "and dID/dv, sampled along the run (Simulate > Sample Jacobian Mismatch).\n"));
  clear();
}

void ResultPlots::setDocks(QDockWidget* tip_error, QDockWidget* mismatch) {
  tip_error_dock_ = tip_error;
  mismatch_dock_ = mismatch;
}

void ResultPlots::clear() {
  tips_->clear();
  tips_->setAxisTitles(tr("t [s]"), tr("tip [m]"));
  energy_->clear();
  energy_->setAxisTitles(tr("t [s]"), tr("energy [J]"));
  tip_error_->clear();
  tip_error_->setAxisTitles(tr("t [s]"), tr("log10 error [m]"));
  tip_error_->setPlaceholderText(noReferenceHint());
  mismatch_->clear();
  mismatch_->setAxisTitles(tr("t [s]"), tr("log10 mismatch"));
  control_->clear();
  control_->setAxisTitles(tr("t [s]"), tr("controlled value"));
  control_inputs_->clear();
  control_inputs_->setAxisTitles(tr("t [s]"), tr("input [N m, N]"));
  setpoint_series_.clear();
  value_series_.clear();
  input_series_.clear();
  tip_series_ = {-1, -1, -1};
  energy_series_ = {-1, -1, -1, -1, -1};
  tip_error_series_ = -1;
  mismatch_series_ = {-1, -1};
  plotted_frames_ = 0;
  plotted_mismatch_ = 0;
  awaiting_twin_ = false;
  setStale(false);
}

void ResultPlots::prepareForRun(const TipReference& reference, bool awaiting_twin, bool mismatch) {
  clear();
  for (std::size_t axis = 0; axis < tip_series_.size(); ++axis) {
    tip_series_[axis] = tips_->addSeries(tr("tip %1 [m]").arg(kTipAxes[axis]));
  }
  for (std::size_t kind = 0; kind < energy_series_.size(); ++kind) {
    energy_series_[kind] = energy_->addSeries(tr(kEnergyNames[kind]));
  }
  if (mismatch) {
    mismatch_series_ = {mismatch_->addSeries(tr("dID/dq")), mismatch_->addSeries(tr("dID/dv"))};
    if (mismatch_dock_ != nullptr) mismatch_dock_->raise();
  }
  // the series of a twin still computing the reference is filled when it completes
  if (!reference.empty() || awaiting_twin) {
    tip_error_series_ = tip_error_->addSeries(
        tipErrorName(awaiting_twin ? ReferenceSource::FiniteDifferenceRun : reference.source()));
    if (awaiting_twin) {
      tip_error_->setPlaceholderText(tr("Computing the finite-difference reference run..."));
      awaiting_twin_ = true;
    }
    if (tip_error_dock_ != nullptr) tip_error_dock_->raise();
  }
}

void ResultPlots::prepareControllers(const std::vector<std::string>& variables,
                                     const std::vector<std::string>& inputs) {
  if (variables.empty()) {
    const QString hint = tr("No controllers: Model > Add Controller");
    control_->setPlaceholderText(hint);
    control_inputs_->setPlaceholderText(hint);
    return;
  }
  for (const std::string& label : variables) {
    const QString name = withoutSharedController(label, variables);
    setpoint_series_.push_back(control_->addSeries(tr("%1 set-point").arg(name)));
    value_series_.push_back(control_->addSeries(name));
    control_->setSeriesCompanion(setpoint_series_.back(), value_series_.back());
  }
  for (const std::string& label : inputs)
    input_series_.push_back(control_inputs_->addSeries(withoutSharedController(label, inputs)));
  if (control_dock_ != nullptr) control_dock_->raise();
}

// [set-points..., values..., inputs...] of a frame that records them all
void ResultPlots::appendControl(const Frame& frame, std::vector<QList<QPointF>>& points) const {
  const ControlRecord& record = frame.control;
  const auto n = static_cast<Eigen::Index>(setpoint_series_.size());
  const auto m = static_cast<Eigen::Index>(input_series_.size());
  if (record.setpoints.size() != n || record.inputs.size() != m) return;
  for (Eigen::Index k = 0; k < n; ++k) {
    points[static_cast<std::size_t>(k)].append({frame.t, record.setpoints(k)});
    points[static_cast<std::size_t>(n + k)].append({frame.t, record.values(k)});
  }
  for (Eigen::Index k = 0; k < m; ++k)
    points[static_cast<std::size_t>(2 * n + k)].append({frame.t, record.inputs(k)});
}

// one batch per series: the chart relayouts once per delivery, not once per point
void ResultPlots::appendFrames(const SimulationController& run, std::size_t count,
                               const TipReference& reference) {
  std::array<QList<QPointF>, 3> tip_points;
  std::array<QList<QPointF>, 5> energy_points;
  QList<QPointF> error_points;
  std::vector<QList<QPointF>> control_points(2 * setpoint_series_.size() + input_series_.size());
  for (; plotted_frames_ < count; ++plotted_frames_) {
    const FramePtr frame = run.frameAt(plotted_frames_);
    if (!frame) {
      break;
    }
    if (!control_points.empty()) appendControl(*frame, control_points);
    if (!frame->tips_W.empty()) {
      for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
        tip_points[axis].append({frame->t, frame->tips_W.front()[static_cast<Eigen::Index>(axis)]});
      }
      if (tip_error_series_ >= 0) {
        if (const auto point = reference.errorPoint(*frame)) error_points.append(*point);
      }
    }
    const std::array<double, 5> energies = energySeriesValues(frame->energy);
    for (std::size_t kind = 0; kind < energies.size(); ++kind) {
      energy_points[kind].append({frame->t, energies[kind]});
    }
  }
  for (std::size_t axis = 0; axis < tip_points.size(); ++axis) {
    tips_->appendPoints(tip_series_[axis], tip_points[axis]);
  }
  for (std::size_t kind = 0; kind < energy_points.size(); ++kind) {
    energy_->appendPoints(energy_series_[kind], energy_points[kind]);
  }
  tip_error_->appendPoints(tip_error_series_, error_points);
  const std::size_t n = setpoint_series_.size();
  for (std::size_t k = 0; k < n; ++k) {
    control_->appendPoints(setpoint_series_[k], control_points[k]);
    control_->appendPoints(value_series_[k], control_points[n + k]);
  }
  for (std::size_t k = 0; k < input_series_.size(); ++k)
    control_inputs_->appendPoints(input_series_[k], control_points[2 * n + k]);
  appendMismatch(run, count);
}

// the samples of frames up to count; log10 so that 1e-12 and 1e-3 share an axis
void ResultPlots::appendMismatch(const SimulationController& run, std::size_t count) {
  if (mismatch_series_[0] < 0) {
    return;
  }
  const std::vector<JacobianMismatchSample> samples = run.jacobianMismatchSince(plotted_mismatch_);
  auto log_of = [](double mismatch) { return std::log10(std::max(mismatch, 1e-16)); };
  std::array<QList<QPointF>, 2> points;
  for (const JacobianMismatchSample& sample : samples) {
    if (sample.frame >= count) {
      break;
    }
    if (std::isfinite(sample.dID_dq)) points[0].append({sample.t, log_of(sample.dID_dq)});
    if (std::isfinite(sample.dID_dv)) points[1].append({sample.t, log_of(sample.dID_dv)});
    ++plotted_mismatch_;
  }
  mismatch_->appendPoints(mismatch_series_[0], points[0]);
  mismatch_->appendPoints(mismatch_series_[1], points[1]);
}

void ResultPlots::replotTipError(const SimulationController& run, const TipReference& reference,
                                 double cursor_t) {
  awaiting_twin_ = false;
  tip_error_->clear();
  tip_error_->setAxisTitles(tr("t [s]"), tr("log10 error [m]"));
  tip_error_->setPlaceholderText(noReferenceHint());
  tip_error_series_ = tip_error_->addSeries(tipErrorName(reference.source()));
  QList<QPointF> points;
  for (std::size_t i = 0; i < plotted_frames_; ++i) {
    const FramePtr frame = run.frameAt(i);
    if (!frame) continue;
    if (const auto point = reference.errorPoint(*frame)) points.append(*point);
  }
  tip_error_->appendPoints(tip_error_series_, points);
  tip_error_->setCursorTime(cursor_t);
  if (tip_error_dock_ != nullptr) tip_error_dock_->raise();
}

void ResultPlots::endTipErrorWait(const QString& why) {
  if (!awaiting_twin_) return;
  awaiting_twin_ = false;
  tip_error_->setPlaceholderText(why);
}

void ResultPlots::explainEmptyMismatch() {
  if (mismatch_series_[0] < 0) {
    mismatch_->setPlaceholderText(tr("Sampling is off: Simulate > Sample Jacobian Mismatch"));
  }
}

void ResultPlots::setCursors(double t) {
  for (PlotPanel* plot : {tips_, energy_, tip_error_, mismatch_, control_, control_inputs_}) {
    plot->setCursorTime(t);
  }
}

void ResultPlots::showStaticsResidual(const std::vector<double>& history) {
  clear();
  tips_->setAxisTitles(tr("Newton iteration"), tr("log10 |R|"));
  const int series = tips_->addSeries(tr("statics residual log10 |R|"));
  QList<QPointF> points;
  for (std::size_t i = 0; i < history.size(); ++i) {
    points.append({static_cast<double>(i + 1), std::log10(std::max(history[i], 1e-300))});
  }
  tips_->appendPoints(series, points);
}

QString ResultPlots::staleTitle() {
  return tr("Results of an earlier version of the model \u2014 Run to update");
}

void ResultPlots::setStale(bool stale) {
  for (PlotPanel* plot : {tips_, energy_, tip_error_, mismatch_, control_, control_inputs_}) {
    plot->chart()->setTitle(stale ? staleTitle() : QString());
  }
}

}  // namespace tendril
