#pragma once
// The tip-error reference of the studio: the first tip's path (t, p_W) of a run, interpolated
// linearly in time, against which later runs plot their tip error |p - p_ref(t)| [m].

#include <Eigen/Core>
#include <QPointF>
#include <optional>
#include <utility>
#include <vector>

#include "core/sim/frame.hpp"

namespace tendril {

class SimulationController;

/// \brief Where the tip-error reference came from.
enum class ReferenceSource {
  None,                 ///< no reference
  Recording,            ///< Use Run as Reference: the run or loaded recording shown then
  FiniteDifferenceRun,  ///< the twin run with the finite-difference Jacobian
};

class TipReference {
 public:
  /// \brief Takes the first tip of every recorded frame of \p run (frames without a tip are
  ///        skipped). \return false, and nothing changes, when no frame has a tip
  bool take(const SimulationController& run, ReferenceSource source);
  void clear();

  [[nodiscard]] bool empty() const { return path_.empty(); }
  [[nodiscard]] std::size_t size() const { return path_.size(); }
  [[nodiscard]] ReferenceSource source() const { return source_; }

  /// \brief The reference tip at time \p t [s], linear between samples; none outside their span.
  [[nodiscard]] std::optional<Eigen::Vector3d> at(double t) const;
  /// \brief (t, log10 |p - p_ref(t)|) of \p frame's first tip, where the reference covers t (an
  ///        exact match is drawn at log10 of kErrorFloor).
  [[nodiscard]] std::optional<QPointF> errorPoint(const Frame& frame) const;

  /// \brief The smallest error drawn [m]: log10 of an exact match would be -infinity.
  static constexpr double kErrorFloor = 1e-15;

 private:
  std::vector<std::pair<double, Eigen::Vector3d>> path_;  // (t, first tip), t increasing
  ReferenceSource source_ = ReferenceSource::None;
};

}  // namespace tendril
