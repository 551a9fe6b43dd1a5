#pragma once
// Workspace of the rigid-tree routes of the mass matrix (mass_matrix.cpp) and of the inverse
// dynamics derivatives (inverse_dynamics_derivatives.cpp): for models whose virtual joints each
// own their coordinates (no rod division of several intervals) and carry no added mass, the
// coordinate structure is a plain tree and each coordinate has one world subspace column. Held by
// Data as one member (Data::rigid) and sized once by its constructor; the passes never allocate.

#include <Eigen/Core>
#include <vector>

#include "core/model/model.hpp"

namespace tendril {

/// \brief Whether the rigid-tree routes apply: every virtual joint owns its coordinates and no
///        frame carries added mass.
[[nodiscard]] bool supportsRigidTreeRoutes(const Model& model);

struct RigidTreeWorkspace {
  RigidTreeWorkspace() = default;
  /// \brief Sizes everything for \p model (allocates); empty when the routes do not apply.
  explicit RigidTreeWorkspace(const Model& model);

  bool supported = false;  ///< supportsRigidTreeRoutes(model)

  /// the coordinates of joint j's strict ancestors as ascending runs of consecutive coordinates,
  /// at ancestor_runs[run_begin[j]] .. ancestor_runs[run_begin[j + 1] - 1] (n_vjoints + 1 offsets);
  /// the coordinates of a joint with kFreeBaseRun of them are never merged with their neighbours'
  static constexpr int kFreeBaseRun = 6;
  std::vector<int> run_begin;
  std::vector<CoordinateBlock> ancestor_runs;
  /// the same runs merged wherever one ends as the next begins, a free base included (the mass
  /// matrix forms every entry alike), at mass_runs[mass_run_begin[j]] ..
  std::vector<int> mass_run_begin;
  std::vector<CoordinateBlock> mass_runs;
  /// below this many coordinates the mass matrix forms a run entry by entry from the row-major
  /// rows; a longer one (chains) as six axpys over the column-major columns
  static constexpr int kShortMassRun = 16;

  static constexpr int kRowLength = 24, kSOffset = 6;  ///< of a row below, and where its S is
  /// per coordinate, one row [Psi_dot | S | Psi_ddot | Psi_ddot_v] of its world columns (nv x 24;
  /// the mass matrix writes only S): a run of ancestor coordinates is a contiguous block of each
  /// column, so an entry run of M or of the ID derivatives is a few axpys over whole packets
  Eigen::Matrix<double, Eigen::Dynamic, 24> columns;
  /// the same rows stored row by row (nv x 24): a short run (a branched tree numbered breadth
  /// first has runs of one) reads one contiguous row per entry instead of 24 strided values; the
  /// mass matrix fills only its S block
  Eigen::Matrix<double, Eigen::Dynamic, 24, Eigen::RowMajor> rows;
  Eigen::VectorXd row_scratch;  ///< nv: a row run of the ID derivatives before it is scattered

  /// the world subspace rows S (nv x 6)
  auto S() { return columns.middleCols<6>(6); }
};

}  // namespace tendril
