#include "ui/viewport/scene/robot_scene.hpp"

#include <vtkActor.h>
#include <vtkAlgorithmOutput.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellPicker.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataAlgorithm.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyLine.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSTLReader.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/math/lie.hpp"
#include "core/model/validate.hpp"
#include "core/sim/make_frame.hpp"
#include "ui/viewport/scene/contact_obstacles.hpp"
#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

constexpr int kTubeSides = 24;
constexpr int kShapeResolution = 48;
constexpr int kGridLinesPerSide = 10;
constexpr double kPickTolerance = 0.002;    // fraction of the window diagonal
constexpr double kHighlightAmbient = 0.55;  // how strongly the highlight tint shows

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

/// A rod: centreline polyline with per-point radius (active scalars) swept by a tube filter. The
/// points and arrays are made once per structure and overwritten in place for every frame.
struct RodActor {
  vtkSmartPointer<vtkPolyData> centreline = vtkSmartPointer<vtkPolyData>::New();
  vtkSmartPointer<vtkPoints> points = vtkSmartPointer<vtkPoints>::New();
  vtkSmartPointer<vtkDoubleArray> radii = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkDoubleArray> value = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkDoubleArray> normals = vtkSmartPointer<vtkDoubleArray>::New();
  vtkSmartPointer<vtkTubeFilter> tube = vtkSmartPointer<vtkTubeFilter>::New();
  vtkSmartPointer<vtkActor> actor = vtkSmartPointer<vtkActor>::New();
};

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

// the floor: z = 0, or lower when the robot reaches below it
double floorHeight(const std::optional<Bounds>& robot) {
  return robot ? std::min(0.0, (*robot)[4]) : 0.0;
}

// the lowest point of the rods' surfaces and of the bodies' centres (a cheap test per frame)
double lowestPoint(const Frame& frame) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const RodShape& rod : frame.rods) {
    for (std::size_t i = 0; i < rod.points.size(); ++i) {
      const double radius = i < rod.radii.size() ? rod.radii[i] : 0.0;
      lowest = std::min(lowest, rod.points[i].z() - radius);
    }
  }
  for (const BodyShape& body : frame.bodies)
    lowest = std::min(lowest, body.pose_W.translation().z());
  return lowest;
}

// a square grid on the floor under the robot, centred below it
vtkSmartPointer<vtkPolyData> makeGrid(const std::optional<Bounds>& robot, double z) {
  const Bounds b = robot.value_or(Bounds{-0.5, 0.5, -0.5, 0.5, 0.0, 0.0});
  const double size = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4], 0.2});
  const double spacing = niceSpacing(0.75 * size);
  const double half = spacing * kGridLinesPerSide;
  const double cx = spacing * std::round(0.5 * (b[0] + b[1]) / spacing);
  const double cy = spacing * std::round(0.5 * (b[2] + b[3]) / spacing);
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

constexpr double kCableLineWidth = 3.0;
constexpr double kArrowLength = 0.08;  // [m]: arrows show where and which way, not how much
constexpr Rgb kCableColor{0.80, 0.10, 0.12};
constexpr Rgb kLoadColor{0.95, 0.55, 0.05};

double polynomial(const std::vector<double>& coefficients, double x) {
  double value = 0.0;
  for (auto c = coefficients.rbegin(); c != coefficients.rend(); ++c) {
    value = value * x + *c;
  }
  return value;
}

/// Abscissa X [m] of each centreline sample: arc length scaled to the rod's reference length
/// (exact for an inextensible rod, close enough to place a preview otherwise).
std::vector<double> sampleAbscissae(const RodShape& rod, double length) {
  std::vector<double> X(rod.points.size(), 0.0);
  for (std::size_t i = 1; i < X.size(); ++i) {
    X[i] = X[i - 1] + (rod.points[i] - rod.points[i - 1]).norm();
  }
  const double arc = X.empty() ? 0.0 : X.back();
  for (double& x : X) {
    x = arc > 0.0 ? x * length / arc : 0.0;
  }
  return X;
}

/// Pose of the centreline at abscissa \p x of a rod of reference length \p length, interpolated
/// between samples whose abscissae are sampleAbscissae(rod, length), computed on the way (this
/// runs for every joint glyph and load arrow of every frame: no allocation).
void rodPoseAt(const RodShape& rod, double length, double x, Eigen::Vector3d& p,
               Eigen::Matrix3d& R) {
  double arc = 0.0;
  for (std::size_t i = 1; i < rod.points.size(); ++i) {
    arc += (rod.points[i] - rod.points[i - 1]).norm();
  }
  const double scale = arc > 0.0 ? length / arc : 0.0;
  // the first sample at or beyond x (or the last), as abscissae X_before < X_i
  std::size_t i = 1;
  double X_before = 0.0;
  double X_i = (rod.points[1] - rod.points[0]).norm() * scale;
  while (i + 1 < rod.points.size() && X_i < x) {
    ++i;
    X_before = X_i;
    X_i += (rod.points[i] - rod.points[i - 1]).norm() * scale;
  }
  const double span = X_i - X_before;
  const double s = span > 0.0 ? std::clamp((x - X_before) / span, 0.0, 1.0) : 0.0;
  p = (1.0 - s) * rod.points[i - 1] + s * rod.points[i];
  R = s < 0.5 ? rod.orientations[i - 1] : rod.orientations[i];
}

/// The reference length of the centreline of link \p link [m] (a GVS rod's divisions, a
/// constant-curvature segment's length; 0 for a rigid body).
double rodLength(const RobotDescription& robot, int link) {
  return centrelineLength(robot.links[static_cast<std::size_t>(link)]);
}

/// Abscissae where the divisions of a link with a centreline start, and its length last: a GVS
/// rod's divisions, a constant-curvature segment's one (cables address them by index); empty for
/// a rigid body.
std::vector<double> divisionStarts(const LinkDesc& link) {
  std::vector<double> start{0.0};
  switch (link.kind()) {
    case BodyKind::Rigid:
      return {};
    case BodyKind::Soft:
      for (const DivisionDesc& d : link.soft().divisions) start.push_back(start.back() + d.length);
      return start;
    case BodyKind::ConstantCurvature:
      start.push_back(link.constantCurvature().length);
      return start;
  }
  return {};
}

/// The centre of mass of rigid link \p link in its link frame, or nothing when the link is not
/// rigid (a frame of an older model may still be on screen while the description changes).
std::optional<Eigen::Vector3d> rigidCom(const RobotDescription& robot, int link) {
  if (link < 0 || link >= static_cast<int>(robot.links.size())) return std::nullopt;
  const LinkDesc& desc = robot.links[static_cast<std::size_t>(link)];
  if (desc.kind() != BodyKind::Rigid) return std::nullopt;
  return Eigen::Vector3d(desc.rigid().com.data());
}

const RodShape* rodOf(const Frame& frame, int link) {
  for (const RodShape& rod : frame.rods) {
    if (rod.link == link && rod.points.size() >= 2 && rod.orientations.size() == rod.points.size())
      return &rod;
  }
  return nullptr;
}

int linkIndex(const RobotDescription& robot, const std::string& name) {
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    if (robot.links[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

/// Each cable as a polyline through its divisions, offset from the centreline in the section.
vtkSmartPointer<vtkPolyData> makeCableLines(const RobotDescription& robot, const Frame& frame,
                                            int& count) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  count = 0;
  for (const CableDesc& cable : robot.cables) {
    const int link = linkIndex(robot, cable.link);
    const RodShape* rod = link >= 0 ? rodOf(frame, link) : nullptr;
    if (rod == nullptr) continue;
    const std::vector<double> start = divisionStarts(robot.links[static_cast<std::size_t>(link)]);
    if (start.size() < 2) continue;
    const int divisions = static_cast<int>(start.size()) - 1;
    const std::vector<double> X = sampleAbscissae(*rod, start.back());
    std::vector<vtkIdType> ids;
    for (const CableSegmentDesc& segment : cable.path) {
      if (segment.division < 0 || segment.division >= divisions) continue;
      const auto d = static_cast<std::size_t>(segment.division);
      for (std::size_t i = 0; i < X.size(); ++i) {
        if (X[i] < start[d] - 1e-9 || X[i] > start[d + 1] + 1e-9) continue;
        const double local = X[i] - start[d];
        const Eigen::Vector3d offset(0.0, polynomial(segment.y, local),
                                     polynomial(segment.z, local));
        const Eigen::Vector3d p = rod->points[i] + rod->orientations[i] * offset;
        ids.push_back(points->InsertNextPoint(p.x(), p.y(), p.z()));
      }
    }
    if (ids.size() >= 2) {
      lines->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
      ++count;
    }
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

/// An arrow whose tip touches the application point, pointing along the load's force (or its
/// moment when it has no force).
vtkSmartPointer<vtkPolyData> makeLoadArrows(const RobotDescription& robot, const Frame& frame,
                                            int& count) {
  vtkNew<vtkAppendPolyData> arrows;
  count = 0;
  for (const PointLoadDesc& load : robot.point_loads) {
    const int link = linkIndex(robot, load.link);
    if (link < 0) continue;
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    bool placed = false;
    if (const RodShape* rod = rodOf(frame, link)) {
      const double length = rodLength(robot, link);
      rodPoseAt(*rod, length, load.abscissa < 0.0 ? length : load.abscissa, p, R);
      placed = true;
    }
    const std::optional<Eigen::Vector3d> com = rigidCom(robot, link);
    for (const BodyShape& body : frame.bodies) {
      if (body.link != link || !com) continue;
      R = body.pose_W.linear();
      p = body.pose_W.translation() - R * *com;
      placed = true;
    }
    if (!placed) continue;
    const Eigen::Vector3d at =
        p + R * Eigen::Vector3d(load.offset[0], load.offset[1], load.offset[2]);
    Eigen::Vector3d direction(load.wrench[3], load.wrench[4], load.wrench[5]);
    if (direction.norm() == 0.0)
      direction = Eigen::Vector3d(load.wrench[0], load.wrench[1], load.wrench[2]);
    if (direction.norm() == 0.0) continue;
    if (load.frame == LoadFrame::Local) direction = R * direction;
    direction.normalize();
    // vtkArrowSource points along +x from 0 to 1: scale, turn x onto the direction, end at the
    // point
    const Eigen::Vector3d axis = Eigen::Vector3d::UnitX().cross(direction);
    const double angle = std::atan2(axis.norm(), direction.x());
    vtkNew<vtkTransform> place;
    const Eigen::Vector3d base = at - kArrowLength * direction;
    place->Translate(base.x(), base.y(), base.z());
    if (axis.norm() > 1e-12) {
      place->RotateWXYZ(angle * 180.0 / 3.14159265358979323846, axis.x(), axis.y(), axis.z());
    } else if (direction.x() < 0.0) {
      place->RotateWXYZ(180.0, 0.0, 0.0, 1.0);
    }
    place->Scale(kArrowLength, kArrowLength, kArrowLength);
    vtkNew<vtkArrowSource> arrow;
    arrow->SetShaftRadius(0.04);
    arrow->SetTipRadius(0.12);
    vtkNew<vtkTransformPolyDataFilter> placed_arrow;
    placed_arrow->SetInputConnection(arrow->GetOutputPort());
    placed_arrow->SetTransform(place);
    placed_arrow->Update();
    arrows->AddInputData(placed_arrow->GetOutput());
    ++count;
  }
  if (count == 0) return vtkSmartPointer<vtkPolyData>::New();
  arrows->Update();
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->ShallowCopy(arrows->GetOutput());
  return data;
}

constexpr Rgb kJointColor{0.45, 0.25, 0.70};
constexpr Rgb kLoopJointColor{0.75, 0.20, 0.55};

/// Where a joint sits and which way its axis points, in the link frame it moves. Everything here
/// is fixed by the description (jointGlyphPlaces); only the link frame moves from frame to frame.
struct JointGlyphPlace {
  int link = -1;           ///< the link whose frame carries the glyph
  double abscissa = -2.0;  ///< on a centreline: X along it (-1 tip); -2: its base
  Placement placement;     ///< glyph frame in that frame
  Vec3 axis{1.0, 0.0, 0.0};
  JointType type = JointType::Revolute;
  double size = 0.02;  ///< [m]
  bool loop = false;   ///< a closed-loop joint (drawn in its own colour)
  /// the glyph's pose in the link frame: the placement, with the glyph's x on the joint axis
  Eigen::Isometry3d g_LG = Eigen::Isometry3d::Identity();
  double rod_length = 0.0;  ///< the link's centreline length [m] (0 for a rigid one)
};

Eigen::Matrix3d rotationOf(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

// the parts of a place that no frame changes
void completePlace(const RobotDescription& robot, JointGlyphPlace& place) {
  Eigen::Vector3d axis(place.axis[0], place.axis[1], place.axis[2]);
  axis = axis.norm() > 0.0 ? axis.normalized() : Eigen::Vector3d::UnitX();
  const Eigen::Matrix3d R_axis =
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), axis).toRotationMatrix();
  place.g_LG = Eigen::Isometry3d::Identity();
  place.g_LG.translation() = Eigen::Vector3d(place.placement.position.data());
  place.g_LG.linear() = rotationOf(place.placement.rpy) * R_axis;
  const LinkDesc& link = robot.links[static_cast<std::size_t>(place.link)];
  place.rod_length = hasCentreline(link.kind()) ? rodLength(robot, place.link) : 0.0;
}

// glyph size from the body it sits on: a little wider than its thinnest dimension, so that it
// shows on a bar without swallowing a plate
double glyphSize(const LinkDesc& link) {
  constexpr double kMinimum = 0.01;  // [m]
  if (link.kind() == BodyKind::ConstantCurvature) {
    return std::max(3.0 * link.constantCurvature().radius, kMinimum);
  }
  if (link.kind() == BodyKind::Soft) {
    const CrossSectionDesc& section = link.soft().divisions.front().section;
    const double r = section.shape == SectionShape::Circular
                         ? section.radius_start
                         : 0.5 * std::max(section.width_start, section.height_start);
    return std::max(3.0 * r, kMinimum);
  }
  const ShapeDesc& shape = link.rigid().shape;
  switch (shape.type) {
    case ShapeType::Box:
    case ShapeType::Mesh:  // its bounding box
      return std::max(1.3 * std::min(shape.size[1], shape.size[2]), kMinimum);
    case ShapeType::Cylinder:
      return std::max(1.3 * std::min(2.0 * shape.size[0], shape.size[1]), kMinimum);
    case ShapeType::Sphere:
      return std::max(0.8 * shape.size[0], kMinimum);
  }
  return 2.0 * kMinimum;
}

// glyph geometry with its axis along x, centred at the origin
vtkSmartPointer<vtkPolyData> makeJointGlyph(JointType type, double size) {
  vtkSmartPointer<vtkPolyDataAlgorithm> source;
  vtkNew<vtkTransform> along_x;
  switch (type) {
    case JointType::Revolute:
    case JointType::Helical:
    case JointType::Cylindrical: {
      // a disc on the axis, VTK's cylinder runs along y
      auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();
      cylinder->SetRadius(0.5 * size);
      cylinder->SetHeight(1.2 * size);
      cylinder->SetResolution(kShapeResolution / 2);
      along_x->RotateZ(-90.0);
      source = cylinder;
      break;
    }
    case JointType::Prismatic: {
      auto bar = vtkSmartPointer<vtkCubeSource>::New();
      bar->SetXLength(2.0 * size);
      bar->SetYLength(0.3 * size);
      bar->SetZLength(0.3 * size);
      source = bar;
      break;
    }
    default: {
      auto ball = vtkSmartPointer<vtkSphereSource>::New();
      ball->SetRadius(0.5 * size);
      ball->SetThetaResolution(kShapeResolution / 2);
      ball->SetPhiResolution(kShapeResolution / 4);
      source = ball;
      break;
    }
  }
  vtkNew<vtkTransformPolyDataFilter> placed;
  placed->SetInputConnection(source->GetOutputPort());
  placed->SetTransform(along_x);
  placed->Update();
  auto glyph = vtkSmartPointer<vtkPolyData>::New();
  glyph->ShallowCopy(placed->GetOutput());
  return glyph;
}

/// The pose in world of frame (link, abscissa) of \p frame, or nothing when it is not drawn;
/// \p rod_length is the link's centreline length when it has one (rodLength).
std::optional<Eigen::Isometry3d> linkFramePose(const RobotDescription& robot, const Frame& frame,
                                               int link, double abscissa, double rod_length) {
  if (link < 0 || link >= static_cast<int>(robot.links.size())) return std::nullopt;
  Eigen::Isometry3d g = Eigen::Isometry3d::Identity();
  if (const RodShape* rod = rodOf(frame, link)) {
    if (abscissa <= -2.0) {
      g.linear() = rod->orientations.front();
      g.translation() = rod->points.front();
      return g;
    }
    Eigen::Vector3d p;
    Eigen::Matrix3d R;
    rodPoseAt(*rod, rod_length, abscissa < 0.0 ? rod_length : abscissa, p, R);
    g.linear() = R;
    g.translation() = p;
    return g;
  }
  const std::optional<Eigen::Vector3d> com = rigidCom(robot, link);
  for (const BodyShape& body : frame.bodies) {
    if (body.link != link || !com) continue;
    g.linear() = body.pose_W.linear();
    g.translation() = body.pose_W.translation() - g.linear() * *com;
    return g;
  }
  return std::nullopt;
}

std::vector<JointGlyphPlace> jointGlyphPlaces(const RobotDescription& robot) {
  std::vector<JointGlyphPlace> places;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const LinkDesc& link = robot.links[i];
    if (link.joint.type == JointType::Fixed) continue;
    JointGlyphPlace place;
    place.link = static_cast<int>(i);
    place.axis = link.joint.axis;
    place.type = link.joint.type;
    place.size = glyphSize(link);
    completePlace(robot, place);
    places.push_back(place);
  }
  for (const ClosedChainDesc& chain : robot.closed_chains) {
    JointGlyphPlace place;
    place.link = linkIndex(robot, chain.a.link);
    if (place.link < 0) continue;
    const LinkDesc& link = robot.links[static_cast<std::size_t>(place.link)];
    place.abscissa = hasCentreline(link.kind()) ? chain.a.abscissa : -2.0;
    place.placement = chain.a.placement;
    place.axis = chain.joint.axis;
    place.type = chain.joint.type == JointType::Fixed ? JointType::Spherical : chain.joint.type;
    place.size = glyphSize(link);
    place.loop = true;
    completePlace(robot, place);
    places.push_back(place);
  }
  return places;
}

/// Short x (red), y (green), z (blue) axes at every computational point of the rods and at every
/// rigid link frame.
vtkSmartPointer<vtkPolyData> makeFrameTriads(const RobotDescription& robot, const Frame& frame,
                                             int& count) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("colors");
  count = 0;
  auto add = [&](const Eigen::Vector3d& p, const Eigen::Matrix3d& R, double length) {
    static const unsigned char kAxisColors[3][3] = {{210, 40, 40}, {30, 160, 40}, {40, 70, 220}};
    const vtkIdType origin = points->InsertNextPoint(p.x(), p.y(), p.z());
    for (int axis = 0; axis < 3; ++axis) {
      const Eigen::Vector3d end = p + length * R.col(axis);
      const vtkIdType ids[2] = {origin, points->InsertNextPoint(end.x(), end.y(), end.z())};
      lines->InsertNextCell(2, ids);
      colors->InsertNextTypedTuple(kAxisColors[axis]);
    }
    ++count;
  };
  for (const RodShape& rod : frame.rods) {
    if (rod.orientations.size() != rod.points.size()) continue;
    for (std::size_t i = 0; i < rod.points.size(); i += kSamplesPerInterval) {
      add(rod.points[i], rod.orientations[i], std::max(4.0 * radiusAt(rod, i), 0.01));
    }
  }
  for (const BodyShape& body : frame.bodies) {
    const auto g = linkFramePose(robot, frame, body.link, -2.0, 0.0);
    if (!g) continue;
    const double size = std::max({body.shape.size[0], body.shape.size[1], body.shape.size[2]});
    add(g->translation(), g->linear(), std::max(0.5 * size, 0.02));
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  data->GetCellData()->SetScalars(colors);
  return data;
}

vtkSmartPointer<vtkActor> makeOverlayActor(const Rgb& color) {
  auto actor = vtkSmartPointer<vtkActor>::New();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(vtkSmartPointer<vtkPolyData>::New());
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(color[0], color[1], color[2]);
  actor->PickableOff();
  return actor;
}

}  // namespace

vtkSmartPointer<vtkLookupTable> makeSequentialTable() {
  auto table = vtkSmartPointer<vtkLookupTable>::New();
  table->SetHueRange(0.667, 0.0);  // blue to red
  table->Build();
  return table;
}

// blue through white to red, for values centred on zero
vtkSmartPointer<vtkLookupTable> makeDivergingTable() {
  constexpr int kColours = 255;
  auto table = vtkSmartPointer<vtkLookupTable>::New();
  table->SetNumberOfTableValues(kColours);
  for (int i = 0; i < kColours; ++i) {
    const double x = 2.0 * i / (kColours - 1) - 1.0;  // -1 .. 1
    const double fade = 1.0 - std::abs(x);
    if (x < 0.0) {
      table->SetTableValue(i, fade, fade, 1.0);
    } else {
      table->SetTableValue(i, 1.0, fade, fade);
    }
  }
  return table;
}

vtkSmartPointer<vtkScalarBarActor> makeLegend() {
  auto legend = vtkSmartPointer<vtkScalarBarActor>::New();
  legend->SetOrientationToVertical();
  legend->SetNumberOfLabels(5);
  legend->SetLabelFormat("%-#6.3g");
  // labels left of the bar, so that the title (centred over both) stays inside the view
  legend->SetTextPositionToPrecedeScalarBar();
  legend->GetPositionCoordinate()->SetValue(0.78, 0.08);
  legend->SetWidth(0.2);
  legend->SetHeight(0.6);
  legend->SetBarRatio(0.25);
  legend->UnconstrainedFontSizeOn();
  for (vtkTextProperty* text : {legend->GetTitleTextProperty(), legend->GetLabelTextProperty()}) {
    text->SetColor(0.15, 0.15, 0.2);
    text->SetFontSize(12);
    text->ShadowOff();
    text->BoldOff();
    text->ItalicOff();
  }
  legend->VisibilityOff();
  return legend;
}

struct RobotScene::Impl {
  vtkRenderer* renderer = nullptr;
  std::optional<StructureSignature> signature;
  std::vector<RodActor> rods;
  std::vector<vtkSmartPointer<vtkActor>> bodies;
  std::vector<int> rod_links, body_links;  // link index of each rod and body actor
  int highlighted_link = -1;
  vtkSmartPointer<vtkActor> grid = vtkSmartPointer<vtkActor>::New();
  vtkSmartPointer<vtkActor> cables = makeOverlayActor(kCableColor);
  // cables run inside their rods: drawn in a layer above the scene, seen through the rod
  vtkSmartPointer<vtkRenderer> overlay = vtkSmartPointer<vtkRenderer>::New();
  vtkRenderWindow* overlay_window = nullptr;

  void attachOverlay() {
    vtkRenderWindow* window = renderer->GetRenderWindow();
    if (window == nullptr || window == overlay_window) {
      return;
    }
    detachOverlay();
    window->SetNumberOfLayers(std::max(window->GetNumberOfLayers(), 2));
    overlay->SetLayer(1);
    overlay->InteractiveOff();
    overlay->SetActiveCamera(renderer->GetActiveCamera());
    window->AddRenderer(overlay);
    overlay_window = window;
  }

  void detachOverlay() {
    if (overlay_window != nullptr) {
      overlay_window->RemoveRenderer(overlay);
      overlay_window = nullptr;
    }
  }
  vtkSmartPointer<vtkActor> loads = makeOverlayActor(kLoadColor);
  vtkSmartPointer<vtkActor> frames = makeOverlayActor(kGridColor);
  RobotDescription description;
  int cable_count = 0, load_count = 0, triad_count = 0;
  int rebuild_count = 0;
  bool show_joints = true;
  bool show_frames = false;
  // one actor per joint glyph, built when the description changes and moved by a user matrix
  std::vector<JointGlyphPlace> joint_places;
  std::vector<vtkSmartPointer<vtkActor>> joint_actors;
  int joint_count = 0;

  void rebuildJointGlyphs() {
    for (const auto& actor : joint_actors) renderer->RemoveActor(actor);
    joint_actors.clear();
    joint_places = jointGlyphPlaces(description);
    for (std::size_t i = 0; i < joint_places.size(); ++i) {
      const JointGlyphPlace& place = joint_places[i];
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(makeJointGlyph(place.type, place.size));
      auto actor = vtkSmartPointer<vtkActor>::New();
      actor->SetMapper(mapper);
      const Rgb& color = place.loop ? kLoopJointColor : kJointColor;
      actor->GetProperty()->SetColor(color[0], color[1], color[2]);
      actor->GetProperty()->SetSpecular(0.3);
      actor->PickableOff();
      actor->SetUserMatrix(vtkSmartPointer<vtkMatrix4x4>::New());
      actor->VisibilityOff();
      renderer->AddActor(actor);
      joint_actors.push_back(actor);
    }
  }

  void updateJointGlyphs(const Frame* frame) {
    joint_count = 0;
    for (std::size_t i = 0; i < joint_actors.size(); ++i) {
      vtkActor* actor = joint_actors[i];
      const JointGlyphPlace& place = joint_places[i];
      const auto g_WL =
          frame != nullptr && show_joints
              ? linkFramePose(description, *frame, place.link, place.abscissa, place.rod_length)
              : std::nullopt;
      actor->SetVisibility(g_WL.has_value());
      if (!g_WL) continue;
      const Eigen::Matrix4d g_WG = (*g_WL * place.g_LG).matrix();
      vtkMatrix4x4* matrix = actor->GetUserMatrix();
      for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 4; ++col) matrix->SetElement(row, col, g_WG(row, col));
      }
      matrix->Modified();
      actor->Modified();
      ++joint_count;
    }
  }

  void updateOverlays(const Frame* frame) {
    static const Frame kEmpty;
    const Frame& source = frame != nullptr ? *frame : kEmpty;
    // a model without cables (or loads) keeps the empty geometry it has
    if (!description.cables.empty() || cable_count > 0) {
      static_cast<vtkPolyDataMapper*>(cables->GetMapper())
          ->SetInputData(makeCableLines(description, source, cable_count));
    }
    if (!description.point_loads.empty() || load_count > 0) {
      static_cast<vtkPolyDataMapper*>(loads->GetMapper())
          ->SetInputData(makeLoadArrows(description, source, load_count));
    }
    updateJointGlyphs(frame);
    triad_count = 0;
    frames->SetVisibility(show_frames && frame != nullptr);
    if (show_frames && frame != nullptr) {
      static_cast<vtkPolyDataMapper*>(frames->GetMapper())
          ->SetInputData(makeFrameTriads(description, *frame, triad_count));
    }
  }

  Impl(vtkRenderer* target) : renderer(target) {
    vtkNew<vtkPolyDataMapper> mapper;
    grid->SetMapper(mapper);
    grid->GetProperty()->SetColor(kGridColor[0], kGridColor[1], kGridColor[2]);
    grid->GetProperty()->LightingOff();
    grid->PickableOff();
    grid->VisibilityOff();
    renderer->AddActor(grid);
    cables->GetProperty()->SetLineWidth(kCableLineWidth);
    cables->GetProperty()->LightingOff();
    cables->GetProperty()->RenderLinesAsTubesOn();
    overlay->AddActor(cables);
    renderer->AddActor(loads);
    frames->GetProperty()->SetLineWidth(2.0);
    frames->GetProperty()->LightingOff();
    auto* frame_mapper = static_cast<vtkPolyDataMapper*>(frames->GetMapper());
    frame_mapper->SetScalarModeToUseCellData();
    frame_mapper->SetColorModeToDirectScalars();
    frame_mapper->ScalarVisibilityOn();
    frames->VisibilityOff();
    overlay->AddActor(frames);
    overlay->AddActor2D(legend);
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
    rod_links.clear();
    body_links.clear();
  }

  std::optional<RodQuantity> colouring;
  double scalar_max = 0.0;  // the colour map's top |value|, grown as larger values appear
  vtkSmartPointer<vtkLookupTable> sequential_table = makeSequentialTable();
  vtkSmartPointer<vtkLookupTable> diverging_table = makeDivergingTable();
  vtkSmartPointer<vtkScalarBarActor> legend = makeLegend();

  RodQuantity shownQuantity() const { return colouring.value_or(RodQuantity::Curvature); }

  // one table for every rod, made once: the mappers change only when the mode or range does; a
  // signed quantity is centred on zero (blue compression, red tension)
  void applyColorMap(const Frame* frame) {
    if (colouring && frame != nullptr) {
      for (const RodShape& rod : frame->rods) {
        for (const auto& values : rod.interval_values) {
          scalar_max = std::max(scalar_max, std::abs(values[static_cast<int>(*colouring)]));
        }
      }
    }
    const bool is_signed = colouring && rodQuantityInfo(*colouring).is_signed;
    const double top = std::max(scalar_max, 1e-12);
    vtkLookupTable* table = is_signed ? diverging_table : sequential_table;
    for (RodActor& rod : rods) {
      auto* mapper = static_cast<vtkPolyDataMapper*>(rod.actor->GetMapper());
      mapper->SetScalarVisibility(colouring.has_value());
      if (colouring) {
        mapper->SetScalarModeToUsePointFieldData();
        mapper->SelectColorArray("value");
        mapper->SetLookupTable(table);
        mapper->SetScalarRange(is_signed ? -top : 0.0, top);
      }
    }
    legend->SetVisibility(colouring.has_value() && !rods.empty());
    if (colouring) {
      const RodQuantityInfo info = rodQuantityInfo(*colouring);
      legend->SetLookupTable(table);
      legend->SetTitle((std::string(info.name) + " [" + info.unit + "]").c_str());
    }
  }

  void applyHighlight() {
    auto tint = [this](vtkActor* actor, int link) {
      const bool lit = link >= 0 && link == highlighted_link;
      actor->GetProperty()->SetAmbient(lit ? kHighlightAmbient : 0.0);
      actor->GetProperty()->SetAmbientColor(kHighlightColor[0], kHighlightColor[1],
                                            kHighlightColor[2]);
    };
    for (std::size_t i = 0; i < rods.size(); ++i) {
      tint(rods[i].actor, rod_links[i]);
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      tint(bodies[i], body_links[i]);
    }
  }

  void rebuild(const Frame& frame) {
    removeRobotActors();
    for (const RodShape& rod : frame.rods) {
      rods.push_back(makeRodActor(rod.points.size()));
      rod_links.push_back(rod.link);
      renderer->AddActor(rods.back().actor);
    }
    for (const BodyShape& body : frame.bodies) {
      bodies.push_back(makeBodyActor(body.shape));
      body_links.push_back(body.link);
      renderer->AddActor(bodies.back());
    }
    applyHighlight();
    ++rebuild_count;
  }

  void update(const Frame& frame) {
    for (std::size_t i = 0; i < rods.size(); ++i) {
      updateRodActor(rods[i], frame.rods[i], shownQuantity());
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      updateBodyActor(bodies[i], frame.bodies[i]);
    }
  }

  std::vector<vtkSmartPointer<vtkActor>> obstacles;

  void removeObstacles() {
    for (const auto& actor : obstacles) renderer->RemoveActor(actor);
    obstacles.clear();
  }

  // sized to the robot (planes and cylinders are unbounded): placed with the grid
  void placeObstacles(const std::optional<Bounds>& robot) {
    removeObstacles();
    if (!robot || !description.environment.contact) return;
    obstacles = makeContactObstacleActors(*description.environment.contact, *robot);
    for (const auto& actor : obstacles) renderer->AddActor(actor);
  }

  double grid_height = 0.0;  // z of the grid [m]

  void placeGrid(const std::optional<Bounds>& robot, double z) {
    vtkMapper* mapper = grid->GetMapper();
    static_cast<vtkPolyDataMapper*>(mapper)->SetInputData(makeGrid(robot, z));
    grid_height = z;
    grid->VisibilityOn();
  }

  // a robot that sags or falls below the grid (placed under its first pose) takes the grid down
  // with it, rather than passing through the floor; the grid never rises during a run (below
  // both the exact surface and the tube's vertices, so the same pose does not move it again)
  void lowerGridBelow(const Frame& frame) {
    const double lowest = lowestPoint(frame);
    if (lowest >= grid_height) return;
    const std::optional<Bounds> robot = bounds();
    placeGrid(robot, std::min(floorHeight(robot), lowest));
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
  impl_->removeObstacles();
  impl_->renderer->RemoveActor(impl_->grid);
  impl_->overlay->RemoveActor(impl_->cables);
  impl_->renderer->RemoveActor(impl_->loads);
  impl_->overlay->RemoveActor(impl_->frames);
  impl_->overlay->RemoveActor2D(impl_->legend);
  for (const auto& actor : impl_->joint_actors) impl_->renderer->RemoveActor(actor);
  impl_->detachOverlay();
}

bool RobotScene::show(const Frame& frame) {
  StructureSignature signature = signatureOf(frame);
  const bool rebuilt = signature != impl_->signature;
  if (rebuilt) {
    impl_->rebuild(frame);
    impl_->signature = std::move(signature);
  }
  impl_->update(frame);
  impl_->attachOverlay();
  impl_->updateOverlays(&frame);
  impl_->applyColorMap(&frame);
  if (rebuilt) {
    const std::optional<Bounds> bounds = impl_->bounds();
    impl_->placeGrid(bounds, floorHeight(bounds));
    impl_->placeObstacles(bounds);
  } else {
    impl_->lowerGridBelow(frame);
  }
  return rebuilt;
}

void RobotScene::clear() {
  impl_->removeRobotActors();
  impl_->updateOverlays(nullptr);
  impl_->grid->VisibilityOff();
  impl_->removeObstacles();
  impl_->signature.reset();
}

std::optional<Bounds> RobotScene::robotBounds() const {
  return impl_->bounds();
}

double RobotScene::gridHeight() const {
  return impl_->grid_height;
}

int RobotScene::rebuildCount() const {
  return impl_->rebuild_count;
}

void RobotScene::setDescription(const RobotDescription& robot) {
  impl_->description = robot;
  impl_->rebuildJointGlyphs();
  impl_->placeObstacles(impl_->bounds());
}

void RobotScene::setShowJoints(bool on) {
  impl_->show_joints = on;
}

bool RobotScene::showsJoints() const {
  return impl_->show_joints;
}

int RobotScene::jointGlyphCount() const {
  return impl_->joint_count;
}

void RobotScene::setShowFrames(bool on) {
  impl_->show_frames = on;
}

bool RobotScene::showsFrames() const {
  return impl_->show_frames;
}

int RobotScene::frameTriadCount() const {
  return impl_->triad_count;
}

int RobotScene::cableLineCount() const {
  return impl_->cable_count;
}

int RobotScene::obstacleCount() const {
  return static_cast<int>(impl_->obstacles.size());
}

int RobotScene::loadArrowCount() const {
  return impl_->load_count;
}

int RobotScene::pickLink(double x, double y) const {
  vtkNew<vtkCellPicker> picker;
  picker->SetTolerance(kPickTolerance);
  picker->PickFromListOn();
  for (const RodActor& rod : impl_->rods) {
    picker->AddPickList(rod.actor);
  }
  for (const auto& body : impl_->bodies) {
    picker->AddPickList(body);
  }
  // VTK 9.1's cell picker misses a body whose centre lies exactly on the ray through the centre
  // of the view (where Reset View puts a lone body): a quarter pixel off, it hits
  constexpr double kNudge = 0.25;
  constexpr std::array<std::array<double, 2>, 5> kOffsets{
      {{0.0, 0.0}, {kNudge, kNudge}, {-kNudge, -kNudge}, {kNudge, -kNudge}, {-kNudge, kNudge}}};
  const auto hits = [&](const std::array<double, 2>& d) {
    return picker->Pick(x + d[0], y + d[1], 0.0, impl_->renderer) != 0;
  };
  if (std::none_of(kOffsets.begin(), kOffsets.end(), hits)) {
    return -1;
  }
  vtkActor* hit = picker->GetActor();
  for (std::size_t i = 0; i < impl_->rods.size(); ++i) {
    if (impl_->rods[i].actor == hit) {
      return impl_->rod_links[i];
    }
  }
  for (std::size_t i = 0; i < impl_->bodies.size(); ++i) {
    if (impl_->bodies[i] == hit) {
      return impl_->body_links[i];
    }
  }
  return -1;
}

void RobotScene::setRodColouring(std::optional<RodQuantity> quantity) {
  impl_->colouring = quantity;
  impl_->scalar_max = 0.0;
  impl_->applyColorMap(nullptr);
}

std::optional<RodQuantity> RobotScene::rodColouring() const {
  return impl_->colouring;
}

bool RobotScene::showsColourLegend() const {
  return impl_->legend->GetVisibility() != 0;
}

double RobotScene::colourScaleTop() const {
  return impl_->scalar_max;
}

void RobotScene::restartColourScale() {
  impl_->scalar_max = 0.0;
}

void RobotScene::setHighlightedLink(int link) {
  impl_->highlighted_link = link;
  impl_->applyHighlight();
}

int RobotScene::highlightedLink() const {
  return impl_->highlighted_link;
}

}  // namespace tendril
