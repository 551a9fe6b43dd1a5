#include "core/algorithm/controller.hpp"

#include <algorithm>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"

namespace tendril {

ControllerWorkspace::ControllerWorkspace(const Model& model, const CompiledController& controller)
    : B(Eigen::MatrixXd::Zero(model.nv, static_cast<Eigen::Index>(controller.inputs.size()))),
      J(Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(controller.variables.size()), model.nv)),
      gain(J.rows(), B.cols()),
      Minv_B(model.nv, B.cols()),
      y(J.rows()),
      y_rate(J.rows()),
      y_curvature(J.rows()),
      command(J.rows()),
      zero(Eigen::VectorXd::Zero(model.nv)),
      a_full(model.nv),
      n(model.nv),
      Minv_n(model.nv),
      gradient(model.nv),
      mass_factor(model.nv),
      gain_factor(static_cast<Eigen::Index>(controller.inputs.size())) {
  using Kind = ControlledVariableDesc::Kind;
  for (const CompiledController::Variable& variable : controller.variables) {
    tendon_outputs = tendon_outputs || variable.kind == Kind::TendonLength;
    tip_outputs = tip_outputs || variable.kind == Kind::TipPosition;
  }
  uses_tendons = tendon_outputs;
  for (const CompiledController::Input& input : controller.inputs) {
    uses_tendons = uses_tendons || input.kind == CompiledController::Input::Kind::LvpTendon;
    uses_pressures =
        uses_pressures || input.kind == CompiledController::Input::Kind::CavityPressure;
  }
  if (uses_tendons || uses_pressures || tip_outputs) {
    kinematics = ModelAgnosticWorkspace(model);
    // its own: the tendons, pressures and tips at one q share one evaluation of the bodies
    kinematics.reuse_unchanged_bodies = true;
  }
  if (tip_outputs) {
    tip_values = Eigen::VectorXd::Zero(J.rows());
    tip_curvatures = Eigen::VectorXd::Zero(J.rows());
    tip_rows = tip_rows_plus = tip_rows_minus = Eigen::MatrixXd::Zero(J.rows(), model.nv);
    tip_jacobian.resize(3, model.nv);
    q_shifted.resize(model.nq);
  }
  if (uses_pressures)
    volume_gradients.resize(model.nv, static_cast<Eigen::Index>(model.cavity_pressures.size()));
  if (!uses_tendons) return;
  const auto tendons = static_cast<Eigen::Index>(model.lvp_tendons.size());
  tendon_lengths.resize(tendons);
  tendon_lengths_shifted.resize(tendons);
  tendon_curvatures.resize(tendons);
  q_shifted.resize(model.nq);
  tendon_gradients.resize(model.nv, tendons);
  tendon_gradients_plus.resize(model.nv, tendons);
  tendon_gradients_minus.resize(model.nv, tendons);
}

namespace {

// the generalised force of each input at unit value: B's columns (a tendon's from the gradients
// controlledVariables() left at q)
void inputColumns(const Model& model, const CompiledController& controller, ControllerWorkspace& w,
                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  w.B.setZero();
  for (std::size_t k = 0; k < controller.inputs.size(); ++k) {
    const CompiledController::Input& input = controller.inputs[k];
    const auto column = static_cast<Eigen::Index>(k);
    switch (input.kind) {
      case CompiledController::Input::Kind::Cable:
        addCableForces(model.cables[input.index], q, 1.0, w.B.col(column));
        break;
      case CompiledController::Input::Kind::LvpTendon:
        w.B.col(column) = -w.tendon_gradients.col(input.index);
        break;
      case CompiledController::Input::Kind::CavityPressure:
        w.B.col(column) = w.volume_gradients.col(input.index);
        break;
      case CompiledController::Input::Kind::JointInput:
        w.B(model.joint_inputs[input.index].coordinate, column) = 1.0;
        break;
    }
  }
}

// the tip positions' values and Jacobian rows (per TipPosition variable) from the world distal
// frames w.kinematics holds
void tipOutputs(const Model& model, const CompiledController& controller, ControllerWorkspace& w,
                Eigen::Ref<Eigen::VectorXd> values, Eigen::Ref<Eigen::MatrixXd> rows) {
  for (std::size_t k = 0; k < controller.variables.size(); ++k) {
    const CompiledController::Variable& variable = controller.variables[k];
    if (variable.kind != ControlledVariableDesc::Kind::TipPosition) continue;
    const Eigen::Vector3d p =
        modelAgnosticTipPosition(model, w.kinematics, variable.index, w.tip_jacobian);
    values(static_cast<Eigen::Index>(k)) = p(variable.axis);
    rows.row(static_cast<Eigen::Index>(k)) = w.tip_jacobian.row(variable.axis);
  }
}

// dl/dq of the tendons and the tips' rows at q (the outputs whose J-dot v is differenced)
void outputGradientsAt(const Model& model, const CompiledController& controller,
                       ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                       Eigen::MatrixXd& tendon_gradients, Eigen::MatrixXd& tip_rows) {
  if (w.tendon_outputs)
    lvpTendonLengths(model, w.kinematics, q, w.tendon_lengths_shifted, tendon_gradients);
  if (!w.tip_outputs) return;
  modelAgnosticDistalFrames(model, w.kinematics, q);  // reused when the tendons evaluated them
  // the values land in w.tip_values, which the evaluation at q then overwrites
  tipOutputs(model, controller, w, w.tip_values, tip_rows);
}

// J-dot v of the LVP tendons' lengths and of the tip positions: d/ds (J(q + s v)) v at s = 0, a
// central difference with s |v|_inf = 1e-5 (truncation ~1e-11 relative, rounding ~1e-11: the
// bodies have no second derivative of their points to give it exactly); into
// w.tendon_curvatures and w.tip_curvatures
void outputCurvatures(const Model& model, const CompiledController& controller,
                      ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v) {
  const double speed = v.lpNorm<Eigen::Infinity>();
  if (!(speed > 0.0)) {
    if (w.tendon_outputs) w.tendon_curvatures.setZero();
    if (w.tip_outputs) w.tip_curvatures.setZero();
    return;
  }
  const double s = 1e-5 / speed;
  w.q_shifted = q + s * v;
  outputGradientsAt(model, controller, w, w.q_shifted, w.tendon_gradients_plus, w.tip_rows_plus);
  w.q_shifted = q - s * v;
  outputGradientsAt(model, controller, w, w.q_shifted, w.tendon_gradients_minus, w.tip_rows_minus);
  if (w.tendon_outputs) {
    w.tendon_gradients_plus -= w.tendon_gradients_minus;
    w.tendon_curvatures.noalias() = w.tendon_gradients_plus.transpose() * v;
    w.tendon_curvatures /= 2.0 * s;
  }
  if (w.tip_outputs) {
    w.tip_rows_plus -= w.tip_rows_minus;
    w.tip_curvatures.noalias() = w.tip_rows_plus * v;
    w.tip_curvatures /= 2.0 * s;
  }
}

// K_P e + K_D e' (+ y_d'' when with_acceleration) per variable, into w.command
void trackingCommand(const CompiledController& controller, ControllerWorkspace& w, double t,
                     bool with_acceleration) {
  for (std::size_t k = 0; k < controller.variables.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    w.command(i) = controller.kp(i) * (controllerSetpoint(controller, k, t, 0) - w.y(i)) +
                   controller.kd(i) * (controllerSetpoint(controller, k, t, 1) - w.y_rate(i));
    if (with_acceleration) w.command(i) += controllerSetpoint(controller, k, t, 2);
  }
}

void saturate(const CompiledController& controller, Eigen::Ref<Eigen::VectorXd> u) {
  for (std::size_t k = 0; k < controller.inputs.size(); ++k) {
    const CompiledController::Input& input = controller.inputs[k];
    const auto i = static_cast<Eigen::Index>(k);
    if (std::isfinite(u(i))) u(i) = std::clamp(u(i), input.min, input.max);
  }
}

}  // namespace

double controllerSetpoint(const CompiledController& controller, std::size_t variable, double t,
                          int order) {
  if (order > 0 && controller.setpointFrozen(t)) return 0.0;
  return controller.variables[variable].setpoint.derivative(controller.setpointTime(t), order);
}

void controllerTendonsAt(const Model& model, ControllerWorkspace& w,
                         const Eigen::Ref<const Eigen::VectorXd>& q) {
  if (w.uses_tendons)
    lvpTendonLengths(model, w.kinematics, q, w.tendon_lengths, w.tendon_gradients);
  if (w.uses_pressures) cavityVolumeGradients(model, w.kinematics, q, w.volume_gradients);
}

void controlledVariables(const Model& model, const CompiledController& controller,
                         ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, bool with_jacobian) {
  if ((w.tendon_outputs || w.tip_outputs) && with_jacobian)
    outputCurvatures(model, controller, w, q, v);
  controllerTendonsAt(model, w, q);
  if (w.tip_outputs) {
    modelAgnosticDistalFrames(model, w.kinematics, q);  // reused after the tendons' at q
    tipOutputs(model, controller, w, w.tip_values, w.tip_rows);
  }
  for (std::size_t k = 0; k < controller.variables.size(); ++k) {
    const CompiledController::Variable& variable = controller.variables[k];
    const auto i = static_cast<Eigen::Index>(k);
    switch (variable.kind) {
      case ControlledVariableDesc::Kind::Coordinate:
        w.y(i) = q(variable.index);
        w.y_rate(i) = v(variable.index);
        w.y_curvature(i) = 0.0;
        if (with_jacobian) {
          w.J.row(i).setZero();
          w.J(i, variable.index) = 1.0;
        }
        break;
      case ControlledVariableDesc::Kind::CableLength: {
        const CompiledCable& cable = model.cables[variable.index];
        w.y(i) = cableLength(cable, q);
        w.y_curvature(i) = cableLengthCurvature(cable, q, v);
        // dl/dq is minus the cable's force at unit tension
        w.gradient.setZero();
        addCableForces(cable, q, -1.0, w.gradient);
        w.y_rate(i) = w.gradient.dot(v);
        if (with_jacobian) w.J.row(i) = w.gradient.transpose();
        break;
      }
      case ControlledVariableDesc::Kind::TipPosition: {
        w.y(i) = w.tip_values(i);
        w.y_rate(i) = w.tip_rows.row(i).dot(v);
        w.y_curvature(i) = with_jacobian ? w.tip_curvatures(i) : 0.0;
        if (with_jacobian) w.J.row(i) = w.tip_rows.row(i);
        break;
      }
      case ControlledVariableDesc::Kind::TendonLength: {
        const auto gradient = w.tendon_gradients.col(variable.index);
        w.y(i) = w.tendon_lengths(variable.index);
        w.y_rate(i) = gradient.dot(v);
        w.y_curvature(i) = with_jacobian ? w.tendon_curvatures(variable.index) : 0.0;
        if (with_jacobian) w.J.row(i) = gradient.transpose();
        break;
      }
    }
  }
}

void controllerInputs(const Model& model, Data& data, const CompiledController& controller,
                      ControllerWorkspace& w, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> u) {
  controllerInputs(model, data, controller, w, t, q, v, w.zero, u);
}

void controllerInputs(const Model& model, Data& data, const CompiledController& controller,
                      ControllerWorkspace& w, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v,
                      const Eigen::Ref<const Eigen::VectorXd>& known_forces,
                      Eigen::Ref<Eigen::VectorXd> u) {
  w.has_model_terms = false;
  controlledVariables(model, controller, w, q, v, true);
  inputColumns(model, controller, w, q);
  switch (controller.type) {
    case ControllerDesc::Type::PdGravityCompensation: {
      // u = A^-1 [K_P e + K_D e' + g + K q - B_other u_other]_y: one ID(q, 0, 0)
      trackingCommand(controller, w, t, false);
      const Eigen::VectorXd& n = modelAgnosticID(model, data, q, w.zero, w.zero, t);
      for (std::size_t k = 0; k < controller.variables.size(); ++k) {
        const int coordinate = controller.variables[k].index;
        w.command(static_cast<Eigen::Index>(k)) += n(coordinate) - known_forces(coordinate);
        w.gain.row(static_cast<Eigen::Index>(k)) = w.B.row(coordinate);
      }
      break;
    }
    case ControllerDesc::Type::ComputedTorque: {
      // every coordinate controlled: B u = ID(q, v, a), a = y_d'' + K_D e' + K_P e
      trackingCommand(controller, w, t, true);
      for (std::size_t k = 0; k < controller.variables.size(); ++k)
        w.a_full(controller.variables[k].index) = w.command(static_cast<Eigen::Index>(k));
      w.command = modelAgnosticID(model, data, q, v, w.a_full, t);
      w.command -= known_forces;
      w.gain = w.B;
      break;
    }
    case ControllerDesc::Type::CollocatedPfbl: {
      // y'' = J M^-1 (B u - n) + J-dot v = a: M and n from one MID(q, v, 0)
      trackingCommand(controller, w, t, true);
      w.n = modelAgnosticMID(model, data, q, v, w.zero, t);
      w.mass_factor.compute(data.agnostic.M);
      w.Minv_B = w.B;
      w.mass_factor.solveInPlace(w.Minv_B);
      w.Minv_n = w.n - known_forces;  // n stays ID(q, v, 0, t) for the forward dynamics
      w.mass_factor.solveInPlace(w.Minv_n);
      w.command -= w.y_curvature;
      w.command.noalias() += w.J * w.Minv_n;
      w.gain.noalias() = w.J * w.Minv_B;
      w.has_model_terms = w.mass_factor.info() == Eigen::Success;
      break;
    }
  }
  w.gain_factor.compute(w.gain);
  u = w.gain_factor.solve(w.command);
  saturate(controller, u);
}

void addControllerForces(const Model& model, const CompiledController& controller,
                         const ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& u,
                         Eigen::Ref<Eigen::VectorXd> tau) {
  for (std::size_t k = 0; k < controller.inputs.size(); ++k) {
    const CompiledController::Input& input = controller.inputs[k];
    const double value = u(static_cast<Eigen::Index>(k));
    switch (input.kind) {
      case CompiledController::Input::Kind::Cable:
        addCableForces(model.cables[input.index], q, value, tau);
        break;
      case CompiledController::Input::Kind::LvpTendon:
        tau -= value * w.tendon_gradients.col(input.index);
        break;
      case CompiledController::Input::Kind::CavityPressure:
        tau += value * w.volume_gradients.col(input.index);
        break;
      case CompiledController::Input::Kind::JointInput:
        tau(model.joint_inputs[input.index].coordinate) += value;
        break;
    }
  }
}

}  // namespace tendril
