#pragma once
// A sweep's results read back (the studio's File > Open Sweep Result): the CSV of saveSweepCsv
// and the spec saved beside it, from which any case's model can be rebuilt.

#include <filesystem>
#include <string>
#include <vector>

#include "core/study/sweep_spec.hpp"

namespace tendril {

/// \brief The cells of a results CSV, as text, with its partial-file note if any.
struct SweepTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> cells;  ///< rows x columns
  std::string partial_note;                     ///< the "# PARTIAL RESULT ..." line, or empty

  /// \brief The index of a column, or -1.
  [[nodiscard]] int column(const std::string& name) const;
  /// \brief A cell as a number (NaN when it is not one: "nan", a message).
  [[nodiscard]] double number(std::size_t row, int column) const;
};

/// \brief A results CSV and its sweep.
struct SweepResult {
  SweepSpec spec;
  SweepTable table;
};

/// \brief "<stem>.sweep.json" beside a results CSV ("results.partial.csv" -> "results.sweep.json"):
///        the self-contained spec saveSweepCsv writes with the results.
std::filesystem::path sweepSpecPathFor(const std::filesystem::path& csv);

/// \brief Parses the text of a results CSV. \throw std::runtime_error naming the line
SweepTable parseSweepTable(const std::string& text);

/// \brief Reads a results CSV and the spec beside it.
/// \throw std::runtime_error (unreadable or malformed CSV, naming the line) or ParseError (spec)
SweepResult loadSweepResult(const std::filesystem::path& csv);

}  // namespace tendril
