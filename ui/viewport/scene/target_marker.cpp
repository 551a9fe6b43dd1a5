#include "ui/viewport/scene/target_marker.hpp"

#include <vtkActor.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

namespace tendril {

struct TargetMarker::Impl {
  vtkRenderer* renderer;
  vtkNew<vtkSphereSource> sphere;
  vtkNew<vtkPolyDataMapper> mapper;
  vtkNew<vtkActor> actor;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  double radius = 0.0;
  bool unreachable = false;
  bool visible = false;
};

TargetMarker::TargetMarker(vtkRenderer* renderer) : impl_(std::make_unique<Impl>()) {
  impl_->renderer = renderer;
  impl_->sphere->SetThetaResolution(32);
  impl_->sphere->SetPhiResolution(16);
  impl_->mapper->SetInputConnection(impl_->sphere->GetOutputPort());
  impl_->actor->SetMapper(impl_->mapper);
  impl_->actor->PickableOff();  // clicks on it are the drag's, not a link selection
  impl_->actor->GetProperty()->SetOpacity(0.75);
  impl_->actor->VisibilityOff();
  renderer->AddActor(impl_->actor);
}

TargetMarker::~TargetMarker() {
  impl_->renderer->RemoveActor(impl_->actor);
}

void TargetMarker::show(const Eigen::Vector3d& position_W, double radius, bool unreachable) {
  impl_->position = position_W;
  impl_->radius = radius;
  impl_->unreachable = unreachable;
  impl_->visible = true;
  impl_->sphere->SetCenter(position_W.x(), position_W.y(), position_W.z());
  impl_->sphere->SetRadius(radius);
  // green: the tip is there; red: the closest the actuators get is elsewhere
  if (unreachable) {
    impl_->actor->GetProperty()->SetColor(0.9, 0.15, 0.1);
  } else {
    impl_->actor->GetProperty()->SetColor(0.2, 0.8, 0.3);
  }
  impl_->actor->VisibilityOn();
}

void TargetMarker::hide() {
  impl_->visible = false;
  impl_->actor->VisibilityOff();
}

bool TargetMarker::visible() const {
  return impl_->visible;
}

Eigen::Vector3d TargetMarker::position() const {
  return impl_->position;
}

double TargetMarker::radius() const {
  return impl_->radius;
}

bool TargetMarker::unreachable() const {
  return impl_->unreachable;
}

}  // namespace tendril
