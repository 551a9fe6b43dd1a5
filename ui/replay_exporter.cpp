#include "ui/replay_exporter.hpp"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <numeric>
#include <utility>

#include "ui/simulation_controller.hpp"
#include "ui/viewport/viewport_widget.hpp"

namespace tendril {
namespace {

constexpr int kKilledProcessWaitMs = 3000;  // for a killed ffmpeg to be reaped

// a modal progress dialog with Cancel: while it is up, setValue() runs the event loop (so the
// window repaints and Cancel works) and the window itself takes no input; kept open at its maximum
void setUpProgress(QProgressDialog& progress, const char* object_name, const QString& title) {
  progress.setObjectName(object_name);
  progress.setWindowTitle(title);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(0);
  progress.setAutoReset(false);
}

}  // namespace

ReplayExporter::ReplayExporter(QWidget* window, ViewportWidget* viewport,
                               const SimulationController* run, std::function<void(int)> show_frame,
                               std::function<int()> current_frame)
    : QObject(window),
      window_(window),
      viewport_(viewport),
      run_(run),
      show_frame_(std::move(show_frame)),
      current_frame_(std::move(current_frame)) {}

QString ReplayExporter::ffmpegPath() {
  return QStandardPaths::findExecutable("ffmpeg");
}

int ReplayExporter::exportPngSequence(const QString& directory, QSize size) {
  cancelled_ = false;
  std::vector<int> every(run_->frameCount());
  std::iota(every.begin(), every.end(), 0);
  return writeFrames(directory, every, size);
}

int ReplayExporter::writeFrames(const QString& directory, const std::vector<int>& frames,
                                QSize size) {
  const auto count = static_cast<int>(frames.size());
  if (count == 0 || !QDir().mkpath(directory)) return 0;
  QProgressDialog progress(tr("Writing the replay's frames..."), tr("Cancel"), 0, count, window_);
  setUpProgress(progress, "exportProgressDialog", tr("Export Replay"));
  const int shown = current_frame_();
  int written = 0;
  for (int i = 0; i < count; ++i) {
    progress.setLabelText(tr("Writing frame %1 of %2...").arg(i + 1).arg(count));
    progress.setValue(i);  // processes events: Cancel may have been pressed meanwhile
    if (progress.wasCanceled()) break;
    show_frame_(frames[static_cast<std::size_t>(i)]);
    const QImage image = viewport_->renderImageAt(size);
    const QString file =
        QDir(directory).filePath(QString("frame_%1.png").arg(i, 5, 10, QChar('0')));
    if (image.isNull() || !image.save(file, "PNG")) {
      last_error_ = tr("cannot write %1").arg(file);
      break;
    }
    ++written;
  }
  cancelled_ = progress.wasCanceled();
  progress.close();
  show_frame_(shown);
  if (cancelled_) {
    last_error_ = tr("cancelled after %1 of %2 frames").arg(written).arg(count);
    emit statusMessage(
        tr("Export cancelled: %1 of %2 frames were written").arg(written).arg(count));
  }
  return written;
}

bool ReplayExporter::exportVideo(const QString& path, const ExportSettings& settings) {
  cancelled_ = false;
  last_video_frames_ = 0;
  const QString ffmpeg = ffmpegPath();
  if (ffmpeg.isEmpty()) {
    last_error_ = tr("ffmpeg was not found on the PATH");
    return false;
  }
  std::vector<double> times(run_->frameCount());
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = run_->frameAt(i)->t;
  const std::vector<int> schedule =
      videoFrameSchedule(times, settings.frames_per_second, settings.playback_speed);
  QTemporaryDir images;
  const int frames = images.isValid() ? writeFrames(images.path(), schedule, settings.size) : 0;
  if (cancelled_) return false;  // writeFrames said how far it got
  if (frames == 0 || frames != static_cast<int>(schedule.size())) {
    last_error_ = frames == 0 ? tr("no recorded frames to encode") : last_error_;
    return false;
  }
  if (!encode(images.path(), path, frames, settings.frames_per_second)) return false;
  last_video_frames_ = frames;
  return true;
}

// ffmpeg runs asynchronously: a local event loop waits for it (or for Cancel, which kills it)
// while the progress dialog shows the frames it has encoded (its -progress lines on stdout)
bool ReplayExporter::encode(const QString& images, const QString& path, int frames,
                            double frames_per_second) {
  QProgressDialog progress(tr("Encoding the video with ffmpeg..."), tr("Cancel"), 0, frames,
                           window_);
  setUpProgress(progress, "encodeProgressDialog", tr("Export Replay as Video"));
  progress.setValue(0);
  // declared before the encoder, whose destructor may still deliver output to the lambda below
  const QRegularExpression frame_line("^frame=(\\d+)$", QRegularExpression::MultilineOption);
  QProcess encoder;
  QEventLoop loop;
  connect(&encoder, &QProcess::finished, &loop, &QEventLoop::quit);
  connect(&encoder, &QProcess::errorOccurred, &loop, [&loop](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) loop.quit();
  });
  connect(&progress, &QProgressDialog::canceled, &loop, &QEventLoop::quit);
  connect(&encoder, &QProcess::readyReadStandardOutput, &progress, [&, frames] {
    const QString text = QString::fromLatin1(encoder.readAllStandardOutput());
    for (auto match = frame_line.globalMatch(text); match.hasNext();)
      progress.setValue(std::min(match.next().captured(1).toInt(), frames - 1));
  });
  // even sizes for yuv420p, which every player reads
  encoder.start(
      ffmpegPath(),
      {"-y", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-framerate",
       QString::number(frames_per_second), "-i", QDir(images).filePath("frame_%05d.png"), "-vf",
       "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", path});
  if (encoder.state() != QProcess::NotRunning) loop.exec();
  if (progress.wasCanceled()) {
    encoder.kill();
    encoder.waitForFinished(kKilledProcessWaitMs);  // SIGKILL: it ends at once
    QFile::remove(path);                            // a partial video
    cancelled_ = true;
    last_error_ = tr("cancelled while encoding");
    emit statusMessage(tr("Video export cancelled"));
    return false;
  }
  progress.close();
  if (encoder.error() == QProcess::FailedToStart || encoder.exitStatus() != QProcess::NormalExit ||
      encoder.exitCode() != 0) {
    QString reason = QString::fromLocal8Bit(encoder.readAllStandardError()).trimmed();
    if (reason.isEmpty()) reason = encoder.errorString();
    last_error_ = tr("ffmpeg failed: %1").arg(reason);
    return false;
  }
  return true;
}

}  // namespace tendril
