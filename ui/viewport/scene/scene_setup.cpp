#include "ui/viewport/scene/scene_setup.hpp"

#include <vtkCamera.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkVersion.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace tendril {
namespace {

constexpr Bounds kDefaultBounds{-0.5, 0.5, -0.5, 0.5, 0.0, 1.0};

struct CameraAxes {
  std::array<double, 3> from_focal_point;  ///< unit vector from the focal point to the camera
  std::array<double, 3> view_up;
};

CameraAxes cameraAxesFor(ViewDirection direction) {
  const double s = 1.0 / std::sqrt(3.0);
  switch (direction) {
    case ViewDirection::Front:
      return {{0.0, -1.0, 0.0}, {0.0, 0.0, 1.0}};
    case ViewDirection::Side:
      return {{1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}};
    case ViewDirection::Top:
      return {{0.0, 0.0, 1.0}, {0.0, 1.0, 0.0}};
    case ViewDirection::Isometric:
      break;
  }
  return {{s, -s, s}, {0.0, 0.0, 1.0}};
}

/// Orthonormal camera axes: right, up, and backward (from the focal point to the camera).
struct CameraFrame {
  Eigen::Vector3d right, up, backward;
};

CameraFrame cameraFrameOf(vtkCamera* camera) {
  Eigen::Vector3d position, focal_point, view_up;
  camera->GetPosition(position.data());
  camera->GetFocalPoint(focal_point.data());
  camera->GetViewUp(view_up.data());
  CameraFrame frame;
  frame.backward = (position - focal_point).normalized();
  frame.right = view_up.cross(frame.backward).normalized();
  frame.up = frame.backward.cross(frame.right);
  return frame;
}

// width / height of the renderer's viewport, or 1 before the window has a size
double aspectRatio(vtkRenderer* renderer) {
  const int* size = renderer->GetSize();
  if (size == nullptr || size[0] <= 0 || size[1] <= 0) {
    return 1.0;
  }
  return static_cast<double>(size[0]) / size[1];
}

}  // namespace

void styleRenderer(vtkRenderer* renderer) {
  renderer->GradientBackgroundOn();
  renderer->SetBackground(kBackgroundBottom.data());
  renderer->SetBackground2(kBackgroundTop.data());
  // a key, fill and back light read shape far better than the single default headlight
  renderer->RemoveAllLights();
  vtkNew<vtkLightKit> lights;
  lights->AddLightsToRenderer(renderer);
}

void setCameraView(vtkRenderer* renderer, ViewDirection direction,
                   const std::optional<Bounds>& bounds) {
  const Bounds b = bounds.value_or(kDefaultBounds);
  const double centre[3] = {0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])};
  const CameraAxes axes = cameraAxesFor(direction);
  vtkCamera* camera = renderer->GetActiveCamera();
  camera->SetFocalPoint(centre);
  camera->SetPosition(centre[0] + axes.from_focal_point[0], centre[1] + axes.from_focal_point[1],
                      centre[2] + axes.from_focal_point[2]);
  camera->SetViewUp(axes.view_up.data());
  fitCamera(renderer, bounds);
}

void fitCamera(vtkRenderer* renderer, const std::optional<Bounds>& bounds) {
  const Bounds b = bounds.value_or(kDefaultBounds);
  vtkCamera* camera = renderer->GetActiveCamera();
  const Eigen::Vector3d centre(0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5]));
  const CameraFrame frame = cameraFrameOf(camera);
  const double tan_half_height = std::tan(0.5 * camera->GetViewAngle() * std::numbers::pi / 180.0);
  const double tan_half_width = tan_half_height * aspectRatio(renderer);

  // the nearest distance at which every corner of the box projects inside the view
  double distance = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d p(b[corner & 1], b[2 + ((corner >> 1) & 1)], b[4 + ((corner >> 2) & 1)]);
    const Eigen::Vector3d offset = p - centre;
    const double towards_camera = offset.dot(frame.backward);
    distance =
        std::max({distance, towards_camera + std::abs(offset.dot(frame.right)) / tan_half_width,
                  towards_camera + std::abs(offset.dot(frame.up)) / tan_half_height});
  }
  constexpr double kMargin = 1.1;
  distance = std::max(kMargin * distance, 1e-3);
  const Eigen::Vector3d position = centre + distance * frame.backward;
  camera->SetFocalPoint(centre.x(), centre.y(), centre.z());
  camera->SetPosition(position.x(), position.y(), position.z());
  renderer->ResetCameraClippingRange();
}

std::string vtkVersionString() {
  return vtkVersion::GetVTKVersion();
}

}  // namespace tendril
