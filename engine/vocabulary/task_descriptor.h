#pragma once
// A task as the whole program sees it: what it is called, what data it reads, its presets, how its
// model is shaped and edited, what its attention axes and samples are, and how to build it. The
// engine, the CLI and the GUI read descriptors from the registry (task_registry.h) instead of
// comparing task names.
//
// Plain C++ on purpose: Qt code includes this header. The two factories return LibTorch objects,
// so they name Task and TaskBuild only by declaration; code that calls them includes task.h.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/figures.h"
#include "engine/vocabulary/metric_info.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class Task;        // engine/tasks/task.h (LibTorch)
struct TaskBuild;  // engine/tasks/task.h (LibTorch)

/// What a person gives the model to ask it something ("Try it", `infer`).
enum class TaskInput { kText, kImage };

/// What a sample's three texts (SamplePrediction::input, expected, answer) are called where the
/// window and the CLI show them, and how its answer reads.
struct SampleTerms {
  std::string input = "input";     ///< what the model reads: "review", "source"
  std::string expected = "label";  ///< the right answer: "label", "reference"
  std::string answer = "answer";   ///< the model's: "answer", "translation"
  /// The answer is free text, compared with the expected one word by word (a translation),
  /// rather than one of a few classes picked with a probability.
  bool free_text = false;
};

/// A preset by name, with a line for people ("laptop — minutes on a CPU").
struct PresetInfo {
  std::string name;
  std::string description;
};

/// The model sizes the hyperparameter form edits, whatever model the task uses.
struct ModelShape {
  int64_t layers = 0;
  int64_t heads = 0;
  int64_t d_model = 0;
  int64_t d_ff = 0;
  int64_t patch_size = 0;  ///< 0: the model has no patches
};

/// What the rows and columns of one kind of attention are, for axis titles.
struct AttentionAxes {
  std::string title;  ///< the group as a person reads it ("encoder self")
  std::string query_title = "query";
  std::string key_title = "key";
};

/// A second scoring of the same weights and split that `evaluate` reports beside the asked one,
/// when that one was decoded with a beam wider than `beam_width`: a translation's greedy BLEU
/// beside its beam's. Each of `figures` of the second scoring is stored as `prefix` + its key
/// (which the task declares among its metrics, untracked).
struct ExtraEvaluationPass {
  std::string prefix;                ///< "greedy_"
  int beam_width = 1;                ///< the second scoring decodes with this beam
  std::vector<std::string> figures;  ///< {"bleu"}
};

/// The presets the built-in tasks offer: laptop (minutes on a CPU), tiny (tests, a quick look)
/// and seed (the seed documents' reference configuration).
std::vector<PresetInfo> laptopTinySeedPresets();

/// "a, b or c": how messages list presets and task ids.
std::string joinAsList(const std::vector<std::string>& items);

struct TaskDescriptor {
  std::string id;            ///< the name in config.json, --task and the GUI's settings
  std::string title;         ///< "Images · ViT"
  std::string data_formats;  ///< the real datasets it reads, for help texts and tooltips
  TaskInput input = TaskInput::kText;
  SampleTerms sample_terms;
  /// The payload kinds (engine/vocabulary/payloads) its snapshots and samples carry, e.g.
  /// "image" for a ViT, "decoding" for a translation: the views the window offers for them.
  std::vector<std::string> payloads;
  std::string input_hint;     ///< placeholder of the "Try it" box for text input
  std::string accuracy_name;  ///< what its accuracy counts ("accuracy", "token accuracy")
  /// The figures it reports besides loss and accuracy, in the order summaries list them; their
  /// values travel as Figures (figures.h) keyed by MetricInfo::key.
  std::vector<MetricInfo> metrics;
  /// > 0: it decodes its answers token by token and can search a beam up to this wide ("Try it"'s
  /// beam box, `infer --beam`); 0: it has no beam to search.
  int max_beam_width = 0;
  /// What `evaluate` scores again beside a beam's figures (none for a classifier).
  std::vector<ExtraEvaluationPass> extra_evaluation_passes;
  /// The ModelShape fields the hyperparameter form shows, by key; a model of image patches adds
  /// "patch_size".
  std::vector<std::string> shape_fields{"layers", "heads", "d_model", "d_ff"};
  /// Whether `shape_fields` names `field`.
  bool showsShapeField(const std::string& field) const;
  std::string width_label = "d_model";  ///< the model's own name for its width ("Hidden")
  std::string ff_label = "d_ff";        ///< … and for its feed-forward width ("MLP")
  std::string layers_hint = "Transformer layers";  ///< what the layers field sets
  /// For a task that translates between a language pair: sets its languages in `config` (the
  /// codes validate checks); a side not given keeps its code. Null for the others.
  std::function<void(TrainingConfig& config, const std::optional<std::string>& source,
                     const std::optional<std::string>& target)>
      set_languages;
  /// For a task whose figures need a whole answer generated per sample (a translation's BLEU):
  /// sets in `config` how many samples an evaluation generates one for, in place of the run's
  /// own count (an ablation's many evaluations use fewer). Null for the others.
  std::function<void(TrainingConfig& config, int samples)> set_figure_samples;
  /// Accepts TrainingConfig::pretrained (a Hugging Face model folder to fine-tune).
  bool fine_tunes_pretrained = false;
  /// The preset a pretrained model is trained with (its seed's fine-tuning settings); a preset
  /// for a model trained from scratch would ruin one (validateConfig refuses the pair).
  std::string fine_tune_preset;
  /// The labels of tokens that are not words ([CLS], [PAD], …): what per-head statistics count as
  /// attention to special tokens.
  std::vector<std::string> special_tokens;
  std::vector<PresetInfo> presets;  ///< in the order a chooser lists them

  /// The configuration of `preset` (one of `presets`).
  std::function<TrainingConfig(const std::string& preset)> make_preset;
  /// Task-specific checks of a config (its model, its data); the common ones are done already.
  std::function<Status(const TrainingConfig&)> validate;
  std::function<ModelShape(const TrainingConfig&)> model_shape;
  std::function<void(TrainingConfig&, const ModelShape&)> set_model_shape;
  /// The sizes of the pretrained model in `folder` (its config.json), for a read-only form; only
  /// for tasks that fine-tune. An error names the file and field.
  std::function<Expected<ModelShape>(const std::string& folder)> pretrained_shape;
  /// Side of the square input image in pixels; 0 for tasks that read text.
  std::function<int(const TrainingConfig&)> image_side;
  /// Axis titles of the attention group `group` ("encoder self", "decoder self", "cross").
  std::function<AttentionAxes(const std::string& group)> attention_axes;
  /// The floating-point operations of one training step of `config.batch_size` samples at the
  /// model's longest input: the products of forward and backward (engine/models/model_flops.h
  /// counts the built-in models), the model of config.pretrained's config.json where one is set
  /// (read there: an error names the file). Run-time estimates and `bench` use it.
  std::function<Expected<double>(const TrainingConfig&)> step_flops;

  /// For a task that classifies texts: the labelled texts of the three splits of `config`'s data
  /// exactly as its runs split them (held-out splits carved by the run's seed and fractions) and
  /// as the task reads them, without building a model; lines for the log (skipped rows, overlaps)
  /// go to `warnings`. `attentionscope-cli split` writes them. Null for the other tasks.
  std::function<Expected<TextDataset>(const TrainingConfig& config,
                                      std::vector<std::string>* warnings)>
      text_splits;

  /// Loads (or generates) the data, fits tokenizers, builds the model (LibTorch side).
  std::function<Expected<std::unique_ptr<Task>>(const TaskBuild&)> make_training_task;
  /// Rebuilds the model of a finished run for inference: tokenizers and class names from the run
  /// folder, no dataset unless TaskBuild::with_data asks for config.data (LibTorch side).
  std::function<Expected<std::unique_ptr<Task>>(const TaskBuild&)> make_inference_task;

  /// The declaration of `key`; undeclaredMetric(key) when the task declares none.
  MetricInfo metric(const std::string& key) const;
  /// The declared figures an evaluation pass reports (MetricInfo::tracked).
  std::vector<MetricInfo> trackedMetrics() const;
  /// The run's figure of merit: the declared metric marked headline, else the accuracy (key
  /// "accuracy", titled accuracy_name, higher better).
  MetricInfo headline() const;
  /// The value of headline() among `accuracy` and `figures`; nullopt when `figures` lacks it.
  std::optional<double> headlineValue(double accuracy, const Figures& figures) const;

  bool hasPreset(const std::string& name) const;
  /// The preset to use when none is named: "seed" on a GPU, "laptop" on a CPU, where the task has
  /// them; else its first preset.
  std::string defaultPreset(bool gpu) const;
  /// defaultPreset, except for a pretrained model: the task's fine_tune_preset.
  std::string defaultPreset(bool gpu, bool pretrained) const;
  /// "seed, laptop or tiny"
  std::string presetList() const;
};

}  // namespace ascope
