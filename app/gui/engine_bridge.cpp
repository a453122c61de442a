#include "app/gui/engine_bridge.h"

#include <algorithm>

#include "app/gui/attention_frame_conversion.h"
#include "app/gui/engine_session.h"

namespace ascope {

EngineBridge::EngineBridge(QObject* parent) : QObject(parent) {
  timer_.setInterval(kDrainIntervalMs);
  // Precise, so that "33 ms" never becomes the 5 % shorter interval a coarse timer may choose.
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &EngineBridge::drain);
}

EngineBridge::~EngineBridge() {
  shutdown();
}

QString EngineBridge::startTraining(const TrainingConfig& config, bool start_paused) {
  if (isActive()) return tr("A run is still active; stop it first.");
  Expected<std::unique_ptr<EngineSession>> session =
      EngineSession::startTraining(config, start_paused);
  if (!session.ok()) return QString::fromStdString(session.error());
  attach(std::move(*session));
  return {};
}

void EngineBridge::attach(std::unique_ptr<EngineSession> session) {
  timer_.stop();
  session_ = std::move(session);  // the previous run has ended: its join returns at once
  stats_ = Stats{};
  pending_attention_.reset();
  pending_encoding_.reset();
  pending_sample_.reset();
  run_dir_.clear();
  state_ = RunState::Preparing;
  Q_EMIT stateChanged(state_, {});
  timer_.start();
}

void EngineBridge::pause() {
  if (session_) session_->pause();
}
void EngineBridge::resume() {
  if (session_) session_->resume();
}
void EngineBridge::stepOnce() {
  if (session_) session_->stepOnce();
}
void EngineBridge::stop() {
  if (session_) session_->stop();
}

void EngineBridge::shutdown() {
  timer_.stop();
  session_.reset();
}

bool EngineBridge::isActive() const {
  return session_ && !session_->finished();
}

const TrainingConfig* EngineBridge::config() const {
  return session_ ? &session_->config() : nullptr;
}

void EngineBridge::drain() {
  if (!session_) return;
  QElapsedTimer clock;
  clock.start();
  ++stats_.drains;
  const bool done = session_->finished();  // read before draining, so nothing published is missed
  GuiBatch batch = session_->drain();
  if (run_dir_.isEmpty()) {
    run_dir_ = QString::fromStdString(session_->runDir());
    if (!run_dir_.isEmpty()) Q_EMIT runFolderChanged(run_dir_);
  }
  if (!batch.empty()) deliver(std::move(batch));
  const bool heavy_left = deliverOneHeavy();
  if (done && !heavy_left) {
    timer_.stop();
    const RunState final_state = session_->state();
    if (final_state != state_) {
      state_ = final_state;
      Q_EMIT stateChanged(state_, {});
    }
    Q_EMIT runEnded(state_);
  }
  stats_.max_drain_ms = std::max(stats_.max_drain_ms, clock.nsecsElapsed() / 1e6);
}

void EngineBridge::deliver(GuiBatch&& batch) {
  ++stats_.deliveries;
  stats_.steps += batch.step_count;
  stats_.samples_per_s_sum += batch.samples_per_s_sum;
  stats_.dropped_metrics += batch.dropped_metrics;
  // Order: logs and states first, so a failure's explanation precedes its consequences.
  for (const LogEntry& line : batch.logs) Q_EMIT logLine(line.level, line.text);
  for (const StateReport& change : batch.states) {
    state_ = change.state;
    Q_EMIT stateChanged(change.state, change.reason);
  }
  for (const QString& message : batch.failures) Q_EMIT failed(message);
  if (!batch.train_loss.empty()) Q_EMIT trainPointsArrived(batch.train_loss, batch.train_accuracy);
  if (batch.progress) {
    stats_.last_progress = *batch.progress;
    Q_EMIT progressChanged(*batch.progress);
  }
  for (const EpochReport& report : batch.epochs) Q_EMIT epochEnded(report);
  if (batch.attention) pending_attention_ = std::move(batch.attention);
  if (batch.positional_encoding) pending_encoding_ = std::move(batch.positional_encoding);
  if (batch.sample) pending_sample_ = std::move(batch.sample);
  Q_EMIT batchDelivered();
}

bool EngineBridge::deliverOneHeavy() {
  if (pending_attention_) {
    ++stats_.attention_deliveries;
    AttentionFrame frame = std::move(*pending_attention_);
    pending_attention_.reset();
    Q_EMIT attentionChanged(toWidgetSnapshot(std::move(frame)));
  } else if (pending_encoding_) {
    const PositionalEncodingData data = std::move(*pending_encoding_);
    pending_encoding_.reset();
    Q_EMIT positionalEncodingChanged(data);
  } else if (pending_sample_) {
    const SampleView sample = std::move(*pending_sample_);
    pending_sample_.reset();
    Q_EMIT sampleChanged(sample);
  }
  return pending_attention_ || pending_encoding_ || pending_sample_;
}

}  // namespace ascope
