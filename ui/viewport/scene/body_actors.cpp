#include "ui/viewport/scene/body_actors.hpp"

#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkPolyData.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSTLReader.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

#include "core/math/lie.hpp"

namespace tendril {
namespace {

// a mesh file through VTK's reader for its extension, scaled; its bounding box when the file
// cannot be read (moved or deleted since the model was made)
vtkSmartPointer<vtkAlgorithm> makeMeshSource(const ShapeDesc& shape) {
  vtkSmartPointer<vtkPolyDataAlgorithm> reader;
  if (std::filesystem::exists(shape.mesh)) {
    std::string extension = std::filesystem::path(shape.mesh).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".stl") {
      auto stl = vtkSmartPointer<vtkSTLReader>::New();
      stl->SetFileName(shape.mesh.c_str());
      reader = stl;
    } else if (extension == ".obj") {
      auto obj = vtkSmartPointer<vtkOBJReader>::New();
      obj->SetFileName(shape.mesh.c_str());
      reader = obj;
    }
  }
  if (reader) reader->Update();
  if (!reader || reader->GetOutput()->GetNumberOfPoints() == 0) {
    auto box = vtkSmartPointer<vtkCubeSource>::New();
    box->SetCenter(shape.box_centre[0], shape.box_centre[1], shape.box_centre[2]);
    box->SetXLength(shape.size[0]);
    box->SetYLength(shape.size[1]);
    box->SetZLength(shape.size[2]);
    return box;
  }
  vtkNew<vtkTransform> scale;
  scale->Scale(shape.scale[0], shape.scale[1], shape.scale[2]);
  auto scaled = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  scaled->SetInputConnection(reader->GetOutputPort());
  scaled->SetTransform(scale);
  return scaled;
}

// sources are centred at the shape frame (the CoM); a cylinder's axis is x, VTK's is y
vtkSmartPointer<vtkAlgorithm> makePrimitiveSource(const ShapeDesc& shape) {
  switch (shape.type) {
    case ShapeType::Box: {
      auto box = vtkSmartPointer<vtkCubeSource>::New();
      box->SetXLength(shape.size[0]);
      box->SetYLength(shape.size[1]);
      box->SetZLength(shape.size[2]);
      return box;
    }
    case ShapeType::Cylinder: {
      vtkNew<vtkCylinderSource> cylinder;
      cylinder->SetRadius(shape.size[0]);
      cylinder->SetHeight(shape.size[1]);
      cylinder->SetResolution(kShapeResolution);
      vtkNew<vtkTransform> y_to_x;
      y_to_x->RotateZ(-90.0);
      auto aligned = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
      aligned->SetInputConnection(cylinder->GetOutputPort());
      aligned->SetTransform(y_to_x);
      return aligned;
    }
    case ShapeType::Sphere: {
      auto sphere = vtkSmartPointer<vtkSphereSource>::New();
      sphere->SetRadius(shape.size[0]);
      sphere->SetThetaResolution(kShapeResolution);
      sphere->SetPhiResolution(kShapeResolution / 2);
      return sphere;
    }
    case ShapeType::Mesh:
      return makeMeshSource(shape);
  }
  return vtkSmartPointer<vtkCubeSource>::New();
}

// the shape in the centre-of-mass frame: moved by its origin when it has one
vtkSmartPointer<vtkAlgorithm> makeShapeSource(const ShapeDesc& shape) {
  vtkSmartPointer<vtkAlgorithm> source = makePrimitiveSource(shape);
  if (shape.origin == Placement{}) return source;
  const Eigen::Matrix3d R =
      rpyToRotation(shape.origin.rpy[0], shape.origin.rpy[1], shape.origin.rpy[2]);
  vtkNew<vtkMatrix4x4> matrix;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) matrix->SetElement(row, col, R(row, col));
    matrix->SetElement(row, 3, shape.origin.position[static_cast<std::size_t>(row)]);
  }
  vtkNew<vtkTransform> placement;
  placement->SetMatrix(matrix);
  auto placed = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  placed->SetInputConnection(source->GetOutputPort());
  placed->SetTransform(placement);
  return placed;
}

}  // namespace

vtkSmartPointer<vtkActor> makeBodyActor(const ShapeDesc& shape) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(makeShapeSource(shape)->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(shape.color[0], shape.color[1], shape.color[2]);
  actor->GetProperty()->SetSpecular(0.2);
  actor->GetProperty()->SetSpecularPower(20.0);
  actor->SetUserMatrix(vtkSmartPointer<vtkMatrix4x4>::New());
  return actor;
}

void updateBodyActor(vtkActor* actor, const BodyShape& body) {
  const Eigen::Matrix4d g_WS = body.pose_W.matrix();
  vtkMatrix4x4* matrix = actor->GetUserMatrix();
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      matrix->SetElement(row, col, g_WS(row, col));
    }
  }
  matrix->Modified();
  actor->Modified();
}

}  // namespace tendril
