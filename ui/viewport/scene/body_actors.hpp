#pragma once
// A rigid body's shape (box, cylinder, sphere, or an STL/OBJ mesh) as an actor in its shape frame,
// moved to the body's pose through a user matrix so that a new frame never rebuilds the
// geometry. VTK only, no Qt.

#include <vtkActor.h>
#include <vtkSmartPointer.h>

#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Facets around a cylinder or sphere body; joint glyphs use a fraction of it, so that
///        they look as smooth as the bodies they sit on.
inline constexpr int kShapeResolution = 48;

/// \brief An actor for \p shape, centred at the shape frame (the centre of mass) and placed by
///        its origin, in the shape's colour; a mesh file that cannot be read shows as its
///        bounding box. updateBodyActor sets its pose.
vtkSmartPointer<vtkActor> makeBodyActor(const ShapeDesc& shape);

/// \brief Moves \p actor (made by makeBodyActor) to the pose of \p body.
void updateBodyActor(vtkActor* actor, const BodyShape& body);

}  // namespace tendril
