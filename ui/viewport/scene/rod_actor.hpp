#pragma once
// A soft rod or constant-curvature segment (a RodShape) as a tube: its centreline swept by a tube
// filter whose radius follows the cross-section. The actor is made once per structure and its
// points overwritten in place for every frame. VTK only, no Qt.

#include <vtkActor.h>
#include <vtkDoubleArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkTubeFilter.h>

#include <cstddef>

#include "core/sim/frame.hpp"

namespace tendril {

/// \brief A rod: centreline polyline with per-point radius (active scalars) swept by a tube
///        filter. The scene keeps the parts to update them in place and to colour the tube by
///        the "value" array (RobotScene::setRodColouring).
struct RodActor {
  vtkSmartPointer<vtkPolyData> centreline = vtkSmartPointer<vtkPolyData>::New();
  vtkSmartPointer<vtkPoints> points = vtkSmartPointer<vtkPoints>::New();
  vtkSmartPointer<vtkDoubleArray> radii = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkDoubleArray> value = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkDoubleArray> normals = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkTubeFilter> tube = vtkSmartPointer<vtkTubeFilter>::New();
  vtkSmartPointer<vtkActor> actor = vtkSmartPointer<vtkActor>::New();
};

/// \brief A rod actor for a centreline of \p sample_count points, in the rod colour; its points
///        are set by updateRodActor.
RodActor makeRodActor(std::size_t sample_count);

/// \brief Moves \p rod to \p shape (which has the sample count the actor was made for) and fills
///        its colour-map array with \p quantity.
void updateRodActor(RodActor& rod, const RodShape& shape, RodQuantity quantity);

/// \brief The tube radius at \p sample [m]; a thin fallback for a frame without radii. Also sizes
///        the frame triads along the rods.
double radiusAt(const RodShape& shape, std::size_t sample);

}  // namespace tendril
