#include "ui/viewport/scene/robot_scene.hpp"

#include <vtkActor.h>
#include <vtkAlgorithmOutput.h>
#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDoubleArray.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyLine.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

constexpr int kTubeSides = 24;
constexpr int kShapeResolution = 48;
constexpr int kGridLinesPerSide = 10;

/// What decides the actors' topology: equal signatures mean points and poses can be updated.
struct StructureSignature {
  std::uint64_t model_revision = 0;
  std::vector<std::size_t> rod_samples;
  std::vector<ShapeDesc> body_shapes;
  bool operator==(const StructureSignature&) const = default;
};

StructureSignature signatureOf(const Frame& frame) {
  StructureSignature signature;
  signature.model_revision = frame.model_revision;
  for (const RodShape& rod : frame.rods) {
    signature.rod_samples.push_back(rod.points.size());
  }
  for (const BodyShape& body : frame.bodies) {
    signature.body_shapes.push_back(body.shape);
  }
  return signature;
}

/// A rod: centreline polyline with per-point radius (active scalars) swept by a tube filter.
struct RodActor {
  vtkSmartPointer<vtkPolyData> centreline = vtkSmartPointer<vtkPolyData>::New();
  vtkSmartPointer<vtkTubeFilter> tube = vtkSmartPointer<vtkTubeFilter>::New();
  vtkSmartPointer<vtkActor> actor = vtkSmartPointer<vtkActor>::New();
};

RodActor makeRodActor(std::size_t sample_count) {
  RodActor rod;
  vtkNew<vtkCellArray> lines;
  lines->InsertNextCell(static_cast<vtkIdType>(sample_count));
  for (std::size_t i = 0; i < sample_count; ++i) {
    lines->InsertCellPoint(static_cast<vtkIdType>(i));
  }
  rod.centreline->SetLines(lines);
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

// the section frame's y axis seeds the tube's sides, so the tube twists with the rod
void updateRodActor(RodActor& rod, const RodShape& shape) {
  const auto count = static_cast<vtkIdType>(shape.points.size());
  vtkNew<vtkPoints> points;
  vtkNew<vtkDoubleArray> radii;
  radii->SetName("radius");
  points->SetNumberOfPoints(count);
  radii->SetNumberOfTuples(count);
  for (vtkIdType i = 0; i < count; ++i) {
    const Eigen::Vector3d& p = shape.points[static_cast<std::size_t>(i)];
    points->SetPoint(i, p.x(), p.y(), p.z());
    radii->SetValue(i, radiusAt(shape, static_cast<std::size_t>(i)));
  }
  rod.centreline->SetPoints(points);
  rod.centreline->GetPointData()->SetScalars(radii);
  if (shape.orientations.size() == shape.points.size()) {
    vtkNew<vtkDoubleArray> normals;
    normals->SetNumberOfComponents(3);
    normals->SetNumberOfTuples(count);
    for (vtkIdType i = 0; i < count; ++i) {
      const Eigen::Vector3d y_axis = shape.orientations[static_cast<std::size_t>(i)].col(1);
      normals->SetTuple3(i, y_axis.x(), y_axis.y(), y_axis.z());
    }
    rod.centreline->GetPointData()->SetNormals(normals);
  }
  rod.centreline->Modified();
  rod.actor->SetVisibility(count >= 2);
}

// sources are centred at the shape frame (the CoM); a cylinder's axis is x, VTK's is y
vtkSmartPointer<vtkAlgorithm> makeShapeSource(const ShapeDesc& shape) {
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
  }
  return vtkSmartPointer<vtkCubeSource>::New();
}

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

/// Grid spacing of 1, 2 or 5 times a power of ten, giving about kGridLinesPerSide lines per side.
double niceSpacing(double half_extent) {
  const double raw = half_extent / kGridLinesPerSide;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double step : {1.0, 2.0, 5.0}) {
    if (step * decade >= raw) {
      return step * decade;
    }
  }
  return 10.0 * decade;
}

// a square grid on the floor under the robot, centred below it
vtkSmartPointer<vtkPolyData> makeGrid(const std::optional<Bounds>& robot) {
  const Bounds b = robot.value_or(Bounds{-0.5, 0.5, -0.5, 0.5, 0.0, 0.0});
  const double size = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4], 0.2});
  const double spacing = niceSpacing(0.75 * size);
  const double half = spacing * kGridLinesPerSide;
  const double cx = spacing * std::round(0.5 * (b[0] + b[1]) / spacing);
  const double cy = spacing * std::round(0.5 * (b[2] + b[3]) / spacing);
  const double z = std::min(0.0, b[4]);
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  for (int i = -kGridLinesPerSide; i <= kGridLinesPerSide; ++i) {
    const double offset = i * spacing;
    const vtkIdType a = points->InsertNextPoint(cx + offset, cy - half, z);
    const vtkIdType c = points->InsertNextPoint(cx + offset, cy + half, z);
    const vtkIdType d = points->InsertNextPoint(cx - half, cy + offset, z);
    const vtkIdType e = points->InsertNextPoint(cx + half, cy + offset, z);
    const vtkIdType line_x[2] = {a, c};
    const vtkIdType line_y[2] = {d, e};
    lines->InsertNextCell(2, line_x);
    lines->InsertNextCell(2, line_y);
  }
  auto grid = vtkSmartPointer<vtkPolyData>::New();
  grid->SetPoints(points);
  grid->SetLines(lines);
  return grid;
}

}  // namespace

struct RobotScene::Impl {
  vtkRenderer* renderer = nullptr;
  std::optional<StructureSignature> signature;
  std::vector<RodActor> rods;
  std::vector<vtkSmartPointer<vtkActor>> bodies;
  vtkSmartPointer<vtkActor> grid = vtkSmartPointer<vtkActor>::New();
  int rebuild_count = 0;

  Impl(vtkRenderer* target) : renderer(target) {
    vtkNew<vtkPolyDataMapper> mapper;
    grid->SetMapper(mapper);
    grid->GetProperty()->SetColor(kGridColor[0], kGridColor[1], kGridColor[2]);
    grid->GetProperty()->LightingOff();
    grid->PickableOff();
    grid->VisibilityOff();
    renderer->AddActor(grid);
  }

  void removeRobotActors() {
    for (const RodActor& rod : rods) {
      renderer->RemoveActor(rod.actor);
    }
    for (const auto& body : bodies) {
      renderer->RemoveActor(body);
    }
    rods.clear();
    bodies.clear();
  }

  void rebuild(const Frame& frame) {
    removeRobotActors();
    for (const RodShape& rod : frame.rods) {
      rods.push_back(makeRodActor(rod.points.size()));
      renderer->AddActor(rods.back().actor);
    }
    for (const BodyShape& body : frame.bodies) {
      bodies.push_back(makeBodyActor(body.shape));
      renderer->AddActor(bodies.back());
    }
    ++rebuild_count;
  }

  void update(const Frame& frame) {
    for (std::size_t i = 0; i < rods.size(); ++i) {
      updateRodActor(rods[i], frame.rods[i]);
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      updateBodyActor(bodies[i], frame.bodies[i]);
    }
  }

  void placeGrid(const std::optional<Bounds>& robot) {
    vtkMapper* mapper = grid->GetMapper();
    static_cast<vtkPolyDataMapper*>(mapper)->SetInputData(makeGrid(robot));
    grid->VisibilityOn();
  }

  std::optional<Bounds> bounds() const {
    std::optional<Bounds> total;
    auto include = [&total](vtkActor* actor) {
      if (!actor->GetVisibility()) {
        return;
      }
      const double* b = actor->GetBounds();
      if (b == nullptr || b[0] > b[1]) {
        return;
      }
      if (!total) {
        total = Bounds{b[0], b[1], b[2], b[3], b[4], b[5]};
        return;
      }
      for (int axis = 0; axis < 3; ++axis) {
        (*total)[2 * axis] = std::min((*total)[2 * axis], b[2 * axis]);
        (*total)[2 * axis + 1] = std::max((*total)[2 * axis + 1], b[2 * axis + 1]);
      }
    };
    for (const RodActor& rod : rods) {
      include(rod.actor);
    }
    for (const auto& body : bodies) {
      include(body);
    }
    return total;
  }
};

RobotScene::RobotScene(vtkRenderer* renderer) : impl_(std::make_unique<Impl>(renderer)) {}

RobotScene::~RobotScene() {
  impl_->removeRobotActors();
  impl_->renderer->RemoveActor(impl_->grid);
}

bool RobotScene::show(const Frame& frame) {
  StructureSignature signature = signatureOf(frame);
  const bool rebuilt = signature != impl_->signature;
  if (rebuilt) {
    impl_->rebuild(frame);
    impl_->signature = std::move(signature);
  }
  impl_->update(frame);
  if (rebuilt) {
    impl_->placeGrid(impl_->bounds());
  }
  return rebuilt;
}

void RobotScene::clear() {
  impl_->removeRobotActors();
  impl_->grid->VisibilityOff();
  impl_->signature.reset();
}

std::optional<Bounds> RobotScene::robotBounds() const {
  return impl_->bounds();
}

int RobotScene::rebuildCount() const {
  return impl_->rebuild_count;
}

}  // namespace tendril
