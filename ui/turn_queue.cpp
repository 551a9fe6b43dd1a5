#include "ui/turn_queue.hpp"

#include <QCoreApplication>
#include <utility>

namespace tendril {

TurnQueue& TurnQueue::instance() {
  static QPointer<TurnQueue> queue;
  if (!queue) {
    queue = new TurnQueue(QCoreApplication::instance());
  }
  return *queue;
}

TurnQueue::TurnQueue(QObject* parent) : QObject(parent) {
  timer_.setSingleShot(true);
  timer_.setInterval(0);
  connect(&timer_, &QTimer::timeout, this, &TurnQueue::runNext);
}

void TurnQueue::post(const QObject* owner, const QString& name, std::function<void()> job) {
  jobs_.push_back({owner, name, std::move(job)});
  if (!timer_.isActive()) {
    startForFront();
  }
}

// a zero-time timer started from its own timeout fires in the next turn, after the input and the
// timers that were due
void TurnQueue::runNext() {
  while (!jobs_.empty()) {
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    if (job.owner) {
      job.run();
      break;
    }
  }
  if (!jobs_.empty() && !timer_.isActive()) {
    startForFront();
  }
}

void TurnQueue::startForFront() {
  timer_.setObjectName(jobs_.front().name);
  timer_.start();
}

}  // namespace tendril
