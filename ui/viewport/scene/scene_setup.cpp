#include "ui/viewport/scene/scene_setup.hpp"

#include <vtkCamera.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkVersion.h>

#include <algorithm>
#include <cmath>

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

}  // namespace

void styleRenderer(vtkRenderer* renderer) {
  renderer->GradientBackgroundOn();
  renderer->SetBackground(kBackgroundBottom.data());
  renderer->SetBackground2(kBackgroundTop.data());
  renderer->UseFXAAOn();
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
  Bounds b = bounds.value_or(kDefaultBounds);
  renderer->ResetCamera(b.data());
  // ResetCamera frames the bounding sphere, which leaves a slender robot small: come closer
  constexpr double kZoom = 1.3;
  renderer->GetActiveCamera()->Zoom(kZoom);
  renderer->ResetCameraClippingRange();
}

std::string vtkVersionString() { return vtkVersion::GetVTKVersion(); }

}  // namespace tendril
