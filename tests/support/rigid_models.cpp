#include "tests/support/rigid_models.hpp"

#include <array>
#include <random>
#include <vector>

#include "tests/support/test_models.hpp"

namespace tendril::test {
namespace {

const std::array<Vec3, 3> kAxes = {Vec3{0, 0, 1}, Vec3{0, 1, 0}, Vec3{1, 0, 0}};

// a revolute link whose joint sits `offset` along z from its parent's frame (tips are identities:
// the next joint's origin carries the offset)
LinkDesc revoluteLink(const std::string& name, const std::string& parent, Vec3 axis, Vec3 offset) {
  LinkDesc link;
  link.name = name;
  link.parent = parent;
  link.origin.position = offset;
  link.joint.type = JointType::Revolute;
  link.joint.axis = axis;
  link.body = RigidBodyDesc{};
  RigidBodyDesc& body = link.rigid();
  body.mass = 1.0;
  body.com = {0.0, 0.0, 0.05};
  body.inertia = {1e-3, 1e-3, 5e-4, 0.0, 0.0, 0.0};
  body.tip = Placement{};
  body.shape.type = ShapeType::Box;
  body.shape.size = {0.04, 0.04, 0.1};
  return link;
}

std::string linkName(int k) {
  return "link" + std::to_string(k);
}

}  // namespace

RobotDescription benchmarkArm() {
  RobotDescription robot;
  robot.name = "benchmark_arm";
  const double offsets[] = {0.1, 0.2, 0.2, 0.2, 0.2, 0.1, 0.1};
  for (int i = 1; i <= 7; ++i) {
    LinkDesc link = revoluteLink(linkName(i), i == 1 ? "world" : linkName(i - 1),
                                 i % 2 == 1 ? kAxes[0] : kAxes[1], {0.0, 0.0, offsets[i - 1]});
    RigidBodyDesc& body = link.rigid();
    body.mass = 3.0 - 0.3 * (i - 1);
    body.com = {0.01 * i, -0.005 * i, 0.08};
    const double m = body.mass;  // a 0.06 x 0.06 x 0.2 m box's moments, tilted off its axes
    body.inertia = {0.0036 * m, 0.0037 * m, 6e-4 * m, 1e-5 * i, -2e-5 * i, 1.5e-5 * i};
    robot.links.push_back(link);
  }
  return robot;
}

RobotDescription benchmarkChain(int n) {
  RobotDescription robot;
  robot.name = "benchmark_chain_" + std::to_string(n);
  for (int k = 0; k < n; ++k) {
    robot.links.push_back(revoluteLink(linkName(k), k == 0 ? "world" : linkName(k - 1),
                                       kAxes[k % 3], {0.0, 0.0, k == 0 ? 0.0 : 0.1}));
  }
  return robot;
}

RobotDescription branchedTree(int n, int branching) {
  RobotDescription robot;
  robot.name = "branched_tree_" + std::to_string(n) + "_bf" + std::to_string(branching);
  for (int k = 0; k < n; ++k) {
    const std::string parent = k == 0 ? "world" : linkName((k - 1) / branching);
    // siblings fan out sideways, so that the tree does not fold onto one line
    const int sibling = k == 0 ? 0 : (k - 1) % branching;
    const double side = 0.05 * (sibling - 0.5 * (branching - 1));
    robot.links.push_back(
        revoluteLink(linkName(k), parent, kAxes[k % 3], {side, 0.0, k == 0 ? 0.0 : 0.1}));
  }
  return robot;
}

RobotDescription benchmarkHumanoid() {
  RobotDescription robot;
  robot.name = "benchmark_humanoid";
  robot.links.push_back(revoluteLink("pelvis", "world", kAxes[0], {0.0, 0.0, 1.0}));
  robot.links.back().joint.type = JointType::Free;
  robot.links.back().rigid().mass = 8.0;
  robot.links.back().rigid().inertia = {0.08, 0.06, 0.05, 0.0, 0.0, 0.0};
  // a limb: joints about the given axes, each link `length` below or beside the one before
  const auto limb = [&](const std::string& prefix, const std::string& root, Vec3 first_offset,
                        const std::vector<Vec3>& axes, Vec3 step, double mass) {
    std::string parent = root;
    for (std::size_t k = 0; k < axes.size(); ++k) {
      const std::string name = prefix + std::to_string(k);
      LinkDesc link = revoluteLink(name, parent, axes[k], k == 0 ? first_offset : step);
      link.rigid().mass = mass;
      link.rigid().com = {0.5 * step[0], 0.5 * step[1], 0.5 * step[2]};
      link.rigid().inertia = {0.02 * mass, 0.02 * mass, 0.004 * mass, 0.0, 0.0, 0.0};
      robot.links.push_back(link);
      parent = name;
    }
  };
  const Vec3 x = kAxes[2], y = kAxes[1], z = kAxes[0];
  limb("waist", "pelvis", {0.0, 0.0, 0.1}, {z, y}, {0.0, 0.0, 0.1}, 6.0);
  limb("neck", "waist1", {0.0, 0.0, 0.3}, {z}, {0.0, 0.0, 0.1}, 2.0);
  const std::vector<Vec3> leg = {z, x, y, y, y, x}, arm = {y, x, z, y, z, y, x};
  limb("left_leg", "pelvis", {0.0, 0.1, -0.05}, leg, {0.0, 0.0, -0.2}, 3.0);
  limb("right_leg", "pelvis", {0.0, -0.1, -0.05}, leg, {0.0, 0.0, -0.2}, 3.0);
  limb("left_arm", "waist1", {0.0, 0.2, 0.25}, arm, {0.0, 0.0, -0.12}, 1.2);
  limb("right_arm", "waist1", {0.0, -0.2, 0.25}, arm, {0.0, 0.0, -0.12}, 1.2);
  return robot;
}

RobotDescription randomRigidTree(unsigned seed, int n_links) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const JointType types[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                             JointType::Cylindrical, JointType::Universal, JointType::Planar,
                             JointType::Spherical,   JointType::Free,      JointType::Fixed};
  RobotDescription robot;
  robot.name = "random_rigid_tree_" + std::to_string(seed);
  std::vector<std::string> names;
  for (int i = 0; i < n_links; ++i) {
    const std::string parent = names.empty() ? "world" : names[rng() % names.size()];
    const std::string name = linkName(i);
    LinkDesc link =
        rigidLink(name, parent, types[(i + seed) % 9], {unit(rng), unit(rng), unit(rng) + 2.0});
    link.origin.position = {0.05 * unit(rng), 0.05 * unit(rng), 0.05 * unit(rng)};
    link.origin.rpy = {unit(rng), unit(rng), unit(rng)};
    RigidBodyDesc& body = link.rigid();
    body.mass = 0.5 + 0.5 * (unit(rng) + 1.0);
    body.com = {0.05 * unit(rng), 0.05 * unit(rng), 0.05 * unit(rng)};
    body.inertia = {2e-3, 3e-3, 4e-3, 2e-4 * unit(rng), 2e-4 * unit(rng), 2e-4 * unit(rng)};
    names.push_back(name);
    robot.links.push_back(link);
  }
  return robot;
}

RobotDescription floatingTreeWithEveryLoad(LoadFrame load_frame) {
  RobotDescription robot = randomRigidTree(3, 6);
  robot.links[0].joint.type = JointType::Free;
  FluidDesc fluid;
  for (const LinkDesc& link : robot.links) {
    FluidBodyDesc body;
    body.link = link.name;
    body.drag = {0.02, 0.03, 0.01, 2.0, 3.0, 1.0};
    body.added_mass = {1e-3, 2e-3, 1e-3, 0.2, 0.3, 0.1};
    fluid.bodies.push_back(body);
  }
  robot.environment.fluid = fluid;
  ContactDesc contact;
  contact.damping = 0.5;
  contact.friction = 0.3;
  contact.planes.push_back({{0.0, 0.0, 0.02}, {0.0, 0.2, 1.0}});  // through the bodies
  robot.environment.contact = contact;
  PointLoadDesc load;
  load.name = "push";
  load.link = robot.links.back().name;
  load.offset = {0.01, 0.02, 0.0};
  load.frame = load_frame;
  load.wrench = {0.1, 0.0, -0.2, 1.0, -2.0, 0.5};
  robot.point_loads.push_back(load);
  return robot;
}

}  // namespace tendril::test
