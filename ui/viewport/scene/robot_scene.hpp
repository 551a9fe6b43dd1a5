#pragma once
// VTK actors for one Frame: soft rods as tubes whose radius follows the cross-section, rigid
// bodies as boxes, cylinders and spheres at their poses, and a ground grid under the robot.
// VTK only, no Qt (target tendril_scene): used by the viewport widget and by tendril-render.

#include <array>
#include <memory>
#include <optional>

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

  /// \brief Bounds of the robot actors (the grid excluded), or nullopt when nothing is shown.
  [[nodiscard]] std::optional<Bounds> robotBounds() const;

  /// \brief How many times the actors were rebuilt (tests check that updates reuse them).
  [[nodiscard]] int rebuildCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tendril
