#pragma once
// Feedback laws evaluated inside the dynamics (docs/theory/controllers.md): a controller reads the
// state (q, v) and writes inputs u, whose generalised force B(q) u joins the equations of motion
// M qdd + n(q, v, t) = B(q) u, with n = c + g + K q + D v - (the inputs no controller writes).
//
//   pd_gravity_compensation  u = A^-1 [K_P e + K_D e' + n(q, 0, t)]_y (A: rows y of B)
//   computed_torque          u = B^-1 ID(q, v, y_d'' + K_D e' + K_P e)
//   collocated_pfbl          u = (J M^-1 B)^-1 (a - J-dot v + J M^-1 n(q, v, t)),
//                            a = y_d'' + K_D e' + K_P e
//
// with e = y_d - y, e' = y_d' - y'. y is a coordinate, a cable's length or an LVP tendon's length.
// n, and M for the PFBL, come from one model-agnostic call
// (modelAgnosticID / modelAgnosticMID): the controller's model of the plant leaves out point,
// contact and fluid loads, as those recursions do.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief The buffers of one controller, sized once: the input columns of B, the output
///        Jacobian and the solves of the PFBL.
struct ControllerWorkspace {
  ControllerWorkspace(const Model& model, const CompiledController& controller);
  Eigen::MatrixXd B;       ///< nv x m: the generalised force of each input at unit value
  Eigen::MatrixXd J;       ///< p x nv: the Jacobian of the controlled variables
  Eigen::MatrixXd gain;    ///< p x m: the map from u to the controlled accelerations (or forces)
  Eigen::MatrixXd Minv_B;  ///< nv x m
  Eigen::VectorXd y, y_rate, y_curvature;             ///< y, y' = J v, J-dot v (p)
  Eigen::VectorXd command;                            ///< a, or the PD force (p)
  Eigen::VectorXd zero, a_full, n, Minv_n, gradient;  ///< nv
  Eigen::LLT<Eigen::MatrixXd> mass_factor;
  Eigen::PartialPivLU<Eigen::MatrixXd> gain_factor;
  /// the controller reads or writes LVP tendons (lengths or tensions), and reads their lengths
  bool uses_tendons = false, tendon_outputs = false;
  /// every LVP tendon's length at q, its dl/dq (nv x tendons) and J-dot v (tendon_curvatures);
  /// scratch for the lengths and dl/dq at q -+ s v
  Eigen::VectorXd tendon_lengths, tendon_curvatures, tendon_lengths_shifted, q_shifted;
  Eigen::MatrixXd tendon_gradients, tendon_gradients_plus, tendon_gradients_minus;
  /// the controller writes cavity pressures: every cavity's dV/dq at q (nv x pressures)
  bool uses_pressures = false;
  Eigen::MatrixXd volume_gradients;
  /// one world coordinate of a link's tip per TipPosition variable (rows of the others unused):
  /// its value and Jacobian row at q, the rows at q -+ s v (J-dot v), and J-dot v
  bool tip_outputs = false;
  Eigen::VectorXd tip_values, tip_curvatures;
  Eigen::MatrixXd tip_rows, tip_rows_plus, tip_rows_minus;
  Eigen::Matrix3Xd tip_jacobian;  ///< scratch (3 x nv)
  /// the bodies evaluated for the tendon lengths, tip positions and cavity gradients (at q and at
  /// the shifted states of J-dot v): apart from the workspace of the law's ID or MID, so that a
  /// central difference that moves one body reuses that pass's other bodies (ReusedBodyEvaluations)
  ModelAgnosticWorkspace kinematics;
  /// M (factored in mass_factor) and n = ID(q, v, 0, t) of the last controllerInputs() are at its
  /// (t, q, v): a PFBL evaluated them there (the forward dynamics may reuse them)
  bool has_model_terms = false;
};

/// \brief The set-point of a controlled variable at t (order 0) or its rate of that order (1, 2):
///        its time function at t, or, once a held controller's window has ended, its value at the
///        window's end with rates 0 (CompiledController::setpointTime).
[[nodiscard]] double controllerSetpoint(const CompiledController& controller, std::size_t variable,
                                        double t, int order);

/// \brief The controlled variables at (q, v): y, y' = J v and J-dot v into the workspace, and J
///        when with_jacobian. A coordinate: y = q_i; a cable length: y = l(q), J = dl/dq
///        (cableLengthCurvature() gives J-dot v); an LVP tendon's length: y = l(q), J = dl/dq
///        (lvpTendonLengths() in w.kinematics) and, when with_jacobian,
///        J-dot v = d/ds (dl/dq(q + s v)) v by a central difference (docs/theory/controllers.md
///        §1).
void controlledVariables(const Model& model, const CompiledController& controller,
                         ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, bool with_jacobian);

/// \brief The LVP tendons' lengths and dl/dq, and the cavities' dV/dq, at q into w (what
///        addControllerForces() needs for a tendon or pressure input when the inputs were not
///        evaluated at this q). Nothing without tendons or pressures.
void controllerTendonsAt(const Model& model, ControllerWorkspace& w,
                         const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief The inputs the controller writes at (t, q, v), saturated to their limits (cables and
///        tendons never below 0): u (dim controller.inputs). Uses data's model-agnostic workspace
///        (give it a Data of its own when the caller's holds a state it still needs).
///        Allocation-free. A singular input map gives non-finite inputs (the run then stops as
///        diverged).
void controllerInputs(const Model& model, Data& data, const CompiledController& controller,
                      ControllerWorkspace& w, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> u);
/// \brief The same with \p known_forces (nv): generalised forces of other controllers' inputs
///        that the law counts as known loads (subtracted from n), e.g. the tendons of a soft
///        arm's controller that a PFBL on the rigid joints carrying it must cancel.
void controllerInputs(const Model& model, Data& data, const CompiledController& controller,
                      ControllerWorkspace& w, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& known_forces,
                      Eigen::Ref<Eigen::VectorXd> u);

/// \brief tau += B(q) u for the controller's inputs (joint inputs on their coordinates, cables
///        -T dl/dq, LVP tendons -T dl/dq from w.tendon_gradients and cavity pressures p dV/dq
///        from w.volume_gradients, which must be at q: controllerInputs() or
///        controllerTendonsAt() at q leave them there).
void addControllerForces(const Model& model, const CompiledController& controller,
                         const ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& u,
                         Eigen::Ref<Eigen::VectorXd> tau);

}  // namespace tendril
