#pragma once
// Qt adapter over core's SimulationRun (style.md section 3.4): the worker thread only raises a
// flag and posts one queued call; frames and the outcome are read on the GUI thread, at most
// kFrameIntervalMs apart while a run streams (a frame budget: the GUI thread draws at most 40
// frames per second and the event loop stays free between them, however fast the worker is).

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/simulation_run.hpp"
#include "ui/frame_metatype.hpp"

class QTimer;

namespace tendril {

class SimulationController : public QObject {
  Q_OBJECT

 public:
  /// \brief Shortest time between two frameAvailable signals of a running simulation [ms]; the
  ///        last frame of a run is delivered at once.
  static constexpr int kFrameIntervalMs = 25;

  explicit SimulationController(QObject* parent = nullptr);
  /// \brief Cancels and joins a running simulation.
  ~SimulationController() override;

  /// \brief Starts a run of \p model from rest, replacing (cancelling) any previous run and its
  ///        recording.
  void start(ModelPtr model, const SimulationOptions& options,
             const RunDiagnostics& diagnostics = {});
  /// \brief Asks a running simulation to stop; runFinished follows.
  void cancel();
  /// \brief Cancels a running simulation and waits for it: the frames recorded so far stay, and
  ///        runFinished is emitted before this returns (nothing happens when idle).
  void stop();
  /// \brief Cancels, joins and forgets the current run and its recording, without signals (used
  ///        when the model it simulates goes away).
  void discard();

  [[nodiscard]] bool isRunning() const;
  /// \brief Frames recorded by the current (or last) run.
  [[nodiscard]] std::size_t frameCount() const;
  /// \brief Recorded frame \p i, or nullptr when out of range.
  [[nodiscard]] FramePtr frameAt(std::size_t i) const;
  /// \brief Jacobian mismatch samples of the current run so far (none for a loaded recording).
  [[nodiscard]] std::vector<JacobianMismatchSample> jacobianMismatch() const;
  /// \brief The samples from index \p first on (what a plot has not seen yet).
  [[nodiscard]] std::vector<JacobianMismatchSample> jacobianMismatchSince(std::size_t first) const;
  /// \brief Replaces any run by frames read from a file (a reopened recording), replayed like a
  ///        finished run's.
  void setRecording(std::vector<FramePtr> frames);

  /// \brief How the last run ended, once it has.
  [[nodiscard]] std::optional<RunOutcome> lastOutcome() const;

 signals:
  /// \brief The latest frame. Deliveries are coalesced: the recording may have grown by several
  ///        frames since the previous signal (frameCount() tells how many there are).
  void frameAvailable(tendril::FramePtr frame);
  /// \brief The run ended: \p ok when it reached t_end; \p message names the time reached.
  void runFinished(QString message, bool ok);
  /// \brief Fraction of the simulated interval covered so far, in [0, 1].
  void progress(double fraction);

 private:
  void onFramePublished();                       // worker thread
  void onRunFinished(std::uint64_t generation);  // worker thread
  void deliverLatestFrame();                     // GUI thread
  void reportFinish();                           // GUI thread, once the worker has ended

  std::unique_ptr<SimulationRun> run_;
  std::vector<FramePtr> loaded_;  // a reopened recording (no run_ then)
  std::uint64_t generation_ = 0;  // tells a stale queued call from an old run
  std::atomic<bool> notify_pending_{false};
  bool running_ = false;
  QTimer* delivery_timer_ = nullptr;  // a delivery that came too soon after the last one
  QElapsedTimer last_delivery_;
};

}  // namespace tendril
