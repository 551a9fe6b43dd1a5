#include "core/edit/description_edit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/algorithm/actuation.hpp"
#include "core/io/json_io.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

RobotDescription hybridRobot() {
  RobotDescription robot;
  addLink(robot, makeRigidLink("arm", JointType::Revolute), "world");
  addLink(robot, makeSoftLink("rod", 2), "arm");
  return robot;
}

TEST(DescriptionEdit, BuildsARevoluteLinkCarryingASoftRod) {
  const RobotDescription robot = hybridRobot();
  ASSERT_EQ(robot.links.size(), 2u);
  EXPECT_EQ(robot.links[0].joint.type, JointType::Revolute);
  EXPECT_EQ(robot.links[1].parent, "arm");
  EXPECT_EQ(robot.links[1].soft().divisions.size(), 2u);
  EXPECT_NO_THROW(checkDescription(robot));
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
}

TEST(DescriptionEdit, NewLinksAreSizedToTheModel) {
  // an empty model: the defaults, a 0.2 m link of 0.5 kg and a 0.4 m rod of 10 mm radius
  EXPECT_EQ(typicalLinkLength(RobotDescription{}), kDefaultLinkLength);
  const LinkDesc standard = makeRigidLink("a", JointType::Revolute);
  EXPECT_EQ(standard.rigid().mass, 0.5);
  EXPECT_EQ(standard.rigid().tip.position[0], 0.2);
  EXPECT_DOUBLE_EQ(makeSoftLink("r").soft().divisions[0].section.radius_start, 0.01);
  // a 0.2 m arm carrying a 0.4 m rod looks like 0.2 m links; a 3 cm finger like 3 cm ones
  EXPECT_DOUBLE_EQ(typicalLinkLength(hybridRobot()), 0.2);
  RobotDescription finger;
  addLink(finger, makeRigidLink("knuckle", JointType::Revolute, 0.03), "world");
  addLink(finger, makeSoftLink("pad", 1, 0.06), "knuckle");
  addLink(finger, makeRigidLink("nail", JointType::Fixed, 0.02), "pad");
  EXPECT_DOUBLE_EQ(typicalLinkLength(finger), 0.03);
  // the same density at any size: a 3 cm link weighs (3/20)^3 of 0.5 kg
  const LinkDesc small = finger.links[0];
  EXPECT_DOUBLE_EQ(small.rigid().mass, 0.5 * std::pow(0.03 / 0.2, 3));
  EXPECT_DOUBLE_EQ(small.rigid().shape.size[1], 0.2 * 0.03);
  EXPECT_DOUBLE_EQ(finger.links[1].soft().divisions[0].section.radius_start, 0.06 / 40.0);
  EXPECT_NO_THROW(checkDescription(finger));
}

TEST(DescriptionEdit, NamesAreUniqueAcrossLinksCablesAndLoads) {
  RobotDescription robot = hybridRobot();
  EXPECT_EQ(uniqueName(robot, "arm"), "arm1");
  addLink(robot, makeRigidLink(uniqueName(robot, "link"), JointType::Fixed), "rod");
  EXPECT_EQ(robot.links.back().name, "link1");
  EXPECT_EQ(uniqueName(robot, "link"), "link2");
  EXPECT_THROW(addLink(robot, makeRigidLink("arm", JointType::Fixed), "world"), ParseError);
  EXPECT_EQ(robot.links.size(), 3u);
}

TEST(DescriptionEdit, AddsACableThroughEveryDivisionOfASoftLinkOnly) {
  RobotDescription robot = hybridRobot();
  EXPECT_EQ(addCable(robot, "rod"), 0);
  ASSERT_EQ(robot.cables.size(), 1u);
  EXPECT_EQ(robot.cables[0].path.size(), 2u);
  EXPECT_GT(robot.cables[0].path[0].y[0], 0.0);
  EXPECT_THROW(addCable(robot, "arm"), ParseError);
  EXPECT_EQ(robot.cables.size(), 1u);
}

TEST(DescriptionEdit, ACableAddedToAConstantCurvatureSegmentPullsOnIt) {
  // planar segments bend about y only: a cable in their y offset would do nothing
  for (const CurvatureModel model : {CurvatureModel::Planar, CurvatureModel::Spatial}) {
    RobotDescription robot;
    addLink(robot, makeConstantCurvatureLink("segment", model, 0.3), "world");
    EXPECT_EQ(addCable(robot, "segment"), 0);
    Model compiled = buildModel(robot);
    Eigen::VectorXd tau(compiled.nv);
    actuationForces(compiled, Eigen::VectorXd::Zero(compiled.nq), 0.0, tau);
    // the bending coordinates feel the pull (the elongation alone would not bend anything)
    EXPECT_GT(tau.head(model == CurvatureModel::Planar ? 1 : 2).norm(), 1e-4);
  }
}

TEST(DescriptionEdit, AddsPointLoadsAtTheTip) {
  RobotDescription robot = hybridRobot();
  addPointLoad(robot, "rod");
  addPointLoad(robot, "arm");
  ASSERT_EQ(robot.point_loads.size(), 2u);
  EXPECT_EQ(robot.point_loads[0].abscissa, -1.0);
  EXPECT_EQ(robot.point_loads[1].offset, robot.links[0].rigid().tip.position);
  EXPECT_NE(robot.point_loads[0].name, robot.point_loads[1].name);
}

TEST(DescriptionEdit, RemovingALinkTakesItsDescendantsAndTheirCablesAndLoads) {
  RobotDescription robot = hybridRobot();
  addCable(robot, "rod");
  addPointLoad(robot, "rod");
  addPointLoad(robot, "arm");
  removeItem(robot, "/links/0");
  EXPECT_TRUE(robot.links.empty());
  EXPECT_TRUE(robot.cables.empty());
  EXPECT_TRUE(robot.point_loads.empty());
  EXPECT_THROW(removeItem(robot, "/links/0"), ParseError);
}

TEST(DescriptionEdit, RemovesOneCable) {
  RobotDescription robot = hybridRobot();
  addCable(robot, "rod");
  addCable(robot, "rod");
  removeItem(robot, "/cables/0");
  ASSERT_EQ(robot.cables.size(), 1u);
  EXPECT_EQ(robot.cables[0].name, "cable2");
}

// a controller writing a cavity's pressure stays while its inputs do, and goes with the pressure
TEST(DescriptionEdit, APressureControllerGoesWithItsPressureOnly) {
  RobotDescription robot = test::example("lvp_single_body");
  ControllerDesc controller;
  controller.name = "inflate";
  controller.type = ControllerDesc::Type::CollocatedPfbl;
  controller.controlled = {
      {ControlledVariableDesc::Kind::Coordinate, "body/lvp/source/0", TimeFunction::constant(0.0)}};
  controller.inputs = {{"chamber", std::nullopt, std::nullopt}};
  robot.controllers = {controller};
  removeItem(robot, "/lvp_tendons/0");
  ASSERT_EQ(robot.controllers.size(), 1u);
  removeItem(robot, "/cavity_pressures/0");
  EXPECT_TRUE(robot.controllers.empty());
}

// two PD controllers on one joint input, the first over [0, 1) s: the second takes [1, 2) s
RobotDescription twoControllersOnOneInput() {
  RobotDescription robot = hybridRobot();
  addController(robot, "arm");
  robot.controllers[0].active = ControllerWindowDesc{0.0, 1.0, ControllerWindowDesc::After::Off};
  ControllerDesc second = robot.controllers[0];
  second.name = "second";
  second.active.reset();
  robot.controllers.push_back(second);
  return robot;
}

// a window is added as [0, 1) s switched off after it, removed again, and never where two
// controllers writing one input would then overlap (nothing changes then)
TEST(DescriptionEdit, AddsAndRemovesControllerWindowsButNeverAnOverlap) {
  RobotDescription robot = twoControllersOnOneInput();
  ASSERT_EQ(robot.controllers.size(), 2u);
  ASSERT_EQ(robot.controllers[0].inputs[0].name, robot.controllers[1].inputs[0].name);
  EXPECT_THROW(checkDescription(robot), ParseError);  // the second acts throughout
  robot.controllers[1].active = ControllerWindowDesc{1.0, 2.0, ControllerWindowDesc::After::Off};
  ASSERT_NO_THROW(checkDescription(robot));

  const RobotDescription scheduled = robot;
  try {
    removeControllerWindow(robot, 1);
    FAIL() << "a window was removed into an overlap";
  } catch (const ParseError& error) {
    EXPECT_NE(error.pointer().find("/controllers/"), std::string::npos) << error.pointer();
  }
  EXPECT_EQ(robot, scheduled);
  EXPECT_THROW(addControllerWindow(robot, 1), ParseError);  // it has one
  EXPECT_THROW(addControllerWindow(robot, 2), ParseError);  // no such controller
  EXPECT_EQ(robot, scheduled);

  robot.controllers.pop_back();  // alone on its input now
  removeControllerWindow(robot, 0);
  EXPECT_FALSE(robot.controllers[0].active.has_value());
  EXPECT_THROW(removeControllerWindow(robot, 0), ParseError);
  addControllerWindow(robot, 0);
  ASSERT_TRUE(robot.controllers[0].active.has_value());
  EXPECT_EQ(*robot.controllers[0].active,
            (ControllerWindowDesc{0.0, 1.0, ControllerWindowDesc::After::Off}));
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
  EXPECT_EQ(fieldUnit("/controllers/0/active/until"), "s");
  EXPECT_EQ(fieldChoices("/controllers/0/active/after"), (std::vector<std::string>{"off", "hold"}));
}

// a controlled variable becomes another kind: an output turns the law into a PFBL; a kind the
// robot has nothing of is refused with nothing changed
TEST(DescriptionEdit, AControlledVariableBecomesATipOrALengthOrACoordinateAgain) {
  using Kind = ControlledVariableDesc::Kind;
  RobotDescription robot = test::example("controlled_arm");
  ASSERT_EQ(robot.controllers[0].type, ControllerDesc::Type::ComputedTorque);
  setControlledVariableKind(robot, 0, 2, Kind::TipPosition);
  const ControlledVariableDesc& tip = robot.controllers[0].controlled[2];
  EXPECT_EQ(tip.kind, Kind::TipPosition);
  EXPECT_EQ(tip.name, robot.links.back().name);
  EXPECT_EQ(tip.axis, 2);
  EXPECT_EQ(robot.controllers[0].type, ControllerDesc::Type::CollocatedPfbl);
  EXPECT_NO_THROW((void)buildModel(robot));
  EXPECT_EQ(fieldUnit(robot, "/controllers/0/controlled/2/setpoint/value"), "m");
  EXPECT_EQ(fieldUnit(robot, "/controllers/0/controlled/1/setpoint/value"), "rad or m");

  const RobotDescription before = robot;
  try {
    setControlledVariableKind(robot, 0, 2, Kind::CableLength);
    FAIL() << "a cable length on a robot without cables";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/controllers/0/controlled/2");
  }
  EXPECT_THROW(setControlledVariableKind(robot, 0, 3, Kind::Coordinate), ParseError);
  EXPECT_EQ(robot, before);
  // the first joint input's coordinate the controller does not drive yet: the elbow's
  setControlledVariableKind(robot, 0, 2, Kind::Coordinate);
  EXPECT_EQ(robot.controllers[0].controlled[2].kind, Kind::Coordinate);
  EXPECT_EQ(robot.controllers[0].controlled[2].name, "fore/joint/0");
  EXPECT_NO_THROW((void)buildModel(robot));
}

// the builder's LVP bodies: the helicoid's 8 coordinates; the inflatable one's 2, with its
// cavity's pressure as a named input; both hang from a rigid link and run on the agnostic family
TEST(DescriptionEdit, AddsHelicoidAndInflatableBodiesWithTheInflatableOnesPressure) {
  RobotDescription robot;
  addLink(robot, makeRigidLink("arm", JointType::Revolute), "world");
  addLvpLink(robot, makeLvpLink("helicoid", LvpPreset::Helicoid), "arm");
  addLvpLink(robot, makeLvpLink("bulb", LvpPreset::Inflatable), "helicoid");
  ASSERT_EQ(robot.links.size(), 3u);
  EXPECT_EQ(lvpDof(robot.links[1].lvp()), 8);
  EXPECT_EQ(lvpDof(robot.links[2].lvp()), 2);
  ASSERT_EQ(robot.cavity_pressures.size(), 1u);
  EXPECT_EQ(robot.cavity_pressures[0].link, "bulb");
  const Model model = buildModel(robot);
  EXPECT_EQ(model.nv, 1 + 8 + 2);
  EXPECT_TRUE(model.agnostic_only);
  // tendons base to tip on the helicoid body, 120 degrees apart; none on a rigid link
  for (int k = 0; k < 3; ++k) EXPECT_EQ(addLvpTendon(robot, "helicoid"), k);
  EXPECT_NEAR(robot.lvp_tendons[1].anchors[0].angle, 2.0 * std::numbers::pi / 3.0, 1e-15);
  EXPECT_EQ(robot.lvp_tendons[2].anchors[1].end, LvpAnchorDesc::End::Tip);
  EXPECT_THROW(addLvpTendon(robot, "arm"), ParseError);
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
}

TEST(DescriptionEdit, SetsAFieldByPointerAndRejectsAnInvalidOneNamingIt) {
  const RobotDescription robot = hybridRobot();
  const RobotDescription heavier = withValue(robot, "/links/0/rigid/mass", 2.5);
  EXPECT_EQ(heavier.links[0].rigid().mass, 2.5);
  try {
    (void)withValue(robot, "/links/1/soft/divisions/0/material/poisson_ratio", 0.7);
    FAIL() << "accepted a Poisson ratio of 0.7";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/links/1/soft/divisions/0/material/poisson_ratio");
  }
  EXPECT_THROW((void)withValue(robot, "/links/0/rigid/mass", -1.0), ParseError);
  EXPECT_THROW((void)withValue(robot, "/links/7/rigid/mass", 1.0), ParseError);
  EXPECT_THROW((void)withValue(robot, "/links/0/joint/type", "hinge"), ParseError);
}

TEST(DescriptionEdit, ReadsTypedTextInTheShapeOfTheCurrentValue) {
  EXPECT_EQ(valueFromText(" 2.5 ", 1.0, "/a"), 2.5);
  EXPECT_EQ(valueFromText("3", 5, "/a"), 3);
  EXPECT_THROW(valueFromText("3.5", 5, "/a"), ParseError);
  EXPECT_THROW(valueFromText("heavy", 1.0, "/a"), ParseError);
  EXPECT_EQ(valueFromText("1, 2,3", nlohmann::json({0.0, 0.0, 0.0}), "/a"),
            nlohmann::json({1.0, 2.0, 3.0}));
  EXPECT_THROW(valueFromText("1, x, 3", nlohmann::json({0.0, 0.0, 0.0}), "/a"), ParseError);
  EXPECT_EQ(valueFromText("revolute", "fixed", "/a"), "revolute");
  EXPECT_EQ(textFromValue(nlohmann::json({0.1, 0.0, 2.0})), "0.1, 0, 2");
}

TEST(DescriptionEdit, NamesTheUnitsOfFields) {
  EXPECT_EQ(fieldUnit("/links/0/rigid/mass"), "kg");
  EXPECT_EQ(fieldUnit("/links/1/soft/divisions/0/material/youngs_modulus"), "Pa");
  EXPECT_EQ(fieldUnit("/links/1/soft/divisions/0/section/radius"), "m");
  EXPECT_EQ(fieldUnit("/cables/0/tension/value"), "N");
  EXPECT_EQ(fieldUnit("/links/0/name"), "");
  EXPECT_FALSE(fieldChoices("/links/0/joint/type").empty());
}

TEST(DescriptionEdit, NamesTheEngineUnitsOfContactAndFluidFields) {
  // Hunt-Crossley c multiplies the penetration rate [m/s]: c is in s/m, not a viscosity
  EXPECT_EQ(fieldUnit("/environment/contact/damping"), "s/m");
  EXPECT_EQ(fieldUnit("/links/1/soft/divisions/0/material/damping"), "Pa s");
  EXPECT_EQ(fieldUnit("/environment/contact/stiffness"), "N/m^p");
  EXPECT_EQ(fieldUnit("/environment/contact/slip_velocity"), "m/s");
  EXPECT_EQ(fieldUnit("/environment/contact/smoothing"), "m");
  EXPECT_EQ(fieldUnit("/environment/contact/planes/0/point"), "m");
  EXPECT_EQ(fieldUnit("/environment/contact/spheres/0/centre"), "m");
  EXPECT_EQ(fieldUnit("/environment/contact/planes/0/normal"), "");
  EXPECT_EQ(fieldUnit("/environment/fluid/bodies/0/volume"), "m^3");
  EXPECT_EQ(fieldUnit("/environment/fluid/bodies/0/drag"),
            "N s^2, N s^2, N s^2, N s^2/m^2, N s^2/m^2, N s^2/m^2");
  EXPECT_EQ(fieldUnit("/environment/fluid/bodies/0/added_mass"),
            "kg m^2, kg m^2, kg m^2, kg, kg, kg");
  EXPECT_EQ(fieldUnit("/cables/0/tension/points"), "s, N");
  EXPECT_EQ(fieldUnit("/cables/0/tension/points/2"), "s, N");
  EXPECT_EQ(fieldUnit("/point_loads/0/scale/points"), "s, -");
  EXPECT_EQ(fieldUnit("/point_loads/0/scale/offset"), "");
  EXPECT_EQ(fieldUnit("/point_loads/0/offset"), "m");
  EXPECT_EQ(fieldUnit("/cables/0/tension/offset"), "N");
}

TEST(DescriptionEdit, NamesTheUnitsOfJointInputsAndCableCoefficientsFromTheRobot) {
  RobotDescription robot = hybridRobot();  // "arm" is revolute
  addJointInput(robot, "arm");
  addCable(robot, "rod");
  EXPECT_EQ(fieldUnit(robot, "/joint_inputs/0/value/value"), "N m");
  robot.joint_inputs[0].mode = JointInputDesc::Mode::Position;
  EXPECT_EQ(fieldUnit(robot, "/joint_inputs/0/value/value"), "rad");
  robot.links[0].joint.type = JointType::Prismatic;
  EXPECT_EQ(fieldUnit(robot, "/joint_inputs/0/value/value"), "m");
  EXPECT_EQ(fieldUnit(robot, "/joint_inputs/0/value/points"), "s, m");
  robot.cables[0].path[0].y = {0.005, 0.01, 0.0};
  EXPECT_EQ(fieldUnit(robot, "/cables/0/path/0/y"), "m, -, 1/m");
  EXPECT_EQ(fieldUnit(robot, "/cables/0/path/0/z"), "m");
  EXPECT_EQ(fieldUnit(robot, "/links/0/rigid/mass"), "kg");
}

TEST(DescriptionEdit, ReadsTablePointsAndRefusesBadOnesWithTheReason) {
  const nlohmann::json like = nlohmann::json::parse("[[0, 1], [1, 1]]");
  EXPECT_EQ(valueFromText("0, 0; 0.5, 2; 2, 3;", like, "/p"),
            nlohmann::json::parse("[[0, 0], [0.5, 2], [2, 3]]"));
  EXPECT_EQ(textFromValue(nlohmann::json::parse("[[0, 0], [0.5, 2]]")), "0, 0; 0.5, 2");
  auto reason = [&like](const std::string& text) {
    try {
      (void)valueFromText(text, like, "/p");
    } catch (const ParseError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(reason("0, 1; 1, 2; 1, 3").find("increase strictly"), std::string::npos);
  EXPECT_NE(reason("0, 1; 2, 2; 1, 3").find("point 3"), std::string::npos);
  EXPECT_NE(reason("0, 1").find("at least 2 points"), std::string::npos);
  EXPECT_NE(reason("0, 1; 1, nan").find("finite"), std::string::npos);
  EXPECT_NE(reason("0, 1; 1, inf").find("finite"), std::string::npos);
  EXPECT_NE(reason("0, 1; 1, 2, 3").find("point 2"), std::string::npos);
  EXPECT_NE(reason("0, 1, 1, 2").find("expected \"t, value\""), std::string::npos);
  EXPECT_NE(reason("").find("at least 2 points"), std::string::npos);
}

TEST(DescriptionEdit, TablesTakeAnyNumberOfPointsButKeepTwo) {
  RobotDescription robot = hybridRobot();
  addCable(robot, "rod");
  robot = withValue(robot, "/cables/0/tension/type", "table");
  ASSERT_EQ(robot.cables[0].tension.table.size(), 2u);
  // typed as text, through the same checks as any field
  robot = withValue(
      robot, "/cables/0/tension/points",
      valueFromText("0, 0; 0.5, 2; 1, 2; 3, 0", valueAt(robot, "/cables/0/tension/points"),
                    "/cables/0/tension/points"));
  ASSERT_EQ(robot.cables[0].tension.table.size(), 4u);
  EXPECT_DOUBLE_EQ(robot.cables[0].tension(0.25), 1.0);
  // inserted halfway, or one interval past the end at the last value
  EXPECT_EQ(addTablePoint(robot, "/cables/0/tension/points", 0), 1);
  EXPECT_EQ(robot.cables[0].tension.table[1], (std::array<double, 2>{0.25, 1.0}));
  EXPECT_EQ(addTablePoint(robot, "/cables/0/tension/points", 4), 5);
  EXPECT_EQ(robot.cables[0].tension.table[5], (std::array<double, 2>{5.0, 0.0}));
  EXPECT_EQ(robot.cables[0].tension.table.size(), 6u);
  EXPECT_THROW(addTablePoint(robot, "/cables/0/tension/points", 6), ParseError);
  EXPECT_THROW(addTablePoint(robot, "/cables/0/tension/value", 0), ParseError);
  for (int i = 0; i < 4; ++i) removeTablePoint(robot, "/cables/0/tension/points", 1);
  ASSERT_EQ(robot.cables[0].tension.table.size(), 2u);
  const RobotDescription two = robot;
  EXPECT_THROW(removeTablePoint(robot, "/cables/0/tension/points", 0), ParseError);
  EXPECT_EQ(robot, two);
}

TEST(DescriptionEdit, ListsRigidLinksInTheFluidAndDropsThemWithTheLink) {
  RobotDescription robot = hybridRobot();
  EXPECT_THROW(addFluidBody(robot, "arm"), ParseError);  // no fluid yet
  robot.environment.fluid = FluidDesc{};
  EXPECT_THROW(addFluidBody(robot, "rod"), ParseError);  // rods use the coefficients
  EXPECT_THROW(addFluidBody(robot, "nothing"), ParseError);
  EXPECT_EQ(addFluidBody(robot, "arm"), 0);
  ASSERT_EQ(robot.environment.fluid->bodies.size(), 1u);
  EXPECT_EQ(findFluidBody(robot, "arm"), 0);
  EXPECT_EQ(findFluidBody(robot, "rod"), -1);
  // the volume it displaced anyway: the 0.2 x 0.04 x 0.04 box
  EXPECT_NEAR(robot.environment.fluid->bodies[0].volume.value_or(0.0), 0.2 * 0.04 * 0.04, 1e-15);
  EXPECT_THROW(addFluidBody(robot, "arm"), ParseError);  // listed once
  robot = withValue(robot, "/environment/fluid/bodies/0/drag", {0, 0, 0, 1, 2, 3});
  EXPECT_EQ(robot.environment.fluid->bodies[0].drag[5], 3.0);

  RobotDescription removed = robot;
  removeItem(removed, "/environment/fluid/bodies/0");
  EXPECT_TRUE(removed.environment.fluid->bodies.empty());
  EXPECT_THROW(removeItem(removed, "/environment/fluid/bodies/0"), ParseError);
  // removing the link drops its entry too (else the model would name an unknown link)
  removeItem(robot, "/links/0");
  EXPECT_TRUE(robot.environment.fluid->bodies.empty());
}

TEST(DescriptionEdit, ReparentsButNeverIntoACycle) {
  RobotDescription robot = hybridRobot();
  addLink(robot, makeRigidLink("second", JointType::Revolute), "world");
  reparentLink(robot, 2, "rod");
  EXPECT_EQ(robot.links[2].parent, "rod");
  EXPECT_THROW(reparentLink(robot, 0, "second"), ParseError);
  EXPECT_THROW(reparentLink(robot, 0, "nowhere"), ParseError);
  EXPECT_EQ(robot.links[0].parent, "world");
}

}  // namespace
}  // namespace tendril
