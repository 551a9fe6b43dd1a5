#pragma once
// Whether an X server is reachable. Debian's VTK renders only through X (no EGL or OSMesa) and
// aborts the process when it cannot connect, so tendril-render asks first.

#include <string>

namespace tendril {

/// \brief Empty when an X display can be opened (or the platform needs none); otherwise a
///        one-line reason that tells the user to run under xvfb-run.
std::string xDisplayProblem();

}  // namespace tendril
