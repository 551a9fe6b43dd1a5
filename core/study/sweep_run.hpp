#pragma once
// Running a sweep's cases: one case's model (the base model with the case's values at their
// pointers), one case's job and outputs, and all cases on a pool of threads.

#include <Eigen/Core>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/model/description.hpp"
#include "core/study/sweep_spec.hpp"

namespace tendril {

/// \brief The model of one case, or why the case's values make no valid model.
struct CaseModel {
  std::optional<RobotDescription> description;  ///< set when the model is valid
  std::string error;                            ///< "<model pointer>: <reason>" otherwise
};

/// \brief The base model with case \p index's values written at their pointers, parsed and
///        validated like a model file (mesh files resolved in spec.model_folder).
/// \throw std::out_of_range for an index outside [0, caseCount)
CaseModel caseDescription(const SweepSpec& spec, int index);

/// \brief One case's result. A failed case (invalid model, statics not converged, simulation
///        diverged, any error) has success false, its message, and NaN outputs.
struct SweepRow {
  int index = -1;
  bool success = false;
  std::string message;
  double wall_time = 0.0;   ///< [s] building the model and running the job
  Eigen::VectorXd outputs;  ///< sweepOutputColumns(spec) order
};

/// \brief The output columns: tip:<link>:x, y, z, qw, qx, qy, qz per tip link; kinetic,
///        gravitational, elastic (energies at the end [J]); q:<coordinate> per chosen
///        coordinate; for a simulation also t (the time reached [s]); iterations for statics.
std::vector<std::string> sweepOutputColumns(const SweepSpec& spec);

/// \brief Runs case \p index; never throws for a case's own failure.
SweepRow runCase(const SweepSpec& spec, int index);

struct SweepProgress {
  int done = 0, failed = 0, total = 0;
  double elapsed = 0.0;  ///< [s]
};

/// \brief Runs every case (or those in \p indices) on \p threads threads (0: one per core).
///        Rows come back in case order, whatever the order they finished in. \p progress is
///        called on the calling thread about every \p progress_interval seconds and at the end.
///        When \p cancel becomes true, no new case starts; the cases not run are absent from the
///        result (fewer rows than cases).
std::vector<SweepRow> runSweep(const SweepSpec& spec, int threads,
                               const std::function<void(const SweepProgress&)>& progress = {},
                               const std::atomic<bool>* cancel = nullptr,
                               double progress_interval = 0.5,
                               const std::vector<int>& indices = {});

/// \brief The results as CSV: case, the parameters (by name), success, the output columns,
///        wall_time, message. A failed case's outputs are "nan". \p rows in case order.
std::string sweepCsv(const SweepSpec& spec, const std::vector<SweepRow>& rows);

/// \brief Writes the results. All cases present: \p path, atomically. Otherwise (interrupted)
///        "<stem>.partial.csv" beside it, whose first line says it is partial and how many cases
///        it holds, and \p path is not touched. Either way the self-contained spec goes to
///        "<stem>.sweep.json" beside it (sweepSpecPathFor). \return the CSV written
std::filesystem::path saveSweepCsv(const SweepSpec& spec, const std::vector<SweepRow>& rows,
                                   const std::filesystem::path& path,
                                   const std::string& why_partial = "interrupted");

/// \brief "<stem>.partial.csv" beside \p path.
std::filesystem::path partialPath(const std::filesystem::path& path);

}  // namespace tendril
