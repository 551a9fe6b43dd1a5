// tendril-cli recording: summarise a recorded trajectory, or convert it (a time window, every
// k-th sample, tips recomputed for the model). Reads the same CSV as the studio's Open Recording.

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

#include "app/cli_args.hpp"
#include "app/cli_commands.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/io/results_io.hpp"

namespace tendril::cli {
namespace {

double totalEnergy(const Energies& e) {
  return e.kinetic + e.gravitational + e.elastic;
}

// the largest |E(t) + dissipated(t) - E(0)|: zero for an exact integrator of a passive model
double largestEnergyDrift(const std::vector<Sample>& samples) {
  const double start = totalEnergy(samples.front().energy) + samples.front().energy.dissipated;
  double drift = 0.0;
  for (const Sample& s : samples)
    drift = std::max(drift, std::abs(totalEnergy(s.energy) + s.energy.dissipated - start));
  return drift;
}

void printSummary(const Model& model, const std::vector<Sample>& samples) {
  const Sample& first = samples.front();
  const Sample& last = samples.back();
  std::cout << std::setprecision(6) << "samples: " << samples.size() << "\n"
            << "time: " << first.t << " .. " << last.t << " s";
  if (samples.size() > 1)
    std::cout << " (mean interval " << (last.t - first.t) / double(samples.size() - 1) << " s)";
  std::cout << "\ncoordinates: " << model.nq << "\n"
            << "total energy (kinetic + gravitational + elastic): " << totalEnergy(first.energy)
            << " J at the start, " << totalEnergy(last.energy) << " J at the end\n"
            << "dissipated by the end: " << last.energy.dissipated << " J\n"
            << "largest energy balance error: " << largestEnergyDrift(samples) << " J\n";
  Data data(model);
  forwardKinematics(model, data, last.q);
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    if (!model.links[i].is_leaf) continue;
    const Eigen::Vector3d tip = linkTipPose(model, data, i).p;
    std::cout << "final tip " << model.links[i].name << ": [" << tip.x() << ", " << tip.y() << ", "
              << tip.z() << "] m\n";
  }
}

// the samples inside [from, to], every k-th of them
std::vector<Sample> selectSamples(const std::vector<Sample>& samples, double from, double to,
                                  long every) {
  std::vector<Sample> kept;
  long index = 0;
  for (const Sample& s : samples) {
    if (s.t < from || s.t > to) continue;
    if (index++ % every == 0) kept.push_back(s);
  }
  return kept;
}

}  // namespace

int runRecording(const Args& args) {
  const std::vector<Option> options = {
      {"--out", true, "write the selected samples as a recording CSV (atomic)"},
      {"--from", true, "first time kept [s] (default: the start)"},
      {"--to", true, "last time kept [s] (default: the end)"},
      {"--every", true, "keep every k-th sample of the window (default 1)"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("recording MODEL.json RECORDING.csv [--out OUT.csv] [--from T] [--to T] [--every K]",
              options,
              "Summarises a recording made of MODEL (by `simulate --out` or the studio's Save\n"
              "Recording): samples, time span, energy balance, final tips. With --out, writes\n"
              "the selected samples with every column recomputed for MODEL (tips by forward\n"
              "kinematics), which the studio opens with File > Open Recording.");
    return kExitOk;
  }
  if (parsed.positional.size() != 2)
    throw UsageError{"expected MODEL.json and RECORDING.csv (see recording --help)"};
  const auto robot = loadOrReport(parsed.positional[0]);
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  const std::string path = parsed.positional[1];
  std::vector<Sample> samples;
  try {
    samples = loadTrajectoryCsv(model, path);
  } catch (const std::exception& error) {
    std::cerr << "tendril-cli: " << error.what() << "\n";
    return kExitFailure;
  }
  const double every = parsed.number("--every", 1.0);
  if (every < 1.0 || every != std::floor(every))
    throw UsageError{"--every must be a positive whole number"};
  samples = selectSamples(samples, parsed.number("--from", -INFINITY),
                          parsed.number("--to", INFINITY), static_cast<long>(every));
  if (samples.empty()) {
    std::cerr << "tendril-cli: " << path << ": no samples in the chosen window\n";
    return kExitFailure;
  }
  printSummary(model, samples);
  if (parsed.has("--out")) {
    saveTrajectoryCsv(model, samples, parsed.value("--out"));
    std::cout << "wrote " << samples.size() << " samples to " << parsed.value("--out") << "\n";
  }
  return kExitOk;
}

}  // namespace tendril::cli
