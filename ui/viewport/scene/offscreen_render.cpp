#include "ui/viewport/scene/offscreen_render.hpp"

#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkWindowToImageFilter.h>

#include <cstdlib>
#include <filesystem>

#include "ui/viewport/scene/robot_scene.hpp"
#include "ui/viewport/scene/scene_setup.hpp"

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
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    return "no X display: run under xvfb-run (Debian's VTK cannot render without X)";
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

  // scene, fitted isometric view
  vtkNew<vtkRenderer> renderer;
  styleRenderer(renderer);
  RobotScene scene(renderer);
  scene.show(frame);
  setCameraView(renderer, ViewDirection::Isometric, scene.robotBounds());

  // offscreen window (still an X window underneath: no EGL or OSMesa on Debian)
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(width, height);
  window->AddRenderer(renderer);
  window->Render();

  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
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
