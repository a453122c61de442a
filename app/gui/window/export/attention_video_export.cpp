#include "app/gui/window/export/attention_video_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <regex>

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/window/export/video_encoder.h"
#include "engine/core/dead_process_leftovers.h"
#include "engine/core/output_file.h"
#include "engine/runfolder/run_reader.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "widgets/attention/cls_attention_overlay.h"

namespace ascope {

/// Written and read by the encoder pool's one thread only (tasks run there in order), except
/// the counters the GUI thread polls.
struct AttentionVideoExport::Encoding {
  std::unique_ptr<VideoEncoder> encoder;
  QString target;
  QString temp;  ///< next to the target, renamed over it once complete
  QString error;
  std::atomic<bool> failed{false};
  std::atomic<int> in_flight{0};  ///< frames handed over, not yet encoded
  std::atomic<int> encoded{0};
};

namespace {

/// Frames drawn ahead of the encoder: enough to keep it busy, few enough to bound memory
/// (a 960 x 540 frame is 1.5 MB).
constexpr int kFramesAhead = 3;
/// Weights kept for the frames to come (1 GiB of floats): the layer grids of a few hundred
/// snapshots of a 512-token translator; more would crowd out the rest of the machine.
constexpr std::size_t kMaxKeptValues = std::size_t{1} << 28;

int findGroup(const AttentionPlotData& data, const QString& name) {
  if (name.isEmpty()) return data.groups.empty() ? -1 : 0;
  for (std::size_t g = 0; g < data.groups.size(); ++g) {
    if (data.groups[g].name == name) return static_cast<int>(g);
  }
  return -1;
}

QStringList groupNames(const AttentionPlotData& data) {
  QStringList names;
  for (const AttentionPlotGroup& g : data.groups) names << QStringLiteral("\"%1\"").arg(g.name);
  return names;
}

/// The first usable snapshot decides whether the request fits the run at all.
QString checkAgainst(const AttentionVideoRequest& request, const AttentionPlotGroup& group,
                     const PatchImageContext& image) {
  if (request.layer >= group.layerCount()) {
    return QObject::tr(
               "layer %1 is out of range: the \"%2\" attention of this run has layers "
               "0..%3")
        .arg(request.layer)
        .arg(group.name)
        .arg(group.layerCount() - 1);
  }
  if (request.view == AttentionFrameView::LayerGrid) return {};
  const int heads = group.headCount(request.layer);
  if (request.head >= heads) {
    return QObject::tr("head %1 is out of range: layer %2 of the \"%3\" attention has heads 0..%4")
        .arg(request.head)
        .arg(request.layer)
        .arg(group.name)
        .arg(heads - 1);
  }
  if (request.view == AttentionFrameView::ClsOverlay &&
      ClsAttentionOverlay::clsPatchWeights(image,
                                           group.layers[static_cast<std::size_t>(request.layer)]
                                                       [static_cast<std::size_t>(request.head)])
          .empty()) {
    return QObject::tr(
               "the CLS overlay needs a vision transformer's probe image; the \"%1\" "
               "attention of this run has none")
        .arg(group.name);
  }
  return {};
}

/// Worker thread: every stored snapshot of `run_dir`, the chosen group and layer of each.
AttentionVideoExport::Loaded loadFrames(const std::string& run_dir,
                                        const AttentionVideoRequest& request,
                                        const std::shared_ptr<std::atomic<bool>>& cancelled) {
  AttentionVideoExport::Loaded out;
  const std::vector<AttentionFileEntry> files = listAttentionFiles(run_dir);
  if (files.empty()) {
    out.error = QObject::tr("the run %1 has no stored attention snapshots")
                    .arg(QString::fromStdString(run_dir));
    return out;
  }
  std::size_t kept_values = 0;
  for (const AttentionFileEntry& entry : files) {
    if (*cancelled) return out;
    Expected<ProbeSet> probes = readProbeSet(entry.path);
    if (!probes.ok() || probes->samples.empty()) {
      out.warnings << (probes.ok()
                           ? QObject::tr("%1: no sample").arg(QString::fromStdString(entry.path))
                           : QString::fromStdString(probes.error()));
      continue;
    }
    const std::size_t sample = std::min(static_cast<std::size_t>(std::max(0, request.probe_index)),
                                        probes->samples.size() - 1);
    AttentionPlotData data = toAttentionPlotData(probes->samples[sample]);
    int g = findGroup(data, request.group);
    if (g < 0 && !request.group.isEmpty()) {
      // Aggregates ("… · mean of heads", "… · rollout") are made only when asked for.
      addAttentionAggregates(data, request.aggregates);
      g = findGroup(data, request.group);
    }
    if (g < 0) {
      if (!out.frames.empty()) continue;
      out.error = QObject::tr("no attention group \"%1\" in this run (it has %2)")
                      .arg(request.group, groupNames(data).join(QStringLiteral(", ")));
      out.bad_request = true;
      return out;
    }
    AttentionPlotGroup& group = data.groups[static_cast<std::size_t>(g)];
    if (out.frames.empty()) {
      out.error = checkAgainst(request, group, data.image);
      if (!out.error.isEmpty()) {
        out.bad_request = true;
        return out;
      }
    }
    if (request.layer >= group.layerCount() || (request.view != AttentionFrameView::LayerGrid &&
                                                request.head >= group.headCount(request.layer))) {
      out.warnings << QObject::tr("step %1 has no layer %2 head %3; left out")
                          .arg(data.step)
                          .arg(request.layer)
                          .arg(request.head);
      continue;
    }
    AttentionVideoExport::Frame frame;
    frame.step = data.step >= 0 ? data.step : entry.step;
    std::vector<LabeledMatrix> heads =
        std::move(group.layers[static_cast<std::size_t>(request.layer)]);
    if (request.view != AttentionFrameView::LayerGrid) {
      // One head is all its frames draw: a long translation run keeps megabytes, not gigabytes.
      std::vector<LabeledMatrix> one;
      one.push_back(std::move(heads[static_cast<std::size_t>(request.head)]));
      heads = std::move(one);
    }
    for (const LabeledMatrix& head : heads) kept_values += head.values.size();
    if (kept_values > kMaxKeptValues) {
      out.error = QObject::tr(
                      "the video would keep more than %1 MB of attention weights in "
                      "memory; export one head instead of the whole layer")
                      .arg(kMaxKeptValues * sizeof(float) >> 20);
      out.frames.clear();
      return out;
    }
    group.layers.clear();
    group.layers.push_back(std::move(heads));
    out.run_max.add(group);
    frame.group = std::move(group);
    frame.image = std::move(data.image);
    out.frames.push_back(std::move(frame));
  }
  if (out.frames.empty() && out.error.isEmpty()) {
    out.error = QObject::tr("none of the %1 attention snapshots of %2 could be read")
                    .arg(files.size())
                    .arg(QString::fromStdString(run_dir));
  }
  return out;
}

QString tempPathFor(const QString& target) {
  static std::atomic<int> counter{0};
  const QFileInfo info(target);
  return info.absoluteDir().filePath(QStringLiteral(".%1.partial-%2-%3.%4")
                                         .arg(info.completeBaseName())
                                         .arg(QCoreApplication::applicationPid())
                                         .arg(counter++)
                                         .arg(info.suffix().toLower()));
}

/// Flushes the finished file to disk before the rename makes it the target, so a crash leaves
/// the old video or the new one, never a truncated one.
void syncFile(const QString& path) {
  const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

AttentionVideoExport::AttentionVideoExport(QObject* parent)
    : QObject(parent), cancelled_(std::make_shared<std::atomic<bool>>(false)) {
  encoder_pool_.setMaxThreadCount(1);
  // A frame per tick, the window's events in between; while the encoder is behind, a tick only
  // looks at two counters.
  render_timer_.setInterval(5);
  connect(&render_timer_, &QTimer::timeout, this, &AttentionVideoExport::renderNext);
  connect(&load_watcher_, &QFutureWatcher<Loaded>::finished, this, &AttentionVideoExport::onLoaded);
  connect(&encode_watcher_, &QFutureWatcher<AttentionVideoResult>::finished, this,
          &AttentionVideoExport::onEncoded);
}

AttentionVideoExport::~AttentionVideoExport() {
  *cancelled_ = true;
  render_timer_.stop();
  load_watcher_.waitForFinished();
  if (encoding_ && running_) {
    // The temporary file is removed by the finishing task, which must run before the encoder
    // goes away with this object.
    finishEncoding();
  }
  encoder_pool_.waitForDone();
}

int AttentionVideoExport::removeStalePartialFiles(const QString& folder) {
  // The names tempPathFor gives.
  static const std::regex kPartial(R"(\..*\.partial-([0-9]+)-[0-9]+\.(gif|mp4))");
  return static_cast<int>(
      removeLeftoversOfDeadProcesses(QFile::encodeName(folder).toStdString(), kPartial).size());
}

QString AttentionVideoExport::checkRequest(const AttentionVideoRequest& request) {
  if (request.path.isEmpty()) return tr("no video file given");
  const std::optional<VideoFormat> format = videoFormatForPath(request.path);
  if (!format) {
    return tr("unknown video format \"%1\": the file name must end in .gif or .mp4")
        .arg(QFileInfo(request.path).suffix().isEmpty() ? request.path
                                                        : QFileInfo(request.path).suffix());
  }
  const int max_fps = VideoEncoder::maxFps(*format);
  if (request.fps < VideoEncoder::kMinFps || request.fps > max_fps) {
    return tr("frames per second must be %1..%2 for %3, got %4")
        .arg(VideoEncoder::kMinFps)
        .arg(max_fps)
        .arg(videoFormatSuffix(*format).toUpper())
        .arg(request.fps);
  }
  if (request.size.width() < 64 || request.size.height() < 64 || request.size.width() > 3840 ||
      request.size.height() > 2160 || request.size.width() % 2 != 0 ||
      request.size.height() % 2 != 0) {
    return tr("video size %1 x %2 must be even and within 64 x 64 .. 3840 x 2160")
        .arg(request.size.width())
        .arg(request.size.height());
  }
  if (request.layer < 0) return tr("layer %1 is out of range").arg(request.layer);
  if (request.head < 0) return tr("head %1 is out of range").arg(request.head);
  // The one check of every output a person names: no device, FIFO or link replaced, the folder
  // there and writable (engine/core/output_file.h).
  if (const Status s = checkOutputFile(QFile::encodeName(request.path).toStdString()); !s.ok()) {
    return QString::fromStdString(s.error());
  }
  return {};
}

void AttentionVideoExport::start(const QString& run_dir, AttentionVideoRequest request) {
  if (running_) return;
  request_ = std::move(request);
  clock_.start();
  if (const QString problem = checkRequest(request_); !problem.isEmpty()) {
    AttentionVideoResult result;
    result.error = problem;
    result.bad_request = true;
    return finish(result);
  }
  if (run_dir.isEmpty()) {
    AttentionVideoResult result;
    result.error = tr("no run is open: its stored snapshots are the frames");
    return finish(result);
  }
  // A kill -9 during an earlier export into this folder left its partial file behind.
  removeStalePartialFiles(QFileInfo(request_.path).absolutePath());
  running_ = true;
  *cancelled_ = false;
  loaded_ = Loaded{};
  next_frame_ = 0;
  reported_ = 0;
  Q_EMIT progress(0, 0);
  load_watcher_.setFuture(
      QtConcurrent::run([dir = run_dir.toStdString(), request = request_, cancelled = cancelled_] {
        return loadFrames(dir, request, cancelled);
      }));
}

void AttentionVideoExport::cancel() {
  *cancelled_ = true;
}

void AttentionVideoExport::onLoaded() {
  loaded_ = load_watcher_.result();
  if (*cancelled_ || !loaded_.error.isEmpty()) {
    AttentionVideoResult result;
    result.cancelled = *cancelled_;
    result.error = loaded_.error;
    result.bad_request = loaded_.bad_request;
    result.warnings = loaded_.warnings;
    return finish(result);
  }
  renderer_ = std::make_unique<AttentionFrameRenderer>(request_.view, request_.size, request_.font,
                                                       request_.palette);
  encoding_ = std::make_shared<Encoding>();
  encoding_->encoder = VideoEncoder::create(*videoFormatForPath(request_.path));
  encoding_->target = request_.path;
  encoding_->temp = tempPathFor(request_.path);
  encoder_pool_.start([encoding = encoding_, size = request_.size, fps = request_.fps] {
    encoding->error = encoding->encoder->open(encoding->temp, size, fps);
    if (!encoding->error.isEmpty()) encoding->failed = true;
  });
  Q_EMIT progress(0, static_cast<int>(loaded_.frames.size()));
  render_timer_.start();
}

QString AttentionVideoExport::frameTitle(const Frame& frame) const {
  const AttentionPlotGroup& g = frame.group;
  if (!g.aggregate_of.isEmpty()) return tr("%1 · %2").arg(g.name, g.headName(request_.head));
  if (request_.view == AttentionFrameView::LayerGrid)
    return tr("%1 · layer %2").arg(g.name).arg(request_.layer);
  return tr("%1 · layer %2 · head %3").arg(g.name).arg(request_.layer).arg(request_.head);
}

void AttentionVideoExport::renderNext() {
  const int total = static_cast<int>(loaded_.frames.size());
  if (const int encoded = encoding_->encoded; encoded != reported_) {
    reported_ = encoded;
    Q_EMIT progress(encoded, total);
  }
  if (*cancelled_ || encoding_->failed) {
    render_timer_.stop();
    return finishEncoding();
  }
  if (encoding_->in_flight >= kFramesAhead) return;
  if (next_frame_ >= loaded_.frames.size()) {
    render_timer_.stop();
    return finishEncoding();
  }
  const Frame& frame = loaded_.frames[next_frame_];
  const double overall = loaded_.run_max.overall();
  const AttentionHeadDisplay display =
      AttentionHeadDisplay(request_.scale, overall > 0.0 ? overall : 1.0, frame.group.causal,
                           frame.group.row_predictions)
          .withHeadRunMaxima(loaded_.run_max.layer(0));
  const QString title = frameTitle(frame);
  const QString what =
      request_.view == AttentionFrameView::ClsOverlay ? tr("CLS attention · %1").arg(title) : title;
  QString caption = tr("step %1 · %2").arg(frame.step).arg(what);
  if (!request_.run_name.isEmpty()) caption += QStringLiteral(" · ") + request_.run_name;
  // The frame keeps only the chosen layer, and of it only the chosen head unless it is a grid.
  QImage image = renderer_->render(frame.group, 0, 0, frame.image, display, title, caption);
  if (image.isNull()) {
    // checkAgainst passed on the first snapshot; a later one without the image is a broken file.
    encoding_->failed = true;
    loaded_.warnings << tr("step %1 cannot be drawn").arg(frame.step);
    encoder_pool_.start([encoding = encoding_, step = frame.step] {
      if (encoding->error.isEmpty())
        encoding->error = QObject::tr("the snapshot of step %1 cannot be drawn").arg(step);
    });
    render_timer_.stop();
    return finishEncoding();
  }
  ++next_frame_;
  ++encoding_->in_flight;
  encoder_pool_.start([encoding = encoding_, image = std::move(image)] {
    if (!encoding->failed) {
      encoding->error = encoding->encoder->addFrame(image);
      if (!encoding->error.isEmpty()) encoding->failed = true;
    }
    --encoding->in_flight;
    ++encoding->encoded;
  });
}

void AttentionVideoExport::finishEncoding() {
  if (encode_watcher_.isRunning()) return;
  encode_watcher_.setFuture(QtConcurrent::run(
      &encoder_pool_,
      [encoding = encoding_, cancelled = cancelled_, size = request_.size, fps = request_.fps] {
        AttentionVideoResult result;
        result.size = size;
        result.fps = fps;
        const QString closed = encoding->encoder->close();
        if (encoding->error.isEmpty()) encoding->error = closed;
        result.frames = encoding->encoder->frameCount();
        result.cancelled = *cancelled;
        result.error = encoding->error;
        if (!result.ok()) {
          QFile::remove(encoding->temp);
          return result;
        }
        syncFile(encoding->temp);
        if (std::rename(QFile::encodeName(encoding->temp).constData(),
                        QFile::encodeName(encoding->target).constData()) != 0) {
          result.error = QObject::tr("cannot write %1: %2")
                             .arg(encoding->target, QString::fromLocal8Bit(std::strerror(errno)));
          QFile::remove(encoding->temp);
          return result;
        }
        result.bytes = QFileInfo(encoding->target).size();
        return result;
      }));
}

void AttentionVideoExport::onEncoded() {
  AttentionVideoResult result = encode_watcher_.result();
  result.warnings = loaded_.warnings;
  result.skipped = static_cast<int>(loaded_.warnings.size());
  if (result.ok()) Q_EMIT progress(result.frames, result.frames);
  finish(result);
}

void AttentionVideoExport::finish(AttentionVideoResult result) {
  running_ = false;
  renderer_.reset();
  loaded_ = Loaded{};
  result.seconds = clock_.isValid() ? clock_.elapsed() / 1000.0 : 0.0;
  Q_EMIT finished(result);
}

AttentionVideoResult AttentionVideoExport::run(const QString& run_dir,
                                               AttentionVideoRequest request) {
  AttentionVideoResult outcome;
  bool done = false;
  QEventLoop loop;
  const QMetaObject::Connection connection = connect(this, &AttentionVideoExport::finished, &loop,
                                                     [&](const AttentionVideoResult& result) {
                                                       outcome = result;
                                                       done = true;
                                                       loop.quit();
                                                     });
  start(run_dir, std::move(request));
  if (!done) loop.exec();
  disconnect(connection);
  if (!done) {
    // The application is quitting (QCoreApplication::exit ends every event loop).
    cancel();
    outcome.error = tr("the video export was interrupted");
  }
  return outcome;
}

}  // namespace ascope
