// Tests for core/io/urdf_import.cpp (and the element-tree checks of core/io/urdf_structure.cpp
// that it runs first). The robots are tests/data/urdf/arm6 and tests/data/urdf/humanoid; their
// dynamics against MuJoCo loading the same files is in urdf_import_mujoco_test.cpp.

#include "core/io/urdf_import.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "core/algorithm/data.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kUrdfDir = fs::path(TENDRIL_TEST_DATA_DIR) / "urdf";
const fs::path kArm = kUrdfDir / "arm6" / "arm6.urdf";
const fs::path kHumanoid = kUrdfDir / "humanoid" / "humanoid.urdf";

const LinkDesc& linkNamed(const RobotDescription& robot, const std::string& name) {
  for (const LinkDesc& link : robot.links) {
    if (link.name == name) return link;
  }
  throw std::out_of_range("no link " + name);
}

Eigen::Matrix3d rpy(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Isometry3d toIsometry(const Placement& p) {
  Eigen::Isometry3d g = Eigen::Isometry3d::Identity();
  g.linear() = rpy(p.rpy[0], p.rpy[1], p.rpy[2]);
  g.translation() = Eigen::Vector3d(p.position.data());
  return g;
}

Eigen::Matrix3d inertiaMatrix(const std::array<double, 6>& i) {
  Eigen::Matrix3d I;
  I << i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2];
  return I;
}

// a scratch folder of its own per test, removed afterwards
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("tendril_urdf_" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& file, const std::string& text) const {
    std::ofstream(path_ / file) << text;
    return path_ / file;
  }

 private:
  fs::path path_;
};

TEST(UrdfImportTest, ArmKeepsItsJointsLimitsAndMeshes) {
  const RobotDescription robot = importUrdf(kArm);
  EXPECT_EQ(robot.name, "arm6");
  // tool_tip has no inertial and hangs on a fixed joint: merged into tool
  ASSERT_EQ(robot.links.size(), 8u);
  EXPECT_THAT(robot.description, HasSubstr("tool_tip"));
  EXPECT_EQ(robot.links.front().name, "base_link");  // parents first
  EXPECT_EQ(robot.links.front().parent, "world");
  EXPECT_EQ(robot.links.front().joint.type, JointType::Fixed);

  const LinkDesc& pan = linkNamed(robot, "shoulder");
  EXPECT_EQ(pan.parent, "base_link");
  EXPECT_EQ(pan.joint.type, JointType::Revolute);
  ASSERT_TRUE(pan.joint.limits.has_value());
  EXPECT_EQ(pan.joint.limits->lower, -3.1);
  EXPECT_EQ(pan.joint.limits->upper, 3.1);
  EXPECT_EQ(pan.joint.limits->effort, 150.0);
  EXPECT_EQ(pan.joint.limits->velocity, 2.0);
  EXPECT_EQ(pan.joint.limits->damping, 0.5);
  EXPECT_EQ(pan.joint.limits->friction, 0.1);

  // continuous: revolute, no position range
  const LinkDesc& roll = linkNamed(robot, "wrist1");
  EXPECT_EQ(roll.joint.type, JointType::Revolute);
  ASSERT_TRUE(roll.joint.limits.has_value());
  EXPECT_FALSE(roll.joint.limits->lower.has_value());
  EXPECT_EQ(roll.joint.limits->effort, 30.0);
  EXPECT_EQ(linkNamed(robot, "wrist2").joint.type, JointType::Prismatic);
  const Vec3 twist_axis = linkNamed(robot, "flange").joint.axis;  // URDF "0 3 4"
  EXPECT_DOUBLE_EQ(twist_axis[1], 0.6);
  EXPECT_DOUBLE_EQ(twist_axis[2], 0.8);
  EXPECT_EQ(linkNamed(robot, "tool").joint.type, JointType::Fixed);  // a fixed link with a mass

  // the STL through package://, scaled: its box is 0.06 x 0.06 x 0.1 from z = 0
  const ShapeDesc& stl = pan.rigid().shape;
  EXPECT_EQ(stl.type, ShapeType::Mesh);
  EXPECT_EQ(fs::path(stl.mesh), (kUrdfDir / "arm6" / "meshes" / "link_box.stl").lexically_normal());
  EXPECT_TRUE(fs::path(stl.mesh).is_absolute());
  EXPECT_EQ(stl.scale, (Vec3{1.0, 1.0, 0.5}));
  EXPECT_NEAR(stl.size[0], 0.06, 1e-12);
  EXPECT_NEAR(stl.size[2], 0.1, 1e-12);
  EXPECT_NEAR(stl.box_centre[2], 0.05, 1e-12);
  // the OBJ by a relative path
  const ShapeDesc& obj = linkNamed(robot, "upper_arm").rigid().shape;
  EXPECT_EQ(obj.type, ShapeType::Mesh);
  EXPECT_EQ(fs::path(obj.mesh).filename(), "link_shell.obj");
  EXPECT_NEAR(obj.size[0], 0.24, 1e-12);
  EXPECT_NEAR(obj.box_centre[0], 0.1, 1e-12);
  // material colours
  EXPECT_NEAR(stl.color[0], 0.9, 1e-6);
  EXPECT_NO_THROW(buildModel(robot));
}

TEST(UrdfImportTest, ChildrenAttachAtTheirUrdfJointOrigins) {
  const RobotDescription robot = importUrdf(kArm);
  for (const LinkDesc& link : robot.links) EXPECT_EQ(link.rigid().tip, Placement{}) << link.name;
  const Placement& lift = linkNamed(robot, "upper_arm").origin;
  EXPECT_EQ(lift.position, (Vec3{0.0, 0.07, 0.1}));
  EXPECT_NEAR(lift.rpy[1], -std::numbers::pi / 2, 1e-12);
  // tool -> tool_tip is merged, so nothing hangs below tool; flange_tool's own origin stands
  const Placement& tool = linkNamed(robot, "tool").origin;
  EXPECT_EQ(tool.position, (Vec3{0.02, 0.0, 0.0}));
  EXPECT_NEAR(tool.rpy[1], 0.2, 1e-15);
}

TEST(UrdfImportTest, RotatedInertialFramesTurnTheTensorIntoTheLinkAxes) {
  // a full tensor in a rotated inertial frame (arm6.urdf's tensors are diagonal, for MuJoCo)
  const ScratchDir dir("inertia");
  const fs::path urdf = dir.write("inertia.urdf", R"(<robot name="inertia"><link name="a">
    <inertial><origin xyz="0.1 0.0 0.005" rpy="0.5 0.3 -0.2"/><mass value="2"/>
      <inertia ixx="0.004" ixy="0.0005" ixz="-0.0003" iyy="0.011" iyz="0.0002" izz="0.012"/>
    </inertial></link></robot>)");
  const RobotDescription robot = importUrdf(urdf);  // kept alive: body refers into it
  const RigidBodyDesc& body = robot.links.at(0).rigid();
  Eigen::Matrix3d I_C;
  I_C << 0.004, 0.0005, -0.0003, 0.0005, 0.011, 0.0002, -0.0003, 0.0002, 0.012;
  const Eigen::Matrix3d R = rpy(0.5, 0.3, -0.2);
  EXPECT_LT((inertiaMatrix(body.inertia) - R * I_C * R.transpose()).norm(), 1e-15);
  EXPECT_EQ(body.com, (Vec3{0.1, 0.0, 0.005}));
  EXPECT_EQ(body.mass, 2.0);
  // a diagonal tensor in a turned frame gains products in the link's axes
  const RobotDescription arm = importUrdf(kArm);
  const RigidBodyDesc& upper_arm = linkNamed(arm, "upper_arm").rigid();
  const Eigen::Matrix3d D = Eigen::Vector3d(0.004, 0.011, 0.012).asDiagonal();
  EXPECT_LT((inertiaMatrix(upper_arm.inertia) - R * D * R.transpose()).norm(), 1e-15);
  EXPECT_GT(std::abs(upper_arm.inertia[3]), 1e-4);
}

TEST(UrdfImportTest, CylindersAlongUrdfZLieAlongTendrilX) {
  const RobotDescription robot = importUrdf(kArm);
  // base_link: a cylinder (r 0.08, length 0.1) at z = 0.05, axis z; com at (0.01, -0.005, 0.05)
  const RigidBodyDesc& body = linkNamed(robot, "base_link").rigid();
  EXPECT_EQ(body.shape.type, ShapeType::Cylinder);
  EXPECT_EQ(body.shape.size[0], 0.08);
  EXPECT_EQ(body.shape.size[1], 0.1);
  Eigen::Isometry3d g_LC = Eigen::Isometry3d::Identity();
  g_LC.translation() = Eigen::Vector3d(body.com.data());
  const Eigen::Isometry3d g_LS = g_LC * toIsometry(body.shape.origin);
  EXPECT_LT((g_LS.linear() * Eigen::Vector3d::UnitX() - Eigen::Vector3d::UnitZ()).norm(), 1e-15);
  EXPECT_LT((g_LS.translation() - Eigen::Vector3d(0, 0, 0.05)).norm(), 1e-15);
}

TEST(UrdfImportTest, HumanoidHasAFreeBaseAndThirtyTwoJoints) {
  const RobotDescription robot = importUrdf(kHumanoid);
  // 38 URDF links: the world link and three massless frames are not Tendril links
  EXPECT_EQ(robot.links.size(), 34u);
  const LinkDesc& pelvis = linkNamed(robot, "pelvis");
  EXPECT_EQ(pelvis.parent, "world");
  EXPECT_EQ(pelvis.joint.type, JointType::Free);
  EXPECT_EQ(pelvis.origin.position, (Vec3{0.0, 0.0, 1.0}));
  EXPECT_NEAR(pelvis.origin.rpy[2], 0.1, 1e-15);
  EXPECT_EQ(linkNamed(robot, "camera").joint.type, JointType::Fixed);
  EXPECT_THAT(robot.description, HasSubstr("imu"));
  EXPECT_THAT(robot.description, HasSubstr("left_sole"));
  const Model model = buildModel(robot);
  EXPECT_EQ(model.nv, 6 + 32);
}

TEST(UrdfImportTest, FloatingBaseOptionFreesTheRoot) {
  UrdfImportOptions options;
  options.floating_base = true;
  const RobotDescription robot = importUrdf(kArm, options);
  EXPECT_EQ(robot.links.front().joint.type, JointType::Free);
  EXPECT_EQ(buildModel(robot).nv, 6 + 6);
}

// a planar joint moves in the plane normal to its URDF axis; children still hang from the URDF
// link frame
TEST(UrdfImportTest, PlanarJointsMoveInThePlaneNormalToTheUrdfAxis) {
  const ScratchDir dir("planar");
  const std::string inertial =
      R"(<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)";
  const fs::path urdf = dir.write("planar.urdf", R"(<robot name="planar">
  <link name="base">)" + inertial + R"(</link>
  <link name="slider">)" + inertial + R"(</link>
  <link name="tip">)" + inertial + R"(</link>
  <joint name="plane" type="planar">
    <parent link="base"/><child link="slider"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.3 0.2 0.1"/><axis xyz="0 1 0"/>
  </joint>
  <joint name="stick" type="fixed">
    <parent link="slider"/><child link="tip"/><origin xyz="0.5 0 0"/>
  </joint>
</robot>)");
  const Model model = buildModel(importUrdf(urdf));
  Data data(model);
  const int slider = 1, tip = 2;
  ASSERT_EQ(model.description.links[slider].joint.type, JointType::Planar);
  const Eigen::Matrix3d R_J = rpy(0.3, 0.2, 0.1);  // the URDF joint frame in the world
  const Eigen::Vector3d normal_W = R_J * Eigen::Vector3d::UnitY();
  forwardKinematics(model, data, Eigen::VectorXd::Zero(model.nq));
  const SE3 rest = linkTipPose(model, data, tip);
  // at rest the tip is 0.5 m along the URDF link's x
  EXPECT_LT((rest.p - (Eigen::Vector3d(0.1, 0.2, 0.3) + R_J * Eigen::Vector3d(0.5, 0, 0))).norm(),
            1e-14);
  Eigen::VectorXd q(3);
  q << 0.7, 0.2, -0.3;
  forwardKinematics(model, data, q);
  const SE3 moved = linkTipPose(model, data, tip);
  // the relative rotation turns about the normal by 0.7; every point stays in its plane
  const Eigen::AngleAxisd turn(moved.R * rest.R.transpose());
  EXPECT_NEAR(turn.angle(), 0.7, 1e-12);
  EXPECT_LT(turn.axis().cross(normal_W).norm(), 1e-12);
  EXPECT_NEAR((moved.p - rest.p).dot(normal_W), 0.0, 1e-14);
}

TEST(UrdfImportTest, ImportSaveLoadGivesTheSameDescription) {
  // the arm with its meshes copied beside the model folder, so that they can be written relative
  const ScratchDir dir("round_trip");
  fs::copy(kArm.parent_path(), dir.path() / "arm6", fs::copy_options::recursive);
  fs::create_directories(dir.path() / "models");
  for (const fs::path& urdf : {dir.path() / "arm6" / "arm6.urdf", kHumanoid}) {
    SCOPED_TRACE(urdf.filename().string());
    const RobotDescription imported = importUrdf(urdf);
    const fs::path json = dir.path() / "models" / (urdf.stem().string() + ".json");
    saveRobot(imported, json);
    EXPECT_EQ(loadRobot(json), imported);
  }
  std::ifstream file(dir.path() / "models" / "arm6.json");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr(R"("file": "../arm6/meshes/link_box.stl")"));
  EXPECT_EQ(text.find(dir.path().string()), std::string::npos);
}

TEST(UrdfImportTest, PackageUrisAreFoundAboveTheUrdf) {
  const fs::path folder = kUrdfDir / "arm6";
  const fs::path expected = (folder / "meshes" / "link_box.stl").lexically_normal();
  EXPECT_EQ(resolveUrdfMeshFile("package://arm6/meshes/link_box.stl", folder), expected);
  EXPECT_EQ(resolveUrdfMeshFile("package://arm6/meshes/link_box.stl", folder / "meshes"), expected);
  // a package beside a folder above: tests/data/urdf holds arm6
  EXPECT_EQ(resolveUrdfMeshFile("package://arm6/meshes/link_box.stl", kUrdfDir / "humanoid"),
            expected);
  EXPECT_EQ(resolveUrdfMeshFile("meshes/link_box.stl", folder), expected);
  EXPECT_EQ(resolveUrdfMeshFile("file://" + expected.string(), kUrdfDir), expected);
  EXPECT_TRUE(resolveUrdfMeshFile("package://no_such_package/a.stl", folder).empty());
}

// ---- bad input: each names the element and the reason, and convertUrdf writes nothing

struct BadCase {
  std::string name;
  std::string body;     ///< inside <robot>, after a valid link "base"
  std::string element;  ///< expected in what()
  std::string reason;   ///< expected in what()
};

std::string inertialOf(const std::string& inertia, double mass = 1.0) {
  return R"(<inertial><mass value=")" + std::to_string(mass) + R"("/><inertia )" + inertia +
         "/></inertial>";
}
const std::string kGoodInertial =
    inertialOf(R"(ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0")");

std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child) {
  return R"(<joint name=")" + name + R"(" type=")" + type + R"("><parent link=")" + parent +
         R"("/><child link=")" + child + R"("/><axis xyz="0 0 1"/>)" +
         R"(<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>)";
}

std::string link(const std::string& name, const std::string& inside) {
  return R"(<link name=")" + name + R"(">)" + inside + "</link>";
}

std::vector<BadCase> badCases() {
  const std::string a = link("a", kGoodInertial), b = link("b", kGoodInertial);
  return {
      {"cycle", a + b + joint("ab", "revolute", "a", "b") + joint("ba", "revolute", "b", "a"),
       "/robot/joint[@name='", "cycle"},
      {"two_parents",
       a + b + joint("base_a", "revolute", "base", "a") + joint("base_b", "revolute", "base", "b") +
           joint("a_b", "revolute", "a", "b"),
       "/robot/link[@name='b']", "child of two joints"},
      {"missing_parent", a + joint("ghost_a", "revolute", "ghost", "a"),
       "/robot/joint[@name='ghost_a']", "parent link 'ghost' is not defined"},
      {"missing_child", joint("base_ghost", "revolute", "base", "ghost"),
       "/robot/joint[@name='base_ghost']", "child link 'ghost' is not defined"},
      {"unknown_joint_type", a + joint("ball", "spherical", "base", "a"),
       "/robot/joint[@name='ball']", "unknown joint type 'spherical'"},
      {"zero_inertia",
       link("a", inertialOf(R"(ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0")")) +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/inertial/inertia", "not a physical inertia"},
      {"negative_moment",
       link("a", inertialOf(R"(ixx="-0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0")")) +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/inertial/inertia", "must be positive"},
      {"triangle_inequality",
       link("a", inertialOf(R"(ixx="0.01" iyy="0.01" izz="0.05" ixy="0" ixz="0" iyz="0")")) +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/inertial/inertia", "sum of the other two"},
      {"indefinite_products",
       link("a", inertialOf(R"(ixx="0.01" iyy="0.01" izz="0.01" ixy="0.02" ixz="0" iyz="0")")) +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/inertial/inertia", "not a physical inertia"},
      {"zero_mass",
       link("a", inertialOf(R"(ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0")", 0.0)) +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/inertial/mass", "must be positive"},
      {"missing_mesh",
       link("a",
            kGoodInertial +
                R"(<visual><geometry><mesh filename="meshes/nowhere.stl"/></geometry></visual>)") +
           joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']/visual/geometry/mesh", "'meshes/nowhere.stl' not found"},
      // what urdfdom refuses itself: its reason, which names the element
      {"no_limit_on_revolute",
       a + R"(<joint name="j" type="revolute"><parent link="base"/><child link="a"/></joint>)",
       "Joint [j]", "does not specify limits"},
      {"massless_moving_link", link("a", "") + joint("j", "revolute", "base", "a"),
       "/robot/link[@name='a']", "has no <inertial> but moves on joint 'j'"},
  };
}

TEST(UrdfImportTest, BadInputNamesTheElementAndWritesNothing) {
  const ScratchDir dir("bad");
  for (const BadCase& c : badCases()) {
    SCOPED_TRACE(c.name);
    const fs::path urdf =
        dir.write(c.name + ".urdf",
                  R"(<robot name="bad">)" + link("base", kGoodInertial) + c.body + "</robot>");
    const fs::path json = dir.path() / (c.name + ".json");
    try {
      convertUrdf(urdf, json);
      ADD_FAILURE() << "expected a ParseError";
    } catch (const ParseError& error) {
      EXPECT_THAT(error.what(), HasSubstr(c.element));
      EXPECT_THAT(error.what(), HasSubstr(c.reason));
    }
    EXPECT_FALSE(fs::exists(json));
    EXPECT_FALSE(fs::exists(json.string() + ".tmp-save"));
  }
}

TEST(UrdfImportTest, MalformedXmlSaysWhereAndWritesNothing) {
  const ScratchDir dir("malformed");
  const fs::path urdf =
      dir.write("broken.urdf", "<robot name=\"x\">\n  <link name=\"a\">\n</robot>\n");
  const fs::path json = dir.path() / "broken.json";
  try {
    convertUrdf(urdf, json);
    ADD_FAILURE() << "expected a ParseError";
  } catch (const ParseError& error) {
    EXPECT_THAT(error.what(), HasSubstr("not well-formed XML (line"));
  }
  EXPECT_FALSE(fs::exists(json));
  // not a robot at all, and a file that is not there
  EXPECT_THROW(importUrdf(dir.write("other.urdf", "<model/>")), ParseError);
  EXPECT_THROW(importUrdf(dir.path() / "missing.urdf"), ParseError);
}

TEST(UrdfImportTest, ConvertWritesAModelThatLoadsAndBuilds) {
  const ScratchDir dir("convert");
  const fs::path json = dir.path() / "arm6.json";
  convertUrdf(kArm, json);
  EXPECT_NO_THROW(buildModel(loadRobot(json)));
  EXPECT_FALSE(fs::exists(json.string() + ".tmp-save"));
}

}  // namespace
}  // namespace tendril
