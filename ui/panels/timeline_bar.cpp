#include "ui/panels/timeline_bar.hpp"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>

namespace tendril {
namespace {

constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};
constexpr int kNormalSpeedIndex = 3;
constexpr int kDisplayRateHz = 60;  // frames are published every 1/60 s of simulated time

}  // namespace

TimelineBar::TimelineBar(QWidget* parent) : QToolBar(tr("Timeline"), parent) {
  setObjectName("timelineBar");

  play_button_ = new QToolButton(this);
  play_button_->setCheckable(true);
  play_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_button_->setToolTip(tr("Play / pause the recorded frames"));
  addWidget(play_button_);

  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setToolTip(tr("Scrub through the recorded frames"));
  slider_->setMinimumWidth(200);
  addWidget(slider_);

  frame_label_ = new QLabel(this);
  frame_label_->setMinimumWidth(90);
  frame_label_->setAlignment(Qt::AlignCenter);
  addWidget(frame_label_);

  speed_box_ = new QComboBox(this);
  speed_box_->setToolTip(tr("Playback speed"));
  for (double speed : kSpeeds) {
    speed_box_->addItem(QString("%1x").arg(speed), speed);
  }
  speed_box_->setCurrentIndex(kNormalSpeedIndex);
  addWidget(speed_box_);

  playback_timer_ = new QTimer(this);
  connect(play_button_, &QToolButton::toggled, this, &TimelineBar::setPlaying);
  connect(slider_, &QSlider::valueChanged, this, &TimelineBar::onSliderMoved);
  connect(playback_timer_, &QTimer::timeout, this, &TimelineBar::onPlaybackTick);
  connect(speed_box_, &QComboBox::currentIndexChanged, this, [this] {
    if (isPlaying()) {
      playback_timer_->start(static_cast<int>(1000.0 / (kDisplayRateHz * speed())));
    }
    emit speedChanged(speed());
  });
  setFrameCount(0);
}

void TimelineBar::setFrameCount(int count) {
  const QSignalBlocker blocker(slider_);
  slider_->setRange(0, std::max(0, count - 1));
  if (count <= 1) {
    setPlaying(false);
  }
  updateEnabled();
  updateLabel();
}

int TimelineBar::frameCount() const {
  return slider_->maximum() + 1;
}

int TimelineBar::currentFrame() const {
  return slider_->value();
}

bool TimelineBar::isPlaying() const {
  return play_button_->isChecked();
}

double TimelineBar::speed() const {
  return speed_box_->currentData().toDouble();
}

void TimelineBar::setCurrentFrame(int frame) {
  const QSignalBlocker blocker(slider_);
  slider_->setValue(frame);
  updateLabel();
}

void TimelineBar::setPlaying(bool playing) {
  playing = playing && frameCount() > 1;
  {
    const QSignalBlocker blocker(play_button_);
    play_button_->setChecked(playing);
  }
  play_button_->setIcon(
      style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  if (playing == playback_timer_->isActive()) {
    return;
  }
  if (playing) {
    playback_timer_->start(static_cast<int>(1000.0 / (kDisplayRateHz * speed())));
  } else {
    playback_timer_->stop();
  }
  emit playingChanged(playing);
}

void TimelineBar::onSliderMoved(int frame) {
  updateLabel();
  emit frameRequested(frame);
}

void TimelineBar::onPlaybackTick() {
  if (currentFrame() >= slider_->maximum()) {
    setPlaying(false);
    return;
  }
  slider_->setValue(currentFrame() + 1);
}

void TimelineBar::updateLabel() {
  frame_label_->setText(tr("frame %1 / %2").arg(currentFrame() + 1).arg(frameCount()));
}

void TimelineBar::updateEnabled() {
  const bool has_frames = frameCount() > 1;
  slider_->setEnabled(has_frames);
  play_button_->setEnabled(has_frames);
}

}  // namespace tendril
