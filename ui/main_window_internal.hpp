#pragma once
// Helpers shared by the files that implement MainWindow (main_window.cpp, main_window_editing.cpp,
// main_window_files.cpp). Not a public header.

#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <filesystem>

namespace tendril::main_window_detail {

inline constexpr int kStatusMessageMs = 5000;
/// \brief Where the autosave remembers which file the unsaved model came from.
inline const QString kRecoveredFileKey = QStringLiteral("recovery/originalFile");

inline std::filesystem::path toPath(const QString& path) {
  return std::filesystem::path(QFile::encodeName(path).toStdString());
}

/// \brief "/links/3" with \p list "links" -> 3; anything else -> -1.
inline int indexIn(const QString& pointer, const QString& list) {
  static const QRegularExpression item(QStringLiteral("^/([a-z_]+)/(\\d+)$"));
  const QRegularExpressionMatch match = item.match(pointer);
  return match.hasMatch() && match.captured(1) == list ? match.captured(2).toInt() : -1;
}

}  // namespace tendril::main_window_detail
