#include "core/io/results_io.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"

namespace tendril {

ControlColumns controlColumns(const Model& model) {
  // a comma would split the CSV column
  const auto clean = [](std::vector<std::string> labels) {
    for (std::string& label : labels) std::replace(label.begin(), label.end(), ',', ';');
    return labels;
  };
  return {clean(controlledVariableLabels(model)), clean(controllerInputLabels(model))};
}

TrajectoryTable trajectoryTable(const Model& model, const std::vector<Sample>& samples) {
  TrajectoryTable table;
  table.columns.push_back("t");
  for (const std::string& name : model.coordinate_names) table.columns.push_back("q:" + name);
  for (const std::string& name : model.coordinate_names) table.columns.push_back("v:" + name);
  std::vector<int> leaves;
  for (int i = 0; i < static_cast<int>(model.links.size()); ++i) {
    if (!model.links[i].is_leaf) continue;
    leaves.push_back(i);
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"})
      table.columns.push_back("tip:" + model.links[i].name + ":" + c);
  }
  for (const char* energy : {"kinetic", "gravitational", "elastic", "dissipated"})
    table.columns.push_back(energy);
  const ControlColumns control = controlColumns(model);
  const bool with_control =
      !samples.empty() && samples.front().control.setpoints.size() ==
                              static_cast<Eigen::Index>(control.variables.size());
  if (with_control) {
    for (const char* prefix : {"setpoint:", "value:"}) {
      for (const std::string& label : control.variables) table.columns.push_back(prefix + label);
    }
    for (const std::string& label : control.inputs) table.columns.push_back("input:" + label);
  }
  table.values.resize(static_cast<Eigen::Index>(samples.size()),
                      static_cast<Eigen::Index>(table.columns.size()));
  Data data(model);
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const Sample& s = samples[r];
    auto row = table.values.row(static_cast<Eigen::Index>(r));
    Eigen::Index c = 0;
    row(c++) = s.t;
    row.segment(c, s.q.size()) = s.q.transpose();
    c += s.q.size();
    row.segment(c, s.v.size()) = s.v.transpose();
    c += s.v.size();
    forwardKinematics(model, data, s.q);
    for (int link : leaves) {
      const SE3 tip = linkTipPose(model, data, link);
      const Eigen::Quaterniond orientation(tip.R);
      row.segment<7>(c) << tip.p.transpose(), orientation.w(), orientation.x(), orientation.y(),
          orientation.z();
      c += 7;
    }
    row.segment<4>(c) << s.energy.kinetic, s.energy.gravitational, s.energy.elastic,
        s.energy.dissipated;
    c += 4;
    if (!with_control) continue;
    const ControlRecord& record = s.control;
    for (const Eigen::VectorXd* series : {&record.setpoints, &record.values, &record.inputs}) {
      row.segment(c, series->size()) = series->transpose();
      c += series->size();
    }
  }
  return table;
}

std::string trajectoryCsv(const Model& model, const std::vector<Sample>& samples) {
  const TrajectoryTable table = trajectoryTable(model, samples);
  std::ostringstream out;
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  for (std::size_t c = 0; c < table.columns.size(); ++c) out << (c ? "," : "") << table.columns[c];
  out << "\n";
  for (Eigen::Index r = 0; r < table.values.rows(); ++r) {
    for (Eigen::Index c = 0; c < table.values.cols(); ++c)
      out << (c ? "," : "") << table.values(r, c);
    out << "\n";
  }
  return out.str();
}

void saveTrajectoryCsv(const Model& model, const std::vector<Sample>& samples,
                       const std::filesystem::path& path) {
  writeFileAtomically(path, trajectoryCsv(model, samples));
}

CsvTable loadCsv(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open " + path.string());
  CsvTable table;
  std::string line;
  const auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::stringstream stream(text);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    return fields;
  };
  if (!std::getline(file, line)) throw std::runtime_error(path.string() + ": empty file");
  table.columns = split(line);
  for (int number = 2; std::getline(file, line); ++number) {
    const std::vector<std::string> fields = split(line);
    if (fields.size() != table.columns.size()) {
      throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": expected " +
                               std::to_string(table.columns.size()) + " values");
    }
    std::vector<double> row;
    for (const std::string& field : fields) {
      // from_chars ignores the locale (a Qt application sets LC_NUMERIC from the environment)
      double value = 0.0;
      const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (error != std::errc() || end != field.data() + field.size()) {
        throw std::runtime_error(path.string() + ":" + std::to_string(number) +
                                 ": not a number: " + field);
      }
      row.push_back(value);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

namespace {

std::optional<std::size_t> findColumn(const CsvTable& table, const std::string& name) {
  const auto found = std::find(table.columns.begin(), table.columns.end(), name);
  if (found == table.columns.end()) return std::nullopt;
  return static_cast<std::size_t>(found - table.columns.begin());
}

std::size_t requireColumn(const CsvTable& table, const std::string& name) {
  if (const auto column = findColumn(table, name)) return *column;
  throw std::runtime_error("no column \"" + name + "\" (a recording of another model?)");
}

}  // namespace

namespace {

// the controllers' series where the recording has them all (an older recording has none)
void readControlColumns(const Model& model, const CsvTable& table, std::vector<Sample>& samples) {
  const ControlColumns control = controlColumns(model);
  std::vector<std::size_t> columns;
  for (const char* prefix : {"setpoint:", "value:"}) {
    for (const std::string& label : control.variables) {
      const auto column = findColumn(table, prefix + label);
      if (!column) return;
      columns.push_back(*column);
    }
  }
  for (const std::string& label : control.inputs) {
    const auto column = findColumn(table, "input:" + label);
    if (!column) return;
    columns.push_back(*column);
  }
  const auto n = static_cast<Eigen::Index>(control.variables.size());
  const auto m = static_cast<Eigen::Index>(control.inputs.size());
  for (std::size_t r = 0; r < samples.size(); ++r) {
    ControlRecord& record = samples[r].control;
    record.setpoints.resize(n);
    record.values.resize(n);
    record.inputs.resize(m);
    for (Eigen::Index k = 0; k < n; ++k) {
      record.setpoints(k) = table.rows[r].at(columns[static_cast<std::size_t>(k)]);
      record.values(k) = table.rows[r].at(columns[static_cast<std::size_t>(n + k)]);
    }
    for (Eigen::Index k = 0; k < m; ++k)
      record.inputs(k) = table.rows[r].at(columns[static_cast<std::size_t>(2 * n + k)]);
  }
}

}  // namespace

std::vector<Sample> samplesFromTable(const Model& model, const CsvTable& table) {
  const std::size_t t_column = requireColumn(table, "t");
  std::vector<std::size_t> q_columns, v_columns;
  for (const std::string& name : model.coordinate_names) {
    q_columns.push_back(requireColumn(table, "q:" + name));
    v_columns.push_back(requireColumn(table, "v:" + name));
  }
  const std::array energy_columns = {findColumn(table, "kinetic"),
                                     findColumn(table, "gravitational"),
                                     findColumn(table, "elastic"), findColumn(table, "dissipated")};
  std::vector<Sample> samples;
  samples.reserve(table.rows.size());
  for (const std::vector<double>& row : table.rows) {
    Sample& sample = samples.emplace_back();
    sample.t = row.at(t_column);
    sample.q.resize(static_cast<Eigen::Index>(q_columns.size()));
    sample.v.resize(static_cast<Eigen::Index>(v_columns.size()));
    for (std::size_t k = 0; k < q_columns.size(); ++k) {
      sample.q(static_cast<Eigen::Index>(k)) = row.at(q_columns[k]);
      sample.v(static_cast<Eigen::Index>(k)) = row.at(v_columns[k]);
    }
    double* const energies[] = {&sample.energy.kinetic, &sample.energy.gravitational,
                                &sample.energy.elastic, &sample.energy.dissipated};
    for (std::size_t e = 0; e < energy_columns.size(); ++e) {
      if (energy_columns[e]) *energies[e] = row.at(*energy_columns[e]);
    }
  }
  readControlColumns(model, table, samples);
  return samples;
}

std::vector<Sample> loadTrajectoryCsv(const Model& model, const std::filesystem::path& path) {
  const CsvTable table = loadCsv(path);  // its errors name the file and line
  try {
    return samplesFromTable(model, table);
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
}

}  // namespace tendril
