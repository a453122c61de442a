#pragma once
// Every setting of a run, enough to repeat it; written to config.json in the run folder.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/task_settings.h"

namespace ascope {

struct OptimizationConfig {
  std::string optimizer = "adam";  ///< "adam" or "adamw"
  double lr = 1e-3;
  double weight_decay = 0.0;
  double adam_eps = 1e-8;
  std::string schedule = "constant";  ///< "constant" or "cosine" (linear warm-up, cosine decay)
  int64_t warmup_steps = 0;
  double min_lr_ratio = 0.0;  ///< cosine floor as a share of lr
  double grad_clip = 0.0;     ///< max global gradient norm; 0 = off
  double label_smoothing = 0.0;
  /// 0: off. Else the weights after every step of the last this many epochs are averaged; at the
  /// end the average is scored on the validation split and becomes best.pt when it beats the best
  /// epoch's weights (training_session.h, WeightAverage).
  int64_t average_last_epochs = 0;
};

/// Where the validation and test splits come from (engine/vocabulary/data_split.h).
struct DataSplitsConfig {
  /// A file or folder holding the validation samples, read like `data`; "" = carved from the
  /// training data (validation_fraction of it).
  std::string validation_data;
  /// A file or folder holding the test samples, read like `data`; "" = the data set's own test
  /// split, else test_fraction of the training data carved once.
  std::string test_data;
  double validation_fraction = 0.1;  ///< of the training data, when carved
  /// Of the training data, carved when the data has no test split of its own and none is named;
  /// 0 = no test split (the run then has no test figure: validation is never reused as one).
  double test_fraction = 0.1;
  /// 2: three splits as above. 1: a run made before separate test splits, whose held-out split
  /// was both its validation split and its "test" figure; kept so that such a run resumes on the
  /// same data, and its final figure is labelled as the validation split it was.
  int layout = 2;
};

/// Sizes of the built-in generated datasets.
struct BuiltinDataConfig {
  int train_count = 5000;
  int test_count = 1000;
  uint64_t seed = 1;
};

struct TrainingConfig {
  std::string task;  ///< a task id of the registry (engine/tasks/registry/task_registry.h)
  std::string data = "builtin";   ///< "builtin" or a path in a format the task reads
  std::string preset = "laptop";  ///< one of the task's presets
  int epochs = 10;
  int64_t max_steps = 0;   ///< train exactly this many steps, however many epochs that takes;
                           ///< 0 = run `epochs` epochs
  double max_seconds = 0;  ///< stop after this long; 0 = no limit
  int64_t batch_size = 32;
  /// Batches of samples of similar length (engine/datasets/epoch_batches.h), so that less of each
  /// is padding; only tasks that report per-sample lengths (translation, sentiment) are affected.
  bool bucket_by_length = false;
  OptimizationConfig optimization;
  std::string device = "cpu";  ///< "cpu" or "cuda"
  bool bf16 = false;           ///< CUDA autocast to bfloat16
  uint64_t seed = 42;
  int threads = 0;  ///< intra-op threads; 0 = every CPU the process may use

  // Watching.
  int64_t probe_every_steps = 50;    ///< attention probe cadence in steps …
  double probe_every_seconds = 5.0;  ///< … or seconds, whichever comes first
  /// Validation samples probed together (the probe set): every view can switch between them and
  /// the per-head statistics average over them. Indices wrap around the validation set's size.
  std::vector<int> probe_samples{0, 1, 2, 3};
  bool head_statistics = true;  ///< per-head statistics at every probe (head_stats.csv)
  /// Most of the wall time probes may take: a probe that took p seconds is followed by the next
  /// one no sooner than p · (1 − share) / share later, whatever the cadence says. 1 = no limit
  /// (probes exactly at the cadence, as tests and the tiny presets want).
  double probe_time_share = 0.02;
  /// The stored timeline's cadence: a probe set at every multiple of this step. 0 = a round number
  /// giving at least 100 sets (SnapshotStore::spacingFor), the same for every run of one length.
  int64_t snapshot_every_steps = 0;
  /// Most the attention/ folder may hold; older snapshots are thinned out (every other one goes)
  /// to stay under it, so a long run keeps covering its whole timeline.
  int64_t snapshot_budget_mb = 256;
  int64_t eval_every_steps = 0;  ///< extra validation passes; 0 = once per epoch
  int eval_max_samples = 2000;   ///< validation subset size (0 = all)
  /// The weights of the run's final test on the whole held-out split: "best" (checkpoints/best.pt,
  /// when its validation accuracy beats the last evaluation's) or "last" (the final weights).
  std::string final_weights = "best";
  int64_t checkpoint_every_steps = 500;
  /// How often the steps' loss and accuracy are read off the device: in between, the host queues
  /// steps without waiting for it, and a non-finite loss found at a read ends the run (its weights
  /// are not kept). 0 = every step on a CPU (a read costs nothing there, and a non-finite loss
  /// skips its batch), every 25 steps on a GPU.
  int64_t read_figures_every_steps = 0;

  // Task data.
  BuiltinDataConfig builtin;
  DataSplitsConfig splits;

  /// The task's own settings, each in a struct of the task's (its model's, vocab sizes filled in
  /// from the tokenizer; its data's and evaluation's), written to config.json under that struct's
  /// key (engine/vocabulary/task_settings.h).
  TaskSettings task_settings;
  /// A Hugging Face model folder (config.json, model.safetensors, tokenizer files) to fine-tune
  /// instead of the task's own model; "" = the task's own model. Only tasks whose descriptor
  /// says fine_tunes_pretrained accept one.
  std::string pretrained;

  // Run folder; "" = runs/<date>_<time>_<task>.
  std::string out_dir;
  bool stop_on_nonfinite = true;   ///< CLI stops on NaN/inf loss; the GUI pauses instead
  bool resume = false;             ///< continue the run in out_dir from its last checkpoint
  int64_t interrupt_at_step = 0;   ///< stop (with checkpoint) after this step, as an interruption
                                   ///< would; not part of the schedule; 0 = off
  int64_t inject_nan_at_step = 0;  ///< fault injection: the loss of this step becomes NaN (tests
                                   ///< and demos of the NaN handling); 0 = off

  /// The checks every task shares: ranges, names, the learning rate. The task's own (its model,
  /// its data, whether it fine-tunes) are validateConfig's (engine/tasks/registry/task_registry.h).
  Status validateCommon() const;
};

void to_json(nlohmann::json& j, const OptimizationConfig& c);
void from_json(const nlohmann::json& j, OptimizationConfig& c);
void to_json(nlohmann::json& j, const BuiltinDataConfig& c);
void from_json(const nlohmann::json& j, DataSplitsConfig& c);
void to_json(nlohmann::json& j, const DataSplitsConfig& c);
void from_json(const nlohmann::json& j, BuiltinDataConfig& c);
void to_json(nlohmann::json& j, const TrainingConfig& c);
void from_json(const nlohmann::json& j, TrainingConfig& c);

}  // namespace ascope
