#pragma once
// VTK actors for one Frame: soft rods and constant-curvature segments (every RodShape) as tubes
// whose radius follows the cross-section, rigid bodies as boxes, cylinders and spheres at their
// poses, and a ground grid under the robot. With a description set, cables are drawn as lines
// along their routing, point loads as arrows, joints as glyphs (a disc along a revolute axis, a
// bar along a prismatic one, a ball for the others, also for closed-loop joints) and, when asked,
// the frames (x red, y green, z blue) at the computational points of the rods and at the rigid
// link frames, and the contact obstacles, translucent.
// VTK only, no Qt (target tendril_scene): used by the viewport widget and by tendril-render.

#include <array>
#include <memory>
#include <optional>

#include "core/model/description.hpp"
#include "core/sim/frame.hpp"

class vtkRenderer;

namespace tendril {

/// \brief Axis-aligned bounds: xmin, xmax, ymin, ymax, zmin, zmax [m].
using Bounds = std::array<double, 6>;

class RobotScene {
 public:
  /// \brief Adds the scene's actors to \p renderer, which must outlive the scene.
  explicit RobotScene(vtkRenderer* renderer);
  ~RobotScene();
  RobotScene(const RobotScene&) = delete;
  RobotScene& operator=(const RobotScene&) = delete;

  /// \brief Shows \p frame. Actors are rebuilt only when the structure differs from the last
  ///        frame (model revision, rod sample counts, body shapes); otherwise rod points, radii
  ///        and body poses are updated in place.
  /// \return true when the actors were rebuilt
  bool show(const Frame& frame);

  /// \brief Removes every robot actor and the grid.
  void clear();

  /// \brief The cables and point loads drawn over the frames shown from now on (show the frame
  ///        again to redraw them at once); an empty description draws none.
  void setDescription(const RobotDescription& robot);
  /// \brief Cable polylines and load arrows drawn for the current frame (tests).
  [[nodiscard]] int cableLineCount() const;
  [[nodiscard]] int loadArrowCount() const;
  /// \brief Contact obstacles drawn (translucent planes, spheres and cylinders of the
  ///        description's contact settings, sized to the robot): 0 before a frame is shown.
  [[nodiscard]] int obstacleCount() const;

  /// \brief Draws the joints (tree joints other than fixed, and closed-loop joints) as glyphs.
  void setShowJoints(bool on);
  [[nodiscard]] bool showsJoints() const;
  /// \brief Joint glyphs drawn for the current frame (tests).
  [[nodiscard]] int jointGlyphCount() const;
  /// \brief Draws a small x-y-z triad at every computational point of the rods (the ends of the
  ///        Magnus intervals) and at every rigid link frame.
  void setShowFrames(bool on);
  [[nodiscard]] bool showsFrames() const;
  /// \brief Triads drawn for the current frame (0 while hidden).
  [[nodiscard]] int frameTriadCount() const;

  /// \brief Height of the ground grid [m]: 0, or below the robot's lowest point since the
  ///        structure was last rebuilt (the grid follows a sagging robot down, never up).
  [[nodiscard]] double gridHeight() const;

  /// \brief Bounds of the robot actors (the grid excluded), or nullopt when nothing is shown.
  [[nodiscard]] std::optional<Bounds> robotBounds() const;

  /// \brief How many times the actors were rebuilt (tests check that updates reuse them).
  [[nodiscard]] int rebuildCount() const;

  /// \brief The link whose rod or body is under display position (\p x, \p y) (pixels from the
  ///        bottom left of the renderer), or -1 for none. Ray casting on the geometry: no GL.
  [[nodiscard]] int pickLink(double x, double y) const;

  /// \brief Colours the rods by \p quantity (RodShape::interval_values), with a legend: blue
  ///        (zero) to red (the largest seen since this was chosen), or for a signed quantity blue
  ///        (negative) through white to red; nullopt: their plain colour.
  void setRodColouring(std::optional<RodQuantity> quantity);
  [[nodiscard]] std::optional<RodQuantity> rodColouring() const;
  /// \brief Whether the colour legend is drawn (colouring on and rods shown).
  [[nodiscard]] bool showsColourLegend() const;
  /// \brief The colour map's top |value|: the largest seen in the frames shown since the
  ///        colouring or the description was last set (0 before any).
  [[nodiscard]] double colourScaleTop() const;
  /// \brief Forgets the values seen: the next frame shown sets the colour scale afresh.
  void restartColourScale();

  /// \brief Tints the rods and bodies of link \p link (-1: none); kept across rebuilds.
  void setHighlightedLink(int link);
  [[nodiscard]] int highlightedLink() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tendril
