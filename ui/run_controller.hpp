#pragma once
// The studio's dynamics runs and what they leave: the run on its simulation thread, its
// finite-difference twin (whose tips become the tip-error reference), the progress bar, the
// plots fed as frames arrive, the timeline and viewport replay, and recordings saved and opened.
//
// The results shown belong to the description that produced them, kept with the model they were
// computed with. After an edit they stay viewable but stale (setCurrentDescription): the charts
// say so, the timeline replays them on their own model, and undoing back to that description
// makes them current again. Only a new run, a reopened recording or another file replaces them.

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"
#include "ui/frame_metatype.hpp"
#include "ui/tip_reference.hpp"

class QProgressBar;
class QWidget;

namespace tendril {

class ResultPlots;
class SimulationController;
class StaticsRunner;
struct StaticsOutcome;
class TimelineBar;
class ViewportWidget;

class RunController : public QObject {
  Q_OBJECT

 public:
  /// \brief Drives \p plots, \p timeline, \p viewport and \p progress_bar (none owned).
  RunController(ResultPlots* plots, TimelineBar* timeline, ViewportWidget* viewport,
                QProgressBar* progress_bar, QObject* parent = nullptr);
  /// \brief Joins both runs before the panels they feed go away.
  ~RunController() override;

  [[nodiscard]] SimulationController* simulation() const { return simulation_; }
  /// \brief The finite-difference twin of the current run (idle when the comparison is off).
  [[nodiscard]] SimulationController* referenceSimulation() const { return twin_; }
  void setOptions(const SimulationOptions& options) { options_ = options; }
  [[nodiscard]] const SimulationOptions& options() const { return options_; }
  /// \brief About this many frames of each run get a Jacobian mismatch sample (0: none).
  void setJacobianMismatchSamples(int samples);
  [[nodiscard]] int jacobianMismatchSamples() const { return mismatch_samples_; }
  /// \brief Each dynamics run starts a twin with the finite-difference Jacobian whose tips
  ///        become the reference when it completes.
  void setCompareWithFiniteDifferences(bool on) { compare_fd_ = on; }
  [[nodiscard]] bool comparesWithFiniteDifferences() const { return compare_fd_; }

  /// \brief Starts the dynamics of \p model (built from \p description) from rest, replacing the
  ///        results shown; a twin too when compared with finite differences.
  void start(ModelPtr model, const RobotDescription& description);
  /// \brief Asks the run, its twin and a statics solve to stop (what they computed is kept).
  void cancel();
  /// \brief Stops them now, keeping what they computed (an edit while running).
  void stop();
  /// \brief Drops the runs and every result (a statics solve replaces them, or the window
  ///        closes), silently.
  void discard();
  [[nodiscard]] bool isRunning() const;
  [[nodiscard]] bool isTwinRunning() const;

  /// \brief Solves the statics of \p model (built from \p description) on a worker thread; its
  ///        equilibrium and residual history replace the results when it ends.
  void startStatics(ModelPtr model, const RobotDescription& description);
  [[nodiscard]] bool isStaticsRunning() const;

  /// \brief Before \p edit changes the model while a run, its twin or a statics solve holds it,
  ///        asks what becomes of it ("editDuringRunBox", a child of \p parent): stop it, keeping
  ///        what it computed ("stopRunButton") / keep it running on the old model
  ///        ("keepRunningButton") / cancel the edit ("cancelEditButton"). Nothing is asked when
  ///        none runs. \return false when the edit is cancelled
  bool askBeforeEdit(QWidget* parent, const QString& edit);

  /// \brief Keeps the first tip's path of the recording as the reference. \return false
  ///        without frames with a tip
  bool useRunAsReference();
  void clearReference() { reference_.clear(); }
  [[nodiscard]] const TipReference& reference() const { return reference_; }

  /// \brief Writes the finished recording as a trajectory CSV for the model it was computed
  ///        with. \return false with lastError() on failure
  bool saveRecording(const QString& path);
  /// \brief Reads a trajectory CSV of \p model (built from \p description) as the results.
  ///        \return false with lastError() when it does not fit
  bool openRecording(ModelPtr model, const RobotDescription& description, const QString& path);
  [[nodiscard]] QString lastError() const { return last_error_; }

  /// \brief Shows recorded frame \p frame (as the timeline slider does), on the model it was
  ///        computed with.
  void showRecordedFrame(int frame);
  /// \brief The description being edited is now \p robot: the results are stale unless they were
  ///        computed from it (then the frame on the timeline is shown again).
  void setCurrentDescription(const RobotDescription& robot);
  /// \brief Replaces the results by a statics solve of \p model (built from \p description): its
  ///        equilibrium \p frame as a one-frame recording and the residual of every iteration.
  void showStaticsResult(const RobotDescription& description, ModelPtr model, FramePtr frame,
                         const std::vector<double>& residual_history);
  [[nodiscard]] bool resultsAreStale() const { return stale_; }

 signals:
  void statusMessage(const QString& text, int timeout_ms);
  void errorRaised(const QString& title, const QString& message, const QString& detail);
  /// \brief A run or its twin started or ended (Run and Cancel follow it).
  void runningChanged();
  /// \brief The results became stale (an edit) or current (undo, or a new run).
  void staleChanged(bool stale);

 private:
  void onFrame(const FramePtr& frame);
  void onProgress(double fraction);
  void onTwinProgress(double fraction);
  void showProgress(double fraction, const QString& what);
  void hideProgress();
  void onFinished(const QString& message, bool ok);
  void onTwinFinished(const QString& message, bool ok);
  void endTwinWait(const QString& why);
  void adoptResults(const RobotDescription& description, ModelPtr model);
  void showOnResultsModel(const FramePtr& frame);
  void onStaticsFinished(const StaticsOutcome& outcome);

  SimulationController* simulation_ = nullptr;
  SimulationController* twin_ = nullptr;  // its own worker thread
  StaticsRunner* statics_ = nullptr;
  RobotDescription statics_description_;  // what the running statics solve was built from
  ModelPtr statics_model_;
  RobotDescription current_description_;  // the one being edited
  ResultPlots* plots_ = nullptr;
  TimelineBar* timeline_ = nullptr;
  ViewportWidget* viewport_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;
  SimulationOptions options_;
  // off by default, for the worker's sake: a sample costs 6 n inverse dynamics (central
  // differences), about 60 ms on the 80-DoF underwater robot, so 50 samples about double that
  // model's run time (docs/PERFORMANCE.md, "Studio")
  int mismatch_samples_ = 0;
  bool compare_fd_ = false;
  TipReference reference_;
  QElapsedTimer run_clock_;   // wall time since Run, for the remaining-time estimate
  QElapsedTimer plot_clock_;  // since the plots last caught up with a run
  // the results shown, with the description and model they were computed from
  std::optional<RobotDescription> results_description_;
  ModelPtr results_model_;
  bool stale_ = false;
  bool viewport_on_results_ = true;  // the viewport draws the results' description
  QString last_error_;
};

}  // namespace tendril
