#include "app/gui/bridge/engine_bridge.h"

#include <algorithm>

#include "app/gui/bridge/current_run.h"
#include "engine/train/trainer.h"

namespace ascope {

EngineBridge::EngineBridge(CurrentRun* run, QObject* parent) : QObject(parent), run_(run) {
  timer_.setInterval(kDrainIntervalMs);
  // Precise, so that the interval never becomes the 5 % shorter one a coarse timer may choose.
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &EngineBridge::drain);
}

EngineBridge::~EngineBridge() {
  shutdown();
}

QString EngineBridge::startTraining(const TrainingConfig& config, bool start_paused) {
  if (isActive()) return tr("A run is still active; stop it first.");
  auto trainer = std::make_unique<Trainer>(config);
  if (Status s = trainer->start(start_paused); !s.ok()) return QString::fromStdString(s.error());
  attach(std::move(trainer), config);
  return {};
}

void EngineBridge::attach(std::unique_ptr<RunControl> engine, const TrainingConfig& config) {
  timer_.stop();
  engine_ = std::move(engine);  // the previous run has ended: its join returns at once
  stats_ = Stats{};
  pending_attention_.reset();
  pending_encoding_.reset();
  pending_sample_.reset();
  run_->beginLive(config);
  timer_.start();
}

void EngineBridge::pause() {
  if (engine_) engine_->pause();
}
void EngineBridge::resume() {
  if (engine_) engine_->resume();
}
void EngineBridge::stepOnce() {
  if (engine_) engine_->stepOnce();
}
void EngineBridge::stop() {
  if (engine_) engine_->stop();
}
void EngineBridge::setLearningRate(double lr) {
  if (engine_) engine_->setLearningRate(lr);
}
void EngineBridge::setProbeSample(int index) {
  if (engine_) engine_->setProbeSample(index);
}

void EngineBridge::shutdown() {
  timer_.stop();
  engine_.reset();
}

bool EngineBridge::isActive() const {
  return engine_ && !engine_->finished();
}

void EngineBridge::drain() {
  if (!engine_) return;
  QElapsedTimer clock;
  clock.start();
  ++stats_.drains;
  const bool done = engine_->finished();  // read before draining, so nothing published is missed
  EventBatch batch = engine_->drainEvents();
  if (!batch.empty()) deliver(std::move(batch));
  const bool heavy_left = deliverOneHeavy();
  if (done && !heavy_left) {
    timer_.stop();
    Q_EMIT runEnded(run_->state());
  }
  stats_.max_drain_ms = std::max(stats_.max_drain_ms, clock.nsecsElapsed() / 1e6);
}

void EngineBridge::deliver(EventBatch&& batch) {
  ++stats_.deliveries;
  stats_.steps += static_cast<std::int64_t>(batch.metrics.size());
  for (const StepMetrics& m : batch.metrics) stats_.samples_per_s_sum += m.samples_per_s;
  stats_.dropped_metrics += batch.dropped_metrics;
  if (batch.run_folder) run_->setFolder(QString::fromStdString(*batch.run_folder));
  // Order: logs and states first, so a failure's explanation precedes its consequences.
  for (const LogLine& line : batch.logs) Q_EMIT logLine(line);
  for (const StateChange& change : batch.states) {
    run_->setState(change.state, QString::fromStdString(change.reason));
  }
  for (const Failure& failure : batch.failures) {
    Q_EMIT failed(QString::fromStdString(failure.message));
  }
  if (!batch.metrics.empty()) {
    stats_.last_step = batch.metrics.back();
    Q_EMIT stepsArrived(batch.metrics);
  }
  for (const LearningRateChange& change : batch.learning_rate_changes) {
    Q_EMIT learningRateChanged(change);
  }
  for (const EpochSummary& summary : batch.epochs) Q_EMIT epochEnded(summary);
  if (batch.test) Q_EMIT testEvaluated(*batch.test);
  if (!batch.head_statistics.empty()) Q_EMIT headStatisticsArrived(batch.head_statistics);
  if (batch.attention) pending_attention_ = std::move(batch.attention);
  if (batch.positional_encoding) pending_encoding_ = std::move(batch.positional_encoding);
  if (batch.sample) pending_sample_ = std::move(batch.sample);
  Q_EMIT batchDelivered();
}

bool EngineBridge::deliverOneHeavy() {
  if (pending_attention_) {
    ++stats_.attention_deliveries;
    std::shared_ptr<const ProbeSet> probes = std::move(pending_attention_);
    pending_attention_.reset();
    Q_EMIT attentionChanged(std::move(probes));
  } else if (pending_encoding_) {
    const PositionalEncodingSnapshot snapshot = std::move(*pending_encoding_);
    pending_encoding_.reset();
    Q_EMIT positionalEncodingChanged(snapshot);
  } else if (pending_sample_) {
    const SamplePrediction sample = std::move(*pending_sample_);
    pending_sample_.reset();
    Q_EMIT sampleChanged(sample);
  }
  return pending_attention_ || pending_encoding_ || pending_sample_;
}

}  // namespace ascope
