#include "app/gui/window/run/run_controller.h"

#include <spdlog/spdlog.h>
#include <QDir>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/bridge/run_folder_follower.h"
#include "app/gui/views/attention/timeline/attention_timeline_view.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/decoding/decoding_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "app/gui/views/log/app_log.h"
#include "app/gui/views/run/run_panel.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/run/head_analysis_controller.h"
#include "app/gui/window/run/run_scale_reading.h"
#include "engine/inference/read_run.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_head_grid_panel.h"

namespace ascope {
namespace {

/// The run folder as short as it reads well: relative to the working directory when inside it.
QString shortPath(const QString& dir) {
  const QString relative = QDir::current().relativeFilePath(dir);
  return relative.startsWith(QLatin1String("..")) ? QDir::toNativeSeparators(dir) : relative;
}

void showEpoch(const RunDocks& docks, const CurrentRun& run, const EpochSummary& e) {
  docks.curves->showEpoch(e);
  docks.run->setEpoch(e, run.task() ? run.task()->id : std::string());
}

/// At the step of the weights tested, beside that step's validation point (the same weights on a
/// part of the split, when eval_max_samples is below its size).
void showTest(const RunDocks& docks, const CurrentRun& run, const TestEvaluation& t) {
  docks.curves->showTest(t);
  docks.run->setTest(t, run.task() ? run.task()->id : std::string());
}

}  // namespace

RunController::RunController(const RunDocks& docks, CurrentRun* run, EngineBridge* bridge,
                             QObject* parent)
    : QObject(parent), docks_(docks), run_(run), bridge_(bridge) {
  follower_ = new RunFolderFollower(this);
  // Both from the follower on the GUI thread (its polls run on the pool).
  connect(follower_, &RunFolderFollower::newsArrived, this, &RunController::showFollowedNews);
  connect(follower_, &RunFolderFollower::writerEnded, this, &RunController::onWriterEnded);
  connect(follower_, &RunFolderFollower::folderGone, this, &RunController::onFolderGone);
  connectBridge();
  connectTimeline();
  connect(&open_watcher_, &QFutureWatcher<OpenResult>::finished, this, &RunController::onOpened);
  // The run's time as measured on this device goes to the log (the toolbar shows the ETA).
  connect(docks_.run->progressView(), &RunProgressView::projected, this,
          [](const QString& note) { spdlog::info("{}", note.toStdString()); });
  connect(run_, &CurrentRun::runChanged, this, [this] { Q_EMIT titleChanged(title()); });
  connect(run_, &CurrentRun::folderChanged, this, [this] { Q_EMIT titleChanged(title()); });
}

RunController::~RunController() {
  open_watcher_.waitForFinished();
}

void RunController::connectBridge() {
  // All bridge signals come from its drain timer on the GUI thread (direct connections).
  connect(bridge_, &EngineBridge::stepsArrived, this, [this](const std::vector<StepMetrics>& s) {
    docks_.curves->showSteps(s);
    docks_.run->progressView()->addSteps(s, run_->config().batch_size);
  });
  connect(bridge_, &EngineBridge::epochEnded, this,
          [this](const EpochSummary& e) { showEpoch(docks_, *run_, e); });
  connect(bridge_, &EngineBridge::testEvaluated, this,
          [this](const TestEvaluation& t) { showTest(docks_, *run_, t); });
  connect(bridge_, &EngineBridge::attentionChanged, docks_.attention,
          &AttentionTimelineView::setLiveSnapshot);
  // The newest sample and encoding show while the timeline follows the live probe; scrubbed
  // back, the docks keep the step the timeline shows.
  connect(bridge_, &EngineBridge::positionalEncodingChanged, this,
          [this](const PositionalEncodingSnapshot& pe) {
            docks_.encoding->setLive(pe, docks_.attention->isFollowingLive());
          });
  // The trainer's probe sets carry each sample's prediction; this one (the first probe sample's)
  // stands in for a set that has none.
  connect(bridge_, &EngineBridge::sampleChanged, this, [this](const SamplePrediction& sample) {
    docks_.sample->setLive(sample, docks_.attention->isFollowingLive());
  });
  connect(bridge_, &EngineBridge::logLine, docks_.log, &AppLog::appendRunLine);
  connect(bridge_, &EngineBridge::failed, this, &RunController::onFailure);
  connect(bridge_, &EngineBridge::runEnded, this, [this](TrainerState state) {
    // The newest checkpoint and snapshots are written when a run ends.
    docks_.attention->refreshFiles();
    Q_EMIT message(tr("Run %1.").arg(state == TrainerState::kFailed ? tr("failed") : tr("ended")));
  });
}

void RunController::connectTimeline() {
  AttentionTimelineView* timeline = docks_.attention;
  connect(timeline, &AttentionTimelineView::stepShown, this,
          [this](long long step, const std::optional<SamplePrediction>& sample,
                 const std::optional<PositionalEncodingSnapshot>& encoding) {
            setCursors(step);
            docks_.sample->showStep(sample);
            docks_.encoding->showStep(encoding);
          });
  // The probe set's samples arrive with the attention; the chooser picks the one shown.
  connect(timeline, &AttentionTimelineView::liveShown, this,
          [this](long long step, const std::optional<SamplePrediction>& sample) {
            setCursors(step);
            docks_.sample->showLive(sample);
            docks_.encoding->showLive();
          });
  // Decoding follows what the Attention dock shows, with the head chosen there.
  connect(timeline, &AttentionTimelineView::attentionShown, docks_.decoding,
          &DecodingPresenter::showAttention);
  connect(timeline->panel(), &AttentionHeadGridPanel::headSelected, docks_.decoding,
          [this](int, int layer, int head) { docks_.decoding->setHead(layer, head); });
  connect(timeline, &AttentionTimelineView::askedShown, this, [this](bool shown) {
    if (!shown) docks_.sample->leaveAsked();
  });
  connect(docks_.curves, &CurvesPresenter::stepPicked, timeline, &AttentionTimelineView::showStep);
  connect(timeline, &AttentionTimelineView::snapshotLeftOut, this, [](const QString& error) {
    spdlog::warn("attention snapshot left out: {}", error.toStdString());
  });
  connect(docks_.sample->tryIt(), &TryItBox::inputExamined, this,
          [this](const AttentionPlotData& attention, const SamplePrediction& sample,
                 const QString& caption) {
            docks_.attention->showAsked(attention, caption);
            docks_.sample->showAsked(sample);
          });
}

void RunController::setCursors(long long step) {
  docks_.curves->setCursor(step);
  docks_.heads->setCursorStep(step);
}

QString RunController::startRun(const TrainingConfig& config, bool step_only) {
  if (bridge_->isActive()) return tr("A run is still active; stop it first.");
  clearPanels();
  docks_.run->progressView()->beginRun(config);
  const QString error = bridge_->startTraining(config, step_only);
  if (!error.isEmpty()) {
    docks_.run->progressView()->setState(TrainerState::kFailed, error);
    spdlog::error("cannot start: {}", error.toStdString());
    return error;
  }
  nameAccuracy();
  if (step_only) bridge_->stepOnce();
  spdlog::info("starting {} ({} preset) on {}", config.task, config.preset, config.device);
  return {};
}

void RunController::nameAccuracy() {
  docks_.curves->nameAccuracy(run_->task());
}

void RunController::clearPanels() {
  follower_->stop();
  followed_head_rows_.clear();
  setCursors(-1);
  docks_.curves->clear();
  docks_.attention->clear();
  docks_.encoding->clear();
  docks_.sample->clear();
  docks_.decoding->clear();
  docks_.heads->clear();
  docks_.run->progressView()->reset();
}

void RunController::onFailure(const QString& text) {
  docks_.run->progressView()->setState(run_->state(), text);
  // The trainer logs the faults it pauses on itself; failures before or outside training it
  // does not, so they go to the log here.
  if (run_->state() != TrainerState::kRunning && run_->state() != TrainerState::kPaused) {
    spdlog::error("{}", text.toStdString());
  }
}

void RunController::openRun(const QString& dir, OpenOrigin origin) {
  if (bridge_->isActive()) {
    Q_EMIT openFailed(tr("Stop the current run before opening another one."));
    return;
  }
  if (isOpening()) return;
  Q_EMIT message(tr("Opening %1…").arg(dir));
  open_watcher_.setFuture(QtConcurrent::run([dir, origin] {
    OpenResult result;
    result.dir = dir;
    result.origin = origin;
    // In this order: a writer seen here is followed from the ends the tail notes, so whatever it
    // appends while the folder is read is either read or comes with the first poll.
    result.writer = RunFolderLock::inspect(dir.toStdString());
    auto tail = std::make_shared<RunFolderTail>(dir.toStdString());
    Expected<OpenedRun> run = readRun(dir.toStdString());
    if (run.ok()) {
      tail->startAfter(*run);
      result.tail = std::move(tail);
      result.run = std::move(*run);
      // Every snapshot is read here for the run's colour scale: one that does not decode is left
      // out of the timeline (a damaged one in the middle showed as "step -1"), with a note.
      for (const std::string& path : result.run->damaged_snapshots) {
        result.left_out << QString::fromStdString(path);
      }
      RunScaleReading scale = readRunScale(std::move(result.run->attention_files));
      result.run->warnings.insert(result.run->warnings.end(), scale.warnings.begin(),
                                  scale.warnings.end());
      result.left_out << scale.left_out;
      result.group_max = std::move(scale.group_max);
      result.run->attention_files = std::move(scale.readable);
    } else {
      result.error = QString::fromStdString(run.error());
    }
    return result;
  }));
}

void RunController::onOpened() {
  OpenResult result = open_watcher_.result();
  if (!result.run) {
    if (result.origin == OpenOrigin::kRemembered) {
      spdlog::warn("the last run, {}, did not open (forgotten): {}", result.dir.toStdString(),
                   result.error.toStdString());
      Q_EMIT rememberedRunFailed(result.dir, result.error);
      return;
    }
    spdlog::error("cannot open run: {}", result.error.toStdString());
    Q_EMIT openFailed(result.error);
    return;
  }
  OpenedRun& opened = *result.run;
  const QString path = QString::fromStdString(opened.path);
  clearPanels();
  run_->showOpened(opened.config, path);
  nameAccuracy();
  docks_.curves->showSteps(opened.steps);
  for (const EpochSummary& e : opened.epochs) showEpoch(docks_, *run_, e);
  if (opened.test) showTest(docks_, *run_, *opened.test);
  docks_.curves->markLearningRateChanges(opened.learning_rate_changes);
  docks_.heads->showOpened(opened.config.task, opened.head_statistics, opened.ablation);
  for (auto it = result.group_max.cbegin(); it != result.group_max.cend(); ++it) {
    docks_.attention->panel()->setRunMaxima(it.key(), it.value());
  }
  std::shared_ptr<const ProbeSet> last_probes;
  if (opened.last_probes)
    last_probes = std::make_shared<const ProbeSet>(std::move(*opened.last_probes));
  docks_.attention->showRun(std::move(opened.attention_files), last_probes, result.left_out);
  const AttentionSnapshot* newest = nullptr;
  if (last_probes && !last_probes->samples.empty()) {
    const auto& samples = last_probes->samples;
    newest = &samples[std::min<std::size_t>(
        static_cast<std::size_t>(docks_.attention->probeIndex()), samples.size() - 1)];
    setCursors(last_probes->step);
    docks_.sample->showStep(newest->sample);
  }
  // The checkpoint's encoding is the run's newest; a snapshot's own is the one of its step.
  const auto& stored_encoding =
      last_probes ? last_probes->samples.front().positional_encoding : std::nullopt;
  docks_.encoding->showStep(stored_encoding ? stored_encoding : opened.positional_encoding);
  docks_.run->showRunConfig(opened.config, path);
  const std::int64_t steps = opened.steps.empty() ? 0 : opened.steps.back().step;
  if (!opened.steps.empty()) docks_.run->setProgress(opened.steps.back(), opened.config.batch_size);
  docks_.run->progressView()->setState(TrainerState::kIdle,
                                       tr("opened a run of %1 steps").arg(steps));
  for (const LogLine& line : opened.log) docks_.log->appendRunLine(line);
  for (const std::string& warning : opened.warnings) spdlog::warn("{}", warning);
  spdlog::info("opened run {} ({} steps, {} attention snapshots)", opened.path, steps,
               docks_.attention->snapshotCount());
  Q_EMIT runOpened(path);
  // After runOpened: the window's "Opened" message comes first, the following one stays shown.
  if (result.writer.kind == RunFolderWriterState::Kind::kWriting) startFollowing(result, opened);
}

void RunController::startFollowing(const OpenResult& result, const OpenedRun& opened) {
  followed_head_rows_ = opened.head_statistics;
  follower_->follow(result.tail);
  const QString holder = QString::fromStdString(result.writer.holder);
  docks_.run->progressView()->setState(
      TrainerState::kRunning, tr("training in another process (%1): following it").arg(holder));
  spdlog::info("run {} is being trained by {}: following it", opened.path, result.writer.holder);
  Q_EMIT message(tr("Following the run: another process trains it (%1).").arg(holder));
}

void RunController::showFollowedNews(const RunFolderNews& news) {
  if (news.restarted) {
    // Resumed from an earlier checkpoint, which rewrote metrics.csv: read the whole folder again.
    openRun(run_->folder());
    return;
  }
  if (!news.steps.empty()) {
    docks_.curves->showSteps(news.steps);
    docks_.run->setProgress(news.steps.back(), run_->config().batch_size);
  }
  for (const EpochSummary& e : news.epochs) showEpoch(docks_, *run_, e);
  if (news.test) showTest(docks_, *run_, *news.test);
  if (!news.head_statistics.empty()) {
    followed_head_rows_.insert(followed_head_rows_.end(), news.head_statistics.begin(),
                               news.head_statistics.end());
    docks_.heads->showOpened(run_->config().task, followed_head_rows_, std::nullopt);
  }
  if (news.newest_probes && !news.newest_probes->samples.empty()) {
    // The newest stored probe set plays the part of a live probe: the timeline follows it.
    // The docks take them as a live probe's: the timeline's liveShown shows them.
    const AttentionSnapshot& first = news.newest_probes->samples.front();
    if (first.positional_encoding) docks_.encoding->setLive(*first.positional_encoding, false);
    if (first.sample) docks_.sample->setLive(*first.sample, false);
    docks_.attention->setLiveSnapshot(news.newest_probes);
  } else if (news.attention_files) {
    docks_.attention->refreshFiles();
  }
  for (const LogLine& line : news.log) docks_.log->appendRunLine(line);
  for (const std::string& warning : news.warnings) spdlog::warn("{}", warning);
}

void RunController::onWriterEnded(const RunFolderWriterState& state) {
  const bool abandoned = state.kind == RunFolderWriterState::Kind::kAbandoned;
  const QString text =
      abandoned ? tr("the process training this run is gone without releasing it (killed or "
                     "crashed): its last checkpoint is in the folder")
                : tr("the process training this run has ended");
  docks_.run->progressView()->setState(abandoned ? TrainerState::kFailed : TrainerState::kFinished,
                                       text);
  // Its last snapshots and checkpoint are there now.
  docks_.attention->refreshFiles();
  spdlog::info("run {}: {}", run_->folder().toStdString(), text.toStdString());
  Q_EMIT message(tr("The followed run: %1.").arg(text));
}

void RunController::onFolderGone() {
  const QString text =
      tr("the run folder is gone (deleted or moved): what was read from it stays shown");
  docks_.run->progressView()->setState(TrainerState::kFailed, text);
  spdlog::warn("run {}: {}", run_->folder().toStdString(), text.toStdString());
  Q_EMIT message(tr("The followed run: %1.").arg(text));
}

QString RunController::title() const {
  QStringList parts{QStringLiteral("AttentionScope")};
  if (const TaskDescriptor* task = run_->task()) parts << QString::fromStdString(task->title);
  if (!run_->folder().isEmpty()) parts << shortPath(run_->folder());
  return parts.join(QStringLiteral(" — "));
}

}  // namespace ascope
