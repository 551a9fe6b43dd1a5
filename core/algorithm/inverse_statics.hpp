#pragma once
// Inverse statics: the actuator values (cable tensions, joint force inputs) whose static
// equilibrium puts a link's tip on a target, by bound-constrained Levenberg-Marquardt on the
// actuator values with the implicit-function gradient of the equilibrium.
//
// Theory. The equilibrium q*(u) solves R(q, u) = B(q) u + tau(q) - ID(q, 0, 0) - K q = 0
// (docs/theory/gvs.md (5, 13a); tau: the inputs that are not unknowns). Differentiating the
// identity R(q*(u), u) = 0 with respect to u gives dR/dq dq*/du + dR/du = 0, so
//
//   dq*/du = -(dR/dq)^{-1} dR/du,   dR/du = B(q*)  (the chosen actuators' columns),
//
// with dR/dq = d(B u)/dq - dID(q, 0, 0)/dq - K the statics Newton matrix (13b) at q*, from the
// analytical derivatives: no finite differences. The column of a cable is -dl/dq (its generalised
// force at unit tension), that of a joint force input the unit vector of its coordinate. The tip
// p(q) = g_j(q) r moves as dp = R_j (J_v - r~ J_w) dq (J the body Jacobian of frame j), so
// dp/du = R_j (J_v - r~ J_w) dq*/du. An orientation target R_t adds e = log(R_tip R_t^T) (world
// axes), de = J_l(e)^{-1} R_j J_w dq, weighted by w [m/rad] so that rotation and position errors
// share one cost 1/2 |p - p_t|^2 + 1/2 w^2 |e|^2. dR/dq is invertible wherever the forward statics'
// Newton converges, which the outer iteration needs anyway.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/statics.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief An input of the model whose value is an unknown of the inverse statics.
struct Actuator {
  enum class Kind { Cable, JointInput };
  Kind kind = Kind::Cable;
  int index = 0;              ///< into model.cables or model.joint_inputs
  int description_index = 0;  ///< into robot.cables or robot.joint_inputs
  std::string name;           ///< cable name, or the coordinate name of a joint input
  std::string unit;           ///< "N" (cable tension, prismatic force), "N m" (torque) ...
  double lower = 0.0;         ///< bound [unit]
  double upper = 0.0;         ///< bound [unit]
};

/// \brief Where the tip should go.
struct InverseStaticsTarget {
  std::string link;                                    ///< the link whose tip is placed
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< target of the point [m], world
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();    ///< the point in the link's tip frame [m]
  std::optional<Eigen::Matrix3d> orientation;  ///< target rotation of the tip frame in world
  double orientation_weight = 0.1;  ///< w [m/rad]: 1 rad of orientation error weighs as w metres
};

struct InverseStaticsOptions {
  /// actuator names (cable names, joint-input coordinate names such as "link1/joint/0", or a link
  /// name when its joint has one force input); empty: every cable and force joint input
  std::vector<std::string> actuators;
  /// one [lower, upper] per actuator; empty: cables [0, inf) N, joint inputs unbounded
  std::vector<std::pair<double, double>> bounds;
  double position_tolerance = 1e-10;     ///< converged when |p - p_t| <= this [m]
  double orientation_tolerance = 1e-10;  ///< and |e| <= this [rad] (with an orientation target)
  int max_iterations = 100;              ///< outer (Levenberg-Marquardt) iterations
  /// the inner solves; time: when the inputs that are not unknowns are evaluated [s]
  StaticsOptions statics;
};

struct InverseStaticsResult {
  bool converged = false;  ///< the tip is on the target within the tolerances
  Eigen::VectorXd u;       ///< actuator values, in the order of the actuators [their units]
  Eigen::VectorXd q;       ///< the equilibrium at u (dim model.nq)
  SE3 tip;                 ///< the tip frame at q (its point: tip.act(offset))
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< the placed point reached [m]
  double position_error = 0.0;                      ///< |point - target| [m]
  double orientation_error = 0.0;  ///< |log(R_tip R_t^T)| [rad], 0 without an orientation target
  int iterations = 0;              ///< outer iterations
  int statics_iterations = 0;      ///< Newton iterations of all inner solves
  std::string message;  ///< "converged ..." or "unreachable: closest point (x, y, z) at d m ..."
};

/// \brief Every input that can be an actuator: the cables, then the force joint inputs.
std::vector<Actuator> availableActuators(const Model& model);

/// \brief The actuators named in options (all when empty) with their bounds.
/// \throw std::invalid_argument naming the actuator and the reason: unknown name, a name that is
///        not a force input (a link without one, a position-mode input, a point load), a repeated
///        name, bounds of the wrong count, lower > upper, NaN bounds
std::vector<Actuator> resolveActuators(const Model& model, const InverseStaticsOptions& options);

/// \brief Inverse statics for one model: keeps a working copy of the model whose actuator inputs
///        are constants, and the last solution as the warm start of the next solve (the studio's
///        dragged target).
class InverseStaticsSolver {
 public:
  /// \throw std::invalid_argument for bad actuators or bounds (resolveActuators()), and for a
  ///        model the solver does not handle: closed chains, position inputs or prescribed
  ///        coordinates in options.statics
  InverseStaticsSolver(const Model& model, const InverseStaticsOptions& options = {});

  /// \brief Solves for u from the last solution (or from the inputs' values at options.statics
  ///        .time clamped into the bounds, and q = 0, the first time).
  /// \throw std::invalid_argument for an unknown link, a non-finite target or offset, an
  ///        orientation that is not a rotation, a weight that is not positive
  InverseStaticsResult solve(const InverseStaticsTarget& target);
  /// \brief The same from u0 (dim actuators(), clamped into the bounds) and q0 (dim model.nq).
  InverseStaticsResult solve(const InverseStaticsTarget& target,
                             const Eigen::Ref<const Eigen::VectorXd>& u0,
                             const Eigen::Ref<const Eigen::VectorXd>& q0);

  const std::vector<Actuator>& actuators() const { return actuators_; }
  /// \brief The inputs' values at options.statics.time, clamped into the bounds.
  Eigen::VectorXd initialValues() const;

  /// \brief Forward statics at actuator values u from q0.
  StaticsResult equilibrium(const Eigen::Ref<const Eigen::VectorXd>& u,
                            const Eigen::Ref<const Eigen::VectorXd>& q0);
  /// \brief dq*/du = -(dR/dq)^{-1} B_u at an equilibrium q of u (nq x actuators()).
  Eigen::MatrixXd equilibriumSensitivity(const Eigen::Ref<const Eigen::VectorXd>& u,
                                         const Eigen::Ref<const Eigen::VectorXd>& q);
  /// \brief d point/du (rows 0-2) and, with an orientation target, d log(R_tip R_t^T)/du
  ///        (rows 3-5, unweighted) at an equilibrium q of u.
  Eigen::MatrixXd tipSensitivity(const InverseStaticsTarget& target,
                                 const Eigen::Ref<const Eigen::VectorXd>& u,
                                 const Eigen::Ref<const Eigen::VectorXd>& q);

 private:
  struct Residual;
  int checkedLink(const InverseStaticsTarget& target) const;
  void setValues(const Eigen::Ref<const Eigen::VectorXd>& u);
  Residual residual(const InverseStaticsTarget& target, int link,
                    const Eigen::Ref<const Eigen::VectorXd>& q);
  Eigen::MatrixXd residualJacobian(const InverseStaticsTarget& target,
                                   const Eigen::Ref<const Eigen::VectorXd>& u,
                                   const Eigen::Ref<const Eigen::VectorXd>& q);
  Eigen::VectorXd clamp(const Eigen::Ref<const Eigen::VectorXd>& u) const;
  std::string boundsReport(const Eigen::VectorXd& u) const;

  Model model_;  ///< the caller's model with the actuators' inputs as constants
  Data data_;
  InverseStaticsOptions options_;
  std::vector<Actuator> actuators_;
  Eigen::VectorXd initial_u_;  ///< the inputs' values at options.statics.time, clamped
  std::optional<Eigen::VectorXd> last_u_, last_q_;
};

/// \brief One solve: InverseStaticsSolver(model, options).solve(target).
InverseStaticsResult inverseStatics(const Model& model, const InverseStaticsTarget& target,
                                    const InverseStaticsOptions& options = {});

/// \brief Sets the actuators' inputs of a description to the constants u (what `--out` saves).
void setActuatorValues(RobotDescription& robot, const std::vector<Actuator>& actuators,
                       const Eigen::Ref<const Eigen::VectorXd>& u);

}  // namespace tendril
