#pragma once
// The description's cables and point loads drawn over a frame: each cable as a polyline along its
// routing through the rod's divisions, each point load as an arrow at its application point. The
// geometry depends on the frame, so it is made afresh for every frame shown. VTK only, no Qt.

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"
#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {

/// \brief Line width [pixels] and colours of the overlay actors the scene draws these in.
inline constexpr double kCableLineWidth = 3.0;
inline constexpr Rgb kCableColor{0.80, 0.10, 0.12};
inline constexpr Rgb kLoadColor{0.95, 0.55, 0.05};

/// \brief Each cable of \p robot as a polyline through its divisions, offset from the centreline
///        in the section, and each LVP tendon straight between its anchors on the bodies'
///        surfaces; \p count receives the number of polylines (one whose body is not in \p frame
///        is skipped).
vtkSmartPointer<vtkPolyData> makeCableLines(const RobotDescription& robot, const Frame& frame,
                                            int& count);

/// \brief Each point load of \p robot as an arrow whose tip touches the application point,
///        pointing along the load's force (or its moment when it has no force); \p count
///        receives the number of arrows.
vtkSmartPointer<vtkPolyData> makeLoadArrows(const RobotDescription& robot, const Frame& frame,
                                            int& count);

}  // namespace tendril
