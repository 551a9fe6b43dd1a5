#include "core/model/description_edit.hpp"

#include <gtest/gtest.h>

#include "core/io/json_io.hpp"

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
  EXPECT_EQ(robot.links[1].soft.divisions.size(), 2u);
  EXPECT_NO_THROW(checkDescription(robot));
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
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

TEST(DescriptionEdit, AddsPointLoadsAtTheTip) {
  RobotDescription robot = hybridRobot();
  addPointLoad(robot, "rod");
  addPointLoad(robot, "arm");
  ASSERT_EQ(robot.point_loads.size(), 2u);
  EXPECT_EQ(robot.point_loads[0].abscissa, -1.0);
  EXPECT_EQ(robot.point_loads[1].offset, robot.links[0].rigid.tip.position);
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

TEST(DescriptionEdit, SetsAFieldByPointerAndRejectsAnInvalidOneNamingIt) {
  const RobotDescription robot = hybridRobot();
  const RobotDescription heavier = withValue(robot, "/links/0/rigid/mass", 2.5);
  EXPECT_EQ(heavier.links[0].rigid.mass, 2.5);
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
