#pragma once
// Models and states shared by the engine tests.

#include <Eigen/Core>
#include <functional>
#include <random>
#include <string>

#include "core/model/description.hpp"
#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"

namespace tendril::test {

/// \brief Three LVP bodies of the seed paper's Simulation 1 in series (Table 4 primitives, the body
///        defaults L = 0.1 m, R = 0.02 m), each on a fixed joint below the previous one: 24
///        coordinates, each body integrated by \p rule. With \p tendons, nine of 1 N as in
///        Simulation 1: three per body from its base to its tip, 120 degrees apart.
RobotDescription lvpTable4Chain(const LvpQuadratureDesc& rule, bool tendons = false);

/// \brief A bundled example by file stem, e.g. "hybrid_serial_robot".
RobotDescription example(const std::string& stem);

/// \brief One soft link, fixed at the world, along x.
RobotDescription uniformRod(double length, double radius, const StrainBasisDesc& basis,
                            int gauss_points = 5, int magnus_order = 4);

/// \brief A 0.3 m rod (bending, torsion and stretch modes) whose tip is hit by a 100 N force
///        switched on within a nanosecond at \p kick_time: a jump no step below a minimum step of
///        1e-5 s can hold.
RobotDescription rodKickedAtTheTip(double kick_time);
/// \brief 0.2 s of it with \p integrator at rtol 1e-4, atol 1e-6, outputs every 10 ms and a
///        minimum step of 1e-5 s.
SimulationOptions kickedRodOptions(IntegratorKind integrator);

/// \brief A rigid link on a joint of the given type (box body, CoM off the joint axis).
LinkDesc rigidLink(const std::string& name, const std::string& parent, JointType type,
                   Vec3 axis = {0, 0, 1});

/// \brief A random tree mixing every joint type and soft links of several basis families.
RobotDescription randomHybrid(unsigned seed);

struct State {
  Eigen::VectorXd q, v, a;
};

/// \brief Random state with entries in [-scale, scale] (q), [-1, 1] (v, a).
State randomState(const Model& model, unsigned seed, double q_scale = 0.5);

/// \brief Options under which RK4 diverges on a soft rod: a step far beyond its stability limit.
SimulationOptions divergingRk4Options();

/// \brief Central difference of f at x (columns = d f / d x_i).
Eigen::MatrixXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& x, double h);

/// \brief Richardson extrapolation of central differences at steps h and h/2: truncation O(h^4),
/// so a step large enough to keep the round-off of ill-conditioned functions small.
Eigen::MatrixXd extrapolatedCentralDifference(
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h);

/// \brief Relative error |a - b| / max(|b|, floor) in the Frobenius norm.
double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double floor = 1e-12);

/// \brief The central-difference step in v for dID/dv and dFD/dv. Without velocity-dependent loads
/// ID is quadratic in v and a central difference is exact at any step, so 1e-2 removes the
/// round-off (which at 1e-6 reaches 7e-7 on rods whose dID/dv is 1e3 times smaller than ID). Drag
/// -D |v| eta, Hunt-Crossley damping and regularised friction are not polynomial: there the
/// truncation (h^2 / 6 times the third derivative) rules and 1e-4 keeps both it and the round-off
/// near 1e-9 relative on the bundled underwater and contact robots (at 1e-5 the round-off reached
/// 3e-5 on the contact rod).
double velocityStep(const Model& model);

}  // namespace tendril::test
