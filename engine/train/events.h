#pragma once
// What the trainer tells the world: plain value structs (no torch types), copied out of tensors on
// the training thread, so the GUI and the CLI never touch a tensor.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ascope {

enum class TrainerState { kIdle, kPreparing, kRunning, kPaused, kStopped, kFinished, kFailed };
const char* trainerStateName(TrainerState state);
/// True for the states after which the trainer thread has ended or is about to.
inline bool isFinalState(TrainerState state) {
  return state == TrainerState::kStopped || state == TrainerState::kFinished ||
         state == TrainerState::kFailed;
}

/// One optimizer step (coalesced when the reader is slow).
struct StepMetrics {
  int64_t step = 0;  ///< 1-based count of optimizer steps done
  int epoch = 0;     ///< 1-based
  double loss = 0;
  double accuracy = 0;  ///< token accuracy for translation
  double lr = 0;
  double samples_per_s = 0;
  int64_t total_steps = 0;
  double elapsed_s = 0;
  double eta_s = 0;
};

/// End of an epoch (or of an evaluation pass).
struct EpochSummary {
  int epoch = 0;
  int64_t step = 0;
  double train_loss = 0;
  double train_accuracy = 0;
  double val_loss = 0;
  double val_accuracy = 0;
  std::optional<double> bleu;         ///< translation: corpus BLEU-4, 0..100
  std::optional<double> cer;          ///< translation: character error rate
  std::optional<double> wer;          ///< translation: word error rate
  std::optional<double> exact_match;  ///< translation: share of sentences exactly right
};

/// The end of a run that reached its end (finished, or its time limit): the whole held-out split
/// evaluated once, apart from the epoch-end validation passes, which may look at a subset only
/// (eval_max_samples). The run's final test figure.
struct TestEvaluation {
  int epoch = 0;
  int64_t step = 0;          ///< the run's last step
  int64_t weights_step = 0;  ///< the step whose weights were evaluated
  /// The weights were those of checkpoints/best.pt (best validation accuracy), not the last ones.
  bool best_weights = false;
  int64_t samples = 0;  ///< every sample of the held-out split
  double loss = 0;
  double accuracy = 0;
  std::optional<double> bleu;  ///< translation: every sentence of the split decoded
  std::optional<double> cer;
  std::optional<double> wer;
  std::optional<double> exact_match;
  double seconds = 0;  ///< how long it took (0 when read back from metrics.csv)
};

/// Row-major (rows × cols) attention weights of one head.
struct AttentionMap {
  int rows = 0;
  int cols = 0;
  std::vector<float> values;
};

/// All heads of all layers of one kind of attention for the probe sample.
struct AttentionGroup {
  std::string name;  ///< "encoder", "encoder self", "decoder self", "cross"
  int layers = 0;
  int heads = 0;
  std::vector<std::string> row_labels;  ///< queries: always the tokens actually fed
  std::vector<std::string> col_labels;  ///< keys: always the tokens actually fed
  /// Decoder self attention: a query never sees later keys (cells above the diagonal are masked
  /// out, not near-zero weights).
  bool causal = false;
  /// Decoder rows (decoder self and cross): the token each row's output predicted, since row i is
  /// fed token i and predicts token i + 1. Empty for encoders.
  std::vector<std::string> row_predictions;
  std::vector<AttentionMap> maps;  ///< layers × heads, index layer * heads + head
  const AttentionMap& map(int layer, int head) const { return maps[layer * heads + head]; }
};

/// Channel-planar RGB bytes (R plane, G plane, B plane).
struct ImageBuffer {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;
};

/// One step of greedy decoding: the most probable next tokens, best first.
struct DecodingStep {
  std::vector<std::pair<std::string, double>> top;  ///< (token, probability), k of them
};

struct PositionalEncodingSnapshot {
  int64_t step = 0;
  std::string kind;  ///< "sinusoidal" or "learned"
  int positions = 0;
  int dims = 0;
  std::vector<float> values;  ///< positions × dims, row-major
  int grid_rows = 0;          ///< ViT: patch grid (0 otherwise)
  int grid_cols = 0;
  bool has_cls = false;  ///< ViT: row 0 is the CLS token, patches follow
};

struct SamplePrediction {
  int64_t step = 0;
  std::string task;
  int sample_index = 0;
  ImageBuffer image;            ///< ViT
  std::string text;             ///< review text or translation source
  std::string true_label;       ///< class name or reference translation
  std::string predicted_label;  ///< class name or model translation
  double probability = 0;       ///< of the predicted class
  bool correct = false;
};

/// Everything the probe saw at one step, or everything one asked input produced.
struct AttentionSnapshot {
  int64_t step = 0;
  std::string task;  ///< id of the task that made it (see the task registry)
  int sample_index = 0;
  std::vector<AttentionGroup> groups;
  ImageBuffer image;   ///< ViT: the probe image
  int patch_size = 0;  ///< ViT: patch side in pixels
  int grid_rows = 0;   ///< ViT: patches per column
  int grid_cols = 0;   ///< ViT: patches per row
  /// Translation: step i of greedy decoding fed row i of the decoder groups and chose
  /// row_predictions[i] among `decoding[i].top`. Empty for the other tasks.
  std::vector<DecodingStep> decoding;
  /// Stored snapshots (the run folder's attention/ files): the probe's prediction and the
  /// positional encoding at this step, so the timeline can show every dock at one step.
  std::optional<SamplePrediction> sample;
  std::optional<PositionalEncodingSnapshot> positional_encoding;
};

/// The probe set at one step: one snapshot per probe sample, in the order of
/// TrainingConfig::probe_samples, so that every view can switch between the samples. Each carries
/// its sample prediction; a stored set carries the positional encoding in its first sample only.
struct ProbeSet {
  int64_t step = 0;
  std::vector<AttentionSnapshot> samples;
};

/// One per-head statistic (engine/analysis/head_statistics.h), averaged over the probe set.
struct HeadStatistic {
  std::string group;  ///< attention group name, e.g. "encoder self"
  int layer = 0;      ///< 0-based
  int head = 0;       ///< 0-based
  std::string metric;
  double value = 0;
};

/// A head whose kind changed (engine/analysis/head_kind.h), e.g. it became previous-token.
struct HeadKindChange {
  int64_t step = 0;
  std::string group;
  int layer = 0;
  int head = 0;
  std::string from, to;
  double score = 0;  ///< the metric that made it `to`
  std::string text;  ///< "step 1,200: encoder layer 1 head 3 became …" (0-based, as the GUI)
};

/// The statistics of every head at one probe, and the changes of kind they revealed.
struct HeadStatisticsUpdate {
  int64_t step = 0;
  std::vector<HeadStatistic> values;
  std::vector<HeadKindChange> changes;
};

/// The learning rate set by a command while the run went on: `lr` replaces the schedule from
/// `step` (the first step trained with it) to the end of the run.
struct LearningRateChange {
  int64_t step = 0;
  double lr = 0;
  double previous_lr = 0;  ///< what the step would have used without the change
};

struct LogLine {
  int level = 2;  ///< spdlog levels: 0 trace … 2 info, 3 warn, 4 error
  std::string text;
};

struct StateChange {
  TrainerState state = TrainerState::kIdle;
  std::string reason;
};

struct Failure {
  int64_t step = 0;
  std::string message;  ///< meant for a person
};

/// Everything that arrived since the last drain.
struct EventBatch {
  std::vector<StepMetrics> metrics;
  std::vector<EpochSummary> epochs;
  std::optional<TestEvaluation> test;                 ///< once, at the end of a run
  std::optional<ProbeSet> attention;                  ///< the newest probe set
  std::vector<HeadStatisticsUpdate> head_statistics;  ///< every probe's, in order
  std::optional<PositionalEncodingSnapshot> positional_encoding;
  std::optional<SamplePrediction> sample;
  std::vector<LogLine> logs;
  std::vector<StateChange> states;
  std::vector<Failure> failures;
  std::vector<LearningRateChange> learning_rate_changes;
  std::optional<std::string> run_folder;  ///< once per run, when preparation has made it
  uint64_t dropped_metrics = 0;           ///< metrics coalesced away since the last drain

  bool empty() const {
    return metrics.empty() && epochs.empty() && !test && !attention && head_statistics.empty() &&
           !positional_encoding && !sample && logs.empty() && states.empty() && failures.empty() &&
           learning_rate_changes.empty() && !run_folder;
  }
};

}  // namespace ascope
