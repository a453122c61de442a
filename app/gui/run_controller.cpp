#include "app/gui/run_controller.h"

#include <spdlog/spdlog.h>
#include <QDir>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/attention_frame_conversion.h"
#include "app/gui/attention_timeline_view.h"
#include "app/gui/engine_bridge.h"
#include "app/gui/run_panel.h"
#include "app/gui/run_progress_view.h"
#include "app/gui/try_it_box.h"
#include "widgets/log_panel.h"
#include "widgets/metric_curve_panel.h"
#include "widgets/positional_encoding_panel.h"
#include "widgets/sample_panel.h"

namespace ascope {
namespace {

QString taskTitle(const QString& task) {
  if (task == QLatin1String("vit")) return RunController::tr("Images · ViT");
  if (task == QLatin1String("imdb")) return RunController::tr("Sentiment · IMDB");
  if (task == QLatin1String("translate")) return RunController::tr("Translation · EN → IT");
  return task;
}

/// The run folder as short as it reads well: relative to the working directory when inside it.
QString shortPath(const QString& dir) {
  const QString relative = QDir::current().relativeFilePath(dir);
  return relative.startsWith(QLatin1String("..")) ? QDir::toNativeSeparators(dir) : relative;
}

}  // namespace

RunController::RunController(const Panels& panels, EngineBridge* bridge, QObject* parent)
    : QObject(parent), panels_(panels), bridge_(bridge) {
  panels_.loss->setLogScale(true);
  connectBridge();
  connect(&open_watcher_, &QFutureWatcher<OpenResult>::finished, this, &RunController::onOpened);
}

RunController::~RunController() {
  open_watcher_.waitForFinished();
}

void RunController::connectBridge() {
  // All bridge signals come from its drain timer on the GUI thread (direct connections).
  connect(bridge_, &EngineBridge::trainPointsArrived, this,
          [this](const std::vector<SeriesPoint>& loss, const std::vector<SeriesPoint>& accuracy) {
            panels_.loss->appendTrainPoints(loss);
            panels_.accuracy->appendTrainPoints(accuracy);
          });
  connect(bridge_, &EngineBridge::epochEnded, this, [this](const EpochReport& r) {
    panels_.loss->appendValidationPoint(static_cast<double>(r.step), r.val_loss);
    panels_.accuracy->appendValidationPoint(static_cast<double>(r.step), r.val_accuracy);
    panels_.run->setEpoch(r);
  });
  connect(bridge_, &EngineBridge::progressChanged, this, [this](const ProgressReport& p) {
    const TrainingConfig* config = bridge_->config();
    panels_.run->setProgress(p, config ? config->batch_size : 1);
  });
  connect(bridge_, &EngineBridge::attentionChanged, panels_.attention,
          &AttentionTimelineView::setLiveSnapshot);
  connect(bridge_, &EngineBridge::positionalEncodingChanged, panels_.positional_encoding,
          &PositionalEncodingPanel::setEncoding);
  connect(bridge_, &EngineBridge::sampleChanged, this, &RunController::showSample);
  connect(bridge_, &EngineBridge::logLine, this, [this](int level, const QString& text) {
    panels_.log->appendLine(static_cast<LogLevel>(level), text);
  });
  connect(bridge_, &EngineBridge::stateChanged, panels_.run, &RunPanel::setRunState);
  connect(bridge_, &EngineBridge::failed, this, &RunController::onFailure);
  connect(bridge_, &EngineBridge::runFolderChanged, this, &RunController::onRunFolder);
  connect(bridge_, &EngineBridge::runEnded, this, [this](RunState state) {
    // The newest checkpoint is written when a run ends: "Try it" can use it now.
    panels_.try_it->setRun(run_dir_, task_, image_size_);
    panels_.attention->setRunFolder(run_dir_);
    Q_EMIT message(tr("Run %1.").arg(state == RunState::Failed ? tr("failed") : tr("ended")));
  });
}

QString RunController::startRun(const TrainingConfig& config, bool step_only) {
  if (bridge_->isActive()) return tr("A run is still active; stop it first.");
  clearPanels();
  panels_.accuracy->setMetricName(config.task == "translate" ? tr("token accuracy")
                                                             : tr("accuracy"));
  const QString error = bridge_->startTraining(config, step_only);
  if (!error.isEmpty()) {
    panels_.run->setRunState(RunState::Failed, error);
    spdlog::error("cannot start: {}", error.toStdString());
    return error;
  }
  if (step_only) bridge_->stepOnce();
  image_size_ = config.task == "vit" ? static_cast<int>(config.vit.image_size) : 0;
  setRun(QString::fromStdString(config.task), {});
  spdlog::info("starting {} ({} preset) on {}", config.task, config.preset, config.device);
  return {};
}

void RunController::clearPanels() {
  panels_.loss->clear();
  panels_.accuracy->clear();
  panels_.attention->clear();
  panels_.positional_encoding->clear();
  panels_.sample->clear();
  panels_.try_it->setRun({}, task_, 0);
  panels_.run->progressView()->reset();
}

void RunController::showSample(const SampleView& sample) {
  if (const auto* image = std::get_if<ImagePrediction>(&sample)) {
    panels_.sample->setImagePrediction(*image);
  } else if (const auto* text = std::get_if<TextPrediction>(&sample)) {
    panels_.sample->setTextPrediction(*text);
  } else if (const auto* translation = std::get_if<TranslationPrediction>(&sample)) {
    panels_.sample->setTranslation(*translation);
  }
}

void RunController::onRunFolder(const QString& dir) {
  panels_.attention->setRunFolder(dir);
  panels_.try_it->setRun(dir, task_, image_size_);
  setRun(task_, dir);
}

void RunController::onFailure(const QString& text) {
  panels_.run->setRunState(bridge_->state(), text);
  // The trainer logs the faults it pauses on itself; failures before or outside training it
  // does not, so they go to the log here.
  if (bridge_->state() != RunState::Running && bridge_->state() != RunState::Paused) {
    spdlog::error("{}", text.toStdString());
  }
}

void RunController::openRun(const QString& dir) {
  if (bridge_->isActive()) {
    Q_EMIT openFailed(tr("Stop the current run before opening another one."));
    return;
  }
  if (isOpening()) return;
  Q_EMIT message(tr("Opening %1…").arg(dir));
  open_watcher_.setFuture(QtConcurrent::run([dir] {
    OpenResult result;
    Expected<OpenedRun> run = readRun(dir);
    if (run.ok()) {
      result.run = std::move(*run);
    } else {
      result.error = QString::fromStdString(run.error());
    }
    return result;
  }));
}

void RunController::onOpened() {
  OpenResult result = open_watcher_.result();
  if (!result.run) {
    spdlog::error("cannot open run: {}", result.error.toStdString());
    Q_EMIT openFailed(result.error);
    return;
  }
  OpenedRun& run = *result.run;
  clearPanels();
  const QString task = QString::fromStdString(run.config.task);
  panels_.accuracy->setMetricName(task == QLatin1String("translate") ? tr("token accuracy")
                                                                     : tr("accuracy"));
  panels_.loss->appendTrainPoints(run.train_loss);
  panels_.accuracy->appendTrainPoints(run.train_accuracy);
  for (const EpochReport& r : run.epochs) {
    panels_.loss->appendValidationPoint(static_cast<double>(r.step), r.val_loss);
    panels_.accuracy->appendValidationPoint(static_cast<double>(r.step), r.val_accuracy);
    panels_.run->setEpoch(r);
  }
  const AttentionPlotData newest =
      run.last_attention ? toWidgetSnapshot(std::move(*run.last_attention)) : AttentionPlotData{};
  panels_.attention->showRun(run.path, std::move(run.attention_files), newest);
  if (run.positional_encoding) panels_.positional_encoding->setEncoding(*run.positional_encoding);
  panels_.run->showRunConfig(run.config, run.path);
  const std::int64_t steps =
      run.train_loss.empty() ? 0 : static_cast<std::int64_t>(run.train_loss.back().x);
  if (run.last_step) panels_.run->setProgress(*run.last_step, run.config.batch_size);
  panels_.run->progressView()->setState(RunState::Idle, tr("opened a run of %1 steps").arg(steps));
  image_size_ = task == QLatin1String("vit") ? static_cast<int>(run.config.vit.image_size) : 0;
  setRun(task, run.path);
  panels_.try_it->setRun(run.path, task, image_size_);
  for (const LogEntry& line : run.log) {
    panels_.log->appendLine(static_cast<LogLevel>(line.level), line.text);
  }
  for (const QString& warning : run.warnings) spdlog::warn("{}", warning.toStdString());
  spdlog::info("opened run {} ({} steps, {} attention snapshots)", run.path.toStdString(), steps,
               panels_.attention->snapshotCount());
  Q_EMIT runOpened(run.path);
}

void RunController::setRun(const QString& task, const QString& dir) {
  task_ = task;
  run_dir_ = dir;
  Q_EMIT titleChanged(title());
}

QString RunController::title() const {
  QStringList parts{QStringLiteral("AttentionScope")};
  if (!task_.isEmpty()) parts << taskTitle(task_);
  if (!run_dir_.isEmpty()) parts << shortPath(run_dir_);
  return parts.join(QStringLiteral(" — "));
}

}  // namespace ascope
