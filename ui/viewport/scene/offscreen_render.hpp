#pragma once
// Renders a Frame to a PNG file without any window on screen (tendril-render). No VTK in this
// header; no Qt anywhere.

#include <string>
#include <vector>

#include "core/sim/frame.hpp"

namespace tendril {

/// \brief Renders \p frame from the isometric view, fitted to the robot, into a PNG file.
/// \param[in] frame     what to draw
/// \param[in] png_path  output file; its directory must exist
/// \param[in] width     image width [px], 16..8192
/// \param[in] height    image height [px], 16..8192
/// \param[out] error    when non-null and rendering fails, a one-line reason
/// \return true when the PNG was written
/// \pre A reachable X display: Debian's VTK has neither EGL nor OSMesa. Without one this returns
///      false with a reason naming xvfb-run, instead of letting VTK abort the process.
bool renderFrameToPng(const Frame& frame, const std::string& png_path, int width, int height,
                      std::string* error);

/// \brief Renders frames side by side into one PNG, a film strip of a motion: isometric cameras
/// at one common scale, each centred on its frame and captioned with its label (e.g. "t = 2 s").
/// Same preconditions and failures as renderFrameToPng; \p width is the whole strip's.
bool renderFilmstripToPng(const std::vector<FramePtr>& frames,
                          const std::vector<std::string>& labels, const std::string& png_path,
                          int width, int height, std::string* error);

}  // namespace tendril
