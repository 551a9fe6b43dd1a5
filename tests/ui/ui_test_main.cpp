// GoogleTest main for the GUI tests. Listing tests (gtest_discover_tests at build time) must
// work without a display, so the QApplication is created only when tests actually run.

#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include "ui/viewport/viewport_widget.hpp"

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) {
    return RUN_ALL_TESTS();
  }
  // autosave and recovery files go to a temporary data directory, never the user's
  const QTemporaryDir data_directory;
  qputenv("XDG_DATA_HOME", data_directory.path().toLocal8Bit());
  QSurfaceFormat::setDefaultFormat(tendril::ViewportWidget::defaultSurfaceFormat());
  QApplication app(argc, argv);
  // a scope of their own, so tests never read or overwrite a user's settings
  QCoreApplication::setOrganizationName("TendrilTest");
  QCoreApplication::setApplicationName("TendrilUiTests");
  const QTemporaryDir settings_directory;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_directory.path());
  return RUN_ALL_TESTS();
}
