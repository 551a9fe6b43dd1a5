#pragma once
// Trajectories as CSV: one row per recorded instant, with a header naming every column, so that a
// spreadsheet, numpy.genfromtxt(names=True) or pandas.read_csv reads them directly.
//
// Columns: t, q:<coordinate name>..., v:<coordinate name>..., then for every leaf link
// tip:<link>:x, y, z (world position [m]) and qw, qx, qy, qz (orientation quaternion), then
// kinetic, gravitational, elastic, dissipated (energies [J]); with controllers,
// setpoint:<controller>: <variable>..., value:<controller>: <variable>..., input:<controller>:
// <input>... (core/sim/controllers.hpp).

#include <filesystem>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/simulation.hpp"

namespace tendril {

/// \brief The labels of the controllers' columns (commas replaced, they would split a column).
struct ControlColumns {
  std::vector<std::string> variables, inputs;
};
ControlColumns controlColumns(const Model& model);

/// \brief A trajectory's columns (the CSV's) and values, one row per sample.
struct TrajectoryTable {
  std::vector<std::string> columns;
  Eigen::MatrixXd values;  ///< samples x columns
};

/// \brief The columns of trajectoryCsv() as numbers: the tips from forward kinematics at each q.
TrajectoryTable trajectoryTable(const Model& model, const std::vector<Sample>& samples);

/// \brief The CSV text of a trajectory (full double precision, "." decimal separator).
std::string trajectoryCsv(const Model& model, const std::vector<Sample>& samples);

/// \brief Writes trajectoryCsv atomically.
void saveTrajectoryCsv(const Model& model, const std::vector<Sample>& samples,
                       const std::filesystem::path& path);

/// \brief A trajectory read back: the column names and the rows of numbers.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

/// \brief Reads a CSV written by saveTrajectoryCsv. \throw std::runtime_error naming the line
CsvTable loadCsv(const std::filesystem::path& path);

/// \brief The samples of a recording of `model`: t, q and v by the model's coordinate names (the
///        columns may come in any order, extra ones are ignored), energies where present (0
///        otherwise). \throw std::runtime_error naming a missing column: a recording of another
///        model
std::vector<Sample> samplesFromTable(const Model& model, const CsvTable& table);

/// \brief loadCsv() then samplesFromTable(): a recording read back for the model it was made of.
///        \throw std::runtime_error whose message starts with the file's path
std::vector<Sample> loadTrajectoryCsv(const Model& model, const std::filesystem::path& path);

}  // namespace tendril
