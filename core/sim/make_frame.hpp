#pragma once
// Builds the immutable Frame the UI draws from a model state.

#include <Eigen/Core>

#include "core/model/data.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Centreline samples drawn inside each rod interval (between computational points).
inline constexpr int kSamplesPerInterval = 4;

/// \brief Frame of the robot at (q, v): rod centrelines (sampled along each interval's exponential,
///        with radius and curvature magnitude per sample), rigid bodies at their poses, leaf tips.
/// \param[in,out] data workspace; its position stage is recomputed
FramePtr makeFrame(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, double t, std::uint64_t index = 0,
                   const Energies& energy = {});

}  // namespace tendril
