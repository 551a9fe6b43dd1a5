#include "ui/statics_runner.hpp"

#include <QThread>
#include <exception>
#include <utility>

#include "core/algorithm/data.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/thread_priority.hpp"

namespace tendril {

StaticsRunner::StaticsRunner(QObject* parent) : QObject(parent) {}

StaticsRunner::~StaticsRunner() {
  if (thread_ != nullptr) {
    *cancel_ = true;
    thread_->wait();
    delete thread_;
  }
}

bool StaticsRunner::start(ModelPtr model, StaticsOptions options) {
  if (thread_ != nullptr) {
    return false;
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  options.cancel = cancel_.get();
  auto outcome = std::make_shared<StaticsOutcome>();
  outcome_ = outcome;
  // the worker alone owns its Data; the model is immutable and shared, the flag kept alive by it
  thread_ = QThread::create([model = std::move(model), options, outcome, cancel = cancel_] {
    lowerCurrentThreadPriority();  // QThread::LowPriority does nothing on Linux
    try {
      Data data(*model);
      const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model->nq);
      outcome->result = solveStatics(*model, data, q0, options);
      outcome->frame = makeFrame(*model, data, outcome->result.q, Eigen::VectorXd::Zero(model->nv),
                                 options.time);
    } catch (const std::exception& error) {
      outcome->error = error.what();
    }
    outcome->cancelled = *cancel;
  });
  const std::uint64_t generation = ++generation_;
  connect(thread_, &QThread::finished, this, [this, outcome, generation] {
    if (generation == generation_) onThreadFinished(outcome);
  });
  thread_->start();
  return true;
}

void StaticsRunner::cancel() {
  if (cancel_) {
    *cancel_ = true;
  }
}

void StaticsRunner::stop() {
  if (thread_ == nullptr) {
    return;
  }
  *cancel_ = true;
  thread_->wait();
  ++generation_;  // the queued report of this solve is made here, not when it arrives
  onThreadFinished(outcome_);
}

void StaticsRunner::onThreadFinished(std::shared_ptr<StaticsOutcome> outcome) {
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
  outcome_.reset();
  emit finished(*outcome);
}

}  // namespace tendril
