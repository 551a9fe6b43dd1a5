#include "ui/inverse_statics_target.hpp"

#include <QMetaObject>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "core/algorithm/inverse_statics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/thread_priority.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {

InverseStaticsTargetMode::InverseStaticsTargetMode(ViewportWidget* viewport, QObject* parent)
    : QObject(parent), viewport_(viewport) {}

InverseStaticsTargetMode::~InverseStaticsTargetMode() {
  stop();
}

QString InverseStaticsTargetMode::start(const RobotDescription& robot, int link) {
  stop();
  try {
    // the checks the worker's solver would make, here, so that the answer is immediate
    const Model model = buildModel(robot);
    if (link < 0 || link >= static_cast<int>(model.links.size()))
      return tr("Select the link whose tip should follow the target.");
    InverseStaticsSolver check(model);
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  stopping_ = false;
  pending_.reset();
  requested_ = 0;
  shown_ = 0;
  last_.reset();
  worker_ = std::thread([this, robot, link] { run(robot, link); });
  return {};
}

void InverseStaticsTargetMode::stop() {
  if (worker_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
  }
  if (viewport_) viewport_->setTargetMarker(std::nullopt);
}

void InverseStaticsTargetMode::setTarget(const Eigen::Vector3d& target_W) {
  if (!isActive()) return;
  {
    const std::lock_guard lock(mutex_);
    pending_ = target_W;
    pending_serial_ = ++requested_;
  }
  wake_.notify_one();
}

// the worker: the first solve at the tip under the inputs of t = 0, then the latest target each
// time it wakes; it alone owns the model, the solver and their workspace
void InverseStaticsTargetMode::run(const RobotDescription& robot, int link) {
  lowerCurrentThreadPriority();
  const Model model = buildModel(robot);
  InverseStaticsSolver solver(model);
  Data data(model);
  InverseStaticsTarget target;
  target.link = model.links[link].name;
  std::vector<std::string> names, units;
  for (const Actuator& actuator : solver.actuators()) {
    names.push_back(actuator.name);
    units.push_back(actuator.unit);
  }
  // a solve that throws (a target that is not finite) is reported, not fatal to the worker
  const auto publishError = [&](const std::string& reason, std::uint64_t serial) {
    InverseStaticsUpdate update;
    update.target = target.position;
    update.message = reason;
    update.serial = serial;
    QMetaObject::invokeMethod(
        this, [this, update] { onSolved(update); }, Qt::QueuedConnection);
  };
  const auto publish = [&](const InverseStaticsResult& result, std::uint64_t serial, double ms) {
    InverseStaticsUpdate update;
    update.target = target.position;
    update.tip = result.point;
    update.converged = result.converged;
    update.message = result.message;
    update.actuators = names;
    update.units = units;
    update.u = result.u;
    update.frame = makeFrame(model, data, result.q, Eigen::VectorXd::Zero(model.nv), 0.0);
    update.solve_ms = ms;
    update.serial = serial;
    QMetaObject::invokeMethod(
        this, [this, update] { onSolved(update); }, Qt::QueuedConnection);
  };

  // start: the equilibrium at the inputs' values, its tip as the first target
  const Eigen::VectorXd u0 = solver.initialValues();
  const StaticsResult rest = solver.equilibrium(u0, Eigen::VectorXd::Zero(model.nq));
  forwardKinematics(model, data, rest.q);
  target.position = linkTipPose(model, data, link).p;
  try {
    publish(solver.solve(target, u0, rest.q), 0, 0.0);
  } catch (const std::exception& error) {
    publishError(error.what(), 0);
  }

  for (;;) {
    std::uint64_t serial = 0;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
      if (stopping_) return;
      target.position = *pending_;
      serial = pending_serial_;
      pending_.reset();
    }
    try {
      const auto started = std::chrono::steady_clock::now();
      const InverseStaticsResult result = solver.solve(target);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      publish(result, serial, ms);
    } catch (const std::exception& error) {
      publishError(error.what(), serial);
    }
  }
}

void InverseStaticsTargetMode::onSolved(const InverseStaticsUpdate& update) {
  if (!isActive() || !viewport_) return;  // stopped meanwhile
  last_ = update;
  ++shown_;
  if (update.frame) viewport_->showFrame(update.frame);
  // while the user drags, the sphere stays under the cursor; it takes the colour of the answer
  const Eigen::Vector3d marker = viewport_->isDraggingTarget() && viewport_->targetMarker()
                                     ? *viewport_->targetMarker()
                                     : update.target;
  viewport_->setTargetMarker(marker, !update.converged);
  emit updated(statusText());
}

QString InverseStaticsTargetMode::statusText() const {
  if (!last_) return {};
  QStringList values;
  for (std::size_t i = 0; i < last_->actuators.size() && i < std::size_t(last_->u.size()); ++i) {
    values << QStringLiteral("%1 = %2 %3")
                  .arg(QString::fromStdString(last_->actuators[i]))
                  .arg(last_->u(static_cast<Eigen::Index>(i)), 0, 'f', 2)
                  .arg(QString::fromStdString(last_->units[i]));
  }
  const QString head = last_->converged
                           ? tr("Inverse statics (%1 ms)").arg(last_->solve_ms, 0, 'f', 1)
                           : QString::fromStdString(last_->message);
  return head + QStringLiteral(": ") + values.join(QStringLiteral(", "));
}

}  // namespace tendril
