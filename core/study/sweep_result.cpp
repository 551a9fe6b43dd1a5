#include "core/study/sweep_result.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace tendril {
namespace {

// the fields of one CSV line: commas separate, double quotes enclose, "" is a quote
std::vector<std::string> splitCsvLine(const std::string& line, int line_number) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("line " + std::to_string(line_number) + ": unclosed quote");
  return fields;
}

}  // namespace

int SweepTable::column(const std::string& name) const {
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == name) return static_cast<int>(c);
  return -1;
}

double SweepTable::number(std::size_t row, int column) const {
  const std::string& text = cells.at(row).at(static_cast<std::size_t>(column));
  double value = std::numeric_limits<double>::quiet_NaN();
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::numeric_limits<double>::quiet_NaN();
  return value;
}

std::filesystem::path sweepSpecPathFor(const std::filesystem::path& csv) {
  std::string stem = csv.stem().string();
  const std::string partial = ".partial";
  if (stem.size() > partial.size() &&
      stem.compare(stem.size() - partial.size(), partial.size(), partial) == 0)
    stem.resize(stem.size() - partial.size());
  std::filesystem::path spec = csv;
  spec.replace_filename(stem + ".sweep.json");
  return spec;
}

SweepTable parseSweepTable(const std::string& text) {
  SweepTable table;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.rfind('#', 0) == 0) {
      if (table.partial_note.empty()) table.partial_note = line;
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> fields = splitCsvLine(line, number);
    if (table.columns.empty()) {
      table.columns = std::move(fields);
      if (table.column("case") != 0 || table.column("success") < 0)
        throw std::runtime_error("line " + std::to_string(number) +
                                 ": not a sweep result (no case and success columns)");
      continue;
    }
    if (fields.size() != table.columns.size())
      throw std::runtime_error("line " + std::to_string(number) + ": " +
                               std::to_string(fields.size()) + " fields, the header has " +
                               std::to_string(table.columns.size()));
    table.cells.push_back(std::move(fields));
  }
  if (table.columns.empty()) throw std::runtime_error("line 1: no header");
  return table;
}

SweepResult loadSweepResult(const std::filesystem::path& csv) {
  std::ifstream file(csv, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + csv.string());
  std::ostringstream text;
  text << file.rdbuf();
  SweepResult result;
  try {
    result.table = parseSweepTable(text.str());
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(csv.string() + ": " + error.what());
  }
  const std::filesystem::path spec = sweepSpecPathFor(csv);
  if (!std::filesystem::exists(spec))
    throw std::runtime_error("no " + spec.filename().string() + " beside " + csv.string() +
                             ": the sweep's spec is saved there with its results");
  result.spec = loadSweepSpec(spec);
  return result;
}

}  // namespace tendril
