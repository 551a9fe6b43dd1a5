#pragma once
// The ground grid: a square of lines under the robot at the floor, with a round spacing (1, 2 or
// 5 times a power of ten) that suits the robot's size, lowered when the robot reaches below it.
// VTK only, no Qt.

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <optional>

#include "core/sim/frame.hpp"
#include "ui/viewport/scene/robot_scene.hpp"

namespace tendril {

/// \brief The floor [m]: z = 0, or lower when the robot's bounds \p robot reach below it.
double floorHeight(const std::optional<Bounds>& robot);

/// \brief The lowest point of the rods' surfaces and of the bodies' centres in \p frame [m] (a
///        cheap test per frame of whether the grid must go down); +infinity for an empty frame.
double lowestPoint(const Frame& frame);

/// \brief A square grid at height \p z, centred below the robot's bounds \p robot (a default
///        square around the origin without them).
vtkSmartPointer<vtkPolyData> makeGrid(const std::optional<Bounds>& robot, double z);

}  // namespace tendril
