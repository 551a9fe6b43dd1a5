#pragma once
// A dynamics simulation on a thread of its own. The thread alone owns its Data and state; the only
// things that leave it are immutable frames (FramePtr) and, once, the outcome of the run.

#include <Eigen/Core>
#include <atomic>
#include <cstddef>
#include <cstdint>
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

/// \brief How far the analytical inverse-dynamics derivatives are from central finite differences
///        at one recorded frame: ||J_analytic - J_fd||_F / ||J_fd||_F (checkDerivatives).
struct JacobianMismatchSample {
  std::uint64_t frame = 0;  ///< index of the recorded frame it was computed at
  double t = 0.0;           ///< [s]
  double dID_dq = 0.0;      ///< mismatch of dID/dq
  double dID_dv = 0.0;      ///< mismatch of dID/dv
};

/// \brief Diagnostics the worker computes beside the frames (never part of SimulationOptions,
///        which only steer the integration).
struct RunDiagnostics {
  /// about this many frames, spread evenly over [t_start, t_end], get a Jacobian mismatch sample
  /// (0: none); each costs a few inverse dynamics per coordinate on the worker thread
  int jacobian_mismatch_samples = 0;
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
  /// \param[in] diagnostics what else to compute along the run (jacobianMismatch())
  SimulationRun(ModelPtr model, SimulationOptions options, FrameCallback on_frame_published = {},
                FinishCallback on_finished = {}, Eigen::VectorXd q0 = {}, Eigen::VectorXd v0 = {},
                RunDiagnostics diagnostics = {});
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
  /// \brief Jacobian mismatch samples so far, in frame order (any thread). A frame's sample is
  ///        stored before the frame itself is published.
  [[nodiscard]] std::vector<JacobianMismatchSample> jacobianMismatch() const;
  /// \brief The samples from index \p first on (none when there are no more), so that a reader
  ///        that has seen the first ones does not copy them again.
  [[nodiscard]] std::vector<JacobianMismatchSample> jacobianMismatchSince(std::size_t first) const;
  /// \brief Fraction of [t_start, t_end] covered by the latest frame, in [0, 1].
  [[nodiscard]] double progress() const;

 private:
  void run(Eigen::VectorXd q0, Eigen::VectorXd v0);
  bool publish(Data& data, const Sample& sample);
  void sampleJacobianMismatch(Data& data, const Sample& sample, std::uint64_t frame);
  void finish(RunOutcome outcome);

  const ModelPtr model_;
  const SimulationOptions options_;
  const FrameCallback on_frame_published_;
  const FinishCallback on_finished_;
  const RunDiagnostics diagnostics_;
  std::uint64_t mismatch_stride_ = 0;  // every this many frames a mismatch sample (0: none)

  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> finished_{false};
  FrameRecording recording_;
  mutable std::mutex state_mutex_;  // guards latest_, outcome_ and mismatch_
  FramePtr latest_;
  std::vector<JacobianMismatchSample> mismatch_;
  std::optional<RunOutcome> outcome_;
  std::thread thread_;  // last: starts after every member it uses is constructed
};

}  // namespace tendril
