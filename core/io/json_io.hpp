#pragma once
// Reading and writing robot descriptions as JSON (schema: resources/schemas/robot.schema.json).
// Parsing is strict: unknown keys, wrong types and out-of-range values are errors naming the
// JSON pointer. Nothing is half-loaded: a description is returned only when the whole file is
// valid.

#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/model/description.hpp"
#include "core/model/parse_error.hpp"  // ParseError, thrown by the readers

namespace tendril {

inline constexpr int kSchemaVersion = 2;  ///< written; versions 1 and 2 are read

/// \brief Parses a description from JSON text. \throw ParseError
RobotDescription parseRobot(const std::string& json_text);

/// \brief Serialises a description: stable key order, 2-space indent, trailing newline, so that
///        save -> load -> save is byte-identical.
std::string serializeRobot(const RobotDescription& robot);

/// \brief Parses one time function (a number, or an object with "type": constant, ramp, sine,
///        table), as the model's inputs store it. \throw ParseError, its pointer relative to the
///        function
TimeFunction parseTimeFunction(const std::string& json_text);

/// \brief The JSON text of a time function, as a model file stores it.
std::string serializeTimeFunction(const TimeFunction& f);

/// \brief Loads a file; relative mesh files become absolute (resolveMeshFiles).
/// \throw ParseError (also for unreadable files, pointer "")
RobotDescription loadRobot(const std::filesystem::path& path);

/// \brief Saves atomically: writes a sibling temporary file, then renames it over the target.
///        Mesh files are written relative to the file's folder (withRelativeMeshFiles).
/// \throw std::runtime_error when the file cannot be written (the old file is then untouched)
void saveRobot(const RobotDescription& robot, const std::filesystem::path& path);

/// \brief Makes every relative mesh file of \p robot absolute, relative to \p folder (absolute):
///        in memory a mesh path does not depend on the working directory.
void resolveMeshFiles(RobotDescription& robot, const std::filesystem::path& folder);

/// \brief \p robot with its absolute mesh files relative to \p folder (absolute), so that a model
///        and its meshes can move together; a mesh under another top-level folder stays absolute.
RobotDescription withRelativeMeshFiles(RobotDescription robot, const std::filesystem::path& folder);

/// \brief Writes text to a file atomically (temporary sibling + rename). \throw std::runtime_error
void writeFileAtomically(const std::filesystem::path& path, const std::string& text);

}  // namespace tendril
