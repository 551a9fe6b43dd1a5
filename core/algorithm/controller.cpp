#include "core/algorithm/controller.hpp"

#include <algorithm>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"

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
      gain_factor(static_cast<Eigen::Index>(controller.inputs.size())) {}

namespace {

// the generalised force of each input at unit value: B's columns
void inputColumns(const Model& model, const CompiledController& controller, ControllerWorkspace& w,
                  const Eigen::Ref<const Eigen::VectorXd>& q) {
  w.B.setZero();
  for (std::size_t k = 0; k < controller.inputs.size(); ++k) {
    const CompiledController::Input& input = controller.inputs[k];
    const auto column = static_cast<Eigen::Index>(k);
    if (input.cable) {
      addCableForces(model.cables[input.index], q, 1.0, w.B.col(column));
    } else {
      w.B(model.joint_inputs[input.index].coordinate, column) = 1.0;
    }
  }
}

// K_P e + K_D e' (+ y_d'' when with_acceleration) per variable, into w.command
void trackingCommand(const CompiledController& controller, ControllerWorkspace& w, double t,
                     bool with_acceleration) {
  for (std::size_t k = 0; k < controller.variables.size(); ++k) {
    const TimeFunction& setpoint = controller.variables[k].setpoint;
    const auto i = static_cast<Eigen::Index>(k);
    w.command(i) = controller.kp(i) * (setpoint(t) - w.y(i)) +
                   controller.kd(i) * (setpoint.derivative(t, 1) - w.y_rate(i));
    if (with_acceleration) w.command(i) += setpoint.derivative(t, 2);
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

void controlledVariables(const Model& model, const CompiledController& controller,
                         ControllerWorkspace& w, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, bool with_jacobian) {
  for (std::size_t k = 0; k < controller.variables.size(); ++k) {
    const CompiledController::Variable& variable = controller.variables[k];
    const auto i = static_cast<Eigen::Index>(k);
    if (!variable.cable_length) {
      w.y(i) = q(variable.index);
      w.y_rate(i) = v(variable.index);
      w.y_curvature(i) = 0.0;
      if (with_jacobian) {
        w.J.row(i).setZero();
        w.J(i, variable.index) = 1.0;
      }
      continue;
    }
    const CompiledCable& cable = model.cables[variable.index];
    w.y(i) = cableLength(cable, q);
    w.y_curvature(i) = cableLengthCurvature(cable, q, v);
    // dl/dq is minus the cable's force at unit tension
    w.gradient.setZero();
    addCableForces(cable, q, -1.0, w.gradient);
    w.y_rate(i) = w.gradient.dot(v);
    if (with_jacobian) w.J.row(i) = w.gradient.transpose();
  }
}

void controllerInputs(const Model& model, Data& data, const CompiledController& controller,
                      ControllerWorkspace& w, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> u) {
  controlledVariables(model, controller, w, q, v, true);
  inputColumns(model, controller, w, q);
  switch (controller.type) {
    case ControllerDesc::Type::PdGravityCompensation: {
      // u = A^-1 [K_P e + K_D e' + g + K q - B_other u_other]_y: one ID(q, 0, 0)
      trackingCommand(controller, w, t, false);
      const Eigen::VectorXd& n = modelAgnosticID(model, data, q, w.zero, w.zero, t);
      for (std::size_t k = 0; k < controller.variables.size(); ++k) {
        const int coordinate = controller.variables[k].index;
        w.command(static_cast<Eigen::Index>(k)) += n(coordinate);
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
      w.Minv_n = w.n;
      w.mass_factor.solveInPlace(w.Minv_n);
      w.command -= w.y_curvature;
      w.command.noalias() += w.J * w.Minv_n;
      w.gain.noalias() = w.J * w.Minv_B;
      break;
    }
  }
  w.gain_factor.compute(w.gain);
  u = w.gain_factor.solve(w.command);
  saturate(controller, u);
}

void addControllerForces(const Model& model, const CompiledController& controller,
                         const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& u,
                         Eigen::Ref<Eigen::VectorXd> tau) {
  for (std::size_t k = 0; k < controller.inputs.size(); ++k) {
    const CompiledController::Input& input = controller.inputs[k];
    const double value = u(static_cast<Eigen::Index>(k));
    if (input.cable) {
      addCableForces(model.cables[input.index], q, value, tau);
    } else {
      tau(model.joint_inputs[input.index].coordinate) += value;
    }
  }
}

}  // namespace tendril
