#include "ui/viewport/scene/offscreen_render.hpp"

#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkWindowToImageFilter.h>

#include <filesystem>

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

}  // namespace tendril
