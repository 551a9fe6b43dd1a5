#include "ui/viewport/scene/x_display.hpp"

#include <cstdlib>

#if defined(TENDRIL_HAVE_X11)
#include <X11/Xlib.h>
#endif

namespace tendril {

std::string xDisplayProblem() {
#if defined(TENDRIL_HAVE_X11)
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || *name == '\0') {
    return "no X display: run under xvfb-run (Debian's VTK cannot render without X)";
  }
  Display* display = XOpenDisplay(name);
  if (display == nullptr) {
    return std::string("cannot connect to X display ") + name + ": run under xvfb-run";
  }
  XCloseDisplay(display);
#endif
  return {};
}

}  // namespace tendril
