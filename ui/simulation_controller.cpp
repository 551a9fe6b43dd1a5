#include "ui/simulation_controller.hpp"

#include <QMetaObject>
#include <QTimer>
#include <utility>

namespace tendril {

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<tendril::FramePtr>();
  delivery_timer_ = new QTimer(this);
  delivery_timer_->setObjectName("frameDeliveryTimer");
  delivery_timer_->setSingleShot(true);
  delivery_timer_->setTimerType(Qt::PreciseTimer);
  connect(delivery_timer_, &QTimer::timeout, this, &SimulationController::deliverLatestFrame);
}

// joins before QObject's destructor runs, so no worker callback can reach a half-destroyed object
SimulationController::~SimulationController() {
  run_.reset();
}

void SimulationController::start(ModelPtr model, const SimulationOptions& options,
                                 const RunDiagnostics& diagnostics) {
  discard();
  const std::uint64_t generation = ++generation_;
  running_ = true;
  run_ = std::make_unique<SimulationRun>(
      std::move(model), options, [this](const FramePtr&) { onFramePublished(); },
      [this, generation](const RunOutcome&) { onRunFinished(generation); }, Eigen::VectorXd(),
      Eigen::VectorXd(), diagnostics);
}

void SimulationController::cancel() {
  if (run_) {
    run_->cancel();
  }
}

void SimulationController::stop() {
  if (!running_ || !run_) {
    return;
  }
  run_->cancel();
  run_->wait();
  ++generation_;  // the finish the worker queued is reported here instead
  reportFinish();
}

void SimulationController::discard() {
  ++generation_;  // a finish already queued by the discarded run is then ignored
  run_.reset();
  loaded_.clear();
  running_ = false;
  // the worker has been joined: no call is posted meanwhile, and the next run starts afresh
  delivery_timer_->stop();
  last_delivery_.invalidate();
  notify_pending_ = false;
}

void SimulationController::setRecording(std::vector<FramePtr> frames) {
  discard();
  loaded_ = std::move(frames);
}

bool SimulationController::isRunning() const {
  return running_;
}

std::size_t SimulationController::frameCount() const {
  return run_ ? run_->recording().size() : loaded_.size();
}

FramePtr SimulationController::frameAt(std::size_t i) const {
  if (i >= frameCount()) {
    return nullptr;
  }
  return run_ ? run_->recording().at(i) : loaded_[i];
}

std::vector<JacobianMismatchSample> SimulationController::jacobianMismatch() const {
  return run_ ? run_->jacobianMismatch() : std::vector<JacobianMismatchSample>{};
}

std::vector<JacobianMismatchSample> SimulationController::jacobianMismatchSince(
    std::size_t first) const {
  return run_ ? run_->jacobianMismatchSince(first) : std::vector<JacobianMismatchSample>{};
}

std::optional<RunOutcome> SimulationController::lastOutcome() const {
  return run_ ? run_->outcome() : std::nullopt;
}

// one queued call per burst of frames: the GUI thread never falls behind a fast simulation
void SimulationController::onFramePublished() {
  if (!notify_pending_.exchange(true)) {
    QMetaObject::invokeMethod(this, &SimulationController::deliverLatestFrame,
                              Qt::QueuedConnection);
  }
}

void SimulationController::onRunFinished(std::uint64_t generation) {
  QMetaObject::invokeMethod(
      this,
      [this, generation] {
        if (generation != generation_ || !run_) {
          return;
        }
        run_->wait();  // the worker has only this callback left to return from
        reportFinish();
      },
      Qt::QueuedConnection);
}

void SimulationController::reportFinish() {
  running_ = false;
  deliverLatestFrame();
  const std::optional<RunOutcome> outcome = run_->outcome();
  emit runFinished(QString::fromStdString(outcome->message), outcome->completed);
}

void SimulationController::deliverLatestFrame() {
  // too soon after the last delivery: come back when the budget allows; notify_pending_ stays set,
  // so the worker posts nothing meanwhile
  if (running_ && last_delivery_.isValid()) {
    const qint64 wait = kFrameIntervalMs - last_delivery_.elapsed();
    if (wait > 0) {
      if (!delivery_timer_->isActive()) {
        delivery_timer_->start(static_cast<int>(wait));
      }
      return;
    }
  }
  delivery_timer_->stop();
  notify_pending_ = false;  // first, so a frame published from now on posts a new call
  if (!run_) {
    return;
  }
  last_delivery_.start();
  if (FramePtr frame = run_->latestFrame()) {
    emit frameAvailable(frame);
  }
  emit progress(run_->progress());
}

}  // namespace tendril
