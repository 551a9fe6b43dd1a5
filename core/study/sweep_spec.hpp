#pragma once
// A parameter sweep: a base model, parameters addressed by JSON pointer into it with their values
// (a list, a range, or samples drawn uniformly or by Latin hypercube from a seeded generator of
// our own, so that a seed gives the same cases on every machine and standard library), the job
// run on every case (statics or a simulation) and the outputs kept per case (docs/SWEEPS.md).

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/algorithm/statics.hpp"
#include "core/model/parse_error.hpp"
#include "core/sim/simulation.hpp"

namespace tendril {

/// \brief How the parameters' values combine into cases.
enum class Combination {
  Grid,    ///< every combination of the parameters' value lists (the first varies slowest)
  Zip,     ///< case i takes the i-th value of every list (the lists have one length)
  Sampled  ///< `samples` cases, each parameter drawn by its sampler from `seed`
};

/// \brief One swept value of the base model.
struct SweepParameter {
  std::string pointer;  ///< JSON pointer into the base model, e.g. "/cables/0/tension/value"
  std::string name;     ///< column name in the results (the pointer unless the spec names it)
  enum class Kind { Values, Range, Random, LatinHypercube } kind = Kind::Values;
  std::vector<nlohmann::json> values;  ///< Values and Range: the list
  double low = 0.0, high = 0.0;        ///< Random and LatinHypercube: the interval sampled
};

struct SweepJob {
  enum class Kind { Statics, Simulate } kind = Kind::Statics;
  StaticsOptions statics;        ///< time, tolerance, iterations, Jacobian
  SimulationOptions simulation;  ///< t_end, integrator, steps and tolerances
};

struct SweepOutputs {
  std::vector<std::string> tip_links;    ///< position and quaternion of each link's tip
  bool energies = true;                  ///< kinetic, gravitational, elastic [J]
  std::vector<std::string> coordinates;  ///< final values of these coordinates (names, see info)
};

/// \brief A parsed, checked sweep: every pointer exists in the base model, which is valid.
struct SweepSpec {
  nlohmann::json base_model;           ///< the model's JSON, read once
  std::filesystem::path model_folder;  ///< where relative mesh files of the model are resolved
  std::vector<SweepParameter> parameters;
  Combination combination = Combination::Grid;
  int samples = 0;         ///< Sampled: the number of cases
  std::uint64_t seed = 0;  ///< Sampled: the generator's seed
  SweepJob job;
  SweepOutputs outputs;
  /// case x parameter: the value of each parameter in each case (drawn once, at parse time)
  std::vector<std::vector<nlohmann::json>> case_values;

  [[nodiscard]] int caseCount() const { return static_cast<int>(case_values.size()); }
};

/// \brief Parses a spec. A relative model path is relative to \p spec_folder; an inline model
///        ("model": {...}) resolves its mesh files there too (or in "model_folder" when given).
/// \throw ParseError naming the spec's JSON pointer (an error inside the base model is reported
///        under "/model" followed by the model's own pointer)
SweepSpec parseSweepSpec(const std::string& json_text, const std::filesystem::path& spec_folder);

/// \brief Reads and parses a spec file. \throw ParseError (pointer "" when unreadable)
SweepSpec loadSweepSpec(const std::filesystem::path& path);

/// \brief The spec as JSON with its model inline and its folder absolute: what a worker on another
///        machine needs (only mesh files, if any, must be reachable at model_folder).
std::string selfContainedSpecJson(const SweepSpec& spec);

/// \brief splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose stream depends on nothing
///        but the seed, unlike std::uniform_real_distribution, which differs between libraries.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// \brief Uniform in [0, 1) with 53 random bits.
  double uniform();
  /// \brief Uniform integer in [0, n) without modulo bias (rejection).
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

}  // namespace tendril
