#pragma once
// The one place where the engine meets Qt. Threading model:
//   - The trainer runs on its own thread and only publishes into its EventQueue (see
//     engine/train/event_queue.h); it never calls into Qt.
//   - The bridge lives on the GUI thread. A QTimer drains the queue every kDrainIntervalMs
//     (≤ 30 Hz), converts the batch to widget values and emits the signals below, all on the GUI
//     thread (direct connections). Each drain is one repaint batch: all train points of the drain
//     in one signal. Heavy payloads (attention snapshot, positional encoding, sample) are
//     latest-wins slots, and at most one of them is emitted per drain (attention first), so their
//     replots land in different event-loop turns instead of one long stall.
//   - Commands (pause, step, stop…) are queued to the trainer and return at once. The GUI never
//     waits for the trainer; the only join is in shutdown() (closing the window) or when a
//     finished run is replaced.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

#include "app/gui/gui_batch.h"
#include "engine/train/training_config.h"
#include "widgets/attention_plot_data.h"

namespace ascope {

class EngineSession;

class EngineBridge : public QObject {
  Q_OBJECT

 public:
  // 15 Hz: curves still move smoothly, and on a 2-core machine the GUI thread's share of a core
  // fell from 18 % to 12 % during ViT training, which shares the cores with OpenBLAS's threads
  // (bench/streaming_benchmark.sh).
  static constexpr int kDrainIntervalMs = 66;

  /// Counters for tests and the scripted mode's report.
  struct Stats {
    int drains = 0;      ///< timer ticks that drained the queue
    int deliveries = 0;  ///< drains that carried anything (one repaint batch each)
    int attention_deliveries = 0;
    std::int64_t steps = 0;        ///< StepMetrics received
    double samples_per_s_sum = 0;  ///< over all StepMetrics received
    double max_drain_ms = 0;       ///< longest drain including the panels' slots
    std::uint64_t dropped_metrics = 0;
    ProgressReport last_progress;
  };

  explicit EngineBridge(QObject* parent = nullptr);
  ~EngineBridge() override;

  /// Starts a new run (the previous one must have ended). Returns a message for a person on
  /// failure (e.g. the config's validation error), "" on success.
  QString startTraining(const TrainingConfig& config, bool start_paused = false);
  /// Drains `session` from now on (tests: a replay session fed by a fake engine).
  void attach(std::unique_ptr<EngineSession> session);

  void pause();
  void resume();
  void stepOnce();
  /// Asks the trainer to stop after its current batch; returns at once.
  void stop();
  /// Stops the drain timer, requests stop and joins the trainer thread (closing the window).
  void shutdown();

  /// A run exists and its trainer thread has not ended yet.
  bool isActive() const;
  RunState state() const { return state_; }
  QString runDir() const { return run_dir_; }
  /// The config of the current (or last) run; null before the first.
  const TrainingConfig* config() const;
  const Stats& stats() const { return stats_; }
  int drainInterval() const { return timer_.interval(); }

 Q_SIGNALS:
  // All signals are emitted on the GUI thread from the drain timer.
  void trainPointsArrived(const std::vector<SeriesPoint>& loss,
                          const std::vector<SeriesPoint>& accuracy);
  void progressChanged(const ProgressReport& progress);
  void epochEnded(const EpochReport& report);
  void attentionChanged(const AttentionPlotData& snapshot);
  void positionalEncodingChanged(const PositionalEncodingData& data);
  void sampleChanged(const SampleView& sample);
  void logLine(int level, const QString& text);
  void stateChanged(RunState state, const QString& reason);
  void failed(const QString& message);
  /// The run folder became known (once per run, after preparation).
  void runFolderChanged(const QString& path);
  /// The trainer thread has ended and everything it published has been delivered.
  void runEnded(RunState state);
  /// Emitted after every drain that carried anything.
  void batchDelivered();

 private:
  void drain();
  void deliver(GuiBatch&& batch);
  /// Emits the most important pending heavy payload; false when none is pending.
  bool deliverOneHeavy();

  std::unique_ptr<EngineSession> session_;
  QTimer timer_;
  // Heavy payloads waiting for their drain (latest wins).
  std::optional<AttentionFrame> pending_attention_;
  std::optional<PositionalEncodingData> pending_encoding_;
  std::optional<SampleView> pending_sample_;
  RunState state_ = RunState::Idle;
  QString run_dir_;
  Stats stats_;
};

}  // namespace ascope
