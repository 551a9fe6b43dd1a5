#pragma once
// The Frame the UI draws (frame.hpp), from the model-agnostic family: for a model whose bodies may
// have no virtual-joint form (makeFrame() needs the engine's kinematics).

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Frame of the robot at (q, v) from the bodies' own reports: rigid bodies at their distal
///        frame D (the joint's child frame, as makeFrame() places them), each body with a
///        centreline as a RodShape through its centrelineSamples() (no colour-map values yet:
///        RodShape::value() is 0), and the leaf bodies' D as tips (the link tip up to its fixed
///        g_tip).
/// \param[in,out] poses sized for \p model (ModelAgnosticPoses(model, data)); overwritten
FramePtr makeModelAgnosticFrame(const Model& model, Data& data, ModelAgnosticPoses& poses,
                                const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t,
                                std::uint64_t index = 0, const Energies& energy = {},
                                const ControlRecord& control = {});

}  // namespace tendril
