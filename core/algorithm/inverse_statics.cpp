#include "core/algorithm/inverse_statics.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"

namespace tendril {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string jointInputUnit(const RobotDescription& robot, const std::string& link) {
  for (const LinkDesc& desc : robot.links) {
    if (desc.name != link) continue;
    if (desc.joint.type == JointType::Prismatic) return "N";
    if (desc.joint.type == JointType::Revolute || desc.joint.type == JointType::Helical)
      return "N m";
  }
  return "N m or N";  // the generalised force of an exponential or mixed coordinate
}

std::string joinNames(const std::vector<Actuator>& actuators) {
  std::string names;
  for (const Actuator& actuator : actuators) names += (names.empty() ? "" : ", ") + actuator.name;
  return names.empty() ? "none" : names;
}

// why a name that is no actuator is not one
std::string notAnActuator(const Model& model, const std::vector<Actuator>& all,
                          const std::string& name) {
  const RobotDescription& robot = model.description;
  for (const JointInputDesc& input : robot.joint_inputs) {
    const LinkInfo* info = nullptr;
    for (const LinkInfo& link : model.links) {
      if (link.name == input.link) info = &link;
    }
    const bool named =
        input.link == name ||
        (info != nullptr && info->joint >= 0 &&
         model.coordinate_names[model.joints[info->joint].idx_q + input.dof] == name);
    if (named && input.mode == JointInputDesc::Mode::Position)
      return "actuator '" + name +
             "' is a position-mode joint input (its coordinate is prescribed), not a force";
  }
  for (const PointLoadDesc& load : robot.point_loads) {
    if (load.name == name)
      return "actuator '" + name + "' is a point load, not an input (actuators: " + joinNames(all) +
             ")";
  }
  for (const LinkDesc& link : robot.links) {
    if (link.name != name) continue;
    std::string inputs;
    for (const Actuator& actuator : all) {
      if (actuator.kind == Actuator::Kind::JointInput &&
          actuator.name.rfind(name + "/joint/", 0) == 0)
        inputs += (inputs.empty() ? "" : ", ") + actuator.name;
    }
    return inputs.empty() ? "actuator '" + name + "' is a link whose joint has no force input"
                          : "link '" + name + "' has several force inputs: name one of " + inputs;
  }
  for (const std::string& coordinate : model.coordinate_names) {
    if (coordinate == name)
      return "actuator '" + name +
             "' is a coordinate with no force input (actuators: " + joinNames(all) + ")";
  }
  return "unknown actuator '" + name + "' (actuators: " + joinNames(all) + ")";
}

const Actuator* findActuator(const std::vector<Actuator>& all, const std::string& name) {
  for (const Actuator& actuator : all) {
    if (actuator.name == name) return &actuator;
  }
  // a link name stands for its joint's force input when there is exactly one
  const Actuator* only = nullptr;
  int count = 0;
  for (const Actuator& actuator : all) {
    if (actuator.kind == Actuator::Kind::JointInput &&
        actuator.name.rfind(name + "/joint/", 0) == 0) {
      only = &actuator;
      ++count;
    }
  }
  return count == 1 ? only : nullptr;
}

void setBounds(Actuator& actuator, double lower, double upper) {
  if (std::isnan(lower) || std::isnan(upper))
    throw std::invalid_argument("bounds of actuator '" + actuator.name + "' are NaN");
  if (lower > upper) {
    std::ostringstream text;
    text << "bounds of actuator '" << actuator.name << "': lower " << lower << " > upper " << upper
         << " " << actuator.unit;
    throw std::invalid_argument(text.str());
  }
  if (actuator.kind == Actuator::Kind::Cable && lower < 0.0) {
    std::ostringstream text;
    text << "bounds of cable '" << actuator.name << "': lower " << lower
         << " N < 0 (a cable pulls: its tension is >= 0)";
    throw std::invalid_argument(text.str());
  }
  actuator.lower = lower;
  actuator.upper = upper;
}

// J_l(e)^{-1} of SO(3): d log(R R_t^T) = J_l^{-1} w dt for a world angular velocity w
Eigen::Matrix3d leftJacobianInverse(const Eigen::Vector3d& e) {
  const double theta = e.norm();
  const Eigen::Matrix3d E = skew(e);
  // (1/t^2 - (1 + cos t) / (2 t sin t)), its series 1/12 + t^2/720 near 0
  const double c = theta < 1e-4 ? 1.0 / 12.0 + theta * theta / 720.0
                                : 1.0 / (theta * theta) -
                                      (1.0 + std::cos(theta)) / (2.0 * theta * std::sin(theta));
  return Eigen::Matrix3d::Identity() - 0.5 * E + c * E * E;
}

Eigen::Vector3d rotationLog(const Eigen::Matrix3d& R) {
  SE3 g;
  g.R = R;
  return log(g).head<3>();
}

std::string formatPoint(const Eigen::Vector3d& p) {
  std::ostringstream text;
  text.precision(9);
  text << "(" << p.x() << ", " << p.y() << ", " << p.z() << ")";
  return text.str();
}

}  // namespace

struct InverseStaticsSolver::Residual {
  Eigen::VectorXd r;  ///< [point - target; w e] (3 or 6)
  SE3 tip;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  double position_error = 0.0, orientation_error = 0.0;
  double cost() const { return 0.5 * r.squaredNorm(); }
};

std::vector<Actuator> availableActuators(const Model& model) {
  std::vector<Actuator> all;
  for (std::size_t c = 0; c < model.cables.size(); ++c) {
    const int index = static_cast<int>(c);
    all.push_back(Actuator{.kind = Actuator::Kind::Cable,
                           .index = index,
                           .description_index = index,
                           .name = model.cables[c].name,
                           .unit = std::string(1, 'N'),  // not "N": gcc 12's false -Wrestrict
                           .lower = 0.0,
                           .upper = kInfinity});
  }
  // model.joint_inputs holds the force-mode inputs of the description, in its order
  int force_input = 0;
  const std::vector<JointInputDesc>& inputs = model.description.joint_inputs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].mode != JointInputDesc::Mode::Force) continue;
    all.push_back(
        Actuator{.kind = Actuator::Kind::JointInput,
                 .index = force_input,
                 .description_index = static_cast<int>(i),
                 .name = model.coordinate_names[model.joint_inputs[force_input].coordinate],
                 .unit = jointInputUnit(model.description, inputs[i].link),
                 .lower = -kInfinity,
                 .upper = kInfinity});
    ++force_input;
  }
  return all;
}

std::vector<Actuator> resolveActuators(const Model& model, const InverseStaticsOptions& options) {
  const std::vector<Actuator> all = availableActuators(model);
  std::vector<Actuator> chosen;
  if (options.actuators.empty()) {
    chosen = all;
  } else {
    for (const std::string& name : options.actuators) {
      const Actuator* actuator = findActuator(all, name);
      if (actuator == nullptr) throw std::invalid_argument(notAnActuator(model, all, name));
      for (const Actuator& previous : chosen) {
        if (previous.name == actuator->name)
          throw std::invalid_argument("actuator '" + actuator->name + "' is named twice");
      }
      chosen.push_back(*actuator);
    }
  }
  if (chosen.empty())
    throw std::invalid_argument("the model has no cable or force joint input to act with");
  if (!options.bounds.empty()) {
    if (options.bounds.size() != chosen.size())
      throw std::invalid_argument(std::to_string(options.bounds.size()) + " bounds for " +
                                  std::to_string(chosen.size()) + " actuators (" +
                                  joinNames(chosen) + "): give one [lower, upper] per actuator");
    for (std::size_t i = 0; i < chosen.size(); ++i)
      setBounds(chosen[i], options.bounds[i].first, options.bounds[i].second);
  }
  return chosen;
}

InverseStaticsSolver::InverseStaticsSolver(const Model& model, const InverseStaticsOptions& options)
    : model_(model), data_(model), options_(options), actuators_(resolveActuators(model, options)) {
  if (model.n_constraints > 0)
    throw std::invalid_argument("inverse statics does not handle closed chains (the model has " +
                                std::to_string(model.closed_chains.size()) +
                                " closed-chain joint(s))");
  if (!model.prescribed.empty() || !options.statics.prescribed.empty())
    throw std::invalid_argument(
        "inverse statics does not handle prescribed coordinates (position-mode joint inputs)");
  if (options.max_iterations < 1 || !(options.position_tolerance > 0.0) ||
      !(options.orientation_tolerance > 0.0))
    throw std::invalid_argument(
        "inverse statics needs max_iterations >= 1 and positive tolerances");
  const Eigen::Index m = static_cast<Eigen::Index>(actuators_.size());
  initial_u_.resize(m);
  const double t = options.statics.time;
  for (Eigen::Index i = 0; i < m; ++i) {
    const Actuator& actuator = actuators_[i];
    initial_u_(i) = actuator.kind == Actuator::Kind::Cable
                        ? model.cables[actuator.index].tension(t)
                        : model.joint_inputs[actuator.index].value(t);
  }
  initial_u_ = clamp(initial_u_);
}

Eigen::VectorXd InverseStaticsSolver::initialValues() const {
  return initial_u_;
}

Eigen::VectorXd InverseStaticsSolver::clamp(const Eigen::Ref<const Eigen::VectorXd>& u) const {
  Eigen::VectorXd clamped = u;
  for (std::size_t i = 0; i < actuators_.size(); ++i) {
    const Eigen::Index k = static_cast<Eigen::Index>(i);
    clamped(k) = std::clamp(u(k), actuators_[i].lower, actuators_[i].upper);
  }
  return clamped;
}

void InverseStaticsSolver::setValues(const Eigen::Ref<const Eigen::VectorXd>& u) {
  for (std::size_t i = 0; i < actuators_.size(); ++i) {
    const Actuator& actuator = actuators_[i];
    const TimeFunction value = TimeFunction::constant(u(static_cast<Eigen::Index>(i)));
    if (actuator.kind == Actuator::Kind::Cable) {
      model_.cables[actuator.index].tension = value;
    } else {
      model_.joint_inputs[actuator.index].value = value;
    }
  }
}

int InverseStaticsSolver::checkedLink(const InverseStaticsTarget& target) const {
  int link = -1;
  std::string names;
  for (std::size_t i = 0; i < model_.links.size(); ++i) {
    if (model_.links[i].name == target.link) link = static_cast<int>(i);
    names += (names.empty() ? "" : ", ") + model_.links[i].name;
  }
  if (link < 0)
    throw std::invalid_argument("unknown link '" + target.link + "' (links: " + names + ")");
  if (!target.position.allFinite())
    throw std::invalid_argument("the target position is not finite (NaN or infinite)");
  if (!target.offset.allFinite())
    throw std::invalid_argument("the target point's offset is not finite (NaN or infinite)");
  if (target.orientation) {
    const Eigen::Matrix3d& R = *target.orientation;
    if (!R.allFinite() || (R.transpose() * R - Eigen::Matrix3d::Identity()).norm() > 1e-9 ||
        R.determinant() < 0.0)
      throw std::invalid_argument("the target orientation is not a rotation matrix");
    if (!(target.orientation_weight > 0.0) || !std::isfinite(target.orientation_weight))
      throw std::invalid_argument("the orientation weight must be positive [m/rad]");
  }
  return link;
}

InverseStaticsSolver::Residual InverseStaticsSolver::residual(
    const InverseStaticsTarget& target, int link, const Eigen::Ref<const Eigen::VectorXd>& q) {
  Residual result;
  forwardKinematics(model_, data_, q);
  result.tip = linkTipPose(model_, data_, link);
  result.point = result.tip.act(target.offset);
  result.position_error = (result.point - target.position).norm();
  result.r.resize(target.orientation ? 6 : 3);
  result.r.head<3>() = result.point - target.position;
  if (target.orientation) {
    const Eigen::Vector3d e = rotationLog(result.tip.R * target.orientation->transpose());
    result.orientation_error = e.norm();
    result.r.tail<3>() = target.orientation_weight * e;
  }
  return result;
}

StaticsResult InverseStaticsSolver::equilibrium(const Eigen::Ref<const Eigen::VectorXd>& u,
                                                const Eigen::Ref<const Eigen::VectorXd>& q0) {
  setValues(u);
  return solveStatics(model_, data_, q0, options_.statics);
}

Eigen::MatrixXd InverseStaticsSolver::equilibriumSensitivity(
    const Eigen::Ref<const Eigen::VectorXd>& u, const Eigen::Ref<const Eigen::VectorXd>& q) {
  setValues(u);
  const double t = options_.statics.time;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model_.nv);
  // dR/dq = d(B u)/dq - dID(q, 0, 0)/dq - K  (13b)
  inverseDynamicsDerivatives(model_, data_, q, zero, zero, t);
  actuationJacobian(model_, data_, q, t);
  const Eigen::MatrixXd dR_dq = data_.dtau_applied_dq - data_.dtau_dq - model_.K;
  // dR/du: the actuators' columns of B(q)
  Eigen::MatrixXd dR_du =
      Eigen::MatrixXd::Zero(model_.nv, static_cast<Eigen::Index>(actuators_.size()));
  for (std::size_t i = 0; i < actuators_.size(); ++i) {
    const Actuator& actuator = actuators_[i];
    auto column = dR_du.col(static_cast<Eigen::Index>(i));
    if (actuator.kind == Actuator::Kind::Cable) {
      addCableForces(model_.cables[actuator.index], q, 1.0, column);
    } else {
      column(model_.joint_inputs[actuator.index].coordinate) = 1.0;
    }
  }
  return -Eigen::PartialPivLU<Eigen::MatrixXd>(dR_dq).solve(dR_du);
}

Eigen::MatrixXd InverseStaticsSolver::tipSensitivity(const InverseStaticsTarget& target,
                                                     const Eigen::Ref<const Eigen::VectorXd>& u,
                                                     const Eigen::Ref<const Eigen::VectorXd>& q) {
  const int link = checkedLink(target);
  const Eigen::MatrixXd dq_du = equilibriumSensitivity(u, q);
  forwardKinematics(model_, data_, q);
  const LinkInfo& info = model_.links[link];
  Eigen::MatrixXd J(6, model_.nv);
  frameJacobian(model_, data_, info.tip, J);  // body Jacobian of frame j, [w; v]
  const Eigen::Matrix3d& R_j = data_.g[info.tip].R;
  const Eigen::Vector3d r = info.g_tip.act(target.offset);  // the point in frame j
  Eigen::MatrixXd sensitivity(target.orientation ? 6 : 3, dq_du.cols());
  // dp = R_j (J_v - r~ J_w) dq
  const Eigen::MatrixXd J_point = R_j * (J.bottomRows<3>() - skew(r) * J.topRows<3>());
  sensitivity.topRows<3>() = J_point * dq_du;
  if (target.orientation) {
    const SE3 tip = linkTipPose(model_, data_, link);
    const Eigen::Vector3d e = rotationLog(tip.R * target.orientation->transpose());
    sensitivity.bottomRows<3>() = leftJacobianInverse(e) * R_j * J.topRows<3>() * dq_du;
  }
  return sensitivity;
}

Eigen::MatrixXd InverseStaticsSolver::residualJacobian(const InverseStaticsTarget& target,
                                                       const Eigen::Ref<const Eigen::VectorXd>& u,
                                                       const Eigen::Ref<const Eigen::VectorXd>& q) {
  Eigen::MatrixXd J = tipSensitivity(target, u, q);
  if (target.orientation) J.bottomRows<3>() *= target.orientation_weight;
  return J;
}

std::string InverseStaticsSolver::boundsReport(const Eigen::VectorXd& u) const {
  std::ostringstream text;
  text.precision(6);
  bool any = false;
  for (std::size_t i = 0; i < actuators_.size(); ++i) {
    const double value = u(static_cast<Eigen::Index>(i));
    if (value != actuators_[i].lower && value != actuators_[i].upper) continue;
    text << (any ? ", " : "; at their bounds: ") << actuators_[i].name << " = " << value << " "
         << actuators_[i].unit;
    any = true;
  }
  return text.str();
}

InverseStaticsResult InverseStaticsSolver::solve(const InverseStaticsTarget& target) {
  const Eigen::VectorXd u0 = last_u_ ? *last_u_ : initial_u_;
  const Eigen::VectorXd q0 = last_q_ ? *last_q_ : Eigen::VectorXd::Zero(model_.nq);
  return solve(target, u0, q0);
}

InverseStaticsResult InverseStaticsSolver::solve(const InverseStaticsTarget& target,
                                                 const Eigen::Ref<const Eigen::VectorXd>& u0,
                                                 const Eigen::Ref<const Eigen::VectorXd>& q0) {
  const int link = checkedLink(target);
  const Eigen::Index m = static_cast<Eigen::Index>(actuators_.size());
  if (u0.size() != m || q0.size() != model_.nq)
    throw std::invalid_argument("u0 or q0 has the wrong size");
  if (!u0.allFinite() || !q0.allFinite()) throw std::invalid_argument("u0 or q0 is not finite");
  InverseStaticsResult result;
  result.u = clamp(u0);
  StaticsResult statics = equilibrium(result.u, q0);
  result.statics_iterations += statics.iterations;
  if (!statics.converged) {
    result.q = statics.q;
    result.message =
        "the statics at the initial actuator values did not converge: " + statics.message;
    return result;
  }
  result.q = statics.q;
  Residual current = residual(target, link, result.q);
  const auto on_target = [&](const Residual& at) {
    return at.position_error <= options_.position_tolerance &&
           (!target.orientation || at.orientation_error <= options_.orientation_tolerance);
  };

  // bound-constrained Levenberg-Marquardt on 1/2 |r(u)|^2, r = [p(q*(u)) - p_t; w e(q*(u))].
  // The damping is Levenberg's mu max(diag(J^T J)) I, not Marquardt's diagonal scaling: with more
  // actuators than target components the steps are then the smallest changes of u that reduce
  // the error, where Marquardt's scaling lets the actuators that barely move the tip (short cables)
  // take huge steps to tensions of hundreds of newtons
  double mu = 1e-3;
  constexpr double kMuMax = 1e12, kMuMin = 1e-10;
  int slow_steps = 0;  // consecutive accepted steps that reduced the cost by < 1e-8 of it
  while (!on_target(current) && result.iterations < options_.max_iterations) {
    ++result.iterations;
    const Eigen::MatrixXd J = residualJacobian(target, result.u, result.q);
    const Eigen::VectorXd g = J.transpose() * current.r;
    // free actuators: those a descent step does not push through their bound
    std::vector<Eigen::Index> free;
    for (Eigen::Index i = 0; i < m; ++i) {
      const bool held = (result.u(i) <= actuators_[i].lower && g(i) > 0.0) ||
                        (result.u(i) >= actuators_[i].upper && g(i) < 0.0);
      if (!held) free.push_back(i);
    }
    const Eigen::Index nf = static_cast<Eigen::Index>(free.size());
    Eigen::MatrixXd J_free(J.rows(), nf);
    for (Eigen::Index k = 0; k < nf; ++k) J_free.col(k) = J.col(free[k]);
    // stationary: the residual is (numerically) orthogonal to what the free actuators can do
    if (nf == 0 ||
        (J_free.transpose() * current.r).norm() <= 1e-10 * J_free.norm() * current.r.norm()) {
      break;
    }
    const Eigen::MatrixXd A = J_free.transpose() * J_free;
    const Eigen::VectorXd b = -J_free.transpose() * current.r;
    const double damping_scale = A.diagonal().maxCoeff();
    bool accepted = false, stalled = false;
    while (!accepted && mu <= kMuMax) {
      Eigen::MatrixXd A_damped = A;
      for (Eigen::Index k = 0; k < nf; ++k) A_damped(k, k) += mu * damping_scale;
      const Eigen::VectorXd step = A_damped.ldlt().solve(b);
      Eigen::VectorXd u_trial = result.u;
      for (Eigen::Index k = 0; k < nf; ++k) u_trial(free[k]) += step(k);
      u_trial = clamp(u_trial);
      if ((u_trial - result.u).norm() <= 1e-15 * (1.0 + result.u.norm())) {
        stalled = true;
        break;
      }
      // inner solve warm-started from the current equilibrium
      statics = equilibrium(u_trial, result.q);
      result.statics_iterations += statics.iterations;
      if (statics.converged) {
        Residual trial = residual(target, link, statics.q);
        if (trial.cost() < current.cost()) {
          slow_steps = trial.cost() > (1.0 - 1e-8) * current.cost() ? slow_steps + 1 : 0;
          result.u = u_trial;
          result.q = statics.q;
          current = trial;
          mu = std::max(mu / 3.0, kMuMin);
          accepted = true;
          break;
        }
      }
      mu *= 10.0;
    }
    // stationary in practice: the error no longer shrinks
    if (!accepted || stalled || slow_steps >= 3) break;
  }

  // the solution stays the warm start of the next solve
  last_u_ = result.u;
  last_q_ = result.q;
  setValues(result.u);
  result.tip = current.tip;
  result.point = current.point;
  result.position_error = current.position_error;
  result.orientation_error = current.orientation_error;
  result.converged = on_target(current);
  std::ostringstream text;
  text.precision(3);
  if (result.converged) {
    text << "converged: the tip is " << current.position_error << " m from the target";
    if (target.orientation)
      text << " and " << current.orientation_error << " rad from its orientation";
    text << " after " << result.iterations << " iteration(s)";
  } else if (result.iterations >= options_.max_iterations) {
    text << "unreachable: closest point " << formatPoint(current.point) << " at "
         << current.position_error << " m from the target after " << result.iterations
         << " iterations, still moving closer (the closest point may need unbounded actuator "
            "values: bound them or allow more iterations)";
  } else {
    text << "unreachable: closest point " << formatPoint(current.point) << " at "
         << current.position_error << " m from the target";
    if (target.orientation)
      text << ", " << current.orientation_error << " rad from its orientation";
    text << " (outside what the actuators reach within their bounds" << boundsReport(result.u)
         << ")";
  }
  result.message = text.str();
  return result;
}

InverseStaticsResult inverseStatics(const Model& model, const InverseStaticsTarget& target,
                                    const InverseStaticsOptions& options) {
  InverseStaticsSolver solver(model, options);
  return solver.solve(target);
}

void setActuatorValues(RobotDescription& robot, const std::vector<Actuator>& actuators,
                       const Eigen::Ref<const Eigen::VectorXd>& u) {
  for (std::size_t i = 0; i < actuators.size(); ++i) {
    const TimeFunction value = TimeFunction::constant(u(static_cast<Eigen::Index>(i)));
    if (actuators[i].kind == Actuator::Kind::Cable) {
      robot.cables.at(actuators[i].description_index).tension = value;
    } else {
      robot.joint_inputs.at(actuators[i].description_index).value = value;
    }
  }
}

}  // namespace tendril
