// Tests for core/study/sweep_run: case models, failed cases as rows, the thread pool, the CSV.

#include "core/study/sweep_run.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/statics.hpp"
#include "core/io/json_io.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using nlohmann::json;

const std::filesystem::path kExamples = TENDRIL_EXAMPLES_DIR;

SweepSpec gravitySweep(const json& values) {
  const json spec{{"model", "soft_cantilever.json"},
                  {"parameters", {{{"pointer", "/gravity/2"}, {"values", values}}}},
                  {"job", {{"type", "statics"}}},
                  {"outputs", {{"coordinates", {"rod/div0/bend_y/0"}}}}};
  return parseSweepSpec(spec.dump(), kExamples);
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(SweepRun, StaticsRowsMatchASolveOnTheEditedDescription) {
  const SweepSpec spec = gravitySweep({-9.81, -3.0});
  const std::vector<std::string> columns = sweepOutputColumns(spec);
  ASSERT_EQ(columns.front(), "tip:rod:x");
  for (int i = 0; i < spec.caseCount(); ++i) {
    const SweepRow row = runCase(spec, i);
    ASSERT_TRUE(row.success) << row.message;
    // the same model edited as a description, not through the JSON pointer
    RobotDescription robot = loadRobot(kExamples / "soft_cantilever.json");
    robot.gravity[2] = spec.case_values[static_cast<std::size_t>(i)][0].get<double>();
    const Model model = buildModel(robot);
    Data data(model);
    const StaticsResult reference = solveStatics(model, data, Eigen::VectorXd::Zero(model.nq));
    ASSERT_TRUE(reference.converged);
    forwardKinematics(model, data, reference.q);
    const Eigen::Vector3d tip = linkTipPose(model, data, 0).p;
    EXPECT_NEAR((row.outputs.head<3>() - tip).norm(), 0.0, 1e-12);
    const auto bend =
        std::find(columns.begin(), columns.end(), "q:rod/div0/bend_y/0") - columns.begin();
    const auto k = std::find(model.coordinate_names.begin(), model.coordinate_names.end(),
                             "rod/div0/bend_y/0") -
                   model.coordinate_names.begin();
    EXPECT_EQ(row.outputs(bend), reference.q(k));
    EXPECT_GT(row.wall_time, 0.0);
  }
  // more gravity bends the rod further down
  EXPECT_LT(runCase(spec, 0).outputs(2), runCase(spec, 1).outputs(2));
}

TEST(SweepRun, AValueTheModelRejectsIsAFailedRowWithTheReason) {
  const json spec{{"model", "soft_cantilever.json"},
                  {"parameters",
                   {{{"pointer", "/links/0/soft/divisions/0/material/poisson_ratio"},
                     {"values", {0.3, 0.51, "soft"}}}}},
                  {"job", {{"type", "statics"}}}};
  const SweepSpec sweep = parseSweepSpec(spec.dump(), kExamples);
  const std::vector<SweepRow> rows = runSweep(sweep, 2);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_TRUE(rows[0].success) << rows[0].message;
  for (int i : {1, 2}) {
    EXPECT_FALSE(rows[i].success);
    EXPECT_NE(rows[i].message.find("/links/0/soft/divisions/0/material/poisson_ratio"),
              std::string::npos)
        << rows[i].message;
    EXPECT_TRUE(rows[i].outputs.array().isNaN().all());
  }
  EXPECT_FALSE(caseDescription(sweep, 1).description.has_value());
  EXPECT_TRUE(caseDescription(sweep, 0).description.has_value());
  EXPECT_EQ(
      caseDescription(sweep, 0).description->links[0].soft().divisions[0].material.poisson_ratio,
      0.3);
}

TEST(SweepRun, ADivergingSimulationIsAFailedRowAndTheOthersRun) {
  // the kick of test_models: switched on within 1 ns it cannot be followed above 1e-6 s steps;
  // spread over 50 ms it can (its rod still takes steps near 1e-5 s at t = 0.17 s, so a minimum of
  // 1e-5 s would leave the good row to the last bit of rounding)
  json spec{
      {"model", json::parse(serializeRobot(test::rodKickedAtTheTip(0.05)))},
      {"parameters", {{{"pointer", "/point_loads/0/scale/duration"}, {"values", {0.05, 1e-9}}}}},
      {"job",
       {{"type", "simulate"},
        {"t_end", 0.2},
        {"dt", 0.01},
        {"rtol", 1e-4},
        {"atol", 1e-6},
        {"min_step", 1e-6}}}};
  const SweepSpec sweep = parseSweepSpec(spec.dump(), kExamples);
  const std::vector<SweepRow> rows = runSweep(sweep, 2);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_TRUE(rows[0].success) << rows[0].message;
  EXPECT_NEAR(rows[0].outputs(rows[0].outputs.size() - 1), 0.2, 1e-12);  // t reached
  EXPECT_FALSE(rows[1].success);
  EXPECT_FALSE(rows[1].message.empty());
  EXPECT_TRUE(rows[1].outputs.array().isNaN().all());
}

TEST(SweepRun, ThePoolGivesTheSerialRowsInCaseOrder) {
  json spec{
      {"model", "cable_manipulator.json"},
      {"parameters",
       {{{"pointer", "/cables/0/tension/value"}, {"latin_hypercube", {{"low", 0}, {"high", 30}}}},
        {{"pointer", "/cables/3/tension/value"}, {"random", {{"low", 0}, {"high", 30}}}}}},
      {"samples", 6},
      {"seed", 3},
      {"job", {{"type", "statics"}, {"time", 1.0}}}};
  const SweepSpec sweep = parseSweepSpec(spec.dump(), kExamples);
  int progress_calls = 0;
  SweepProgress last;
  const std::vector<SweepRow> pooled = runSweep(
      sweep, 3,
      [&](const SweepProgress& p) {
        ++progress_calls;
        last = p;
      },
      nullptr, 0.01);
  ASSERT_EQ(pooled.size(), 6U);
  EXPECT_GE(progress_calls, 1);
  EXPECT_EQ(last.done, 6);
  EXPECT_EQ(last.total, 6);
  for (int i = 0; i < 6; ++i) {
    const SweepRow serial = runCase(sweep, i);
    EXPECT_EQ(pooled[i].index, i);
    EXPECT_TRUE(serial.success) << serial.message;
    EXPECT_EQ(pooled[i].success, serial.success);
    EXPECT_EQ(pooled[i].message, serial.message);
    EXPECT_TRUE(pooled[i].outputs == serial.outputs) << "case " << i;
  }
}

TEST(SweepRun, ACancelledSweepIsSavedAsAMarkedPartialFile) {
  const SweepSpec spec = gravitySweep({-9.81, -5.0, -1.0});
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "tendril_sweep_run_test";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::filesystem::path out = folder / "results.csv";

  std::atomic<bool> cancel{true};
  EXPECT_TRUE(runSweep(spec, 2, {}, &cancel).empty());
  const std::vector<SweepRow> some = {runCase(spec, 0), runCase(spec, 2)};
  const std::filesystem::path written = saveSweepCsv(spec, some, out);
  EXPECT_EQ(written, folder / "results.partial.csv");
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::string partial = readFile(written);
  EXPECT_EQ(partial.rfind("# PARTIAL RESULT (interrupted): 2 of 3 cases", 0), 0U) << partial;

  // a complete run replaces the partial file
  const std::vector<SweepRow> all = runSweep(spec, 2);
  EXPECT_EQ(saveSweepCsv(spec, all, out), out);
  EXPECT_FALSE(std::filesystem::exists(written));
  std::istringstream lines(readFile(out));
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("case,/gravity/2,success,tip:rod:x,", 0), 0U) << header;
  EXPECT_NE(header.find(",q:rod/div0/bend_y/0,iterations,wall_time,message"), std::string::npos)
      << header;
  int rows = 0;
  for (std::string line; std::getline(lines, line);) ++rows;
  EXPECT_EQ(rows, 3);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace tendril
