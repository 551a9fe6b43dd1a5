#pragma once
// Time integration of the dynamics with output at a fixed interval: implicit Euler, Newmark-beta,
// variable-step variable-order BDF on x' = [v; FD] (SUNDIALS CVODE) or on the residual form
// ID(q, v, qdd) - tau = 0 (SUNDIALS IDA), and explicit RK4 as a reference.

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Bdf integrates x' = [v; FD(q, v)] (one forward dynamics per right-hand side); Ida the
/// same BDF formulas on the residual form [q' - v; ID(q, v, v') - tau] = 0 (one inverse dynamics
/// per residual, no mass matrix); both vary their step and order.
enum class IntegratorKind { ImplicitEuler, Newmark, Bdf, Rk4, Ida };

/// \brief Where the implicit methods get their Jacobian: the analytical recursion of
/// docs/theory/gvs.md §9, or central finite differences: of the forward dynamics (implicit
/// Euler, Newmark), of the force balance and constraint right-hand side at fixed qdd (BDF, whose
/// Newton matrix is in force space: DynamicsSystem::forceSpaceJacobian()), of the residual (IDA).
enum class JacobianKind { Analytic, FiniteDifference };

/// \brief Where a fixed-step integrator gives up halving a failed step, as a fraction of its step,
///        when SimulationOptions::min_step is 0.
inline constexpr double kAutomaticMinStepFraction = 1e-7;

/// \brief Runtime knobs of a simulation (never part of the Model).
struct SimulationOptions {
  double t_start = 0.0;
  double t_end = 1.0;             ///< [s]
  double output_interval = 0.01;  ///< time between recorded samples [s]
  IntegratorKind integrator = IntegratorKind::Bdf;
  double step = 1e-3;  ///< fixed-step integrators: step size [s]; BDF, IDA: maximum step (0 = none)
  double relative_tolerance =
      1e-6;  ///< BDF and IDA error control; Newton convergence of the implicit methods
  double absolute_tolerance = 1e-8;
  double newmark_beta = 0.25;  ///< (beta, gamma) = (1/4, 1/2): trapezoidal, no numerical damping
  double newmark_gamma = 0.5;
  int max_newton_iterations = 12;
  /// a step-size collapse below this is a divergence [s]. 0 (the default): BDF and IDA take the
  /// steps their error control asks for, however small (they still stop on repeated error-test or
  /// Newton failures within one step); the fixed-step integrators halve down to
  /// kAutomaticMinStepFraction x step
  double min_step = 0.0;
  JacobianKind jacobian = JacobianKind::Analytic;  ///< used when simulate() is given none
  /// which recursions evaluate the dynamics (dynamics_family.hpp); on the model-agnostic family
  /// every Jacobian is central differences of its inverse dynamics, whatever `jacobian` says
  DynamicsFamily family = DynamicsFamily::Auto;
};

/// \brief One recorded instant.
struct Sample {
  double t = 0.0;
  Eigen::VectorXd q, v;
  Energies energy;
  /// generalised forces holding the prescribed coordinates (model.prescribed order), empty when
  /// there are none
  Eigen::VectorXd efforts{};
  double constraint_error = 0.0;  ///< |e(q)| of the closed chains (0 without)
  ControlRecord control{};        ///< the controllers' set-points, values, inputs (empty without)
};

struct SimulationStatistics {
  long steps = 0;            ///< accepted integrator steps
  long rhs_evaluations = 0;  ///< dynamics evaluations outside Jacobians: forward dynamics, or
                             ///< inverse-dynamics residuals for IDA
  long jacobian_evaluations = 0;
  long restarts = 0;       ///< BDF restarts from the last accepted step after a step-size collapse
  double wall_time = 0.0;  ///< [s]
};

struct SimulationResult {
  std::vector<Sample> samples;  ///< every recorded instant, also when the run stopped early
  bool completed = false;       ///< reached t_end
  bool cancelled = false;
  std::string message;  ///< why it stopped, naming the time reached
  SimulationStatistics statistics;
  DynamicsFamily family = DynamicsFamily::Engine;  ///< the family that ran (Auto resolved)
  DerivativeSource derivatives = DerivativeSource::Analytical;  ///< of the implicit methods
};

/// \brief Called on each recorded sample (on the simulating thread); return false to cancel.
using SampleCallback = std::function<bool(const Sample&)>;

/// \brief Integrates from (q0, v0). Divergence (NaN/Inf, step-size collapse, Newton failure) stops
///        the run with a message naming the time reached; every sample recorded so far is kept.
/// \param[in] jacobian supplies dFD/dq, dFD/dv to implicit Euler and Newmark (options.jacobian if
///            null); BDF and IDA only ask whether it is an AnalyticJacobian
/// \throw std::invalid_argument for inconsistent options (non-positive step or output interval,
/// ...)
SimulationResult simulate(const Model& model, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                          const SimulationOptions& options,
                          std::unique_ptr<DynamicsJacobian> jacobian = nullptr,
                          const SampleCallback& on_sample = {});

/// \brief The largest distance between the leaf-link tips of two runs over their common samples
/// [m] (how far two integrators, tolerances or Jacobians part).
double maxTipDistance(const Model& model, const std::vector<Sample>& a,
                      const std::vector<Sample>& b);

/// \brief The Jacobian of a kind: AnalyticJacobian or FiniteDifferenceJacobian (central).
std::unique_ptr<DynamicsJacobian> makeJacobian(JacobianKind kind);

/// \brief Parses "analytic", "fd". \return false for an unknown name
bool parseJacobian(const std::string& name, JacobianKind& kind);

/// \brief Parses "implicit-euler", "newmark", "bdf", "ida", "rk4". \return false for an unknown
/// name
bool parseIntegrator(const std::string& name, IntegratorKind& kind);
std::string integratorName(IntegratorKind kind);
/// \brief Whether the integrator varies its step (BDF, IDA: options.step is then a maximum).
bool variableStep(IntegratorKind kind);

/// \brief Why an integrator cannot run a model, as one sentence naming what to use instead
/// (IDA and closed chains; IDA, or Newmark with closed chains, and controllers), or nothing.
/// simulate() throws std::invalid_argument with it.
std::optional<std::string> unsupportedModel(const Model& model, IntegratorKind kind);

namespace detail {

/// \brief Advances the state from one output time to the next; implemented once per method.
class Stepper {
 public:
  virtual ~Stepper() = default;
  /// \brief Starts at (t0, q0, v0).
  virtual void reset(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) = 0;
  /// \brief Advances to t_out, writing the state there. \return false with error set on divergence
  virtual bool advanceTo(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& v,
                         std::string& error) = 0;
  /// \brief Energy dissipated by damping since reset [J].
  virtual double dissipated() const = 0;
  virtual long steps() const = 0;
  /// \brief Fresh starts from the last accepted step after a step-size collapse (BDF only).
  virtual long restarts() const { return 0; }
};

std::unique_ptr<Stepper> makeRk4(DynamicsSystem& system, const SimulationOptions& options);
std::unique_ptr<Stepper> makeImplicitEuler(DynamicsSystem& system,
                                           const SimulationOptions& options);
std::unique_ptr<Stepper> makeNewmark(DynamicsSystem& system, const SimulationOptions& options);
std::unique_ptr<Stepper> makeBdf(DynamicsSystem& system, const SimulationOptions& options);
std::unique_ptr<Stepper> makeIda(DynamicsSystem& system, const SimulationOptions& options);

}  // namespace detail
}  // namespace tendril
