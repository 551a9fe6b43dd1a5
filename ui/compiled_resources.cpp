#include "ui/compiled_resources.hpp"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside a namespace
static void initialiseResources() {
  Q_INIT_RESOURCE(resources);
}

namespace tendril {

void ensureCompiledResources() {
  static const bool kRegistered = [] {
    initialiseResources();
    return true;
  }();
  (void)kRegistered;
}

}  // namespace tendril
