#pragma once
// Closed-chain models shared by the constraint, constrained-simulation and dynamics-system tests.

#include <Eigen/LU>
#include <cmath>
#include <string>

#include "core/algorithm/constraints.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril::test {

/// \brief A slender rigid bar along its link x axis, of length `length`, on a revolute joint
///        about z: mass 1 kg per metre, CoM at mid-length.
inline LinkDesc bar(const std::string& name, const std::string& parent, double length) {
  // built by a function of another translation unit: GCC 12 sees a false "maybe uninitialized"
  // in an inlined LinkDesc construction
  LinkDesc link = rigidLink(name, parent, JointType::Revolute, {0, 0, 1});
  link.rigid().tip.rpy = {0, 0, 0};
  link.joint.pitch = 0.0;
  const double mass = length;
  link.rigid().mass = mass;
  link.rigid().com = {0.5 * length, 0, 0};
  const double I = mass * length * length / 12.0;
  link.rigid().inertia = {1e-3 * I + 1e-9, I, I, 0, 0, 0};
  link.rigid().tip.position = {length, 0, 0};
  link.rigid().shape.size = {length, 0.01, 0.01};
  return link;
}

/// \brief A four-bar linkage in the x-y plane (gravity along -y): crank a = 0.1 m from the
///        origin, coupler b = 0.35 m, rocker c = 0.3 m, its tip pinned to the world at (d, 0, 0),
///        d = 0.4 m, by a planar revolute closed-chain joint (2 constraints): one degree of
///        freedom.
inline RobotDescription fourBar(bool planar = true) {
  RobotDescription robot;
  robot.name = "four_bar";
  robot.gravity = {0, -9.81, 0};
  robot.links.push_back(bar("crank", "world", 0.1));
  robot.links.push_back(bar("coupler", "crank", 0.35));
  robot.links.push_back(bar("rocker", "coupler", 0.3));
  ClosedChainDesc pin;
  pin.name = "ground_pin";
  pin.joint.type = JointType::Revolute;
  pin.joint.axis = {0, 0, 1};
  pin.planar = planar;
  pin.a.link = "rocker";
  pin.a.placement.position = {0.3, 0, 0};
  pin.b.link = "world";
  pin.b.placement.position = {0.4, 0, 0};
  robot.closed_chains.push_back(pin);
  robot.constraint_time_constant = 0.02;
  return robot;
}

/// \brief fourBar() with its crank driven in position: offset + 0.6 sin(2 pi t) rad (a closed chain
///        and a prescribed coordinate together). The drive is the last joint input.
inline RobotDescription drivenFourBar(double offset = 0.0) {
  RobotDescription robot = fourBar();
  JointInputDesc drive;
  drive.link = "crank";
  drive.mode = JointInputDesc::Mode::Position;
  drive.value.kind = TimeFunction::Kind::Sine;
  drive.value.amplitude = 0.6;
  drive.value.frequency = 1.0;
  drive.value.offset = offset;
  robot.joint_inputs.push_back(drive);
  return robot;
}

/// \brief Newton on e(q) = 0 over every coordinate but `held` (minimum-norm steps).
/// \return the final |e|
inline double assemble(const Model& model, Eigen::VectorXd& q, int held, int iterations = 50) {
  Data data(model);
  ConstraintData cd(model);
  for (int it = 0; it < iterations; ++it) {
    forwardKinematics(model, data, q);
    constraintErrorJacobian(model, data, cd);
    if (cd.e.norm() < 1e-14) break;
    Eigen::MatrixXd J = cd.de_dq;
    if (held >= 0) J.col(held).setZero();
    const Eigen::VectorXd step = J.transpose() * (J * J.transpose()).partialPivLu().solve(cd.e);
    q -= step;
  }
  forwardKinematics(model, data, q);
  constraintError(model, data, cd);
  return cd.e.norm();
}

/// \brief A soft rod along x from the origin (0.3 m, radius 1 cm, bending and stretch), its tip
///        pinned to the world where it is when straight by a spherical closed-chain joint: a
///        clamped-pinned beam that sags under gravity (-z).
inline RobotDescription softLoop(double damping) {
  StrainBasisDesc basis;
  basis.family = BasisFamily::Legendre;
  basis.order = {1, 2, 2, 1, -1, -1};
  RobotDescription robot = uniformRod(0.3, 0.01, basis, 5);
  robot.name = "soft_loop";
  robot.links[0].soft().divisions[0].material.damping = damping;
  ClosedChainDesc pin;
  pin.name = "tip_pin";
  pin.joint.type = JointType::Spherical;
  pin.a.link = "rod";
  pin.a.abscissa = -1.0;
  pin.b.link = "world";
  pin.b.placement.position = {0.3, 0, 0};
  robot.closed_chains.push_back(pin);
  return robot;
}

}  // namespace tendril::test
