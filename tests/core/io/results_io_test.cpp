// Tests for core/io/results_io.cpp.

#include "core/io/results_io.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/algorithm/kinematics.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

TEST(ResultsIoTest, TrajectoryRoundTripsAtFullPrecision) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  SimulationOptions options;
  options.t_end = 0.05;
  options.output_interval = 0.01;
  const SimulationResult result =
      simulate(model, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), options);
  ASSERT_TRUE(result.completed) << result.message;
  const auto path = std::filesystem::temp_directory_path() / "tendril_results_io_test.csv";
  saveTrajectoryCsv(model, result.samples, path);
  const CsvTable table = loadCsv(path);
  std::filesystem::remove(path);

  const std::size_t leaves = 1;  // the soft link at the end of the chain
  ASSERT_EQ(table.columns.size(), 1 + 2 * static_cast<std::size_t>(model.nq) + 7 * leaves + 4);
  EXPECT_EQ(table.columns[1], "q:" + model.coordinate_names[0]);
  EXPECT_EQ(table.columns.back(), "dissipated");
  ASSERT_EQ(table.rows.size(), result.samples.size());
  for (std::size_t k = 0; k < table.rows.size(); ++k) {
    const Sample& s = result.samples[k];
    EXPECT_EQ(table.rows[k][0], s.t);
    for (int i = 0; i < model.nq; ++i) {
      EXPECT_EQ(table.rows[k][1 + i], s.q(i));
      EXPECT_EQ(table.rows[k][1 + model.nq + i], s.v(i));
    }
    EXPECT_EQ(table.rows[k].back(), s.energy.dissipated);
  }
}

TEST(ResultsIoTest, TableTipColumnsAreTheTipPoses) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  Sample bent{0.5,
              Eigen::VectorXd::LinSpaced(model.nq, -0.3, 0.4),
              Eigen::VectorXd::Zero(model.nv),
              {1.0, 2.0, 3.0, 4.0}};
  const Sample rest{0.0, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), {}};
  const TrajectoryTable table = trajectoryTable(model, {rest, bent});
  ASSERT_EQ(table.values.rows(), 2);
  Data data(model);
  forwardKinematics(model, data, bent.q);
  const SE3 tip = linkTipPose(model, data, 2);
  const Eigen::Quaterniond orientation(tip.R);
  const auto column = [&](const std::string& name) {
    const auto at = std::find(table.columns.begin(), table.columns.end(), name);
    EXPECT_NE(at, table.columns.end()) << name;
    return table.values(1, at - table.columns.begin());
  };
  EXPECT_EQ(column("tip:soft:x"), tip.p.x());
  EXPECT_EQ(column("tip:soft:z"), tip.p.z());
  EXPECT_EQ(column("tip:soft:qw"), orientation.w());
  EXPECT_EQ(column("tip:soft:qy"), orientation.y());
  EXPECT_EQ(column("tip:soft:qz"), orientation.z());
  EXPECT_EQ(column("elastic"), 3.0);
}

TEST(ResultsIoTest, MalformedCsvNamesTheLine) {
  const auto path = std::filesystem::temp_directory_path() / "tendril_results_bad.csv";
  {
    std::ofstream file(path);
    file << "t,x\n0,1\n0.1,oops\n";
  }
  try {
    loadCsv(path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(":3: not a number"), std::string::npos)
        << error.what();
  }
  std::filesystem::remove(path);
}

TEST(ResultsIoTest, RecordingReadsBackAsTheSamplesThatWroteIt) {
  const Model model = buildModel(test::example("hybrid_serial_robot"));
  const Sample first{0.0,
                     Eigen::VectorXd::LinSpaced(model.nq, -0.2, 0.3),
                     Eigen::VectorXd::LinSpaced(model.nv, 1.0, -1.0),
                     {1.5, -2.5, 3.5, 0.25}};
  Sample second = first;
  second.t = 0.01;
  second.q *= -0.5;
  const auto path = std::filesystem::temp_directory_path() / "tendril_recording_test.csv";
  saveTrajectoryCsv(model, {first, second}, path);
  const std::vector<Sample> samples = loadTrajectoryCsv(model, path);
  std::filesystem::remove(path);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].t, second.t);
  EXPECT_EQ(samples[1].q, second.q);
  EXPECT_EQ(samples[1].v, second.v);
  EXPECT_EQ(samples[0].energy.gravitational, first.energy.gravitational);
  EXPECT_EQ(samples[0].energy.dissipated, first.energy.dissipated);
}

TEST(ResultsIoTest, RecordingColumnsAreFoundByNameAndEnergiesAreOptional) {
  const Model model = buildModel(test::example("soft_cantilever"));
  CsvTable table;
  // v before q, reversed, an unknown column, no energies
  table.columns = {"extra"};
  for (int i = model.nq - 1; i >= 0; --i) table.columns.push_back("v:" + model.coordinate_names[i]);
  for (int i = model.nq - 1; i >= 0; --i) table.columns.push_back("q:" + model.coordinate_names[i]);
  table.columns.push_back("t");
  std::vector<double> row(table.columns.size());
  for (std::size_t c = 0; c < row.size(); ++c) row[c] = static_cast<double>(c);
  table.rows = {row};
  const std::vector<Sample> samples = samplesFromTable(model, table);
  ASSERT_EQ(samples.size(), 1u);
  const auto nq = static_cast<double>(model.nq);
  EXPECT_EQ(samples[0].t, 2 * nq + 1);
  EXPECT_EQ(samples[0].v(0), nq);      // v of coordinate 0 is the last v column
  EXPECT_EQ(samples[0].q(0), 2 * nq);  // q of coordinate 0 is the last q column
  EXPECT_EQ(samples[0].q(model.nq - 1), nq + 1);
  EXPECT_EQ(samples[0].energy.kinetic, 0.0);

  table.columns.back() = "time";  // no "t"
  try {
    samplesFromTable(model, table);
    FAIL() << "a table without t was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "no column \"t\" (a recording of another model?)");
  }
}

}  // namespace
}  // namespace tendril
