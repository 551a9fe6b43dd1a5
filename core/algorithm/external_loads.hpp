#pragma once
// Wrenches applied by the environment and by the user to the child frames: point loads (local or
// global frame), and whatever depends on a frame's pose and twist (contact, hydrodynamics). The
// inverse dynamics subtracts them (ID = inertial - external); its derivatives need how each one
// varies with the pose and twist of its frame.

#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Subtracts every external wrench from data.F (wrench on child frame j, in frame j).
/// Needs the position and velocity stages (data.g, data.eta) of the current state.
void subtractExternalWrenches(const Model& model, Data& data, double t);

/// \brief Fills data.load_sensitivities with one entry per (frame, load) whose wrench depends on
/// the state: dF = d_pose (g_j^{-1} dg_j)^v + d_twist d(eta_j), F the applied wrench in frame j.
/// Loads with constant local wrenches add nothing. Needs the same stages as above.
void externalWrenchSensitivities(const Model& model, Data& data, double t);

/// \brief The wrench of one point load on its frame, in that frame, about the frame's origin.
Vector6d pointLoadWrench(const CompiledPointLoad& load, const Data& data, double t);

}  // namespace tendril
