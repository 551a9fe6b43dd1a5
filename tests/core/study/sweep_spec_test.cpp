// Tests for core/study/sweep_spec: parsing, the samplers, pointer errors.

#include "core/study/sweep_spec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

namespace tendril {
namespace {

using nlohmann::json;

const std::filesystem::path kExamplesDir = TENDRIL_EXAMPLES_DIR;

// a spec on the soft cantilever, with the given parameters and extra keys
json cantileverSpec(const json& parameters) {
  return json{{"model", "soft_cantilever.json"},
              {"parameters", parameters},
              {"job", {{"type", "statics"}}}};
}

SweepSpec parse(const json& spec) {
  return parseSweepSpec(spec.dump(), kExamplesDir);
}

// the ParseError's pointer, or "no error"
std::string errorPointer(const json& spec) {
  try {
    parse(spec);
  } catch (const ParseError& error) {
    return error.pointer();
  }
  return "no error";
}

TEST(SweepSpec, GridIsTheProductWithTheFirstParameterSlowest) {
  const SweepSpec spec =
      parse(cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {-9.81, -1.62}}},
                            {{"pointer", "/links/0/soft/divisions/0/length"},
                             {"range", {{"start", 0.4}, {"stop", 0.6}, {"count", 3}}}}}));
  ASSERT_EQ(spec.caseCount(), 6);
  EXPECT_EQ(spec.combination, Combination::Grid);
  EXPECT_EQ(spec.case_values[0][0], -9.81);
  EXPECT_EQ(spec.case_values[2][0], -9.81);
  EXPECT_EQ(spec.case_values[3][0], -1.62);
  // the range includes both ends exactly
  EXPECT_EQ(spec.case_values[0][1].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(spec.case_values[1][1].get<double>(), 0.5);
  EXPECT_EQ(spec.case_values[5][1].get<double>(), 0.6);
  EXPECT_EQ(spec.parameters[0].name, "/gravity/2");
}

TEST(SweepSpec, ZipPairsTheLists) {
  json spec = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {-1, -2, -3}}},
                              {{"pointer", "/gravity/0"}, {"name", "gx"}, {"values", {1, 2, 3}}}});
  spec["combination"] = "zip";
  const SweepSpec parsed = parse(spec);
  ASSERT_EQ(parsed.caseCount(), 3);
  EXPECT_EQ(parsed.case_values[1][0], -2);
  EXPECT_EQ(parsed.case_values[1][1], 2);
  EXPECT_EQ(parsed.parameters[1].name, "gx");
  spec["parameters"][1]["values"] = {1, 2};
  EXPECT_EQ(errorPointer(spec), "/parameters/1");
}

json sampledSpec(std::uint64_t seed, int samples) {
  json spec = cantileverSpec(
      {{{"pointer", "/gravity/2"}, {"latin_hypercube", {{"low", -10.0}, {"high", -1.0}}}},
       {{"pointer", "/gravity/0"}, {"latin_hypercube", {{"low", 0.0}, {"high", 2.0}}}},
       {{"pointer", "/gravity/1"}, {"random", {{"low", -1.0}, {"high", 1.0}}}}});
  spec["samples"] = samples;
  spec["seed"] = seed;
  return spec;
}

TEST(SweepSpec, SamplesAreDeterministicForASeed) {
  const SweepSpec a = parse(sampledSpec(7, 50));
  const SweepSpec b = parse(sampledSpec(7, 50));
  const SweepSpec c = parse(sampledSpec(8, 50));
  EXPECT_EQ(a.combination, Combination::Sampled);
  ASSERT_EQ(a.caseCount(), 50);
  EXPECT_EQ(a.case_values, b.case_values);
  EXPECT_NE(a.case_values, c.case_values);
  for (const auto& values : a.case_values) {
    EXPECT_GE(values[2].get<double>(), -1.0);
    EXPECT_LT(values[2].get<double>(), 1.0);
  }
}

TEST(SweepSpec, LatinHypercubeHasOneSamplePerStratumInEveryDimension) {
  for (const int n : {1, 7, 100}) {
    const SweepSpec spec = parse(sampledSpec(42, n));
    for (std::size_t k = 0; k < 2; ++k) {
      const SweepParameter& p = spec.parameters[k];
      std::set<int> strata;
      for (const auto& values : spec.case_values) {
        const double fraction = (values[k].get<double>() - p.low) / (p.high - p.low);
        strata.insert(static_cast<int>(std::floor(fraction * n)));
      }
      EXPECT_EQ(static_cast<int>(strata.size()), n) << "n = " << n << ", parameter " << k;
      EXPECT_EQ(*strata.begin(), 0);
      EXPECT_EQ(*strata.rbegin(), n - 1);
    }
  }
}

TEST(SweepSpec, SplitMix64MatchesThePublishedSequence) {
  // the first outputs of the reference splitmix64.c for seed 1234567
  SplitMix64 generator(1234567);
  EXPECT_EQ(generator.next(), 6457827717110365317ULL);
  EXPECT_EQ(generator.next(), 3203168211198807973ULL);
  SplitMix64 bounded(3);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(bounded.below(7), 7U);
}

TEST(SweepSpec, APointerThatDoesNotExistIsASpecError) {
  try {
    parse(cantileverSpec({{{"pointer", "/links/3/soft"}, {"values", {1}}}}));
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.pointer(), "/parameters/0/pointer");
    EXPECT_NE(std::string(error.what()).find("does not exist in the base model"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(errorPointer(cantileverSpec({{{"pointer", "gravity"}, {"values", {1}}}})),
            "/parameters/0/pointer");
}

TEST(SweepSpec, MalformedSpecsNameWhatIsWrong) {
  json unknown = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {1}}}});
  unknown["sample"] = 3;
  EXPECT_EQ(errorPointer(unknown), "/sample");
  EXPECT_EQ(errorPointer(cantileverSpec(json::array())), "/parameters");
  EXPECT_EQ(
      errorPointer(cantileverSpec(
          {{{"pointer", "/gravity/2"}, {"values", {1}}, {"random", {{"low", 0}, {"high", 1}}}}})),
      "/parameters/0");
  EXPECT_EQ(errorPointer(cantileverSpec(
                {{{"pointer", "/gravity/2"}, {"random", {{"low", 1}, {"high", 0}}}}})),
            "/parameters/0/random/high");
  // a sampler without "samples" and "seed"
  EXPECT_EQ(errorPointer(cantileverSpec(
                {{{"pointer", "/gravity/2"}, {"random", {{"low", 0}, {"high", 1}}}}})),
            "/samples");
  // a sampler mixed with a list
  json mixed = sampledSpec(1, 4);
  mixed["parameters"].push_back({{"pointer", "/gravity/2"}, {"values", {1, 2}}});
  EXPECT_EQ(errorPointer(mixed), "/parameters/3");
  json bad_job = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {1}}}});
  bad_job["job"] = {{"type", "optimise"}};
  EXPECT_EQ(errorPointer(bad_job), "/job/type");
  json bad_output = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {1}}}});
  bad_output["outputs"] = {{"tips", {"rod", "ghost"}}};
  EXPECT_EQ(errorPointer(bad_output), "/outputs/tips/1");
  json missing_model = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {1}}}});
  missing_model["model"] = "no_such_model.json";
  EXPECT_EQ(errorPointer(missing_model), "/model");
}

TEST(SweepSpec, AnInvalidBaseModelIsReportedUnderModel) {
  json spec = cantileverSpec({{{"pointer", "/gravity/2"}, {"values", {1}}}});
  json model = json::parse(std::ifstream(kExamplesDir / "soft_cantilever.json"));
  model["links"][0]["soft"]["divisions"][0]["material"]["poisson_ratio"] = 0.7;
  spec["model"] = model;
  EXPECT_EQ(errorPointer(spec), "/model/links/0/soft/divisions/0/material/poisson_ratio");
}

TEST(SweepSpec, TheSelfContainedSpecGivesTheSameCases) {
  const SweepSpec spec = parse(sampledSpec(11, 20));
  const SweepSpec again = parseSweepSpec(selfContainedSpecJson(spec), "/nonexistent");
  EXPECT_EQ(again.case_values, spec.case_values);
  EXPECT_EQ(again.model_folder, spec.model_folder);
  EXPECT_EQ(again.base_model, spec.base_model);
}

}  // namespace
}  // namespace tendril
