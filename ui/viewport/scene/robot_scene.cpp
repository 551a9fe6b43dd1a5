#include "ui/viewport/scene/robot_scene.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ui/viewport/scene/body_actors.hpp"
#include "ui/viewport/scene/cables_and_loads.hpp"
#include "ui/viewport/scene/colour_legend.hpp"
#include "ui/viewport/scene/contact_obstacles.hpp"
#include "ui/viewport/scene/floor_grid.hpp"
#include "ui/viewport/scene/frame_triads.hpp"
#include "ui/viewport/scene/joint_glyphs.hpp"
#include "ui/viewport/scene/link_poses.hpp"
#include "ui/viewport/scene/rod_actor.hpp"
#include "ui/viewport/scene/scene_style.hpp"

namespace tendril {
namespace {

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

// an overlay (cables, load arrows, frame triads) starts empty and is never picked: picking finds
// the link under the cursor, not what is drawn over it
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
    for (const JointGlyphPlace& place : joint_places) {
      joint_actors.push_back(makeJointGlyphActor(place));
      renderer->AddActor(joint_actors.back());
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
    if (!description.cables.empty() || !description.lvp_tendons.empty() || cable_count > 0) {
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
