#pragma once
// Where the points of a link sit in a frame: the pose of a link frame or of a point along a rod's
// centreline, found from the frame's rod samples and body poses and the description. Shared by
// the overlays (cables, load arrows, joint glyphs, frame triads). Plain C++ and Eigen: no VTK.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <optional>
#include <string>

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"

namespace tendril {

/// \brief The index of the link named \p name, or -1 when there is none.
int linkIndex(const RobotDescription& robot, const std::string& name);

/// \brief The rod of link \p link in \p frame with at least two samples and an orientation at
///        each, or nullptr.
const RodShape* rodOf(const Frame& frame, int link);

/// \brief The reference length of the centreline of link \p link [m] (a GVS rod's divisions, a
///        constant-curvature segment's length; 0 for a rigid body).
double rodLength(const RobotDescription& robot, int link);

/// \brief The centre of mass of rigid link \p link in its link frame, or nothing when the link
///        is not rigid (a frame of an older model may still be on screen while the description
///        changes).
std::optional<Eigen::Vector3d> rigidCom(const RobotDescription& robot, int link);

/// \brief Pose (\p p, \p R) of the centreline at abscissa \p x of a rod of reference length
///        \p length: the samples' arc length is scaled to \p length (exact for an inextensible
///        rod, close enough to place a glyph otherwise), the position interpolated between
///        samples and the orientation of the nearer one taken. This runs for every joint glyph
///        and load arrow of every frame: no allocation.
void rodPoseAt(const RodShape& rod, double length, double x, Eigen::Vector3d& p,
               Eigen::Matrix3d& R);

/// \brief The pose in world of frame (link, abscissa) of \p frame, or nothing when it is not
///        drawn. \p abscissa: X along a centreline, -1 its tip, -2 (or less) its base; ignored
///        for a rigid link (its link frame). \p rod_length is the link's centreline length when
///        it has one (rodLength).
std::optional<Eigen::Isometry3d> linkFramePose(const RobotDescription& robot, const Frame& frame,
                                               int link, double abscissa, double rod_length);

}  // namespace tendril
