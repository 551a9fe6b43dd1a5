#include "ui/panels/timeline_bar.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFontMetrics>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace tendril {
namespace {

constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};
constexpr int kNormalSpeedIndex = 3;
constexpr int kTickMs = 15;                           // about 60 display updates per second
constexpr double kDefaultFrameInterval = 1.0 / 60.0;  // [s]

}  // namespace

TimelineBar::TimelineBar(QWidget* parent)
    : QToolBar(tr("Timeline"), parent), frame_interval_(kDefaultFrameInterval) {
  setObjectName("timelineBar");

  back_button_ = new QToolButton(this);
  back_button_->setObjectName("stepBackButton");
  back_button_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
  back_button_->setToolTip(tr("Previous frame (,)"));
  back_button_->setShortcut(QKeySequence(Qt::Key_Comma));
  addWidget(back_button_);

  play_button_ = new QToolButton(this);
  play_button_->setCheckable(true);
  play_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_button_->setToolTip(tr("Play / pause the recorded frames"));
  play_button_->setObjectName("playButton");
  play_button_->setShortcut(QKeySequence(Qt::Key_Space));
  addWidget(play_button_);

  forward_button_ = new QToolButton(this);
  forward_button_->setObjectName("stepForwardButton");
  forward_button_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
  forward_button_->setToolTip(tr("Next frame (.)"));
  forward_button_->setShortcut(QKeySequence(Qt::Key_Period));
  addWidget(forward_button_);

  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setToolTip(tr("Scrub through the recorded frames"));
  slider_->setMinimumWidth(200);
  addWidget(slider_);

  frame_label_ = new QLabel(this);
  frame_label_->setObjectName("frameLabel");
  frame_label_->setAlignment(Qt::AlignCenter);
  addWidget(frame_label_);

  speed_box_ = new QComboBox(this);
  speed_box_->setToolTip(tr("Playback speed"));
  for (double speed : kSpeeds) {
    speed_box_->addItem(QString("%1x").arg(speed), speed);
  }
  speed_box_->setCurrentIndex(kNormalSpeedIndex);
  addWidget(speed_box_);

  loop_button_ = new QToolButton(this);
  loop_button_->setObjectName("loopButton");
  loop_button_->setText(tr("Loop"));
  loop_button_->setCheckable(true);
  loop_button_->setToolTip(tr("Start again from the first frame at the end"));
  addWidget(loop_button_);

  playback_timer_ = new QTimer(this);
  playback_timer_->setInterval(kTickMs);
  connect(back_button_, &QToolButton::clicked, this, &TimelineBar::stepBackward);
  connect(forward_button_, &QToolButton::clicked, this, &TimelineBar::stepForward);
  connect(play_button_, &QToolButton::toggled, this, &TimelineBar::setPlaying);
  connect(slider_, &QSlider::valueChanged, this, &TimelineBar::onSliderMoved);
  connect(playback_timer_, &QTimer::timeout, this, &TimelineBar::onPlaybackTick);
  connect(speed_box_, &QComboBox::currentIndexChanged, this, [this] {
    restartClock();
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
  updateLabelWidth();
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

void TimelineBar::setSpeed(double speed) {
  int nearest = 0;
  for (int i = 0; i < speed_box_->count(); ++i) {
    if (std::abs(speed_box_->itemData(i).toDouble() - speed) <
        std::abs(speed_box_->itemData(nearest).toDouble() - speed)) {
      nearest = i;
    }
  }
  speed_box_->setCurrentIndex(nearest);
}

bool TimelineBar::isLooping() const {
  return loop_button_->isChecked();
}

void TimelineBar::setLooping(bool looping) {
  loop_button_->setChecked(looping);
}

void TimelineBar::setFrameInterval(double seconds) {
  frame_interval_ = seconds > 0.0 ? seconds : kDefaultFrameInterval;
  restartClock();
}

bool TimelineBar::extendLive(int count) {
  // decided before the range grows: a slider at the old end is following
  const bool follows = !slider_->isSliderDown() && currentFrame() >= slider_->maximum();
  setFrameCount(count);
  if (follows) {
    setCurrentFrame(count - 1);
  }
  return follows;
}

void TimelineBar::stepForward() {
  setPlaying(false);
  slider_->setValue(std::min(currentFrame() + 1, slider_->maximum()));
}

void TimelineBar::stepBackward() {
  setPlaying(false);
  slider_->setValue(std::max(currentFrame() - 1, 0));
}

// playback follows the wall clock from the frame where it (re)started
void TimelineBar::restartClock() {
  clock_.start();
  clock_start_frame_ = currentFrame();
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
    if (currentFrame() >= slider_->maximum()) {
      const QSignalBlocker blocker(slider_);
      slider_->setValue(0);  // play from the start again
    }
    restartClock();
    playback_timer_->start();
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
  const double elapsed = 1e-3 * static_cast<double>(clock_.elapsed());
  const int target =
      clock_start_frame_ + static_cast<int>(std::floor(elapsed * speed() / frame_interval_));
  if (target > slider_->maximum()) {
    if (isLooping()) {
      slider_->setValue(0);
      restartClock();
    } else {
      slider_->setValue(slider_->maximum());
      setPlaying(false);
    }
    return;
  }
  if (target != currentFrame()) {
    slider_->setValue(target);
  }
}

void TimelineBar::updateLabel() {
  frame_label_->setText(tr("frame %1 / %2").arg(currentFrame() + 1).arg(frameCount()));
}

// wide enough for the widest label of this count ("frame 201 / 201"), so that the tool bar never
// squeezes it, and steady while the frame number changes; a digit wider than those of the count
// (proportional fonts) is covered by measuring the widest digit
void TimelineBar::updateLabelWidth() {
  const QFontMetrics metrics = frame_label_->fontMetrics();
  QChar widest = '0';
  for (QChar digit : QStringLiteral("0123456789")) {
    if (metrics.horizontalAdvance(digit) > metrics.horizontalAdvance(widest)) {
      widest = digit;
    }
  }
  const QString digits(QString::number(std::max(frameCount(), 1)).size(), widest);
  const QString widest_text = tr("frame %1 / %2").arg(digits, digits);
  const QMargins margins = frame_label_->contentsMargins();
  frame_label_->setMinimumWidth(metrics.horizontalAdvance(widest_text) + margins.left() +
                                margins.right() + 2 * frame_label_->margin() + 8);
}

void TimelineBar::updateEnabled() {
  const bool has_frames = frameCount() > 1;
  slider_->setEnabled(has_frames);
  play_button_->setEnabled(has_frames);
  back_button_->setEnabled(has_frames);
  forward_button_->setEnabled(has_frames);
}

}  // namespace tendril
