#include "app/gui/window/run/run_controller.h"

#include <spdlog/spdlog.h>
#include <QDir>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/bridge/run_folder_follower.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/news/run_news_reader.h"
#include "app/gui/window/run/run_scale_reading.h"
#include "engine/inference/read_run.h"

namespace ascope {
namespace {

/// The run folder as short as it reads well: relative to the working directory when inside it.
QString shortPath(const QString& dir) {
  const QString relative = QDir::current().relativeFilePath(dir);
  return relative.startsWith(QLatin1String("..")) ? QDir::toNativeSeparators(dir) : relative;
}

}  // namespace

RunController::RunController(std::vector<RunNewsReader*> readers, AttentionPresenter* timeline,
                             CurrentRun* run, EngineBridge* bridge, QObject* parent)
    : QObject(parent),
      readers_(std::move(readers)),
      timeline_(timeline),
      run_(run),
      bridge_(bridge) {
  follower_ = new RunFolderFollower(this);
  // Both from the follower on the GUI thread (its polls run on the pool).
  connect(follower_, &RunFolderFollower::newsArrived, this, &RunController::showFollowedNews);
  connect(follower_, &RunFolderFollower::writerEnded, this, &RunController::onWriterEnded);
  connect(follower_, &RunFolderFollower::folderGone, this, &RunController::onFolderGone);
  connectBridge();
  connect(&open_watcher_, &QFutureWatcher<OpenResult>::finished, this, &RunController::onOpened);
  connect(run_, &CurrentRun::runChanged, this, [this] { Q_EMIT titleChanged(title()); });
  connect(run_, &CurrentRun::folderChanged, this, [this] { Q_EMIT titleChanged(title()); });
}

RunController::~RunController() {
  open_watcher_.waitForFinished();
}

RunNews RunController::news(RunNews::Source source) const {
  RunNews news;
  news.source = source;
  news.task = run_->config().task;
  news.batch_size = run_->config().batch_size;
  // A followed run's newest set plays the part of a live probe that the timeline then shows.
  news.timeline_follows_live =
      source == RunNews::Source::kLive ? timeline_->isFollowingLive() : false;
  return news;
}

void RunController::dispatch(const RunNews& news) {
  for (RunNewsReader* reader : readers_) reader->takeNews(news);
}

void RunController::followStep(long long step) {
  for (RunNewsReader* reader : readers_) reader->followStep(step);
}

void RunController::dispatchState(RunNews::Source source, TrainerState state, const QString& text) {
  RunNews state_news = news(source);
  state_news.state = std::make_pair(state, text);
  dispatch(state_news);
}

void RunController::connectBridge() {
  // All bridge signals come from its drain timer on the GUI thread (direct connections); each
  // event becomes a piece of news for every dock.
  using Source = RunNews::Source;
  connect(bridge_, &EngineBridge::stepsArrived, this, [this](const std::vector<StepMetrics>& s) {
    RunNews n = news(Source::kLive);
    n.steps = s;
    dispatch(n);
  });
  connect(bridge_, &EngineBridge::epochEnded, this, [this](const EpochSummary& e) {
    RunNews n = news(Source::kLive);
    n.epochs = {e};
    dispatch(n);
  });
  connect(bridge_, &EngineBridge::testEvaluated, this, [this](const TestEvaluation& t) {
    RunNews n = news(Source::kLive);
    n.test = t;
    dispatch(n);
  });
  connect(bridge_, &EngineBridge::attentionChanged, this,
          [this](std::shared_ptr<const ProbeSet> probes) {
            RunNews n = news(Source::kLive);
            n.newest_probes = std::move(probes);
            dispatch(n);
          });
  connect(bridge_, &EngineBridge::headStatisticsArrived, this,
          [this](const std::vector<HeadStatisticsUpdate>& updates) {
            RunNews n = news(Source::kLive);
            n.head_updates = updates;
            dispatch(n);
          });
  connect(bridge_, &EngineBridge::positionalEncodingChanged, this,
          [this](const PositionalEncodingSnapshot& pe) {
            RunNews n = news(Source::kLive);
            n.positional_encoding = pe;
            dispatch(n);
          });
  // The trainer's probe sets carry each sample's prediction; this one (the first probe sample's)
  // stands in for a set that has none.
  connect(bridge_, &EngineBridge::sampleChanged, this, [this](const SamplePrediction& sample) {
    RunNews n = news(Source::kLive);
    n.sample = sample;
    dispatch(n);
  });
  connect(bridge_, &EngineBridge::learningRateChanged, this,
          [this](const LearningRateChange& change) {
            RunNews n = news(Source::kLive);
            n.learning_rate_changes = {change};
            dispatch(n);
          });
  connect(bridge_, &EngineBridge::logLine, this, [this](const LogLine& line) {
    RunNews n = news(Source::kLive);
    n.log = {line};
    dispatch(n);
  });
  connect(bridge_, &EngineBridge::failed, this, &RunController::onFailure);
  connect(bridge_, &EngineBridge::runEnded, this, [this](TrainerState state) {
    // The newest checkpoint and snapshots are written when a run ends.
    RunNews n = news(Source::kLive);
    n.attention_files_changed = true;
    dispatch(n);
    Q_EMIT message(tr("Run %1.").arg(state == TrainerState::kFailed ? tr("failed") : tr("ended")));
  });
}

QString RunController::startRun(const TrainingConfig& config, bool step_only) {
  if (bridge_->isActive()) return tr("A run is still active; stop it first.");
  clearPanels();
  RunNews starting = news(RunNews::Source::kLive);
  starting.started = config;
  dispatch(starting);
  const QString error = bridge_->startTraining(config, step_only);
  if (!error.isEmpty()) {
    dispatchState(RunNews::Source::kLive, TrainerState::kFailed, error);
    spdlog::error("cannot start: {}", error.toStdString());
    return error;
  }
  Q_EMIT runStarting(run_->task());
  if (step_only) bridge_->stepOnce();
  spdlog::info("starting {} ({} preset) on {}", config.task, config.preset, config.device);
  return {};
}

void RunController::clearPanels() {
  follower_->stop();
  followStep(-1);
  for (RunNewsReader* reader : readers_) reader->clearRun();
}

void RunController::onFailure(const QString& text) {
  dispatchState(RunNews::Source::kLive, run_->state(), text);
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
  Q_EMIT runStarting(run_->task());
  const std::int64_t steps = opened.steps.empty() ? 0 : opened.steps.back().step;
  // The whole folder as one piece of news.
  RunNews n = news(RunNews::Source::kOpened);
  OpenedRunNews& o = n.opened.emplace();
  o.path = path;
  o.config = opened.config;
  o.attention_files = std::move(opened.attention_files);
  o.left_out = std::move(result.left_out);
  o.group_max = std::move(result.group_max);
  if (opened.last_probes) {
    o.newest_probes = std::make_shared<const ProbeSet>(std::move(*opened.last_probes));
  }
  if (o.newest_probes && !o.newest_probes->samples.empty()) {
    const auto& samples = o.newest_probes->samples;
    o.newest_step = o.newest_probes->step;
    n.sample = samples[std::min<std::size_t>(static_cast<std::size_t>(timeline_->probeIndex()),
                                             samples.size() - 1)]
                   .sample;
  }
  // The checkpoint's encoding is the run's newest; a snapshot's own is the one of its step.
  const auto& stored_encoding =
      o.newest_probes ? o.newest_probes->samples.front().positional_encoding : std::nullopt;
  n.positional_encoding = stored_encoding ? stored_encoding : opened.positional_encoding;
  n.steps = std::move(opened.steps);
  n.epochs = std::move(opened.epochs);
  n.test = std::move(opened.test);
  n.learning_rate_changes = std::move(opened.learning_rate_changes);
  n.head_rows = std::move(opened.head_statistics);
  n.ablation = std::move(opened.ablation);
  n.log = std::move(opened.log);
  n.state = std::make_pair(TrainerState::kIdle, tr("opened a run of %1 steps").arg(steps));
  dispatch(n);
  if (o.newest_step >= 0) followStep(o.newest_step);
  for (const std::string& warning : opened.warnings) spdlog::warn("{}", warning);
  spdlog::info("opened run {} ({} steps, {} attention snapshots)", opened.path, steps,
               timeline_->snapshotCount());
  Q_EMIT runOpened(path);
  // After runOpened: the window's "Opened" message comes first, the following one stays shown.
  if (result.writer.kind == RunFolderWriterState::Kind::kWriting) startFollowing(result, opened);
}

void RunController::startFollowing(const OpenResult& result, const OpenedRun& opened) {
  follower_->follow(result.tail);
  const QString holder = QString::fromStdString(result.writer.holder);
  dispatchState(RunNews::Source::kFollowed, TrainerState::kRunning,
                tr("training in another process (%1): following it").arg(holder));
  spdlog::info("run {} is being trained by {}: following it", opened.path, result.writer.holder);
  Q_EMIT message(tr("Following the run: another process trains it (%1).").arg(holder));
}

void RunController::showFollowedNews(const RunFolderNews& folder_news) {
  if (folder_news.restarted) {
    // Resumed from an earlier checkpoint, which rewrote metrics.csv: read the whole folder again.
    openRun(run_->folder());
    return;
  }
  RunNews n = news(RunNews::Source::kFollowed);
  n.steps = folder_news.steps;
  n.epochs = folder_news.epochs;
  n.test = folder_news.test;
  n.head_rows = folder_news.head_statistics;
  if (folder_news.newest_probes && !folder_news.newest_probes->samples.empty()) {
    // The newest stored probe set plays the part of a live probe: the timeline follows it, and
    // its sample and encoding show when the timeline shows it (liveShown).
    n.newest_probes = folder_news.newest_probes;
    const AttentionSnapshot& first = n.newest_probes->samples.front();
    n.positional_encoding = first.positional_encoding;
    n.sample = first.sample;
  } else if (folder_news.attention_files) {
    n.attention_files_changed = true;
  }
  n.log = folder_news.log;
  dispatch(n);
  for (const std::string& warning : folder_news.warnings) spdlog::warn("{}", warning);
}

void RunController::onWriterEnded(const RunFolderWriterState& state) {
  const bool abandoned = state.kind == RunFolderWriterState::Kind::kAbandoned;
  const QString text =
      abandoned ? tr("the process training this run is gone without releasing it (killed or "
                     "crashed): its last checkpoint is in the folder")
                : tr("the process training this run has ended");
  RunNews n = news(RunNews::Source::kFollowed);
  n.state = std::make_pair(abandoned ? TrainerState::kFailed : TrainerState::kFinished, text);
  // Its last snapshots and checkpoint are there now.
  n.attention_files_changed = true;
  dispatch(n);
  spdlog::info("run {}: {}", run_->folder().toStdString(), text.toStdString());
  Q_EMIT message(tr("The followed run: %1.").arg(text));
}

void RunController::onFolderGone() {
  const QString text =
      tr("the run folder is gone (deleted or moved): what was read from it stays shown");
  dispatchState(RunNews::Source::kFollowed, TrainerState::kFailed, text);
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
