#include "core/io/results_io.hpp"

#include <Eigen/Geometry>
#include <charconv>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "core/algorithm/kinematics.hpp"
#include "core/io/json_io.hpp"

namespace tendril {

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

}  // namespace tendril
