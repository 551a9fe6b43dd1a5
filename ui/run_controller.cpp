#include "ui/run_controller.hpp"

#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <cmath>
#include <exception>
#include <utility>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/io/results_io.hpp"
#include "core/sim/controllers.hpp"
#include "core/sim/make_frame.hpp"
#include "ui/main_window_internal.hpp"
#include "ui/panels/plot_panel.hpp"
#include "ui/panels/timeline_bar.hpp"
#include "ui/result_plots.hpp"
#include "ui/run_messages.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/statics_runner.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

using main_window_detail::kStatusMessageMs;
using main_window_detail::toPath;

namespace {

// while a run streams, the plots catch up with it this often (the viewport: every frame delivered)
constexpr int kStreamingPlotIntervalMs = 100;
// before this much wall time the rate is dominated by the solver's start-up
constexpr qint64 kRemainingTimeWarmUpMs = 1000;

QString durationText(double seconds) {
  const auto whole = static_cast<qint64>(std::ceil(seconds));
  if (whole < 60) {
    return RunController::tr("%1 s").arg(whole);
  }
  if (whole < 3600) {
    return RunController::tr("%1 min %2 s").arg(whole / 60).arg(whole % 60);
  }
  return RunController::tr("%1 h %2 min").arg(whole / 3600).arg(whole / 60 % 60);
}

// "42 %", and after the warm-up "42 % \u2014 3 s left": elapsed (1 - f) / f at a constant rate
QString progressText(double fraction, qint64 elapsed_ms) {
  const QString percent = RunController::tr("%1 %").arg(std::lround(100.0 * fraction));
  if (elapsed_ms < kRemainingTimeWarmUpMs || fraction <= 0.0 || fraction >= 1.0) {
    return percent;
  }
  const double remaining_s = 1e-3 * static_cast<double>(elapsed_ms) * (1.0 - fraction) / fraction;
  return RunController::tr("%1 \u2014 %2 left").arg(percent, durationText(remaining_s));
}

}  // namespace

RunController::RunController(ResultPlots* plots, TimelineBar* timeline, ViewportWidget* viewport,
                             QProgressBar* progress_bar, QObject* parent)
    : QObject(parent),
      plots_(plots),
      timeline_(timeline),
      viewport_(viewport),
      progress_bar_(progress_bar) {
  simulation_ = new SimulationController(this);
  connect(simulation_, &SimulationController::frameAvailable, this, &RunController::onFrame);
  connect(simulation_, &SimulationController::progress, this, &RunController::onProgress);
  connect(simulation_, &SimulationController::runFinished, this, &RunController::onFinished);
  twin_ = new SimulationController(this);
  twin_->setObjectName("referenceSimulation");
  connect(twin_, &SimulationController::progress, this, &RunController::onTwinProgress);
  connect(twin_, &SimulationController::runFinished, this, &RunController::onTwinFinished);
  connect(timeline_, &TimelineBar::frameRequested, this, &RunController::showRecordedFrame);
  statics_ = new StaticsRunner(this);
  connect(statics_, &StaticsRunner::finished, this, &RunController::onStaticsFinished);
}

RunController::~RunController() {
  simulation_->discard();
  twin_->discard();
}

void RunController::setJacobianMismatchSamples(int samples) {
  mismatch_samples_ = std::max(samples, 0);
}

bool RunController::isRunning() const {
  return simulation_->isRunning();
}

bool RunController::isTwinRunning() const {
  return twin_->isRunning();
}

void RunController::start(ModelPtr model, const RobotDescription& description) {
  twin_->discard();  // a twin of the previous run
  // a run that already uses finite differences, or no Jacobian (RK4), would only be repeated
  const bool uses_analytic_jacobian =
      options_.jacobian == JacobianKind::Analytic && options_.integrator != IntegratorKind::Rk4;
  const bool twin = compare_fd_ && uses_analytic_jacobian;
  if (twin) {
    reference_.clear();  // this run's twin will be the reference
  }
  adoptResults(description, model);
  plots_->prepareForRun(reference_, twin, mismatch_samples_ > 0);
  plots_->prepareControllers(controlledVariableLabels(*model), controllerInputLabels(*model));
  plot_clock_.invalidate();
  timeline_->setFrameCount(0);
  timeline_->setFrameInterval(options_.output_interval);
  RunDiagnostics diagnostics;
  diagnostics.jacobian_mismatch_samples = mismatch_samples_;
  simulation_->start(model, options_, diagnostics);
  if (twin) {
    // the same model and options but the central-difference Jacobian
    SimulationOptions fd_options = options_;
    fd_options.jacobian = JacobianKind::FiniteDifference;
    twin_->start(std::move(model), fd_options);
  }
  run_clock_.start();
  showProgress(0.0, QString());
  emit runningChanged();
  emit statusMessage(compare_fd_ && !twin ? tr("Simulating... (no finite-difference reference: "
                                               "this run uses no analytical Jacobian)")
                                          : tr("Simulating..."),
                     0);
}

void RunController::cancel() {
  simulation_->cancel();
  twin_->cancel();
  statics_->cancel();
  endTwinWait(
      tr("No tip error: the run was cancelled before its finite-difference reference "
         "finished."));
}

void RunController::stop() {
  simulation_->stop();
  twin_->stop();
  statics_->stop();
}

void RunController::discard() {
  simulation_->discard();
  twin_->discard();
  endTwinWait(
      tr("No tip error: the run was stopped before its finite-difference reference "
         "finished."));
  hideProgress();
  results_description_.reset();
  results_model_.reset();
  if (stale_) {
    stale_ = false;
    emit staleChanged(false);
  }
  plots_->clear();
  timeline_->setFrameCount(1);
  emit runningChanged();
}

// the results of a new run (or recording) belong to the description edited now
void RunController::adoptResults(const RobotDescription& description, ModelPtr model) {
  results_description_ = description;
  results_model_ = std::move(model);
  viewport_on_results_ = true;
  if (stale_) {
    stale_ = false;
    emit staleChanged(false);
  }
}

void RunController::showStaticsResult(const RobotDescription& description, ModelPtr model,
                                      FramePtr frame, const std::vector<double>& residual_history) {
  std::vector<FramePtr> frames;
  if (frame) frames.push_back(std::move(frame));
  simulation_->setRecording(std::move(frames));
  adoptResults(description, std::move(model));
  plots_->showStaticsResidual(residual_history);
  timeline_->setFrameCount(1);
  timeline_->setCurrentFrame(0);
}

void RunController::setCurrentDescription(const RobotDescription& robot) {
  current_description_ = robot;
  // the caller has just drawn robot at rest
  viewport_on_results_ = !results_description_ || *results_description_ == robot;
  const bool stale = results_description_ && !(*results_description_ == robot);
  plots_->setStale(stale);
  if (stale != stale_) {
    stale_ = stale;
    emit staleChanged(stale);
  }
  if (!stale && simulation_->frameCount() > 0) {
    showRecordedFrame(timeline_->currentFrame());  // undone back to them: the results again
  }
}

// frames arrive coalesced: show only this one, and plot every recorded frame up to it; while the
// run streams, the plots (whose axes relayout and whose lines repaint with every batch) catch up
// only every kStreamingPlotIntervalMs, and completely when it ends. A user who holds the timeline
// slider or has scrubbed back keeps the frame they chose (and the plot cursors stay there too).
// Frames of a run on an earlier version of the model leave the edited model in view
void RunController::onFrame(const FramePtr& frame) {
  const auto count = static_cast<std::size_t>(frame->index) + 1;
  const bool follows_live_end = timeline_->extendLive(static_cast<int>(count)) && !stale_;
  if (follows_live_end) {
    viewport_->showFrame(frame);
  }
  if (simulation_->isRunning() && plot_clock_.isValid() &&
      plot_clock_.elapsed() < kStreamingPlotIntervalMs) {
    return;
  }
  plot_clock_.start();
  plots_->appendFrames(*simulation_, count, reference_);
  if (follows_live_end) {
    plots_->setCursors(frame->t);
  }
}

void RunController::onProgress(double fraction) {
  showProgress(fraction, QString());
}

// once the run itself has finished, the bar follows its finite-difference twin
void RunController::onTwinProgress(double fraction) {
  if (!simulation_->isRunning()) {
    showProgress(fraction, tr("FD reference "));
  }
}

void RunController::showProgress(double fraction, const QString& what) {
  progress_bar_->setRange(0, 100);
  progress_bar_->setValue(static_cast<int>(std::lround(100.0 * fraction)));
  // a literal text: QProgressBar would replace a %p, %v or %m in it, and there is none
  progress_bar_->setFormat(what + progressText(fraction, run_clock_.elapsed()));
  progress_bar_->setTextVisible(true);
  progress_bar_->setVisible(true);
}

void RunController::hideProgress() {
  progress_bar_->setTextVisible(false);
  progress_bar_->setRange(0, 100);
  progress_bar_->setVisible(false);
}

void RunController::onFinished(const QString& message, bool ok) {
  if (!twin_->isRunning()) {
    hideProgress();
  }
  emit runningChanged();
  plots_->explainEmptyMismatch();
  const std::optional<RunOutcome> outcome = simulation_->lastOutcome();
  const bool cancelled = outcome && outcome->cancelled;
  if (!ok && twin_->isRunning()) {
    // a twin of a run that stopped has nothing left to be compared with
    twin_->cancel();
    endTwinWait(cancelled ? tr("No tip error: the run was cancelled before its "
                               "finite-difference reference finished.")
                          : tr("No tip error: the run stopped before its finite-difference "
                               "reference finished."));
  }
  if (!ok && !cancelled) {
    const StopExplanation why = explainStop(message);
    emit errorRaised(tr("Simulation stopped"), why.text, why.detail);
    return;
  }
  const QString stale_note = stale_ ? tr(", of an earlier version of the model") : QString();
  emit statusMessage(
      tr("Simulation %1 (%2 frames%3)").arg(message).arg(timeline_->frameCount()).arg(stale_note),
      kStatusMessageMs);
}

// a failed twin is reported and leaves no reference; the run itself is unaffected
void RunController::onTwinFinished(const QString& message, bool ok) {
  if (!simulation_->isRunning()) {
    hideProgress();
  }
  emit runningChanged();
  const std::optional<RunOutcome> outcome = twin_->lastOutcome();
  if (outcome && outcome->cancelled) {
    endTwinWait(tr("No tip error: the finite-difference reference run was cancelled."));
    return;
  }
  if (!ok) {
    last_error_ = tr("The finite-difference reference %1: no tip error is plotted.")
                      .arg(withoutFinalStop(message));
    emit statusMessage(last_error_, 0);
    endTwinWait(last_error_);
    return;
  }
  // the user's own choice made while the twin ran wins: a reference taken by hand, or the
  // comparison switched off
  if (reference_.source() == ReferenceSource::Recording || !compare_fd_) {
    return;
  }
  reference_.take(*twin_, ReferenceSource::FiniteDifferenceRun);
  const FramePtr shown = simulation_->frameAt(static_cast<std::size_t>(timeline_->currentFrame()));
  plots_->replotTipError(*simulation_, reference_, shown ? shown->t : 0.0);
  emit statusMessage(tr("Tip error against the finite-difference run: %1 frames")
                         .arg(plots_->tipError()->pointCount(plots_->tipErrorSeries())),
                     kStatusMessageMs);
}

void RunController::endTwinWait(const QString& why) {
  plots_->endTipErrorWait(why);
}

// ---- statics

bool RunController::isStaticsRunning() const {
  return statics_->isRunning();
}

void RunController::startStatics(ModelPtr model, const RobotDescription& description) {
  discard();  // the statics' results replace the run's
  statics_description_ = description;
  statics_model_ = model;
  StaticsOptions options;
  options.analytic_jacobian = options_.jacobian == JacobianKind::Analytic;
  statics_->start(std::move(model), options);
  progress_bar_->setRange(0, 0);  // an indefinite sweep: no progress to report
  progress_bar_->setVisible(true);
  emit runningChanged();
  emit statusMessage(tr("Solving the statics..."), 0);
}

void RunController::onStaticsFinished(const StaticsOutcome& outcome) {
  hideProgress();
  emit runningChanged();
  if (!outcome.error.empty()) {
    emit errorRaised(tr("Statics failed"), QString::fromStdString(outcome.error), QString());
    return;
  }
  showStaticsResult(statics_description_, statics_model_, outcome.frame,
                    outcome.result.residual_history);
  setCurrentDescription(current_description_);  // the equilibrium, unless the model changed since
  const QString stale_note = stale_ ? tr(", of an earlier version of the model") : QString();
  const QString figures = tr("%1 iterations (|R| = %2%3)")
                              .arg(outcome.result.iterations)
                              .arg(outcome.result.residual_norm, 0, 'g', 3)
                              .arg(stale_note);
  if (outcome.cancelled) {
    emit statusMessage(tr("Statics cancelled after %1").arg(figures), kStatusMessageMs);
  } else if (!outcome.result.converged) {
    emit errorRaised(tr("Statics did not converge"), QString::fromStdString(outcome.result.message),
                     QString());
  } else {
    emit statusMessage(tr("Statics converged in %1").arg(figures), kStatusMessageMs);
  }
}

// ---- an edit while a computation holds the model

bool RunController::askBeforeEdit(QWidget* parent, const QString& edit) {
  const bool statics = statics_->isRunning();
  if (!statics && !simulation_->isRunning() && !twin_->isRunning()) {
    return true;
  }
  const QString what = statics ? tr("The statics solve") : tr("A simulation");
  QMessageBox box(QMessageBox::Question, tr("A computation is running"),
                  tr("%1 of the current model is running. %2 changes the model.").arg(what, edit),
                  QMessageBox::NoButton, parent);
  box.setObjectName("editDuringRunBox");
  box.setInformativeText(
      tr("Stop it and keep what it computed so far, or let it finish on the model as it was "
         "(its results are then marked as those of an earlier version)."));
  QPushButton* stop_button = box.addButton(tr("Stop and Edit"), QMessageBox::DestructiveRole);
  stop_button->setObjectName("stopRunButton");
  QPushButton* keep = box.addButton(tr("Keep Running on the Old Model"), QMessageBox::AcceptRole);
  keep->setObjectName("keepRunningButton");
  QPushButton* cancel_edit = box.addButton(tr("Cancel the Edit"), QMessageBox::RejectRole);
  cancel_edit->setObjectName("cancelEditButton");
  box.setDefaultButton(cancel_edit);
  box.exec();
  if (box.clickedButton() == stop_button) {
    stop();
    return true;
  }
  return box.clickedButton() == keep;
}

// ---- reference and recordings

bool RunController::useRunAsReference() {
  if (!reference_.take(*simulation_, ReferenceSource::Recording)) {
    return false;
  }
  emit statusMessage(
      tr("Later runs plot their tip error against this run (%1 frames)").arg(reference_.size()),
      kStatusMessageMs);
  return true;
}

// a stale frame is drawn with the description (cables, loads) of the model it was computed with
void RunController::showOnResultsModel(const FramePtr& frame) {
  if (!viewport_on_results_ && results_description_) {
    viewport_->setDescription(*results_description_);
    viewport_on_results_ = true;
  }
  viewport_->showFrame(frame);
}

void RunController::showRecordedFrame(int frame) {
  timeline_->setCurrentFrame(frame);
  if (FramePtr recorded = simulation_->frameAt(static_cast<std::size_t>(frame))) {
    showOnResultsModel(recorded);
    plots_->setCursors(recorded->t);
  }
}

bool RunController::saveRecording(const QString& path) {
  if (simulation_->frameCount() == 0 || simulation_->isRunning() || !results_model_) {
    last_error_ = tr("there is no finished recording to save");
    return false;
  }
  try {
    std::vector<Sample> samples;
    samples.reserve(simulation_->frameCount());
    for (std::size_t i = 0; i < simulation_->frameCount(); ++i) {
      const FramePtr frame = simulation_->frameAt(i);
      Sample& sample = samples.emplace_back(Sample{frame->t, frame->q, frame->v, frame->energy});
      sample.control = frame->control;
    }
    saveTrajectoryCsv(*results_model_, samples, toPath(path));
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    return false;
  }
  emit statusMessage(tr("Saved the recording to %1").arg(path), kStatusMessageMs);
  return true;
}

bool RunController::openRecording(ModelPtr model, const RobotDescription& description,
                                  const QString& path) {
  std::vector<FramePtr> frames;
  try {
    const std::vector<Sample> samples = loadTrajectoryCsv(*model, toPath(path));
    Data data(*model);
    for (std::size_t row = 0; row < samples.size(); ++row) {
      const Sample& s = samples[row];
      frames.push_back(makeFrame(*model, data, s.q, s.v, s.t, row, s.energy, s.control));
    }
  } catch (const std::exception& error) {
    last_error_ = QString::fromStdString(error.what());
    return false;
  }
  if (frames.empty()) {
    last_error_ = tr("the recording holds no frames");
    return false;
  }
  const auto count = static_cast<int>(frames.size());
  twin_->discard();  // its run is replaced; it reports no end, so end it here
  hideProgress();
  simulation_->setRecording(std::move(frames));
  adoptResults(description, std::move(model));
  plots_->prepareForRun(reference_, false, mismatch_samples_ > 0);
  plots_->prepareControllers(controlledVariableLabels(*results_model_),
                             controllerInputLabels(*results_model_));
  plots_->appendFrames(*simulation_, simulation_->frameCount(), reference_);
  timeline_->setFrameCount(count);
  timeline_->setFrameInterval(count > 1 ? (simulation_->frameAt(1)->t - simulation_->frameAt(0)->t)
                                        : options_.output_interval);
  showRecordedFrame(0);
  emit runningChanged();
  emit statusMessage(tr("Opened a recording of %1 frames").arg(count), kStatusMessageMs);
  return true;
}

}  // namespace tendril
