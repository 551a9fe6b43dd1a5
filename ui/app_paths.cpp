#include "ui/app_paths.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "tendril_version.hpp"

namespace tendril {

QString examplesDirectory() {
  const QString installed =
      QDir(QCoreApplication::applicationDirPath()).filePath("../share/tendril/examples");
  for (const QString& candidate : {installed, QStringLiteral(TENDRIL_SOURCE_EXAMPLES_DIR)}) {
    if (QFileInfo(candidate).isDir()) {
      return QDir(candidate).absolutePath();
    }
  }
  return {};
}

QString defaultExamplePath() {
  const QString directory = examplesDirectory();
  return directory.isEmpty() ? QString() : QDir(directory).filePath("hybrid_serial_robot.json");
}

}  // namespace tendril
