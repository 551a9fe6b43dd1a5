#include "tests/support/test_models.hpp"

#include <filesystem>
#include <numbers>
#include <string>

#include "core/io/json_io.hpp"

namespace tendril::test {

double velocityStep(const Model& model) {
  const CompiledEnvironment& env = model.environment;
  const bool damped_contact = env.has_contact && (env.damping > 0.0 || env.friction > 0.0);
  return env.has_fluid || damped_contact ? 1e-4 : 1e-2;
}

RobotDescription example(const std::string& stem) {
  return loadRobot(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / (stem + ".json"));
}

RobotDescription lvpTable4Chain(const LvpQuadratureDesc& rule, bool tendons) {
  RobotDescription robot;
  robot.name = "lvp_table4_chain";
  for (int i = 0; i < 3; ++i) {
    LinkDesc link;
    link.name = "body" + std::to_string(i);
    link.parent = i == 0 ? "world" : "body" + std::to_string(i - 1);
    LvpBodyDesc body;
    body.quadrature = rule;
    link.body = body;
    robot.links.push_back(link);
    for (int k = 0; tendons && k < 3; ++k) {
      const double angle = 2.0 * std::numbers::pi * (k + i / 3.0) / 3.0;
      robot.lvp_tendons.push_back({link.name + "_tendon" + std::to_string(k),
                                   {{link.name, LvpAnchorDesc::End::Base, angle},
                                    {link.name, LvpAnchorDesc::End::Tip, angle}},
                                   TimeFunction::constant(1.0)});
    }
  }
  return robot;
}

RobotDescription uniformRod(double length, double radius, const StrainBasisDesc& basis,
                            int gauss_points, int magnus_order) {
  RobotDescription robot;
  robot.name = "rod";
  LinkDesc link;
  link.name = "rod";
  link.body = SoftBodyDesc{};
  DivisionDesc division;
  division.length = length;
  division.section.radius_start = division.section.radius_end = radius;
  division.basis = basis;
  division.gauss_points = gauss_points;
  link.soft().divisions = {division};
  link.soft().magnus_order = magnus_order;
  robot.links = {link};
  return robot;
}

RobotDescription rodKickedAtTheTip(double kick_time) {
  StrainBasisDesc basis;
  basis.order = {1, 2, 2, 0, -1, -1};
  RobotDescription robot = uniformRod(0.3, 0.015, basis, 4);
  PointLoadDesc load;
  load.name = "kick";
  load.link = "rod";
  load.abscissa = -1.0;
  load.wrench = {0, 0, 0, 0, 0, 100.0};
  load.scale.kind = TimeFunction::Kind::Ramp;
  load.scale.value = 1.0;
  load.scale.start = kick_time;
  load.scale.duration = 1e-9;
  robot.point_loads.push_back(load);
  return robot;
}

SimulationOptions kickedRodOptions(IntegratorKind integrator) {
  SimulationOptions options;
  options.integrator = integrator;
  options.t_end = 0.2;
  options.output_interval = 0.01;
  options.relative_tolerance = 1e-4;
  options.absolute_tolerance = 1e-6;
  options.min_step = 1e-5;
  return options;
}

LinkDesc rigidLink(const std::string& name, const std::string& parent, JointType type, Vec3 axis) {
  LinkDesc link;
  link.name = name;
  link.parent = parent;
  link.joint.type = type;
  link.joint.axis = axis;
  link.joint.pitch = 0.05;
  link.body = RigidBodyDesc{};
  link.rigid().mass = 0.7;
  link.rigid().com = {0.1, 0.02, -0.01};
  link.rigid().inertia = {2e-3, 3e-3, 4e-3, 1e-4, -2e-4, 5e-5};
  link.rigid().tip.position = {0.2, 0.0, 0.03};
  link.rigid().tip.rpy = {0.1, -0.2, 0.3};
  return link;
}

RobotDescription randomHybrid(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const JointType types[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                             JointType::Cylindrical, JointType::Universal, JointType::Planar,
                             JointType::Spherical,   JointType::Free,      JointType::Fixed};
  const BasisFamily families[] = {BasisFamily::Monomial,  BasisFamily::Legendre,
                                  BasisFamily::Chebyshev, BasisFamily::Fourier,
                                  BasisFamily::Gaussian,  BasisFamily::PiecewiseConstant};
  RobotDescription robot;
  robot.name = "random";
  std::vector<std::string> names;
  for (int i = 0; i < 9; ++i) {
    const std::string parent = names.empty() ? "world" : names[rng() % names.size()];
    const std::string name = "link" + std::to_string(i);
    LinkDesc link = rigidLink(name, parent, types[i], {unit(rng), unit(rng), unit(rng) + 2.0});
    link.origin.position = {0.05 * unit(rng), 0.05 * unit(rng), 0.05 * unit(rng)};
    link.origin.rpy = {unit(rng), unit(rng), unit(rng)};
    if (i % 3 == 2) {  // every third link is soft, with two divisions
      link.body = SoftBodyDesc{};
      DivisionDesc division;
      division.length = 0.2;
      division.section.radius_start = 0.015;
      division.section.radius_end = 0.01;
      division.basis.family = families[(i / 3 + seed) % 6];
      division.basis.order = {1, 2, 1, 0, 0, -1};
      division.reference_strain = {0.3, 0.5, -0.2, 1.0, 0.0, 0.0};
      division.gauss_points = 3;
      DivisionDesc second = division;
      second.basis.family = families[(i / 3 + seed + 1) % 6];
      second.section.shape = SectionShape::Rectangular;
      second.origin.position = {0.0, 0.01, 0.0};
      second.origin.rpy = {0.1, 0.0, -0.2};
      link.soft().divisions = {division, second};
    }
    names.push_back(name);
    robot.links.push_back(link);
  }
  return robot;
}

State randomState(const Model& model, unsigned seed, double q_scale) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  State s;
  s.q = Eigen::VectorXd::NullaryExpr(model.nq, [&] { return q_scale * unit(rng); });
  s.v = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return unit(rng); });
  s.a = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return unit(rng); });
  return s;
}

SimulationOptions divergingRk4Options() {
  SimulationOptions options;
  options.integrator = IntegratorKind::Rk4;
  options.step = 0.01;
  options.min_step = 5e-3;
  options.t_end = 1.0;
  options.output_interval = 0.01;
  return options;
}

Eigen::MatrixXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& x, double h) {
  Eigen::MatrixXd J;
  Eigen::VectorXd xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    xp(i) = x(i) + h;
    const Eigen::VectorXd plus = f(xp);
    xp(i) = x(i) - h;
    const Eigen::VectorXd minus = f(xp);
    xp(i) = x(i);
    if (J.size() == 0) J.resize(plus.size(), x.size());
    J.col(i) = (plus - minus) / (2.0 * h);
  }
  return J;
}

Eigen::MatrixXd extrapolatedCentralDifference(
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h) {
  return (4.0 * centralDifference(f, x, h / 2) - centralDifference(f, x, h)) / 3.0;
}

double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double floor) {
  return (a - b).norm() / std::max(b.norm(), floor);
}

}  // namespace tendril::test
