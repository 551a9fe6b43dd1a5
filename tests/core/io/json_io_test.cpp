// Tests for core/io/json_io.cpp.

#include "core/io/json_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/model/model.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

namespace fs = std::filesystem;

// the JSON pointer parseRobot() names for a bad text, or "(no error)"
std::string pointerOf(const std::string& text) {
  try {
    parseRobot(text);
  } catch (const ParseError& error) {
    return error.pointer();
  }
  return "(no error)";
}

std::string readText(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<fs::path> filesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(JsonIoTest, EveryExampleLoads) {
  const auto examples = filesIn(TENDRIL_EXAMPLES_DIR);
  ASSERT_GE(examples.size(), 4u);
  for (const fs::path& path : examples) {
    SCOPED_TRACE(path.string());
    const RobotDescription robot = loadRobot(path);
    EXPECT_FALSE(robot.links.empty());
  }
}

TEST(JsonIoTest, SaveLoadSaveIsByteIdentical) {
  for (const fs::path& path : filesIn(TENDRIL_EXAMPLES_DIR)) {
    SCOPED_TRACE(path.string());
    const RobotDescription first = loadRobot(path);
    const std::string saved = serializeRobot(first);
    const RobotDescription second = parseRobot(saved);
    EXPECT_EQ(first, second);
    EXPECT_EQ(saved, serializeRobot(second));
  }
}

TEST(JsonIoTest, VersionOneFilesReadAndSaveAsVersionTwo) {
  // the bundled examples are version-1 files: read as such, they save as version 2 and read back
  // to the same description
  const fs::path path = fs::path(TENDRIL_EXAMPLES_DIR) / "hybrid_serial_robot.json";
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(text.find("\"schema_version\": 1"), std::string::npos);
  const RobotDescription robot = parseRobot(text);
  const std::string saved = serializeRobot(robot);
  EXPECT_NE(saved.find("\"schema_version\": 2"), std::string::npos);
  EXPECT_EQ(parseRobot(saved), robot);
}

TEST(JsonIoTest, DescriptionIsKeptAndOptional) {
  RobotDescription robot = test::example("paper_cable_manipulator");
  EXPECT_NE(robot.description.find("Table 2"), std::string::npos);
  EXPECT_EQ(parseRobot(serializeRobot(robot)).description, robot.description);
  robot.description.clear();  // an empty description is not written
  EXPECT_EQ(serializeRobot(robot).find("\"description\""), std::string::npos);
}

TEST(JsonIoTest, SaveIsAtomicAndReplacesTheFile) {
  const fs::path dir = fs::temp_directory_path() / "tendril_json_io_test";
  fs::create_directories(dir);
  const fs::path target = dir / "robot.json";
  RobotDescription robot = loadRobot(fs::path(TENDRIL_EXAMPLES_DIR) / "soft_cantilever.json");
  saveRobot(robot, target);
  robot.name = "renamed";
  saveRobot(robot, target);
  EXPECT_EQ(loadRobot(target).name, "renamed");
  EXPECT_FALSE(fs::exists(dir / "robot.json.tmp-save"));
  // an unwritable target leaves no partial file and throws
  EXPECT_THROW(saveRobot(robot, dir / "missing_dir" / "robot.json"), std::runtime_error);
  fs::remove_all(dir);
}

// one rigid link, its joint and shape as JSON text, for the limits and mesh tests below
std::string oneLink(const std::string& joint, const std::string& shape) {
  return R"({"schema_version": 2, "links": [{"name": "a", "joint": )" + joint +
         R"(, "rigid": {"mass": 1, "shape": )" + shape + "}}]}";
}
const std::string kBox = R"({"type": "box"})";

TEST(JsonIoTest, JointLimitsAreKeptAsGivenAndChecked) {
  const RobotDescription robot = parseRobot(oneLink(
      R"({"type": "revolute", "limits": {"lower": -1, "upper": 2, "effort": 5, "damping": 0.1}})",
      kBox));
  const JointLimitsDesc& limits = robot.links[0].joint.limits.value();
  EXPECT_EQ(limits.lower, -1.0);
  EXPECT_EQ(limits.upper, 2.0);
  EXPECT_EQ(limits.effort, 5.0);
  EXPECT_EQ(limits.damping, 0.1);
  EXPECT_FALSE(limits.velocity.has_value());
  EXPECT_FALSE(limits.friction.has_value());
  const std::string saved = serializeRobot(robot);
  EXPECT_EQ(parseRobot(saved), robot);
  EXPECT_EQ(saved.find("velocity"), std::string::npos);  // what is not given is not written
  // a joint without limits writes none
  EXPECT_EQ(serializeRobot(parseRobot(oneLink(R"({"type": "revolute"})", kBox))).find("limits"),
            std::string::npos);
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "revolute", "limits": {"lower": 1, "upper": 0}})", kBox)),
            "/links/0/joint/limits/upper");
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "revolute", "limits": {"velocity": -1}})", kBox)),
            "/links/0/joint/limits/velocity");
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "revolute", "limits": {"stiffness": 1}})", kBox)),
            "/links/0/joint/limits/stiffness");
}

TEST(JsonIoTest, MeshShapesKeepTheirFileScaleAndBox) {
  const std::string mesh =
      R"({"type": "mesh", "size": [0.1, 0.2, 0.3], "file": "/meshes/a.stl", "scale": [1, 2, -1],
          "box_centre": [0, 0, 0.15], "origin": {"position": [0, 0, 0.1], "rpy": [0, 0.5, 0]}})";
  const RobotDescription robot = parseRobot(oneLink(R"({"type": "fixed"})", mesh));
  const ShapeDesc& shape = robot.links[0].rigid().shape;
  EXPECT_EQ(shape.type, ShapeType::Mesh);
  EXPECT_EQ(shape.mesh, "/meshes/a.stl");
  EXPECT_EQ(shape.scale, (Vec3{1.0, 2.0, -1.0}));
  EXPECT_EQ(shape.box_centre, (Vec3{0.0, 0.0, 0.15}));
  EXPECT_EQ(shape.origin.rpy[1], 0.5);
  EXPECT_EQ(parseRobot(serializeRobot(robot)), robot);
  // a box moved off its centre of mass keeps its origin; one that is not writes none
  const std::string moved = R"({"type": "box", "origin": {"position": [0.1, 0, 0]}})";
  EXPECT_EQ(
      parseRobot(oneLink(R"({"type": "fixed"})", moved)).links[0].rigid().shape.origin.position[0],
      0.1);
  const nlohmann::json plain =
      nlohmann::json::parse(serializeRobot(parseRobot(oneLink(R"({"type": "fixed"})", kBox))));
  EXPECT_FALSE(plain["links"][0]["rigid"]["shape"].contains("origin"));
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "fixed"})", R"({"type": "mesh"})")),
            "/links/0/rigid/shape/file");
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "fixed"})",
                              R"({"type": "mesh", "file": "a.obj", "scale": [1, 0, 1]})")),
            "/links/0/rigid/shape/scale/1");
  EXPECT_EQ(pointerOf(oneLink(R"({"type": "fixed"})", R"({"type": "box", "file": "a.obj"})")),
            "/links/0/rigid/shape/file");
}

TEST(JsonIoTest, MeshFilesAreRelativeOnDiskAndAbsoluteInMemory) {
  const fs::path dir = fs::temp_directory_path() / "tendril_json_io_mesh_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "models");
  RobotDescription robot = parseRobot(
      oneLink(R"({"type": "fixed"})", R"({"type": "mesh", "file": "/placeholder.stl"})"));
  robot.links[0].rigid().shape.mesh = (dir / "meshes" / "a.stl").string();
  saveRobot(robot, dir / "models" / "robot.json");
  EXPECT_NE(readText(dir / "models" / "robot.json").find(R"("file": "../meshes/a.stl")"),
            std::string::npos);
  EXPECT_EQ(loadRobot(dir / "models" / "robot.json"), robot);
  fs::remove_all(dir);
}

TEST(JsonIoTest, ModesThatNoGaussPointSeesAreRejected) {
  // seven piecewise-constant pieces and seven Gauss points: pieces 1 and 5 hold none
  RobotDescription robot = loadRobot(fs::path(TENDRIL_EXAMPLES_DIR) / "soft_cantilever.json");
  DivisionDesc& division = robot.links[0].soft().divisions[0];
  division.basis.family = BasisFamily::PiecewiseConstant;
  division.basis.order = {-1, 6, -1, -1, -1, -1};
  division.gauss_points = 7;
  try {
    buildModel(robot);
    FAIL() << "expected a ParseError";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/links/0/soft/divisions/0/gauss_points");
  }
  division.gauss_points = 14;  // two points per piece: every mode is stiff
  EXPECT_NO_THROW(buildModel(robot));
}

TEST(JsonIoTest, TimeFunctionsRoundTripOnTheirOwn) {
  const TimeFunction sine =
      parseTimeFunction(R"({"type": "sine", "amplitude": 2, "frequency": 0.5, "phase": 0.25})");
  EXPECT_EQ(sine.kind, TimeFunction::Kind::Sine);
  EXPECT_EQ(sine.phase, 0.25);
  EXPECT_EQ(parseTimeFunction(serializeTimeFunction(sine)), sine);
  EXPECT_EQ(parseTimeFunction("7.5"), TimeFunction::constant(7.5));
  try {
    parseTimeFunction(R"({"type": "ramp", "value": 1, "duration": -1})");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.pointer(), "/duration");
  }
}

// the pointer and reason parseTimeFunction() gives for a bad text
std::pair<std::string, std::string> timeFunctionError(const std::string& text) {
  try {
    parseTimeFunction(text);
  } catch (const ParseError& e) {
    return {e.pointer(), e.what()};
  }
  return {"(no error)", ""};
}

TEST(JsonIoTest, SplineTablesRoundTripAndBadOnesNameTheirField) {
  const TimeFunction clamped = parseTimeFunction(
      R"({"type": "table", "points": [[0, 1], [0.5, 2], [2, 0]], "interpolation": "spline",
          "end_slopes": [0.5, -1]})");
  EXPECT_EQ(clamped.interpolation, TimeFunction::Interpolation::Spline);
  ASSERT_TRUE(clamped.end_slopes.has_value());
  EXPECT_EQ(clamped.spline_moments.size(), 3u);  // prepared by the reader
  EXPECT_NEAR(clamped.derivative(1e-12, 1), 0.5, 1e-9);
  EXPECT_EQ(parseTimeFunction(serializeTimeFunction(clamped)), clamped);
  const TimeFunction linear = parseTimeFunction(R"({"type": "table", "points": [[0, 1], [1, 2]]})");
  EXPECT_EQ(linear.interpolation, TimeFunction::Interpolation::Linear);
  EXPECT_EQ(serializeTimeFunction(linear).find("interpolation"), std::string::npos);

  const auto [bad_kind, kind_reason] = timeFunctionError(
      R"({"type": "table", "points": [[0, 1], [1, 2]], "interpolation": "akima"})");
  EXPECT_EQ(bad_kind, "/interpolation");
  EXPECT_NE(kind_reason.find("linear, spline"), std::string::npos) << kind_reason;
  const auto [linear_slopes, slopes_reason] =
      timeFunctionError(R"({"type": "table", "points": [[0, 1], [1, 2]], "end_slopes": [0, 0]})");
  EXPECT_EQ(linear_slopes, "/end_slopes");
  EXPECT_NE(slopes_reason.find("spline"), std::string::npos) << slopes_reason;
  EXPECT_EQ(timeFunctionError(R"({"type": "table", "points": [[0, 1], [1, 2]],
                                  "interpolation": "spline", "end_slopes": [0]})")
                .first,
            "/end_slopes");
}

TEST(JsonIoTest, ShearModulusAndPoissonRatioAreExclusive) {
  nlohmann::json j =
      nlohmann::json::parse(readText(fs::path(TENDRIL_EXAMPLES_DIR) / "soft_cantilever.json"));
  j["links"][0]["soft"]["divisions"][0]["material"]["shear_modulus"] = 3e5;
  try {
    parseRobot(j.dump());
    FAIL() << "expected a ParseError";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/links/0/soft/divisions/0/material/shear_modulus");
  }
  j["links"][0]["soft"]["divisions"][0]["material"].erase("poisson_ratio");
  const RobotDescription robot = parseRobot(j.dump());
  EXPECT_DOUBLE_EQ(*robot.links[0].soft().divisions[0].material.shear_modulus, 3e5);
  EXPECT_FALSE(robot.links[0].soft().divisions[0].material.poisson_ratio.has_value());
}

// a broken model, the JSON pointer its error must name, and a fragment of the reason
struct BrokenCase {
  const char* file;
  const char* pointer;
  const char* reason_fragment;
};

class BrokenModelTest : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenModelTest, NamesPointerAndReason) {
  const BrokenCase& c = GetParam();
  try {
    loadRobot(fs::path(TENDRIL_TEST_DATA_DIR) / "broken" / c.file);
    FAIL() << "loading " << c.file << " should fail";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), c.pointer) << error.what();
    EXPECT_THAT(error.what(), ::testing::HasSubstr(c.reason_fragment));
  }
}

const BrokenCase kBrokenCases[] = {
    BrokenCase{"not_json.json", "", "not valid JSON"},
    BrokenCase{"empty.json", "", "not valid JSON"},
    BrokenCase{"top_level_array.json", "", "expected an object"},
    BrokenCase{"missing_version.json", "/schema_version", "missing required field"},
    BrokenCase{"future_version.json", "/schema_version", "unsupported version"},
    BrokenCase{"links_not_array.json", "/links", "expected an array"},
    BrokenCase{"unknown_top_key.json", "/colour", "unknown key"},
    BrokenCase{"unknown_link_key.json", "/links/0/rigidd", "unknown key"},
    BrokenCase{"missing_name.json", "/links/0/name", "missing required field"},
    BrokenCase{"name_wrong_type.json", "/links/0/name", "expected a string"},
    BrokenCase{"both_bodies.json", "/links/0", "exactly one"},
    BrokenCase{"no_body.json", "/links/0", "exactly one"},
    BrokenCase{"negative_mass.json", "/links/0/rigid/mass", "must be positive"},
    BrokenCase{"zero_length.json", "/links/0/soft/divisions/0/length", "must be positive"},
    BrokenCase{"negative_density.json", "/links/0/soft/divisions/0/material/density",
               "must be positive"},
    BrokenCase{"zero_modulus.json", "/links/0/soft/divisions/0/material/youngs_modulus",
               "must be positive"},
    BrokenCase{"modulus_beyond_any_material.json",
               "/links/0/soft/divisions/0/material/youngs_modulus", "stiffer than any material"},
    BrokenCase{"poisson_too_high.json", "/links/0/soft/divisions/0/material/poisson_ratio",
               "(-1, 0.5]"},
    BrokenCase{"poisson_minus_one.json", "/links/0/soft/divisions/0/material/poisson_ratio",
               "(-1, 0.5]"},
    BrokenCase{"negative_order.json", "/links/0/soft/divisions/0/basis/order/bend_y",
               "order must be"},
    BrokenCase{"order_not_integer.json", "/links/0/soft/divisions/0/basis/order/torsion",
               "expected an integer"},
    BrokenCase{"unknown_family.json", "/links/0/soft/divisions/0/basis/family", "unknown value"},
    BrokenCase{"unknown_joint.json", "/links/0/joint/type", "unknown value \"hinge\""},
    BrokenCase{"zero_axis.json", "/links/0/joint/axis", "must not be zero"},
    BrokenCase{"gravity_short.json", "/gravity", "array of 3 numbers"},
    BrokenCase{"gravity_string.json", "/gravity/2", "expected a number"},
    BrokenCase{"unknown_parent.json", "/links/1/parent", "unknown parent"},
    BrokenCase{"cycle.json", "/links/0/parent", "cycle"},
    BrokenCase{"self_parent.json", "/links/0/parent", "cycle"},
    BrokenCase{"duplicate_name.json", "/links/1/name", "duplicate"},
    BrokenCase{"empty_divisions.json", "/links/0/soft/divisions", "non-empty"},
    BrokenCase{"bad_magnus.json", "/links/0/soft/magnus_order", "2 or 4"},
    BrokenCase{"gauss_zero.json", "/links/0/soft/divisions/0/gauss_points", "[1, 30]"},
    BrokenCase{"radius_negative.json", "/links/0/soft/divisions/0/section/radius/1",
               "must be positive"},
    BrokenCase{"too_few_gauss_points.json", "/links/0/soft/divisions/0/gauss_points",
               "at least 4 Gauss points"},
    BrokenCase{"cable_division_twice.json", "/cables/0/path/1/division", "appears twice"},
    BrokenCase{"closed_chain_unknown_link.json", "/closed_chains/0/a/link", "unknown link"},
    BrokenCase{"closed_chain_helical.json", "/closed_chains/0/joint/type",
               "a closed-chain joint is fixed, revolute"},
    BrokenCase{"closed_chain_frame_a_world.json", "/closed_chains/0/a/link", "not the world"},
    BrokenCase{"closed_chain_beyond_rod.json", "/closed_chains/0/b/abscissa",
               "must lie on the rod"},
    BrokenCase{"closed_chain_abscissa_on_rigid.json", "/closed_chains/0/a/abscissa",
               "a rigid link has no abscissa"},
    BrokenCase{"closed_chain_same_frame.json", "/closed_chains/0/b/link", "move together"},
    BrokenCase{"closed_chain_planar_not_boolean.json", "/closed_chains/0/planar",
               "expected true or false"},
    BrokenCase{"closed_chain_missing_b.json", "/closed_chains/0/b", "missing required field"},
    BrokenCase{"constraint_time_constant_zero.json", "/constraint_time_constant",
               "must be positive"},
    BrokenCase{"joint_input_bad_mode.json", "/joint_inputs/0/mode", "unknown value \"angle\""},
    BrokenCase{"position_input_twice.json", "/joint_inputs/1/mode", "already prescribed"},
    BrokenCase{"contact_negative_stiffness.json", "/environment/contact/stiffness",
               "must not be negative"},
    BrokenCase{"contact_zero_normal.json", "/environment/contact/planes/0/normal",
               "must not be zero"},
    BrokenCase{"contact_exponent_below_one.json", "/environment/contact/exponent", "at least 1"},
    BrokenCase{"contact_cylinder_radius_zero.json", "/environment/contact/cylinders/0/radius",
               "must be positive"},
    BrokenCase{"environment_unknown_key.json", "/environment/contact/stifness", "unknown key"},
    BrokenCase{"fluid_unknown_body.json", "/environment/fluid/bodies/0/link", "unknown link"},
    BrokenCase{"fluid_negative_density.json", "/environment/fluid/density", "must not be negative"},
    BrokenCase{"two_body_kinds.json", "/links/0", "exactly one"},
    BrokenCase{"lvp_zero_length.json", "/links/0/lvp/length", "must be positive"},
    BrokenCase{"lvp_cavity_not_inside.json", "/links/0/lvp/cavity_radius", "[0, radius)"},
    BrokenCase{"lvp_unknown_primitive.json", "/links/0/lvp/primitives/3/type",
               "unknown primitive \"wiggle\""},
    BrokenCase{"lvp_rest_folds.json", "/links/0/lvp/primitives/0/rest", "Jacobian determinant is"},
    BrokenCase{"lvp_source_without_cavity.json", "/links/0/lvp/primitives/6/type",
               "set a cavity_radius > 0"},
    BrokenCase{"lvp_pressure_on_solid_link.json", "/cavity_pressures/0/link", "cavity_radius > 0"},
    BrokenCase{"lvp_tendon_one_anchor.json", "/lvp_tendons/0/anchors", "at least two anchors"},
    BrokenCase{"lvp_mode_degree_8.json", "/links/0/lvp/primitives/1/modes/1",
               "1 to 8 polynomial coefficients"},
    BrokenCase{"lvp_tendon_bad_end.json", "/lvp_tendons/0/anchors/1/end",
               "unknown value \"middle\""},
    BrokenCase{"cc_gauss_points_31.json", "/links/0/constant_curvature/gauss_points", "[1, 30]"},
    BrokenCase{"cc_gauss_points_zero.json", "/links/0/constant_curvature/gauss_points", "[1, 30]"},
    BrokenCase{"cc_in_version_1.json", "/links/0/constant_curvature", "need schema_version 2"},
    BrokenCase{"cc_zero_length.json", "/links/0/constant_curvature/length", "must be positive"},
    BrokenCase{"cc_negative_radius.json", "/links/0/constant_curvature/radius", "must be positive"},
    BrokenCase{"cc_unknown_stress_model.json", "/links/0/constant_curvature/stress_model",
               "unknown value \"hyperelastic_magic\" (expected one of: linear_elastic)"},
    BrokenCase{"cc_unknown_model.json", "/links/0/constant_curvature/model",
               "unknown value \"helical\""},
    BrokenCase{"cc_tendon_outside_section.json", "/cables/0/path/0/y",
               "the tendon runs outside the section"},
    BrokenCase{"cc_tendon_second_division.json", "/cables/0/path/0/division", "has no division 1"},
    BrokenCase{"controller_unknown_input.json", "/controllers/0/inputs/1",
               "unknown input \"wrist\""},
    BrokenCase{"controller_gains_wrong_size.json", "/controllers/0/kp",
               "has 3 entries; expected 1 (for every variable) or 2"},
    BrokenCase{"controller_negative_sample_period.json", "/controllers/0/sample_period",
               "must not be negative"},
    BrokenCase{"controller_inputs_not_as_many.json", "/controllers/0/inputs",
               "has 1 inputs for 2 controlled variables"},
    BrokenCase{"controller_unknown_cable_length.json", "/controllers/0/controlled/0/cable_length",
               "unknown cable \"tendon\""},
    BrokenCase{"controller_unknown_type.json", "/controllers/0/type", "unknown value \"fuzzy\""},
    BrokenCase{"controller_unknown_tendon_length.json", "/controllers/0/controlled/0/tendon_length",
               "unknown LVP tendon \"tendon_y\""},
    BrokenCase{"cavity_pressure_name_taken.json", "/cavity_pressures/0/name",
               "\"tendon_x\" also names /lvp_tendons/0/name"},
    BrokenCase{"missing_file.json", "", "cannot open"}};

INSTANTIATE_TEST_SUITE_P(Corpus, BrokenModelTest, ::testing::ValuesIn(kBrokenCases),
                         [](const ::testing::TestParamInfo<BrokenCase>& info) {
                           return fs::path(info.param.file).stem().string();
                         });

TEST(BrokenModelCorpusTest, EveryFileInTheCorpusHasAnExpectation) {
  // a corpus file without an expectation would silently test nothing
  std::set<std::string> expected;
  for (const BrokenCase& c : kBrokenCases) expected.insert(c.file);
  for (const fs::path& path : filesIn(fs::path(TENDRIL_TEST_DATA_DIR) / "broken")) {
    EXPECT_TRUE(expected.count(path.filename().string())) << path << " has no expectation";
  }
}

}  // namespace
}  // namespace tendril
