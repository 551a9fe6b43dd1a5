#include "ui/export_settings.hpp"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace tendril {
namespace {

const QString kWidthKey = QStringLiteral("export/width");
const QString kHeightKey = QStringLiteral("export/height");
const QString kFrameRateKey = QStringLiteral("export/framesPerSecond");
const QString kSpeedKey = QStringLiteral("export/playbackSpeed");

// video frames of a run of `duration` seconds
int videoFrameCount(double duration, double frames_per_second, double playback_speed) {
  // the small slack keeps t_end itself when duration * fps / speed is whole up to rounding
  return static_cast<int>(std::floor(duration * frames_per_second / playback_speed + 1e-9)) + 1;
}

}  // namespace

ExportSettings ExportSettings::remembered() {
  const QSettings settings;
  ExportSettings s;
  const auto side = [](int value) {
    return std::clamp(value, ExportSettings::kMinSide, ExportSettings::kMaxSide);
  };
  s.size = QSize(side(settings.value(kWidthKey, s.size.width()).toInt()),
                 side(settings.value(kHeightKey, s.size.height()).toInt()));
  s.frames_per_second =
      std::clamp(settings.value(kFrameRateKey, s.frames_per_second).toDouble(), 1.0, 240.0);
  s.playback_speed =
      std::clamp(settings.value(kSpeedKey, s.playback_speed).toDouble(), 0.001, 1000.0);
  return s;
}

void ExportSettings::remember() const {
  QSettings settings;
  settings.setValue(kWidthKey, size.width());
  settings.setValue(kHeightKey, size.height());
  settings.setValue(kFrameRateKey, frames_per_second);
  settings.setValue(kSpeedKey, playback_speed);
}

std::vector<int> videoFrameSchedule(const std::vector<double>& recorded_times,
                                    double frames_per_second, double playback_speed) {
  std::vector<int> schedule;
  if (recorded_times.empty()) return schedule;
  const double start = recorded_times.front();
  const int count =
      videoFrameCount(recorded_times.back() - start, frames_per_second, playback_speed);
  schedule.reserve(static_cast<std::size_t>(count));
  std::size_t recorded = 0;
  for (int k = 0; k < count; ++k) {
    const double t = start + k * playback_speed / frames_per_second;
    while (recorded + 1 < recorded_times.size() && recorded_times[recorded + 1] <= t + 1e-12)
      ++recorded;
    schedule.push_back(static_cast<int>(recorded));
  }
  return schedule;
}

ExportSettingsDialog::ExportSettingsDialog(Kind kind, const ExportSettings& initial,
                                           double recorded_duration, QWidget* parent)
    : QDialog(parent), kind_(kind), recorded_duration_(recorded_duration) {
  setObjectName("exportSettingsDialog");
  setWindowTitle(kind == Kind::Video ? tr("Video Export Settings") : tr("Picture Size"));
  auto* form = new QFormLayout(this);
  const auto sideBox = [this](const char* name, int value) {
    auto* box = new QSpinBox(this);
    box->setObjectName(name);
    box->setRange(ExportSettings::kMinSide, ExportSettings::kMaxSide);
    box->setSuffix(tr(" px"));
    box->setValue(value);
    return box;
  };
  width_ = sideBox("exportWidth", initial.size.width());
  height_ = sideBox("exportHeight", initial.size.height());
  form->addRow(tr("Width:"), width_);
  form->addRow(tr("Height:"), height_);
  if (kind == Kind::Video) {
    frames_per_second_ = new QDoubleSpinBox(this);
    frames_per_second_->setObjectName("exportFrameRate");
    frames_per_second_->setRange(1.0, 240.0);
    frames_per_second_->setDecimals(0);
    frames_per_second_->setSuffix(tr(" frames/s"));
    frames_per_second_->setValue(initial.frames_per_second);
    playback_speed_ = new QDoubleSpinBox(this);
    playback_speed_->setObjectName("exportPlaybackSpeed");
    playback_speed_->setRange(0.001, 1000.0);
    playback_speed_->setDecimals(3);
    playback_speed_->setSuffix(tr(" × real time"));
    playback_speed_->setToolTip(
        tr("Simulated seconds shown per second of video: 1 plays the run in real time, 0.1 in slow "
           "motion, 10 ten times faster"));
    playback_speed_->setValue(initial.playback_speed);
    form->addRow(tr("Frame rate:"), frames_per_second_);
    form->addRow(tr("Playback speed:"), playback_speed_);
    summary_ = new QLabel(this);
    summary_->setObjectName("exportSummary");
    form->addRow(summary_);
    connect(frames_per_second_, &QDoubleSpinBox::valueChanged, this,
            &ExportSettingsDialog::updateSummary);
    connect(playback_speed_, &QDoubleSpinBox::valueChanged, this,
            &ExportSettingsDialog::updateSummary);
    updateSummary();
  }
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

ExportSettings ExportSettingsDialog::settings() const {
  ExportSettings s;
  s.size = QSize(width_->value(), height_->value());
  if (kind_ == Kind::Video) {
    s.frames_per_second = frames_per_second_->value();
    s.playback_speed = playback_speed_->value();
  }
  return s;
}

QString ExportSettingsDialog::summary() const {
  return summary_ != nullptr ? summary_->text() : QString();
}

void ExportSettingsDialog::updateSummary() {
  const double fps = frames_per_second_->value(), speed = playback_speed_->value();
  const int frames = videoFrameCount(recorded_duration_, fps, speed);
  summary_->setText(tr("The %1 s run plays for %2 s: %3 frames.")
                        .arg(recorded_duration_, 0, 'g', 3)
                        .arg(recorded_duration_ / speed, 0, 'g', 3)
                        .arg(frames));
}

}  // namespace tendril
