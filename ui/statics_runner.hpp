#pragma once
// The studio's statics solve on a worker thread of its own: the worker owns its Data and reads
// an immutable shared Model; Cancel raises a flag the solve checks before each Newton iteration.
// The outcome comes back on the GUI thread (finished).

#include <QObject>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "core/algorithm/statics.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"

class QThread;

namespace tendril {

/// \brief What a statics solve produced: the equilibrium (or last iterate) and its frame, or an
///        error; and whether it was cancelled.
struct StaticsOutcome {
  StaticsResult result;
  FramePtr frame;
  std::string error;
  bool cancelled = false;
};

class StaticsRunner : public QObject {
  Q_OBJECT

 public:
  explicit StaticsRunner(QObject* parent = nullptr);
  /// \brief Cancels and joins a running solve.
  ~StaticsRunner() override;

  /// \brief Solves the statics of \p model from q = 0 with \p options (its cancel flag is this
  ///        runner's). \return false when a solve is already running
  bool start(ModelPtr model, StaticsOptions options);
  /// \brief Asks the solve to stop before its next Newton iteration; finished follows with the
  ///        last iterate.
  void cancel();
  /// \brief Cancels and waits for the worker; its outcome is still reported (finished).
  void stop();
  [[nodiscard]] bool isRunning() const { return thread_ != nullptr; }

 signals:
  /// \brief The solve ended (converged, failed, cancelled or threw); the runner is idle again.
  void finished(const tendril::StaticsOutcome& outcome);

 private:
  void onThreadFinished(std::shared_ptr<StaticsOutcome> outcome);

  QThread* thread_ = nullptr;
  std::shared_ptr<StaticsOutcome> outcome_;    // of the running solve
  std::uint64_t generation_ = 0;               // tells a stale queued report from the current one
  std::shared_ptr<std::atomic<bool>> cancel_;  // set by cancel(), read by the solve
};

}  // namespace tendril
