#pragma once
// Renderer look and camera placement shared by the viewport widget and tendril-render.

#include <optional>
#include <string>

#include "ui/viewport/scene/robot_scene.hpp"
#include "ui/viewport/scene/scene_style.hpp"

class vtkRenderer;

namespace tendril {

/// \brief Light gradient background and a light kit. (No FXAA: it renders black offscreen with
///        VTK 9.1 on Mesa.)
void styleRenderer(vtkRenderer* renderer);

/// \brief Looks at \p bounds from \p direction (z up; top view has y up) and fits them in view.
///        Without bounds, looks at a 1 m cube at the origin.
void setCameraView(vtkRenderer* renderer, ViewDirection direction,
                   const std::optional<Bounds>& bounds);

/// \brief Keeps the view direction and moves the camera so that \p bounds fill the view.
void fitCamera(vtkRenderer* renderer, const std::optional<Bounds>& bounds);

/// \brief VTK's version, e.g. "9.1.0" (for the About box, which must not include VTK headers).
std::string vtkVersionString();

}  // namespace tendril
