#pragma once
// Bottom tool bar: scrub through recorded frames, play/pause, playback speed.

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

 public slots:
  /// \brief Moves the slider without emitting frameRequested (the frame is already shown).
  void setCurrentFrame(int frame);
  void setPlaying(bool playing);

 signals:
  /// \brief The user (or playback) asks to show frame \p frame.
  void frameRequested(int frame);
  void playingChanged(bool playing);
  void speedChanged(double speed);

 private:
  void onSliderMoved(int frame);
  void onPlaybackTick();
  void updateLabel();
  void updateEnabled();

  QToolButton* play_button_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* frame_label_ = nullptr;
  QComboBox* speed_box_ = nullptr;
  QTimer* playback_timer_ = nullptr;
};

}  // namespace tendril
