#include "core/study/sweep_run.hpp"

#include <Eigen/Geometry>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <iomanip>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/study/sweep_result.hpp"

namespace tendril {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// the case's description and, when valid, its compiled model (built once: validation is building)
CaseModel buildCase(const SweepSpec& spec, int index, std::optional<Model>* model) {
  if (index < 0 || index >= spec.caseCount())
    throw std::out_of_range("case " + std::to_string(index) + " is not in [0, " +
                            std::to_string(spec.caseCount()) + ")");
  json patched = spec.base_model;
  for (std::size_t k = 0; k < spec.parameters.size(); ++k)
    patched[json::json_pointer(spec.parameters[k].pointer)] =
        spec.case_values[static_cast<std::size_t>(index)][k];
  CaseModel result;
  try {
    RobotDescription robot = parseRobot(patched.dump());
    resolveMeshFiles(robot, spec.model_folder);
    Model built = buildModel(robot);
    if (model != nullptr) model->emplace(std::move(built));
    result.description = std::move(robot);
  } catch (const ParseError& error) {
    result.error = std::string("invalid model: ") + error.what();
  }
  return result;
}

int linkByName(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.links.size(); ++i)
    if (model.links[i].name == name) return static_cast<int>(i);
  return -1;
}

// fills the outputs of a case that ran to the end, at its final (q, v)
void recordOutputs(const SweepSpec& spec, const Model& model, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const Energies& energy, Eigen::VectorXd& out) {
  Data data(model);
  forwardKinematics(model, data, q);
  Eigen::Index c = 0;
  for (const std::string& name : spec.outputs.tip_links) {
    const int link = linkByName(model, name);
    if (link >= 0) {
      const SE3 tip = linkTipPose(model, data, link);
      const Eigen::Quaterniond orientation(tip.R);
      out.segment<7>(c) << tip.p, orientation.w(), orientation.x(), orientation.y(),
          orientation.z();
    }
    c += 7;
  }
  if (spec.outputs.energies) {
    out.segment<3>(c) << energy.kinetic, energy.gravitational, energy.elastic;
    c += 3;
  }
  for (const std::string& name : spec.outputs.coordinates) {
    const auto& names = model.coordinate_names;
    const auto found = std::find(names.begin(), names.end(), name);
    if (found != names.end()) out(c) = q(found - names.begin());
    ++c;
  }
  (void)v;
}

void runJob(const SweepSpec& spec, const Model& model, SweepRow& row) {
  const Eigen::Index n_out = row.outputs.size();
  const Eigen::VectorXd zero_q = Eigen::VectorXd::Zero(model.nq);
  const Eigen::VectorXd zero_v = Eigen::VectorXd::Zero(model.nv);
  if (spec.job.kind == SweepJob::Kind::Statics) {
    Data data(model);
    const StaticsResult result = solveStatics(model, data, zero_q, spec.job.statics);
    row.message = result.message;
    if (!result.converged) return;
    DynamicsSystem system(model, makeJacobian(JacobianKind::Analytic));
    recordOutputs(spec, model, result.q, zero_v, system.energies(result.q, zero_v), row.outputs);
    row.outputs(n_out - 1) = result.iterations;
    row.success = true;
    return;
  }
  if (const auto reason = unsupportedModel(model, spec.job.simulation.integrator)) {
    row.message = *reason;
    return;
  }
  const SimulationResult result = simulate(model, zero_q, zero_v, spec.job.simulation);
  row.message = result.message;
  if (!result.completed || result.samples.empty()) return;
  const Sample& last = result.samples.back();
  recordOutputs(spec, model, last.q, last.v, last.energy, row.outputs);
  row.outputs(n_out - 1) = last.t;
  row.success = true;
}

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"')
      quoted += "\"\"";
    else if (c == '\n' || c == '\r')
      quoted += ' ';
    else
      quoted += c;
  }
  return quoted + "\"";
}

// the shortest text that reads back as the same double
std::string shortest(double x) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, x).ptr;
  return std::string(text, end);
}

// numbers as JSON writes them (shortest round trip); anything else as its JSON text
std::string csvValue(const json& value) {
  return value.is_number() ? value.dump() : csvField(value.dump());
}

}  // namespace

CaseModel caseDescription(const SweepSpec& spec, int index) {
  return buildCase(spec, index, nullptr);
}

std::vector<std::string> sweepOutputColumns(const SweepSpec& spec) {
  std::vector<std::string> columns;
  for (const std::string& link : spec.outputs.tip_links)
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"})
      columns.push_back("tip:" + link + ":" + c);
  if (spec.outputs.energies)
    for (const char* energy : {"kinetic", "gravitational", "elastic"}) columns.push_back(energy);
  for (const std::string& name : spec.outputs.coordinates) columns.push_back("q:" + name);
  columns.push_back(spec.job.kind == SweepJob::Kind::Statics ? "iterations" : "t");
  return columns;
}

SweepRow runCase(const SweepSpec& spec, int index) {
  const auto started = Clock::now();
  SweepRow row;
  row.index = index;
  row.outputs =
      Eigen::VectorXd::Constant(static_cast<Eigen::Index>(sweepOutputColumns(spec).size()),
                                std::numeric_limits<double>::quiet_NaN());
  try {
    std::optional<Model> model;
    const CaseModel description = buildCase(spec, index, &model);
    if (!model) {
      row.message = description.error;
    } else {
      runJob(spec, *model, row);
    }
  } catch (const std::exception& error) {
    row.success = false;
    row.message = error.what();
  }
  if (!row.success) row.outputs.setConstant(std::numeric_limits<double>::quiet_NaN());
  row.wall_time = secondsSince(started);
  return row;
}

std::vector<SweepRow> runSweep(const SweepSpec& spec, int threads,
                               const std::function<void(const SweepProgress&)>& progress,
                               const std::atomic<bool>* cancel, double progress_interval,
                               const std::vector<int>& indices) {
  std::vector<int> cases = indices;
  if (cases.empty()) {
    cases.resize(static_cast<std::size_t>(spec.caseCount()));
    for (std::size_t i = 0; i < cases.size(); ++i) cases[i] = static_cast<int>(i);
  }
  if (threads <= 0) threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, static_cast<int>(std::max<std::size_t>(cases.size(), 1)));

  std::vector<SweepRow> rows(cases.size());
  std::vector<char> finished(cases.size(), 0);
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  SweepProgress state;
  state.total = static_cast<int>(cases.size());
  int running = threads;
  const auto started = Clock::now();
  const auto cancelled = [&] { return cancel != nullptr && cancel->load(); };

  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t k = next++; k < cases.size() && !cancelled(); k = next++) {
        SweepRow row = runCase(spec, cases[k]);
        const std::lock_guard<std::mutex> lock(mutex);
        state.failed += row.success ? 0 : 1;
        ++state.done;
        rows[k] = std::move(row);
        finished[k] = 1;
      }
      const std::lock_guard<std::mutex> lock(mutex);
      --running;
      changed.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    const auto interval = std::chrono::duration<double>(progress_interval);
    while (!changed.wait_for(lock, interval, [&] { return running == 0; })) {
      if (!progress) continue;
      state.elapsed = secondsSince(started);
      const SweepProgress copy = state;
      lock.unlock();
      progress(copy);
      lock.lock();
    }
  }
  for (std::thread& thread : pool) thread.join();
  state.elapsed = secondsSince(started);
  if (progress) progress(state);
  std::vector<SweepRow> done;
  done.reserve(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (finished[k]) done.push_back(std::move(rows[k]));
  return done;
}

std::string sweepCsv(const SweepSpec& spec, const std::vector<SweepRow>& rows) {
  std::ostringstream out;
  out << "case";
  for (const SweepParameter& p : spec.parameters) out << "," << csvField(p.name);
  out << ",success";
  for (const std::string& column : sweepOutputColumns(spec)) out << "," << csvField(column);
  out << ",wall_time,message\n";
  for (const SweepRow& row : rows) {
    out << row.index;
    for (const json& value : spec.case_values.at(static_cast<std::size_t>(row.index)))
      out << "," << csvValue(value);
    out << "," << (row.success ? 1 : 0);
    for (Eigen::Index c = 0; c < row.outputs.size(); ++c) {
      out << "," << (std::isnan(row.outputs(c)) ? std::string("nan") : shortest(row.outputs(c)));
    }
    out << "," << shortest(row.wall_time) << "," << csvField(row.message) << "\n";
  }
  return out.str();
}

std::filesystem::path partialPath(const std::filesystem::path& path) {
  std::filesystem::path partial = path;
  partial.replace_filename(path.stem().string() + ".partial.csv");
  return partial;
}

std::filesystem::path saveSweepCsv(const SweepSpec& spec, const std::vector<SweepRow>& rows,
                                   const std::filesystem::path& path,
                                   const std::string& why_partial) {
  const std::string table = sweepCsv(spec, rows);
  const std::filesystem::path partial = partialPath(path);
  // the spec beside the results, so that each case's model can be rebuilt from them
  writeFileAtomically(sweepSpecPathFor(path), selfContainedSpecJson(spec));
  if (static_cast<int>(rows.size()) == spec.caseCount()) {
    writeFileAtomically(path, table);
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);  // superseded by the complete result
    return path;
  }
  writeFileAtomically(partial, "# PARTIAL RESULT (" + why_partial +
                                   "): " + std::to_string(rows.size()) + " of " +
                                   std::to_string(spec.caseCount()) +
                                   " cases; the missing cases were not run\n" + table);
  return partial;
}

}  // namespace tendril
