#include "core/sim/controllers.hpp"

#include <cmath>
#include <limits>

namespace tendril {

namespace {

// whether the controller switches on or off, or freezes its set-point, at some time (the run
// stops there)
bool hasWindow(const CompiledController& controller) {
  return controller.active_from > 0.0 || std::isfinite(controller.active_until);
}

// whether t is a multiple of period, to rounding
bool isSampleInstant(double t, double period) {
  const double k = std::round(t / period);
  return std::abs(t - k * period) <= 1e-9 * std::max(period, std::abs(t));
}

}  // namespace

std::vector<std::string> controlledVariableLabels(const Model& model) {
  std::vector<std::string> labels;
  for (const CompiledController& controller : model.controllers) {
    for (const CompiledController::Variable& variable : controller.variables)
      labels.push_back(controller.name + ": " + variable.label);
  }
  return labels;
}

std::vector<std::string> controllerInputLabels(const Model& model) {
  std::vector<std::string> labels;
  for (const CompiledController& controller : model.controllers) {
    for (const CompiledController::Input& input : controller.inputs)
      labels.push_back(controller.name + ": " + input.name);
  }
  return labels;
}

ControllerLoop::ControllerLoop(const Model& model)
    : model_(model), data_(model), known_forces_(Eigen::VectorXd::Zero(model.nv)) {
  // built in place, never moved: a workspace's Eigen::LLT leaves its info unset until it first
  // factors, and moving one reads it (UBSan: an invalid enum value)
  workspaces_.reserve(model.controllers.size());
  for (const CompiledController& controller : model.controllers) {
    workspaces_.emplace_back(model, controller);
    inputs_.emplace_back(
        Eigen::VectorXd::Zero(static_cast<Eigen::Index>(controller.inputs.size())));
    held_.push_back(false);
    sampled_ = sampled_ || controller.sample_period > 0.0 || hasWindow(controller);
  }
}

const Eigen::VectorXd& ControllerLoop::inputsOf(std::size_t c, double t, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& v) {
  if (!held_[c]) {
    controllerInputs(model_, data_, model_.controllers[c], workspaces_[c], t, q, v, known_forces_,
                     inputs_[c]);
  }
  return inputs_[c];
}

void ControllerLoop::addForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                               Eigen::Ref<Eigen::VectorXd> tau) {
  model_terms_ = nullptr;
  // in list order, each law counting the forces of the ones before it as known loads
  known_forces_.setZero();
  for (std::size_t c = 0; c < model_.controllers.size(); ++c) {
    if (!model_.controllers[c].activeAt(t)) continue;  // writes nothing outside its window
    ControllerWorkspace& w = workspaces_[c];
    const Eigen::VectorXd& u = inputsOf(c, t, q, v);
    if (held_[c]) {
      controllerTendonsAt(model_, w, q);  // the held tensions pull along dl/dq at q
    } else if (w.has_model_terms && !model_terms_) {
      model_terms_ = &w;
    }
    addControllerForces(model_, model_.controllers[c], w, q, u, tau);
    addControllerForces(model_, model_.controllers[c], w, q, u, known_forces_);  // for the next
  }
}

double ControllerLoop::nextSampleTime(double t) const {
  double next = std::numeric_limits<double>::infinity();
  for (const CompiledController& controller : model_.controllers) {
    // the switching times of a window: the inputs jump there, so no step may cross them
    const double margin = 1e-12 * std::max(1.0, std::abs(t));
    if (controller.active_from > t + margin) next = std::min(next, controller.active_from);
    if (controller.active_until > t + margin) next = std::min(next, controller.active_until);
    const double T = controller.sample_period;
    if (!(T > 0.0)) continue;
    double k = std::floor(t / T) + 1.0;
    if (isSampleInstant(t, T)) k = std::round(t / T) + 1.0;  // t itself is past
    next = std::min(next, k * T);
  }
  return next;
}

void ControllerLoop::addKnownForces(std::size_t c, const Eigen::VectorXd& q) {
  ControllerWorkspace& w = workspaces_[c];
  if (held_[c]) controllerTendonsAt(model_, w, q);
  addControllerForces(model_, model_.controllers[c], w, q, inputs_[c], known_forces_);
}

void ControllerLoop::sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  known_forces_.setZero();
  for (std::size_t c = 0; c < model_.controllers.size(); ++c) {
    const double T = model_.controllers[c].sample_period;
    if (!model_.controllers[c].activeAt(t)) {
      held_[c] = false;  // samples afresh at the window's start (a stop of the run)
      continue;
    }
    if (T > 0.0 && (!held_[c] || isSampleInstant(t, T))) {
      held_[c] = false;
      inputsOf(c, t, q, v);
      held_[c] = true;
    } else {
      inputsOf(c, t, q, v);  // a held or continuous controller's forces, for the next ones
    }
    addKnownForces(c, q);
  }
}

void ControllerLoop::record(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            ControlRecord& out) {
  Eigen::Index variables = 0, inputs = 0;
  for (const CompiledController& controller : model_.controllers) {
    variables += static_cast<Eigen::Index>(controller.variables.size());
    inputs += static_cast<Eigen::Index>(controller.inputs.size());
  }
  out.setpoints.resize(variables);
  out.values.resize(variables);
  out.inputs.resize(inputs);
  Eigen::Index at_variable = 0, at_input = 0;
  known_forces_.setZero();
  for (std::size_t c = 0; c < model_.controllers.size(); ++c) {
    const CompiledController& controller = model_.controllers[c];
    const bool active = controller.activeAt(t);
    if (!active) inputs_[c].setZero();
    const Eigen::VectorXd& u = active ? inputsOf(c, t, q, v) : inputs_[c];  // leaves y there
    if (held_[c] || !active)
      controlledVariables(model_, controller, workspaces_[c], q, v, false);
    if (active) addKnownForces(c, q);
    const auto n = static_cast<Eigen::Index>(controller.variables.size());
    for (Eigen::Index k = 0; k < n; ++k)
      out.setpoints(at_variable + k) = controllerSetpoint(controller, k, t, 0);
    out.values.segment(at_variable, n) = workspaces_[c].y;
    out.inputs.segment(at_input, u.size()) = u;
    at_variable += n;
    at_input += u.size();
  }
}

}  // namespace tendril
