#pragma once
// The frames of a robot shown as triads: short x (red), y (green), z (blue) axes at every
// computational point of the rods (the ends of the Magnus intervals) and at every rigid link
// frame, coloured per cell. VTK only, no Qt.

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief The triads of \p frame, sized to the rod radius or the body; \p count receives how
///        many. The axes' colours are the cell scalars (draw them as direct colours).
vtkSmartPointer<vtkPolyData> makeFrameTriads(const RobotDescription& robot, const Frame& frame,
                                             int& count);

}  // namespace tendril
