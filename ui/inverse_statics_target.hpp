#pragma once
// The studio's "drag a target" mode (Simulate > Inverse Statics Target): a sphere at a link's tip
// that the user drags in the 3D view; every move re-solves the inverse statics on a worker thread
// and the robot follows. The worker starts each solve from the last solution, and a target that
// arrives while it is busy replaces any target still waiting: it always solves the latest one
// and drops those in between.

#include <Eigen/Core>
#include <QObject>
#include <QPointer>
#include <QString>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

class ViewportWidget;

/// \brief One solve of the worker, as the GUI shows it.
struct InverseStaticsUpdate {
  Eigen::Vector3d target = Eigen::Vector3d::Zero();  ///< [m]
  Eigen::Vector3d tip = Eigen::Vector3d::Zero();     ///< reached [m]
  bool converged = false;
  std::string message;
  std::vector<std::string> actuators, units;
  Eigen::VectorXd u;  ///< actuator values [units]
  FramePtr frame;     ///< the robot at the equilibrium
  double solve_ms = 0.0;
  std::uint64_t serial = 0;  ///< which setTarget() it answers (0: the first, at the tip)
};

class InverseStaticsTargetMode : public QObject {
  Q_OBJECT

 public:
  InverseStaticsTargetMode(ViewportWidget* viewport, QObject* parent = nullptr);
  ~InverseStaticsTargetMode() override;

  /// \brief Starts on \p link of \p robot: the worker solves the statics at the inputs of t = 0
  ///        and puts the sphere at the tip. \return an empty string, or why it cannot start (no
  ///        cable or joint input, closed chains, an invalid model ...)
  QString start(const RobotDescription& robot, int link);
  /// \brief Stops the worker (waiting for its solve) and hides the sphere.
  void stop();
  [[nodiscard]] bool isActive() const { return worker_.joinable(); }

  /// \brief Asks for a solve at \p target_W [m]; replaces a target still waiting.
  void setTarget(const Eigen::Vector3d& target_W);

  [[nodiscard]] const std::optional<InverseStaticsUpdate>& lastUpdate() const { return last_; }
  /// \brief Targets asked for and solves shown since start().
  [[nodiscard]] std::uint64_t requestedCount() const { return requested_; }
  [[nodiscard]] int shownCount() const { return shown_; }
  /// \brief The status line of the last update: the actuator values, or "unreachable ...".
  [[nodiscard]] QString statusText() const;

 signals:
  void updated(const QString& status);

 private:
  void run(const RobotDescription& robot, int link);
  void onSolved(const InverseStaticsUpdate& update);

  QPointer<ViewportWidget> viewport_;  ///< may go first when the main window is destroyed
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Eigen::Vector3d> pending_;  ///< the latest target not yet taken by the worker
  std::uint64_t pending_serial_ = 0;
  bool stopping_ = false;
  std::uint64_t requested_ = 0;
  int shown_ = 0;
  std::optional<InverseStaticsUpdate> last_;
};

}  // namespace tendril
