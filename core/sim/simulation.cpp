#include "core/sim/simulation.hpp"

#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/algorithm/constraints.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {

std::unique_ptr<DynamicsJacobian> makeJacobian(JacobianKind kind) {
  if (kind == JacobianKind::FiniteDifference) return std::make_unique<FiniteDifferenceJacobian>();
  return std::make_unique<AnalyticJacobian>();
}

bool parseJacobian(const std::string& name, JacobianKind& kind) {
  if (name == "analytic") {
    kind = JacobianKind::Analytic;
  } else if (name == "fd") {
    kind = JacobianKind::FiniteDifference;
  } else {
    return false;
  }
  return true;
}

bool parseIntegrator(const std::string& name, IntegratorKind& kind) {
  if (name == "implicit-euler")
    kind = IntegratorKind::ImplicitEuler;
  else if (name == "newmark")
    kind = IntegratorKind::Newmark;
  else if (name == "bdf")
    kind = IntegratorKind::Bdf;
  else if (name == "ida")
    kind = IntegratorKind::Ida;
  else if (name == "rk4")
    kind = IntegratorKind::Rk4;
  else
    return false;
  return true;
}

std::string integratorName(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::ImplicitEuler:
      return "implicit-euler";
    case IntegratorKind::Newmark:
      return "newmark";
    case IntegratorKind::Bdf:
      return "bdf";
    case IntegratorKind::Rk4:
      return "rk4";
    case IntegratorKind::Ida:
      return "ida";
  }
  return "?";
}

bool variableStep(IntegratorKind kind) {
  return kind == IntegratorKind::Bdf || kind == IntegratorKind::Ida;
}

std::optional<std::string> unsupportedModel(const Model& model, IntegratorKind kind) {
  // both evaluate their own residuals, which leave the controllers out
  if (!model.controllers.empty() &&
      (kind == IntegratorKind::Ida ||
       (kind == IntegratorKind::Newmark && !model.closed_chains.empty()))) {
    return "the " + integratorName(kind) + " integrator does not run controllers" +
           (kind == IntegratorKind::Newmark ? " on closed chains" : "") +
           ": use bdf, rk4 or implicit-euler";
  }
  if (kind != IntegratorKind::Ida || model.closed_chains.empty()) return std::nullopt;
  return "the ida integrator does not handle closed chains (the model has " +
         std::to_string(model.closed_chains.size()) + " closed-chain joint(s)): use bdf or newmark";
}

double maxTipDistance(const Model& model, const std::vector<Sample>& a,
                      const std::vector<Sample>& b) {
  Data data_a(model), data_b(model);
  double worst = 0.0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    forwardKinematics(model, data_a, a[k].q);
    forwardKinematics(model, data_b, b[k].q);
    for (std::size_t i = 0; i < model.links.size(); ++i) {
      if (!model.links[i].is_leaf) continue;
      const int link = static_cast<int>(i);
      worst = std::max(
          worst, (linkTipPose(model, data_a, link).p - linkTipPose(model, data_b, link).p).norm());
    }
  }
  return worst;
}

namespace {

std::unique_ptr<detail::Stepper> makeStepper(DynamicsSystem& system,
                                             const SimulationOptions& options) {
  switch (options.integrator) {
    case IntegratorKind::ImplicitEuler:
      return detail::makeImplicitEuler(system, options);
    case IntegratorKind::Newmark:
      return detail::makeNewmark(system, options);
    case IntegratorKind::Bdf:
      return detail::makeBdf(system, options);
    case IntegratorKind::Rk4:
      return detail::makeRk4(system, options);
    case IntegratorKind::Ida:
      return detail::makeIda(system, options);
  }
  return nullptr;
}

// a redundant closed-chain constraint makes the KKT system singular: say which, before starting
void checkConstraintRank(const Model& model, DynamicsSystem& system, const Eigen::VectorXd& q0) {
  Eigen::VectorXd q = q0, v = Eigen::VectorXd::Zero(model.nv);
  applyPrescribed(model, 0.0, q, v);
  forwardKinematics(model, system.data(), q);
  ConstraintData cd(model);
  constraintJacobian(model, system.data(), cd);
  if (const auto problem =
          findRedundantConstraint(model, cd, system.constrained()->free_coordinates))
    throw std::invalid_argument(*problem);
}

// prescribed coordinates follow f(t) exactly in the record; the efforts holding them and the
// constraint forces are those of the dynamics at the sample. Without prescribed coordinates only
// |e(q)| is recorded, from the kinematics that energies() left for sample.q: no forward-dynamics
// evaluation per sample (which cost as much as a third of the run at output intervals near the
// step size)
void recordConstrained(DynamicsSystem& system, ConstraintData& cd, double t, Sample& sample) {
  const Model& model = system.model();
  if (model.prescribed.empty()) {
    constraintError(model, system.data(), cd);
    sample.constraint_error = cd.e.norm();
    return;
  }
  applyPrescribed(model, t, sample.q, sample.v);
  system.acceleration(t, sample.q, sample.v);
  sample.efforts = system.constrained()->efforts;
  sample.constraint_error = system.constrained()->constraints.e.norm();
}

std::string formatTime(double t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

}  // namespace

SimulationResult simulate(const Model& model, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                          const SimulationOptions& options,
                          std::unique_ptr<DynamicsJacobian> jacobian,
                          const SampleCallback& on_sample) {
  if (q0.size() != model.nq || v0.size() != model.nv)
    throw std::invalid_argument("initial state has the wrong size");
  if (!(options.output_interval > 0.0) || !(options.t_end >= options.t_start)) {
    throw std::invalid_argument("the output interval must be positive and t_end >= t_start");
  }
  if (const auto reason = unsupportedModel(model, options.integrator))
    throw std::invalid_argument(*reason);
  const bool fixed_step = !variableStep(options.integrator);
  if (fixed_step ? !(options.step > 0.0) : !(options.step >= 0.0)) {
    throw std::invalid_argument(fixed_step ? "the step must be positive"
                                           : "the maximum step must be positive (or 0: none)");
  }
  if (!(options.min_step >= 0.0) || (fixed_step && options.min_step > options.step)) {
    throw std::invalid_argument(
        "the minimum step must be positive (or 0: automatic) and not above the step");
  }
  const auto started = std::chrono::steady_clock::now();
  if (!jacobian) jacobian = makeJacobian(options.jacobian);
  DynamicsSystem system(model, std::move(jacobian), options.family);
  if (model.n_constraints > 0) checkConstraintRank(model, system, q0);
  std::unique_ptr<detail::Stepper> stepper = makeStepper(system, options);

  SimulationResult result;
  result.family = system.family();
  result.derivatives = system.derivativeSource();
  Eigen::VectorXd q = q0, v = v0;
  stepper->reset(options.t_start, q, v);
  std::optional<ConstraintData> recorded_constraints;  // |e| of the samples
  if (system.constrained()) recorded_constraints.emplace(model);
  const auto record = [&](double t) {
    Sample sample{t, q, v, system.energies(q, v)};
    if (recorded_constraints) recordConstrained(system, *recorded_constraints, t, sample);
    if (ControllerLoop* controllers = system.controllers())
      controllers->record(t, sample.q, sample.v, sample.control);
    sample.energy.dissipated = stepper->dissipated();
    result.samples.push_back(sample);
    return !on_sample || on_sample(result.samples.back());
  };

  const long outputs =
      std::lround(std::ceil((options.t_end - options.t_start) / options.output_interval - 1e-9));
  ControllerLoop* controllers = system.controllers();
  const bool sampled = controllers && controllers->sampled();
  if (sampled) controllers->sample(options.t_start, q, v);
  // to t_out through every sample instant before it, holding the sampled controllers' inputs
  // from the state reached there
  double t_now = options.t_start;
  const auto advance = [&](double t_out, std::string& error) {
    while (sampled) {
      const double t_sample = controllers->nextSampleTime(t_now);
      if (t_sample >= t_out - 1e-12 * std::max(1.0, std::abs(t_out))) break;
      if (!stepper->advanceTo(t_sample, q, v, error) || !q.allFinite() || !v.allFinite())
        return false;
      t_now = t_sample;
      controllers->sample(t_now, q, v);
    }
    if (!stepper->advanceTo(t_out, q, v, error)) return false;
    t_now = t_out;
    if (sampled) controllers->sample(t_now, q, v);
    return true;
  };
  result.cancelled = !record(options.t_start);
  for (long k = 1; k <= outputs && !result.cancelled; ++k) {
    const double t_out = std::min(options.t_end, options.t_start + k * options.output_interval);
    std::string error;
    if (!advance(t_out, error) || !q.allFinite() || !v.allFinite()) {
      const double t_reached = result.samples.back().t;
      result.message = "diverged after t = " + formatTime(t_reached) +
                       " s: " + (error.empty() ? "the state is no longer finite" : error);
      break;
    }
    result.cancelled = !record(t_out);
    result.completed = k == outputs;
  }
  if (outputs == 0) result.completed = true;
  if (result.cancelled) {
    result.completed = false;
    result.message = "cancelled at t = " + formatTime(result.samples.back().t) + " s";
  } else if (result.completed) {
    result.message = "completed";
  }
  result.statistics.steps = stepper->steps();
  result.statistics.restarts = stepper->restarts();
  result.statistics.rhs_evaluations = system.evaluations();
  result.statistics.jacobian_evaluations = system.jacobianEvaluations();
  result.statistics.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace tendril
