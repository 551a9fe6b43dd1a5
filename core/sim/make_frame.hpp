#pragma once
// Builds the immutable Frame the UI draws from a model state.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief A frame at (q, v, t) with its energies and controllers' record, before any shape is added
///        (what makeFrame() and makeModelAgnosticFrame() fill).
std::shared_ptr<Frame> frameWithoutShapes(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                          double t, std::uint64_t index, const Energies& energy,
                                          const ControlRecord& control);

/// \brief Frame of the robot at (q, v): rod centrelines (sampled along each interval's exponential,
///        with radius per sample and the RodQuantity values per interval), rigid bodies at their
///        poses, leaf tips. A model only the model-agnostic family evaluates (Model::agnostic_only)
///        is drawn by makeModelAgnosticFrame() (make_agnostic_frame.hpp).
/// \param[in,out] data workspace; its position stage is recomputed
FramePtr makeFrame(const Model& model, Data& data, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, double t, std::uint64_t index = 0,
                   const Energies& energy = {}, const ControlRecord& control = {});

}  // namespace tendril
