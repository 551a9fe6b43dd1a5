#include "ui/viewport/scene/rod_actor.hpp"

#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>

#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

constexpr int kTubeSides = 24;

}  // namespace

RodActor makeRodActor(std::size_t sample_count) {
  RodActor rod;
  const auto count = static_cast<vtkIdType>(sample_count);
  vtkNew<vtkCellArray> lines;
  lines->InsertNextCell(count);
  for (vtkIdType i = 0; i < count; ++i) {
    lines->InsertCellPoint(i);
  }
  rod.centreline->SetLines(lines);
  rod.points->SetNumberOfPoints(count);
  rod.centreline->SetPoints(rod.points);
  rod.radii->SetName("radius");
  rod.radii->SetNumberOfTuples(count);
  rod.centreline->GetPointData()->SetScalars(rod.radii);
  // the colour-map value rides along as a second array (the tube filter keeps every array)
  rod.value->SetName("value");
  rod.value->SetNumberOfTuples(count);
  rod.centreline->GetPointData()->AddArray(rod.value);
  rod.normals->SetNumberOfComponents(3);
  rod.normals->SetNumberOfTuples(count);
  rod.tube->SetInputData(rod.centreline);
  rod.tube->SetNumberOfSides(kTubeSides);
  rod.tube->SetVaryRadiusToVaryRadiusByAbsoluteScalar();
  rod.tube->CappingOn();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(rod.tube->GetOutputPort());
  mapper->ScalarVisibilityOff();
  rod.actor->SetMapper(mapper);
  rod.actor->GetProperty()->SetColor(kRodColor[0], kRodColor[1], kRodColor[2]);
  rod.actor->GetProperty()->SetSpecular(0.3);
  rod.actor->GetProperty()->SetSpecularPower(30.0);
  return rod;
}

// a frame without radii still shows a thin rod rather than nothing
double radiusAt(const RodShape& shape, std::size_t sample) {
  constexpr double kFallbackRadius = 0.005;
  if (shape.radii.empty()) {
    return kFallbackRadius;
  }
  return shape.radii[std::min(sample, shape.radii.size() - 1)];
}

// the section frame's y axis seeds the tube's sides, so the tube twists with the rod; the sample
// count is the one the actor was made for (it is part of the structure signature); the value
// array holds \p quantity for the colour map
void updateRodActor(RodActor& rod, const RodShape& shape, RodQuantity quantity) {
  const auto count = static_cast<vtkIdType>(shape.points.size());
  for (vtkIdType i = 0; i < count; ++i) {
    const auto sample = static_cast<std::size_t>(i);
    const Eigen::Vector3d& p = shape.points[sample];
    rod.points->SetPoint(i, p.x(), p.y(), p.z());
    rod.radii->SetValue(i, radiusAt(shape, sample));
    rod.value->SetValue(i, shape.value(sample, quantity));
  }
  rod.points->Modified();
  rod.radii->Modified();
  rod.value->Modified();
  vtkPointData* point_data = rod.centreline->GetPointData();
  if (shape.orientations.size() == shape.points.size()) {
    for (vtkIdType i = 0; i < count; ++i) {
      const Eigen::Vector3d y_axis = shape.orientations[static_cast<std::size_t>(i)].col(1);
      rod.normals->SetTuple3(i, y_axis.x(), y_axis.y(), y_axis.z());
    }
    rod.normals->Modified();
    if (point_data->GetNormals() != rod.normals) {
      point_data->SetNormals(rod.normals);
    }
  } else if (point_data->GetNormals() != nullptr) {
    point_data->SetNormals(nullptr);
  }
  rod.centreline->Modified();
  rod.actor->SetVisibility(count >= 2);
}

}  // namespace tendril
