#pragma once
// The files compiled into the studio (resources/resources.qrc: icons, the model schema, the user
// guide). tendril_ui is a static library, so its resource initialiser must be referenced once.

namespace tendril {

/// \brief Registers the compiled-in resources (":/...") once; safe to call from anywhere.
void ensureCompiledResources();

}  // namespace tendril
