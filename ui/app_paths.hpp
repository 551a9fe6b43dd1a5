#pragma once
// Where the application finds its bundled files, installed or run from the build tree.

#include <QString>

namespace tendril {

/// \brief The example models: <exe>/../share/tendril/examples when installed, else the source
///        tree's resources/examples. Empty when neither exists.
QString examplesDirectory();

/// \brief The model opened at start-up when no file is given: hybrid_serial_robot.json.
QString defaultExamplePath();

}  // namespace tendril
