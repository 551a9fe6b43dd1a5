#pragma once
// The fixed contact obstacles of a model (planes, spheres, hollow cylinders) as translucent VTK
// actors. Planes and cylinders are unbounded in the model; they are drawn over the region the
// robot occupies, so they are rebuilt when the robot's bounds change. VTK only, no Qt.

#include <vtkActor.h>
#include <vtkSmartPointer.h>

#include <array>
#include <vector>

#include "core/model/description.hpp"

namespace tendril {

/// \brief Translucent actors for every obstacle of \p contact, sized to the robot's bounds
///        (xmin, xmax, ymin, ymax, zmin, zmax [m]): a plane as a square patch centred under the
///        robot, a sphere as itself, a cylinder as its wall over the robot's extent along the
///        axis, its near side culled so that the robot inside stays visible.
std::vector<vtkSmartPointer<vtkActor>> makeContactObstacleActors(
    const ContactDesc& contact, const std::array<double, 6>& robot_bounds);

}  // namespace tendril
