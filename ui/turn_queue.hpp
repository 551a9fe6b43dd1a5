#pragma once
// Heavy GUI work, one job per turn of the event loop: a chart's relayout, a 3D render. Jobs that
// fall due together (a streamed frame moves the viewport and every plot) would otherwise run back
// to back in one turn and hold input and timers for all of them; here each gets a turn of its own.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <deque>
#include <functional>

namespace tendril {

class TurnQueue : public QObject {
 public:
  /// \brief The application's queue (created on first use, deleted with the application).
  static TurnQueue& instance();

  /// \brief Runs \p job in a later turn of the event loop, after the jobs posted before it; it is
  ///        dropped if \p owner is destroyed first. \p name is the queue timer's objectName while
  ///        the job is next (what an event profiler shows).
  void post(const QObject* owner, const QString& name, std::function<void()> job);

 private:
  explicit TurnQueue(QObject* parent);
  void runNext();
  void startForFront();

  struct Job {
    QPointer<const QObject> owner;
    QString name;
    std::function<void()> run;
  };
  QTimer timer_;
  std::deque<Job> jobs_;
};

}  // namespace tendril
