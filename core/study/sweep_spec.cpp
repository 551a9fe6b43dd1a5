#include "core/study/sweep_spec.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

#include "core/io/json_io.hpp"
#include "core/model/model.hpp"

namespace tendril {
namespace {

using nlohmann::json;

// more cases than this is a mistake in the spec (a grid of too many lists), not a sweep
constexpr double kMaxCases = 1e7;

std::string join(const std::string& pointer, const std::string& key) {
  return pointer + "/" + key;
}

void allowOnlyKeys(const json& object, const std::string& pointer,
                   const std::set<std::string>& keys) {
  if (!object.is_object()) throw ParseError(pointer, "must be an object");
  for (const auto& [key, value] : object.items()) {
    if (keys.count(key) == 0) {
      std::string known;
      for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
      throw ParseError(join(pointer, key), "unknown key (known: " + known + ")");
    }
  }
}

double number(const json& object, const std::string& pointer, const std::string& key) {
  if (!object.contains(key)) throw ParseError(join(pointer, key), "is required");
  const json& value = object.at(key);
  if (!value.is_number()) throw ParseError(join(pointer, key), "must be a number");
  const double x = value.get<double>();
  if (!std::isfinite(x)) throw ParseError(join(pointer, key), "must be finite");
  return x;
}

double optionalNumber(const json& object, const std::string& pointer, const std::string& key,
                      double fallback) {
  return object.contains(key) ? number(object, pointer, key) : fallback;
}

double positiveNumber(const json& object, const std::string& pointer, const std::string& key,
                      double fallback) {
  const double x = optionalNumber(object, pointer, key, fallback);
  if (!(x > 0.0)) throw ParseError(join(pointer, key), "must be positive");
  return x;
}

int positiveInteger(const json& object, const std::string& pointer, const std::string& key) {
  const json& value = object.at(key);
  if (!value.is_number_integer() || value.get<long long>() < 1 ||
      value.get<long long>() > static_cast<long long>(kMaxCases))
    throw ParseError(join(pointer, key), "must be an integer in [1, 1e7]");
  return value.get<int>();
}

std::string text(const json& object, const std::string& pointer, const std::string& key) {
  const json& value = object.at(key);
  if (!value.is_string()) throw ParseError(join(pointer, key), "must be a string");
  return value.get<std::string>();
}

std::vector<std::string> names(const json& object, const std::string& pointer,
                               const std::string& key) {
  const json& value = object.at(key);
  if (!value.is_array()) throw ParseError(join(pointer, key), "must be an array of names");
  std::vector<std::string> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string())
      throw ParseError(join(join(pointer, key), std::to_string(i)), "must be a string");
    result.push_back(value[i].get<std::string>());
  }
  return result;
}

void parseInterval(const json& object, const std::string& pointer, SweepParameter& parameter) {
  allowOnlyKeys(object, pointer, {"low", "high"});
  parameter.low = number(object, pointer, "low");
  parameter.high = number(object, pointer, "high");
  if (!(parameter.high > parameter.low))
    throw ParseError(join(pointer, "high"), "must be greater than low");
}

SweepParameter parseParameter(const json& object, const std::string& pointer,
                              const json& base_model) {
  allowOnlyKeys(object, pointer,
                {"pointer", "name", "values", "range", "random", "latin_hypercube"});
  SweepParameter parameter;
  if (!object.contains("pointer")) throw ParseError(join(pointer, "pointer"), "is required");
  parameter.pointer = text(object, pointer, "pointer");
  try {
    if (!base_model.contains(json::json_pointer(parameter.pointer)))
      throw ParseError(join(pointer, "pointer"),
                       "'" + parameter.pointer + "' does not exist in the base model");
  } catch (const json::exception& error) {
    throw ParseError(join(pointer, "pointer"),
                     "'" + parameter.pointer + "' is not a JSON pointer (" + error.what() + ")");
  }
  parameter.name = object.contains("name") ? text(object, pointer, "name") : parameter.pointer;
  const int given = static_cast<int>(object.contains("values")) +
                    static_cast<int>(object.contains("range")) +
                    static_cast<int>(object.contains("random")) +
                    static_cast<int>(object.contains("latin_hypercube"));
  if (given != 1)
    throw ParseError(pointer, "needs exactly one of values, range, random, latin_hypercube");
  if (object.contains("values")) {
    const json& values = object.at("values");
    if (!values.is_array() || values.empty())
      throw ParseError(join(pointer, "values"), "must be a non-empty array");
    parameter.kind = SweepParameter::Kind::Values;
    parameter.values.assign(values.begin(), values.end());
  } else if (object.contains("range")) {
    const std::string at = join(pointer, "range");
    const json& range = object.at("range");
    allowOnlyKeys(range, at, {"start", "stop", "count"});
    const double start = number(range, at, "start");
    const double stop = number(range, at, "stop");
    if (!range.contains("count")) throw ParseError(join(at, "count"), "is required");
    const int count = positiveInteger(range, at, "count");
    parameter.kind = SweepParameter::Kind::Range;
    // both ends included exactly; the others from their index, not accumulated
    for (int i = 0; i < count; ++i)
      parameter.values.emplace_back(i == 0           ? start
                                    : i == count - 1 ? stop
                                                     : start + (stop - start) * i / (count - 1));
  } else if (object.contains("random")) {
    parameter.kind = SweepParameter::Kind::Random;
    parseInterval(object.at("random"), join(pointer, "random"), parameter);
  } else {
    parameter.kind = SweepParameter::Kind::LatinHypercube;
    parseInterval(object.at("latin_hypercube"), join(pointer, "latin_hypercube"), parameter);
  }
  return parameter;
}

bool isSampler(const SweepParameter& p) {
  return p.kind == SweepParameter::Kind::Random || p.kind == SweepParameter::Kind::LatinHypercube;
}

void drawCases(SweepSpec& spec) {
  const std::size_t n_params = spec.parameters.size();
  if (spec.combination == Combination::Grid) {
    double count = 1.0;
    for (const SweepParameter& p : spec.parameters) count *= static_cast<double>(p.values.size());
    if (count > kMaxCases) throw ParseError("/parameters", "the grid has more than 1e7 cases");
    spec.case_values.resize(static_cast<std::size_t>(count));
    // mixed radix, the last parameter varying fastest
    for (std::size_t i = 0; i < spec.case_values.size(); ++i) {
      std::size_t rest = i;
      spec.case_values[i].resize(n_params);
      for (std::size_t k = n_params; k-- > 0;) {
        const std::size_t size = spec.parameters[k].values.size();
        spec.case_values[i][k] = spec.parameters[k].values[rest % size];
        rest /= size;
      }
    }
  } else if (spec.combination == Combination::Zip) {
    const std::size_t count = spec.parameters.front().values.size();
    spec.case_values.assign(count, std::vector<json>(n_params));
    for (std::size_t k = 0; k < n_params; ++k)
      for (std::size_t i = 0; i < count; ++i) spec.case_values[i][k] = spec.parameters[k].values[i];
  } else {
    const auto n = static_cast<std::size_t>(spec.samples);
    spec.case_values.assign(n, std::vector<json>(n_params));
    SplitMix64 generator(spec.seed);
    for (std::size_t k = 0; k < n_params; ++k) {
      const SweepParameter& p = spec.parameters[k];
      std::vector<std::size_t> stratum(n);
      std::iota(stratum.begin(), stratum.end(), 0);
      if (p.kind == SweepParameter::Kind::LatinHypercube) {
        // Fisher-Yates: a random permutation of the n strata, one per case
        for (std::size_t i = n; i > 1; --i) std::swap(stratum[i - 1], stratum[generator.below(i)]);
      }
      for (std::size_t i = 0; i < n; ++i) {
        const double u = generator.uniform();
        const double fraction = p.kind == SweepParameter::Kind::LatinHypercube
                                    ? (static_cast<double>(stratum[i]) + u) / static_cast<double>(n)
                                    : u;
        spec.case_values[i][k] = p.low + (p.high - p.low) * fraction;
      }
    }
  }
}

void parseJob(const json& object, SweepJob& job) {
  const std::string at = "/job";
  if (!object.is_object() || !object.contains("type"))
    throw ParseError(join(at, "type"), "is required: statics or simulate");
  const std::string type = text(object, at, "type");
  if (type == "statics") {
    allowOnlyKeys(object, at, {"type", "time", "tolerance", "max_iterations", "jacobian"});
    job.kind = SweepJob::Kind::Statics;
    job.statics.time = optionalNumber(object, at, "time", 0.0);
    job.statics.residual_tolerance =
        positiveNumber(object, at, "tolerance", job.statics.residual_tolerance);
    if (object.contains("max_iterations"))
      job.statics.max_iterations = positiveInteger(object, at, "max_iterations");
  } else if (type == "simulate") {
    allowOnlyKeys(
        object, at,
        {"type", "t_end", "dt", "integrator", "step", "min_step", "rtol", "atol", "jacobian"});
    job.kind = SweepJob::Kind::Simulate;
    SimulationOptions& sim = job.simulation;
    sim.t_end = positiveNumber(object, at, "t_end", sim.t_end);
    sim.output_interval = positiveNumber(object, at, "dt", sim.output_interval);
    if (object.contains("integrator") &&
        !parseIntegrator(text(object, at, "integrator"), sim.integrator))
      throw ParseError(join(at, "integrator"), "must be bdf, ida, newmark, implicit-euler or rk4");
    sim.step = variableStep(sim.integrator) ? 0.0 : sim.step;
    sim.step = optionalNumber(object, at, "step", sim.step);
    if (sim.step < 0.0) throw ParseError(join(at, "step"), "must not be negative");
    sim.min_step = optionalNumber(object, at, "min_step", sim.min_step);
    if (sim.min_step < 0.0) throw ParseError(join(at, "min_step"), "must not be negative");
    sim.relative_tolerance = positiveNumber(object, at, "rtol", sim.relative_tolerance);
    sim.absolute_tolerance = positiveNumber(object, at, "atol", sim.absolute_tolerance);
  } else {
    throw ParseError(join(at, "type"), "must be statics or simulate, got '" + type + "'");
  }
  if (object.contains("jacobian")) {
    const std::string name = text(object, at, "jacobian");
    if (name != "analytic" && name != "fd")
      throw ParseError(join(at, "jacobian"), "must be analytic or fd");
    job.statics.analytic_jacobian = name == "analytic";
    job.simulation.jacobian =
        name == "analytic" ? JacobianKind::Analytic : JacobianKind::FiniteDifference;
  }
}

void parseOutputs(const json& object, const Model& base, SweepOutputs& outputs) {
  const std::string at = "/outputs";
  allowOnlyKeys(object, at, {"tips", "energies", "coordinates"});
  outputs.tip_links.clear();
  if (object.contains("tips")) {
    outputs.tip_links = names(object, at, "tips");
    for (std::size_t i = 0; i < outputs.tip_links.size(); ++i) {
      const bool known = std::any_of(base.links.begin(), base.links.end(), [&](const auto& link) {
        return link.name == outputs.tip_links[i];
      });
      if (!known)
        throw ParseError(at + "/tips/" + std::to_string(i),
                         "no link '" + outputs.tip_links[i] + "' in the base model");
    }
  } else {
    for (const auto& link : base.links)
      if (link.is_leaf) outputs.tip_links.push_back(link.name);
  }
  if (object.contains("energies")) {
    if (!object.at("energies").is_boolean())
      throw ParseError(join(at, "energies"), "must be true or false");
    outputs.energies = object.at("energies").get<bool>();
  }
  if (object.contains("coordinates")) {
    if (object.at("coordinates") == "all") {
      outputs.coordinates = base.coordinate_names;
      return;
    }
    outputs.coordinates = names(object, at, "coordinates");
    for (std::size_t i = 0; i < outputs.coordinates.size(); ++i) {
      const auto& known = base.coordinate_names;
      if (std::find(known.begin(), known.end(), outputs.coordinates[i]) == known.end())
        throw ParseError(at + "/coordinates/" + std::to_string(i),
                         "no coordinate '" + outputs.coordinates[i] +
                             "' in the base model (list them with tendril-cli info --coordinates)");
    }
  }
}

json readModel(const json& spec, const std::filesystem::path& spec_folder,
               std::filesystem::path& model_folder) {
  if (!spec.contains("model")) throw ParseError("/model", "is required (a file name or a model)");
  const json& model = spec.at("model");
  model_folder = spec_folder;
  if (spec.contains("model_folder")) model_folder = text(spec, "", "model_folder");
  if (model.is_object()) return model;
  if (!model.is_string()) throw ParseError("/model", "must be a file name or a model object");
  std::filesystem::path path = model.get<std::string>();
  if (path.is_relative()) path = spec_folder / path;
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParseError("/model", "cannot open " + path.string());
  model_folder = std::filesystem::absolute(path).parent_path();
  try {
    return json::parse(file);
  } catch (const json::parse_error& error) {
    throw ParseError("/model", path.string() + " is not JSON: " + error.what());
  }
}

}  // namespace

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  // reject the top partial block of 2^64 so that every residue is equally likely
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x = next();
  while (x >= limit) x = next();
  return x % n;
}

SweepSpec parseSweepSpec(const std::string& json_text, const std::filesystem::path& spec_folder) {
  json spec_json;
  try {
    spec_json = json::parse(json_text);
  } catch (const json::parse_error& error) {
    throw ParseError("", std::string("not JSON: ") + error.what());
  }
  allowOnlyKeys(spec_json, "",
                {"description", "model", "model_folder", "parameters", "combination", "samples",
                 "seed", "job", "outputs"});
  SweepSpec spec;
  spec.base_model = readModel(spec_json, std::filesystem::absolute(spec_folder), spec.model_folder);
  spec.model_folder = std::filesystem::absolute(spec.model_folder);
  Model base;
  try {
    RobotDescription robot = parseRobot(spec.base_model.dump());
    base = buildModel(robot);
  } catch (const ParseError& error) {
    throw ParseError("/model" + error.pointer(),
                     std::string("the base model is invalid: ") + error.what());
  }
  if (!spec_json.contains("parameters") || !spec_json.at("parameters").is_array() ||
      spec_json.at("parameters").empty())
    throw ParseError("/parameters", "must be a non-empty array");
  const json& parameters = spec_json.at("parameters");
  for (std::size_t k = 0; k < parameters.size(); ++k)
    spec.parameters.push_back(
        parseParameter(parameters[k], "/parameters/" + std::to_string(k), spec.base_model));

  const bool any_sampler = std::any_of(spec.parameters.begin(), spec.parameters.end(), isSampler);
  spec.combination = any_sampler ? Combination::Sampled : Combination::Grid;
  if (spec_json.contains("combination")) {
    const std::string name = text(spec_json, "", "combination");
    if (name == "grid")
      spec.combination = Combination::Grid;
    else if (name == "zip")
      spec.combination = Combination::Zip;
    else if (name == "sample")
      spec.combination = Combination::Sampled;
    else
      throw ParseError("/combination", "must be grid, zip or sample, got '" + name + "'");
  }
  for (std::size_t k = 0; k < spec.parameters.size(); ++k) {
    const std::string at = "/parameters/" + std::to_string(k);
    const bool sampler = isSampler(spec.parameters[k]);
    if (spec.combination == Combination::Sampled && !sampler)
      throw ParseError(at, "a sampled sweep draws every parameter: give random or latin_hypercube");
    if (spec.combination != Combination::Sampled && sampler)
      throw ParseError(at, "random and latin_hypercube need \"combination\": \"sample\"");
    if (spec.combination == Combination::Zip &&
        spec.parameters[k].values.size() != spec.parameters[0].values.size())
      throw ParseError(at, "a zipped sweep needs lists of one length (" +
                               std::to_string(spec.parameters[0].values.size()) + " values in " +
                               "/parameters/0)");
  }
  if (spec.combination == Combination::Sampled) {
    if (!spec_json.contains("samples")) throw ParseError("/samples", "is required for sampling");
    spec.samples = positiveInteger(spec_json, "", "samples");
    if (!spec_json.contains("seed")) throw ParseError("/seed", "is required for sampling");
    const json& seed = spec_json.at("seed");
    if (!seed.is_number_unsigned()) throw ParseError("/seed", "must be a non-negative integer");
    spec.seed = seed.get<std::uint64_t>();
  } else if (spec_json.contains("samples") || spec_json.contains("seed")) {
    throw ParseError(spec_json.contains("samples") ? "/samples" : "/seed",
                     "only a sampled sweep has samples and a seed");
  }
  if (!spec_json.contains("job")) throw ParseError("/job", "is required");
  parseJob(spec_json.at("job"), spec.job);
  parseOutputs(spec_json.value("outputs", json::object()), base, spec.outputs);
  drawCases(spec);
  return spec;
}

SweepSpec loadSweepSpec(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParseError("", "cannot open " + path.string());
  std::ostringstream text;
  text << file.rdbuf();
  return parseSweepSpec(text.str(), std::filesystem::absolute(path).parent_path());
}

std::string selfContainedSpecJson(const SweepSpec& spec) {
  json out;
  out["model"] = spec.base_model;
  out["model_folder"] = spec.model_folder.string();
  json parameters = json::array();
  for (const SweepParameter& p : spec.parameters) {
    json entry{{"pointer", p.pointer}, {"name", p.name}};
    switch (p.kind) {
      case SweepParameter::Kind::Values:
      case SweepParameter::Kind::Range:
        entry["values"] = p.values;
        break;
      case SweepParameter::Kind::Random:
        entry["random"] = {{"low", p.low}, {"high", p.high}};
        break;
      case SweepParameter::Kind::LatinHypercube:
        entry["latin_hypercube"] = {{"low", p.low}, {"high", p.high}};
        break;
    }
    parameters.push_back(entry);
  }
  out["parameters"] = parameters;
  out["combination"] = spec.combination == Combination::Grid  ? "grid"
                       : spec.combination == Combination::Zip ? "zip"
                                                              : "sample";
  if (spec.combination == Combination::Sampled) {
    out["samples"] = spec.samples;
    out["seed"] = spec.seed;
  }
  const SweepJob& job = spec.job;
  const char* jacobian = job.statics.analytic_jacobian ? "analytic" : "fd";
  if (job.kind == SweepJob::Kind::Statics) {
    out["job"] = {{"type", "statics"},
                  {"time", job.statics.time},
                  {"tolerance", job.statics.residual_tolerance},
                  {"max_iterations", job.statics.max_iterations},
                  {"jacobian", jacobian}};
  } else {
    const SimulationOptions& sim = job.simulation;
    out["job"] = {{"type", "simulate"},
                  {"t_end", sim.t_end},
                  {"dt", sim.output_interval},
                  {"integrator", integratorName(sim.integrator)},
                  {"step", sim.step},
                  {"min_step", sim.min_step},
                  {"rtol", sim.relative_tolerance},
                  {"atol", sim.absolute_tolerance},
                  {"jacobian", sim.jacobian == JacobianKind::Analytic ? "analytic" : "fd"}};
  }
  out["outputs"] = {{"tips", spec.outputs.tip_links},
                    {"energies", spec.outputs.energies},
                    {"coordinates", spec.outputs.coordinates}};
  return out.dump();
}

}  // namespace tendril
