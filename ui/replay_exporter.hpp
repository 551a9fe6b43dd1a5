#pragma once
// Exports of a recorded run: every frame as a PNG, or a video encoded by ffmpeg at a chosen size,
// frame rate and playback speed. Each export shows a window-modal progress dialog whose Cancel
// stops it and leaves nothing half-written behind (a cancelled video is deleted).

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

#include "ui/export_settings.hpp"

class QProgressDialog;
class QWidget;

namespace tendril {

class SimulationController;
class ViewportWidget;

class ReplayExporter : public QObject {
  Q_OBJECT

 public:
  /// \param[in] show_frame shows a recorded frame in the viewport and the timeline
  /// \param[in] current_frame the frame shown now (restored after an export)
  ReplayExporter(QWidget* window, ViewportWidget* viewport, const SimulationController* run,
                 std::function<void(int)> show_frame, std::function<int()> current_frame);

  /// \brief Writes every recorded frame as frame_00000.png, ... into \p directory (created if
  ///        needed) at \p size, with a progress dialog (objectName "exportProgressDialog").
  ///        \return the number of images written (fewer when cancelled or a write fails)
  int exportPngSequence(const QString& directory, QSize size);
  /// \brief Encodes the recording as an H.264 video with ffmpeg (found on PATH): the frames of
  ///        videoFrameSchedule() rendered at settings.size, then ffmpeg with its own progress
  ///        dialog ("encodeProgressDialog"). \return false, with the reason in lastError(), on
  ///        failure, cancel or without ffmpeg
  bool exportVideo(const QString& path, const ExportSettings& settings);

  /// \brief The last export was cancelled.
  [[nodiscard]] bool cancelled() const { return cancelled_; }
  [[nodiscard]] QString lastError() const { return last_error_; }
  /// \brief The frames the last exportVideo() encoded.
  [[nodiscard]] int lastVideoFrames() const { return last_video_frames_; }
  /// \brief ffmpeg on PATH, or empty (the video export is then disabled).
  [[nodiscard]] static QString ffmpegPath();

 signals:
  /// \brief A line for the status bar (a cancel, how far it got).
  void statusMessage(const QString& message);

 private:
  // writes the recorded frames `frames` (indices, repeats allowed) as numbered PNGs at `size`
  // under a progress dialog; returns how many were written
  int writeFrames(const QString& directory, const std::vector<int>& frames, QSize size);
  bool encode(const QString& images, const QString& path, int frames, double frames_per_second);

  QWidget* window_;
  ViewportWidget* viewport_;
  const SimulationController* run_;
  std::function<void(int)> show_frame_;
  std::function<int()> current_frame_;
  bool cancelled_ = false;
  QString last_error_;
  int last_video_frames_ = 0;
};

}  // namespace tendril
