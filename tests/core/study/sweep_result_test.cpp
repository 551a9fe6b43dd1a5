// Tests for core/study/sweep_result: a saved sweep read back, with its spec.

#include "core/study/sweep_result.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/study/sweep_run.hpp"

namespace tendril {
namespace {

using nlohmann::json;

TEST(SweepResult, ASavedSweepReadsBackWithItsSpec) {
  const json spec_json{{"model", "soft_cantilever.json"},
                       {"parameters",
                        {{{"pointer", "/links/0/soft/divisions/0/material/poisson_ratio"},
                          {"name", "nu, \"Poisson\""},
                          {"values", {0.3, 0.51}}}}},
                       {"job", {{"type", "statics"}}}};
  const SweepSpec spec = parseSweepSpec(spec_json.dump(), TENDRIL_EXAMPLES_DIR);
  const std::vector<SweepRow> rows = runSweep(spec, 1);
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "tendril_sweep_result_test";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  saveSweepCsv(spec, rows, folder / "r.csv");
  EXPECT_TRUE(std::filesystem::exists(folder / "r.sweep.json"));

  const SweepResult result = loadSweepResult(folder / "r.csv");
  EXPECT_TRUE(result.table.partial_note.empty());
  ASSERT_EQ(result.table.cells.size(), 2U);
  const int name = result.table.column("nu, \"Poisson\"");  // a quoted header survives
  ASSERT_EQ(name, 1);
  EXPECT_EQ(result.table.number(1, name), 0.51);
  const int x = result.table.column("tip:rod:x");
  EXPECT_EQ(result.table.number(0, x), rows[0].outputs(0));  // shortest text, same double
  EXPECT_TRUE(std::isnan(result.table.number(1, x)));
  const int message = result.table.column("message");
  EXPECT_EQ(result.table.cells[1][static_cast<std::size_t>(message)], rows[1].message);
  EXPECT_EQ(result.spec.case_values, spec.case_values);
  EXPECT_TRUE(caseDescription(result.spec, 0).description.has_value());

  // a partial file names the same spec, and says it is partial
  saveSweepCsv(spec, {rows[0]}, folder / "p.csv");
  const SweepResult partial = loadSweepResult(folder / "p.partial.csv");
  EXPECT_EQ(partial.table.partial_note.rfind("# PARTIAL RESULT", 0), 0U);
  EXPECT_EQ(partial.table.cells.size(), 1U);
  EXPECT_EQ(sweepSpecPathFor(folder / "p.partial.csv"), folder / "p.sweep.json");

  std::filesystem::remove(folder / "r.sweep.json");
  EXPECT_THROW(loadSweepResult(folder / "r.csv"), std::runtime_error);
  std::filesystem::remove_all(folder);
}

TEST(SweepResult, MalformedTablesNameTheLine) {
  try {
    parseSweepTable("case,a,success\n0,1,1\n1,2\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "line 3: 2 fields, the header has 3");
  }
  EXPECT_THROW(parseSweepTable("t,x\n0,1\n"), std::runtime_error);
  EXPECT_THROW(parseSweepTable("case,success,message\n0,1,\"open\n"), std::runtime_error);
}

}  // namespace
}  // namespace tendril
