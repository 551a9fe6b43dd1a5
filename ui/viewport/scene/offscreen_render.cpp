#include "ui/viewport/scene/offscreen_render.hpp"

#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "ui/viewport/scene/robot_scene.hpp"
#include "ui/viewport/scene/scene_setup.hpp"
#include "ui/viewport/scene/x_display.hpp"

namespace tendril {
namespace {

constexpr int kMinImageSide = 16;
constexpr int kMaxImageSide = 8192;

bool fail(std::string* error, const std::string& reason) {
  if (error != nullptr) {
    *error = reason;
  }
  return false;
}

/// The reason the request cannot be rendered, or an empty string when it can.
std::string checkRequest(const std::string& png_path, int width, int height) {
  if (std::string problem = xDisplayProblem(); !problem.empty()) {
    return problem;
  }
  if (width < kMinImageSide || height < kMinImageSide || width > kMaxImageSide ||
      height > kMaxImageSide) {
    return "image size must be between " + std::to_string(kMinImageSide) + " and " +
           std::to_string(kMaxImageSide) + " pixels per side";
  }
  const std::filesystem::path directory =
      std::filesystem::absolute(std::filesystem::path(png_path)).parent_path();
  std::error_code ignored;
  if (!std::filesystem::is_directory(directory, ignored)) {
    return "output directory does not exist: " + directory.string();
  }
  return {};
}

bool writePng(vtkRenderWindow* window, const std::string& png_path, std::string* error) {
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGB();
  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(png_path.c_str());
  writer->SetInputConnection(grab->GetOutputPort());
  writer->Write();
  if (writer->GetErrorCode() != 0) {
    return fail(error, "cannot write " + png_path);
  }
  return true;
}

}  // namespace

bool renderFrameToPng(const Frame& frame, const std::string& png_path, int width, int height,
                      std::string* error) {
  if (const std::string reason = checkRequest(png_path, width, height); !reason.empty()) {
    return fail(error, reason);
  }

  // offscreen window (still an X window underneath: no EGL or OSMesa on Debian), sized first
  // so that the camera fit knows the aspect ratio
  vtkNew<vtkRenderer> renderer;
  styleRenderer(renderer);
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(width, height);
  window->AddRenderer(renderer);

  RobotScene scene(renderer);
  scene.show(frame);
  setCameraView(renderer, ViewDirection::Isometric, scene.robotBounds());
  window->Render();

  return writePng(window, png_path, error);
}

bool renderFilmstripToPng(const std::vector<FramePtr>& frames,
                          const std::vector<std::string>& labels, const std::string& png_path,
                          int width, int height, std::string* error) {
  if (const std::string reason = checkRequest(png_path, width, height); !reason.empty()) {
    return fail(error, reason);
  }
  if (frames.empty()) return fail(error, "no frames to render");
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(width, height);
  // one renderer per panel, all looking through the first one's camera
  std::vector<vtkSmartPointer<vtkRenderer>> renderers;
  std::vector<std::unique_ptr<RobotScene>> scenes;
  std::vector<std::optional<Bounds>> bounds;
  double half_size = 0.0;  // of the largest frame: one scale for every panel
  const double panel = 1.0 / static_cast<double>(frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    auto renderer = vtkSmartPointer<vtkRenderer>::New();
    styleRenderer(renderer);
    renderer->SetViewport(panel * static_cast<double>(i), 0.0, panel * static_cast<double>(i + 1),
                          1.0);
    window->AddRenderer(renderer);
    auto scene = std::make_unique<RobotScene>(renderer);
    scene->show(*frames[i]);
    bounds.push_back(scene->robotBounds());
    if (bounds.back()) {
      for (int k = 0; k < 6; k += 2)
        half_size = std::max(half_size, 0.5 * ((*bounds.back())[k + 1] - (*bounds.back())[k]));
    }
    if (i < labels.size()) {
      vtkNew<vtkTextActor> caption;
      caption->SetInput(labels[i].c_str());
      caption->GetTextProperty()->SetFontSize(std::max(12, height / 24));
      caption->GetTextProperty()->SetColor(0.1, 0.1, 0.15);
      caption->SetPosition(10, 10);
      renderer->AddActor2D(caption);
    }
    renderers.push_back(renderer);
    scenes.push_back(std::move(scene));
  }
  window->Render();  // sizes the viewports so that the fit knows their aspect
  // each panel follows its frame (a swimming robot leaves any common view) at one common scale:
  // the same cube, the size of the largest frame, around each frame's centre
  for (std::size_t i = 0; i < renderers.size(); ++i) {
    std::optional<Bounds> view;
    if (bounds[i]) {
      view = Bounds{};
      for (int k = 0; k < 6; k += 2) {
        const double centre = 0.5 * ((*bounds[i])[k] + (*bounds[i])[k + 1]);
        (*view)[k] = centre - half_size;
        (*view)[k + 1] = centre + half_size;
      }
    }
    setCameraView(renderers[i], ViewDirection::Isometric, view);
  }
  window->Render();
  return writePng(window, png_path, error);
}

}  // namespace tendril
