#include "core/sim/simulation_run.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/data.hpp"
#include "core/algorithm/derivative_check.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/thread_priority.hpp"

namespace tendril {

void FrameRecording::append(FramePtr frame) {
  const std::lock_guard lock(mutex_);
  frames_.push_back(std::move(frame));
}

std::size_t FrameRecording::size() const {
  const std::lock_guard lock(mutex_);
  return frames_.size();
}

FramePtr FrameRecording::at(std::size_t i) const {
  const std::lock_guard lock(mutex_);
  return frames_.at(i);
}

FramePtr FrameRecording::back() const {
  const std::lock_guard lock(mutex_);
  return frames_.empty() ? nullptr : frames_.back();
}

SimulationRun::SimulationRun(ModelPtr model, SimulationOptions options,
                             FrameCallback on_frame_published, FinishCallback on_finished,
                             Eigen::VectorXd q0, Eigen::VectorXd v0, RunDiagnostics diagnostics)
    : model_(std::move(model)),
      options_(std::move(options)),
      on_frame_published_(std::move(on_frame_published)),
      on_finished_(std::move(on_finished)),
      diagnostics_(diagnostics) {
  // spread the mismatch samples evenly over the frames the run is expected to record
  if (diagnostics_.jacobian_mismatch_samples > 0 && options_.output_interval > 0.0) {
    const double span = std::max(options_.t_end - options_.t_start, 0.0);
    const auto frames = static_cast<std::uint64_t>(span / options_.output_interval + 1e-9) + 1;
    const auto samples = static_cast<std::uint64_t>(diagnostics_.jacobian_mismatch_samples);
    mismatch_stride_ = std::max<std::uint64_t>(1, (frames + samples - 1) / samples);
  }
  thread_ = std::thread(&SimulationRun::run, this, std::move(q0), std::move(v0));
}

SimulationRun::~SimulationRun() {
  cancel();
  wait();
}

void SimulationRun::cancel() {
  cancel_requested_ = true;
}

void SimulationRun::wait() {
  if (thread_.joinable()) {
    thread_.join();
  }
}

bool SimulationRun::isFinished() const {
  return finished_;
}

FramePtr SimulationRun::latestFrame() const {
  const std::lock_guard lock(state_mutex_);
  return latest_;
}

const FrameRecording& SimulationRun::recording() const {
  return recording_;
}

std::optional<RunOutcome> SimulationRun::outcome() const {
  const std::lock_guard lock(state_mutex_);
  return outcome_;
}

const SimulationOptions& SimulationRun::options() const {
  return options_;
}

std::vector<JacobianMismatchSample> SimulationRun::jacobianMismatch() const {
  const std::lock_guard lock(state_mutex_);
  return mismatch_;
}

std::vector<JacobianMismatchSample> SimulationRun::jacobianMismatchSince(std::size_t first) const {
  const std::lock_guard lock(state_mutex_);
  if (first >= mismatch_.size()) {
    return {};
  }
  return {mismatch_.begin() + static_cast<std::ptrdiff_t>(first), mismatch_.end()};
}

double SimulationRun::progress() const {
  const FramePtr latest = latestFrame();
  const double span = options_.t_end - options_.t_start;
  if (!latest || span <= 0.0) {
    return latest ? 1.0 : 0.0;
  }
  return std::clamp((latest->t - options_.t_start) / span, 0.0, 1.0);
}

void SimulationRun::run(Eigen::VectorXd q0, Eigen::VectorXd v0) {
  // the interface that watches this run must never wait for a core behind it
  lowerCurrentThreadPriority();
  if (q0.size() == 0) q0 = Eigen::VectorXd::Zero(model_->nq);
  if (v0.size() == 0) v0 = Eigen::VectorXd::Zero(model_->nv);
  // makeFrame's workspace: simulate() keeps its own, so this one is touched by no other code
  Data frame_data(*model_);
  RunOutcome outcome;
  try {
    const SimulationResult result =
        simulate(*model_, q0, v0, options_, nullptr,
                 [this, &frame_data](const Sample& sample) { return publish(frame_data, sample); });
    outcome.completed = result.completed;
    outcome.cancelled = result.cancelled;
    outcome.message = result.message;
    outcome.statistics = result.statistics;
  } catch (const std::exception& error) {
    // nothing may escape a thread; a failure is reported like a divergence
    outcome.message = std::string("failed: ") + error.what();
  }
  finish(std::move(outcome));
}

bool SimulationRun::publish(Data& data, const Sample& sample) {
  const std::uint64_t index = recording_.size();
  if (mismatch_stride_ > 0 && index % mismatch_stride_ == 0) {
    sampleJacobianMismatch(data, sample, index);
  }
  FramePtr frame =
      makeFrame(*model_, data, sample.q, sample.v, sample.t, index, sample.energy, sample.control);
  recording_.append(frame);
  {
    const std::lock_guard lock(state_mutex_);
    latest_ = frame;
  }
  if (on_frame_published_) {
    on_frame_published_(frame);
  }
  return !cancel_requested_;
}

// the derivatives at the sampled state, with the acceleration of the unconstrained dynamics there
void SimulationRun::sampleJacobianMismatch(Data& data, const Sample& sample, std::uint64_t frame) {
  try {
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(model_->nv);
    actuationForces(*model_, sample.q, sample.t, tau);
    Eigen::VectorXd a = forwardDynamics(*model_, data, sample.q, sample.v, tau, sample.t);
    if (!a.allFinite()) {
      a.setZero();
    }
    DerivativeCheckOptions check_options;
    check_options.forward_dynamics = false;
    const DerivativeCheck check =
        checkDerivatives(*model_, data, sample.q, sample.v, a, sample.t, check_options);
    JacobianMismatchSample mismatch{frame, sample.t, std::nan(""), std::nan("")};
    for (const DerivativeBlockCheck& block : check.blocks) {
      if (block.name == "dID/dq") {
        mismatch.dID_dq = block.relative_mismatch;
      } else if (block.name == "dID/dv") {
        mismatch.dID_dv = block.relative_mismatch;
      }
    }
    const std::lock_guard lock(state_mutex_);
    mismatch_.push_back(mismatch);
  } catch (const std::exception&) {
    // a diagnostic that cannot be computed here (a degenerate state) is skipped, not fatal
  }
}

void SimulationRun::finish(RunOutcome outcome) {
  {
    const std::lock_guard lock(state_mutex_);
    outcome_ = outcome;
  }
  finished_ = true;
  if (on_finished_) {
    on_finished_(outcome);
  }
}

}  // namespace tendril
