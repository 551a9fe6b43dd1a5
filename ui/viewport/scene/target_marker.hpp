#pragma once
// The target sphere of the studio's inverse-statics mode: where the user wants a link's tip. Green
// while the solver reaches it, red when the target is unreachable. Not pickable, and outside the
// robot's bounds (fitting the view ignores it). This header includes no VTK.

#include <Eigen/Core>
#include <memory>

class vtkRenderer;

namespace tendril {

class TargetMarker {
 public:
  explicit TargetMarker(vtkRenderer* renderer);
  ~TargetMarker();
  TargetMarker(const TargetMarker&) = delete;
  TargetMarker& operator=(const TargetMarker&) = delete;

  /// \brief Shows the sphere at \p position_W [m] with \p radius [m].
  void show(const Eigen::Vector3d& position_W, double radius, bool unreachable);
  void hide();

  [[nodiscard]] bool visible() const;
  [[nodiscard]] Eigen::Vector3d position() const;
  [[nodiscard]] double radius() const;
  [[nodiscard]] bool unreachable() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tendril
