#pragma once
// What an export of pictures or of a replay video looks like: its size, frame rate and playback
// speed, the dialog that asks for them, and the schedule of recorded frames a video shows.

#include <QDialog>
#include <QSize>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace tendril {

struct ExportSettings {
  static constexpr int kMinSide = 16;
  static constexpr int kMaxSide = 8192;

  QSize size{1280, 720};            ///< [px]
  double frames_per_second = 30.0;  ///< of the video
  double playback_speed = 1.0;      ///< simulated seconds per second of video: 1 is real time

  /// \brief The settings last accepted in the dialog (QSettings), or the defaults.
  static ExportSettings remembered();
  void remember() const;
};

/// \brief The recorded frame each video frame shows: video frame k is the simulated instant
///        t_0 + k * speed / fps, drawn as the last recorded frame at or before it, so that a run of
///        T seconds plays for T / speed seconds whatever its output interval.
/// \param[in] recorded_times the recording's instants [s], increasing
std::vector<int> videoFrameSchedule(const std::vector<double>& recorded_times,
                                    double frames_per_second, double playback_speed);

/// \brief Asks for an export's size (pictures), and for a video also its frame rate and speed,
///        showing what the video will be ("a 3 s run plays for 3 s: 91 frames").
class ExportSettingsDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Kind { Picture, Video };

  /// \param[in] recorded_duration the recording's span [s] (videos: for the summary line)
  ExportSettingsDialog(Kind kind, const ExportSettings& initial, double recorded_duration,
                       QWidget* parent = nullptr);

  [[nodiscard]] ExportSettings settings() const;
  /// \brief The line describing the video to come (tests read it).
  [[nodiscard]] QString summary() const;

 private:
  void updateSummary();

  Kind kind_;
  double recorded_duration_;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* frames_per_second_ = nullptr;
  QDoubleSpinBox* playback_speed_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace tendril
