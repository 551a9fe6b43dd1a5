#pragma once
// Bottom tool bar: scrub through recorded frames, single steps, play/pause, playback speed
// (0.1x to 10x of real time, frames skipped when they come faster than the display) and loop.

#include <QElapsedTimer>
#include <QToolBar>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace tendril {

class TimelineBar : public QToolBar {
  Q_OBJECT

 public:
  explicit TimelineBar(QWidget* parent = nullptr);

  /// \brief Number of frames the slider can reach (0 or 1 disables scrubbing and playback).
  void setFrameCount(int count);
  [[nodiscard]] int frameCount() const;
  [[nodiscard]] int currentFrame() const;
  [[nodiscard]] bool isPlaying() const;
  /// \brief Playback speed factor, 0.1 to 10.
  [[nodiscard]] double speed() const;
  /// \brief Chooses the offered speed nearest to \p speed.
  void setSpeed(double speed);
  [[nodiscard]] bool isLooping() const;
  /// \brief Simulated time between two frames [s]: playback at 1x shows one second per second.
  void setFrameInterval(double seconds);
  /// \brief A streaming run has recorded \p count frames: the range grows, and the slider moves
  ///        to the newest frame only while it follows the live end, that is unless the user holds
  ///        it or has moved it back (it follows again once moved to the end).
  ///        \return whether it follows (the caller then shows the newest frame)
  bool extendLive(int count);

 public slots:
  /// \brief Moves the slider without emitting frameRequested (the frame is already shown).
  void setCurrentFrame(int frame);
  void setPlaying(bool playing);
  void setLooping(bool looping);
  /// \brief One frame forward or back (stops playback).
  void stepForward();
  void stepBackward();

 signals:
  /// \brief The user (or playback) asks to show frame \p frame.
  void frameRequested(int frame);
  void playingChanged(bool playing);
  void speedChanged(double speed);

 private:
  void onSliderMoved(int frame);
  void onPlaybackTick();
  void updateLabel();
  void updateLabelWidth();
  void updateEnabled();

  void restartClock();

  QToolButton* play_button_ = nullptr;
  QToolButton* back_button_ = nullptr;
  QToolButton* forward_button_ = nullptr;
  QToolButton* loop_button_ = nullptr;
  double frame_interval_;
  QElapsedTimer clock_;
  int clock_start_frame_ = 0;
  QSlider* slider_ = nullptr;
  QLabel* frame_label_ = nullptr;
  QComboBox* speed_box_ = nullptr;
  QTimer* playback_timer_ = nullptr;
};

}  // namespace tendril
