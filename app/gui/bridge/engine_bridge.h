#pragma once
// The one place where the engine meets Qt (docs/ARCHITECTURE.md, "Threads"):
//   - The trainer runs on its own thread and only publishes into its event queue; it never calls
//     into Qt.
//   - The bridge lives on the GUI thread. A timer drains the run every kDrainIntervalMs and emits
//     the engine's own event structs (engine/vocabulary/events.h) on the GUI thread (direct
//     connections); each panel converts what it shows once (app/gui/views/<dock>/*_conversion.h).
//     Each drain is one repaint batch: all steps of the drain in one signal. Heavy payloads
//     (attention, positional encoding, sample) are latest-wins, and at most one of them is emitted
//     per drain (attention first), so their replots land in different event-loop turns.
//   - Commands go straight to the run (RunControl) and return at once. The GUI never waits for
//     the trainer; the only join is in shutdown() (closing the window) or when a finished run is
//     replaced.
//   - The run's state and folder go to CurrentRun, their one owner in the GUI.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/run_control.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class CurrentRun;

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
    StepMetrics last_step;
  };

  explicit EngineBridge(CurrentRun* run, QObject* parent = nullptr);
  ~EngineBridge() override;

  /// Starts training `config` on a new trainer thread (the previous run must have ended).
  /// Returns a message for a person on failure (e.g. the config's validation error), "" on
  /// success.
  QString startTraining(const TrainingConfig& config, bool start_paused = false);
  /// Drains `engine` from now on as the run of `config` (tests: a fake engine).
  void attach(std::unique_ptr<RunControl> engine, const TrainingConfig& config);

  void pause();
  void resume();
  void stepOnce();
  /// Asks the trainer to stop after its current batch; returns at once.
  void stop();
  /// From the next batch to the end of the run, in place of the schedule; the engine logs it and
  /// learningRateChanged follows once a batch uses it (while paused: after Resume or Step).
  void setLearningRate(double lr);
  /// Which validation sample the probe set's first sample is, from the next batch on.
  void setProbeSample(int index);
  /// Stops the drain timer, requests stop and joins the trainer thread (closing the window).
  void shutdown();

  /// A run exists and its thread has not ended yet.
  bool isActive() const;
  const Stats& stats() const { return stats_; }
  int drainInterval() const { return timer_.interval(); }

 Q_SIGNALS:
  // All signals are emitted on the GUI thread from the drain timer.
  void stepsArrived(const std::vector<StepMetrics>& steps);
  void epochEnded(const EpochSummary& summary);
  /// The run's final test on the whole test split (once, at the end of a run that reached
  /// its end; after the last epochEnded).
  void testEvaluated(const TestEvaluation& test);
  /// The newest probe set, shared with whoever keeps it (never copied on the way).
  void attentionChanged(std::shared_ptr<const ProbeSet> probes);
  /// Every probe's per-head statistics, in order (light: a few thousand numbers).
  void headStatisticsArrived(const std::vector<HeadStatisticsUpdate>& updates);
  void positionalEncodingChanged(const PositionalEncodingSnapshot& snapshot);
  void sampleChanged(const SamplePrediction& sample);
  /// A learning rate sent by setLearningRate took effect at change.step.
  void learningRateChanged(const LearningRateChange& change);
  void logLine(const LogLine& line);
  void failed(const QString& message);
  /// The run has ended and everything it published has been delivered.
  void runEnded(TrainerState state);
  /// Emitted after every drain that carried anything.
  void batchDelivered();

 private:
  void drain();
  void deliver(EventBatch&& batch);
  /// Emits the most important pending heavy payload; false when none is pending.
  bool deliverOneHeavy();

  CurrentRun* run_;
  std::unique_ptr<RunControl> engine_;
  QTimer timer_;
  // Heavy payloads waiting for their drain (latest wins).
  std::shared_ptr<const ProbeSet> pending_attention_;
  std::optional<PositionalEncodingSnapshot> pending_encoding_;
  std::optional<SamplePrediction> pending_sample_;
  Stats stats_;
};

}  // namespace ascope

// Queued connections and QSignalSpy carry the probe set's pointer.
Q_DECLARE_METATYPE(std::shared_ptr<const ascope::ProbeSet>)
