#pragma once
// Joints drawn as glyphs: a disc along a revolute (helical, cylindrical) axis, a bar along a
// prismatic one, a ball for the others; closed-loop joints too, in their own colour. The glyphs
// are made when the description changes and only moved from frame to frame. VTK only, no Qt.

#include <vtkActor.h>
#include <vtkSmartPointer.h>

#include <Eigen/Geometry>
#include <vector>

#include "core/model/description.hpp"

namespace tendril {

/// \brief Where a joint sits and which way its axis points, in the link frame it moves.
///        Everything here is fixed by the description (jointGlyphPlaces); only the link frame
///        moves from frame to frame (linkFramePose(robot, frame, link, abscissa, rod_length)).
struct JointGlyphPlace {
  int link = -1;           ///< the link whose frame carries the glyph
  double abscissa = -2.0;  ///< on a centreline: X along it (-1 tip); -2: its base
  Placement placement;     ///< glyph frame in that frame
  Vec3 axis{1.0, 0.0, 0.0};
  JointType type = JointType::Revolute;
  double size = 0.02;  ///< [m]
  bool loop = false;   ///< a closed-loop joint (drawn in its own colour)
  /// the glyph's pose in the link frame: the placement, with the glyph's x on the joint axis
  Eigen::Isometry3d g_LG = Eigen::Isometry3d::Identity();
  double rod_length = 0.0;  ///< the link's centreline length [m] (0 for a rigid one)
};

/// \brief A place for every tree joint other than fixed and for every closed-loop joint (a
///        fixed one drawn as a ball) of \p robot; a loop joint on an unknown link is skipped.
std::vector<JointGlyphPlace> jointGlyphPlaces(const RobotDescription& robot);

/// \brief The glyph of \p place, sized to the body it sits on, in its colour, hidden, not
///        pickable, posed by its user matrix (identity until the scene moves it).
vtkSmartPointer<vtkActor> makeJointGlyphActor(const JointGlyphPlace& place);

}  // namespace tendril
