#pragma once
// A dynamics simulation on a thread of its own. The thread alone owns its Data and state; the only
// things that leave it are immutable frames (FramePtr) and, once, the outcome of the run.

#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/frame.hpp"
#include "core/sim/simulation.hpp"

namespace tendril {

/// \brief Append-only list of frames, safe to read from any thread while one thread appends.
class FrameRecording {
 public:
  void append(FramePtr frame);
  [[nodiscard]] std::size_t size() const;
  /// \brief Frame \p i (0 <= i < size()); frames never change once appended.
  [[nodiscard]] FramePtr at(std::size_t i) const;
  /// \brief The last frame, or nullptr while empty.
  [[nodiscard]] FramePtr back() const;

 private:
  mutable std::mutex mutex_;
  std::vector<FramePtr> frames_;
};

/// \brief How a run ended.
struct RunOutcome {
  bool completed = false;  ///< reached t_end
  bool cancelled = false;  ///< stopped by cancel()
  std::string message;     ///< "completed", "cancelled at t = ...", "diverged after t = ..."
  SimulationStatistics statistics;
};

/// \brief Runs simulate() on a worker thread, turning each sample into a Frame that it records and
///        publishes as the latest frame. Starts in the constructor; the destructor cancels and
///        joins, so a SimulationRun never outlives its thread.
class SimulationRun {
 public:
  /// \brief Called on the worker thread after each frame is recorded; keep it short.
  using FrameCallback = std::function<void(const FramePtr&)>;
  /// \brief Called once on the worker thread when the run has ended, after the last frame.
  using FinishCallback = std::function<void(const RunOutcome&)>;

  /// \param[in] q0, v0 initial state (empty: zero, the reference configuration at rest)
  SimulationRun(ModelPtr model, SimulationOptions options, FrameCallback on_frame_published = {},
                FinishCallback on_finished = {}, Eigen::VectorXd q0 = {}, Eigen::VectorXd v0 = {});
  ~SimulationRun();

  SimulationRun(const SimulationRun&) = delete;
  SimulationRun& operator=(const SimulationRun&) = delete;

  /// \brief Asks the worker to stop after the sample being computed (any thread, returns at once).
  void cancel();
  /// \brief Blocks until the worker has ended.
  void wait();
  /// \brief Whether the worker has ended (outcome() is then set).
  [[nodiscard]] bool isFinished() const;

  /// \brief Most recently published frame, or nullptr before the first (any thread).
  [[nodiscard]] FramePtr latestFrame() const;
  /// \brief Every published frame in time order (any thread).
  [[nodiscard]] const FrameRecording& recording() const;
  /// \brief The outcome once finished, otherwise nothing.
  [[nodiscard]] std::optional<RunOutcome> outcome() const;
  [[nodiscard]] const SimulationOptions& options() const;
  /// \brief Fraction of [t_start, t_end] covered by the latest frame, in [0, 1].
  [[nodiscard]] double progress() const;

 private:
  void run(Eigen::VectorXd q0, Eigen::VectorXd v0);
  bool publish(Data& data, const Sample& sample);
  void finish(RunOutcome outcome);

  const ModelPtr model_;
  const SimulationOptions options_;
  const FrameCallback on_frame_published_;
  const FinishCallback on_finished_;

  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> finished_{false};
  FrameRecording recording_;
  mutable std::mutex state_mutex_;  // guards latest_ and outcome_
  FramePtr latest_;
  std::optional<RunOutcome> outcome_;
  std::thread thread_;  // last: starts after every member it uses is constructed
};

}  // namespace tendril
