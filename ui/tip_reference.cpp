#include "ui/tip_reference.hpp"

#include <algorithm>
#include <cmath>

#include "ui/simulation_controller.hpp"

namespace tendril {

bool TipReference::take(const SimulationController& run, ReferenceSource source) {
  std::vector<std::pair<double, Eigen::Vector3d>> path;
  path.reserve(run.frameCount());
  for (std::size_t i = 0; i < run.frameCount(); ++i) {
    const FramePtr frame = run.frameAt(i);
    if (!frame->tips_W.empty()) {
      path.emplace_back(frame->t, frame->tips_W.front());
    }
  }
  if (path.empty()) {
    return false;
  }
  path_ = std::move(path);
  source_ = source;
  return true;
}

void TipReference::clear() {
  path_.clear();
  source_ = ReferenceSource::None;
}

std::optional<Eigen::Vector3d> TipReference::at(double t) const {
  if (path_.empty() || t < path_.front().first - 1e-12 || t > path_.back().first + 1e-12) {
    return std::nullopt;
  }
  const auto after = std::lower_bound(path_.begin(), path_.end(), t,
                                      [](const std::pair<double, Eigen::Vector3d>& sample,
                                         double time) { return sample.first < time; });
  if (after == path_.begin()) return path_.front().second;
  if (after == path_.end()) return path_.back().second;
  const auto before = after - 1;
  const double span = after->first - before->first;
  const double s = span > 0.0 ? (t - before->first) / span : 0.0;
  return ((1.0 - s) * before->second + s * after->second).eval();
}

std::optional<QPointF> TipReference::errorPoint(const Frame& frame) const {
  if (frame.tips_W.empty()) {
    return std::nullopt;
  }
  const auto reference = at(frame.t);
  if (!reference) {
    return std::nullopt;
  }
  const double error = (frame.tips_W.front() - *reference).norm();
  return QPointF(frame.t, std::log10(std::max(error, kErrorFloor)));
}

}  // namespace tendril
