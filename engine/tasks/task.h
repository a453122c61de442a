#pragma once
// One learning problem: its data, its model, its loss, and what it shows of itself. The trainer
// owns the loop; a task knows how to turn sample indices into a loss and how to probe its model.
#include <torch/nn/module.h>
#include <torch/nn/modules/normalization.h>
#include <torch/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/imaging/patch_occlusion.h"
#include "engine/nn/multi_head_attention.h"
#include "engine/nn/position_sum.h"
#include "engine/tasks/benchmark_shapes.h"
#include "engine/vocabulary/data_split.h"
#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/evaluation_report.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

struct BatchOutcome {
  // The figures stay on the loss's device: reading them is the session's, at its cadence, so that
  // no training step makes the host wait for the device (engine/device/host_wait_counter.h).
  torch::Tensor loss;  ///< scalar, with graph
  torch::Tensor
      correct;  ///< scalar: correctly predicted items (samples, or tokens for translation)
  torch::Tensor counted;  ///< scalar: items that count towards accuracy
  int64_t samples = 0;    ///< samples in the batch (for samples/s)
};

struct EvaluationOutcome {
  double loss = 0;
  double accuracy = 0;
  Figures figures;  ///< the task's tracked figures (TaskDescriptor::metrics)
  /// The samples behind the figures that need a whole answer generated (a translation's BLEU:
  /// its sentences decoded); 0 when there are no such figures.
  int figure_samples = 0;
};

/// Which samples an evaluation computes the figures that need a whole answer generated over (a
/// translation's BLEU): as many as the task's settings say (a validation pass during training),
/// or every sample evaluated (the final test).
enum class FigureSamples { kAsSettingsSay, kEvery };

/// What `infer` answers for one input.
struct InferenceOutcome {
  std::string label;                                    ///< class name, sentiment, or translation
  double probability = 0;                               ///< of the label (classification)
  std::vector<std::pair<std::string, double>> ranking;  ///< classification: every class
  /// What the model attended to while answering: every group, layer and head for this input,
  /// labelled with its own tokens (or patches); sample_index -1, step left to the caller.
  AttentionSnapshot attention;
};

/// One attention module of a task's model, named as the task's attention snapshots name it.
struct AttentionSite {
  /// The AttentionGroup name: "encoder", "encoder self", "decoder self" or "cross".
  std::string group;
  int layer = 0;                       ///< layer within the group, from 0
  MultiHeadAttention module{nullptr};  ///< shares the model's module (setHeadMask acts on it)
  /// The layer normalises its input before the attention (pre-norm).
  bool norm_first = false;
  /// The first layer of a stack fed token + position: turns on (and, given nullptr, off) the
  /// recording of the position module's addends; empty for every other site.
  std::function<void(PositionSums*)> record_positions;
  /// The LayerNorm between that sum and this attention's input (the layer's own pre-norm, or a
  /// BERT's embedding norm); null when the sum is the input itself.
  torch::nn::LayerNorm input_norm{nullptr};
};

class Task {
 public:
  virtual ~Task() = default;

  virtual torch::nn::Module& model() = 0;
  virtual int64_t trainSize() const = 0;
  virtual int64_t validationSize() const = 0;
  /// Samples of the test split (engine/vocabulary/data_split.h); 0 when the data has none.
  virtual int64_t testSize() const { return 0; }
  int64_t splitSize(DataSplit split) const;
  /// Where the validation and test splits came from, for the log and the final test's label.
  virtual SplitOrigins splitOrigins() const { return {}; }
  /// One line for the log: model size and data.
  virtual std::string describe() const = 0;

  /// Forward pass and loss for the training samples `indices` (model in train mode).
  virtual BatchOutcome trainBatch(const std::vector<int64_t>& indices) = 0;
  /// The cost of each training sample in tokens, for batches of similar lengths
  /// (TrainingConfig::bucket_by_length); empty (the default) when samples cost alike.
  virtual std::vector<int64_t> trainingLengths() const { return {}; }
  /// Floating-point operations of a training step on `indices` as engine/models/model_flops.h
  /// counts them; 0 (the default) when the task cannot tell.
  virtual double trainingFlops(const std::vector<int64_t>& /*indices*/) const { return 0; }
  /// Loss and accuracy over (up to `max_samples` of, 0: all) `split`, and the task's tracked
  /// figures over the samples `figures` says (a translation decodes them for BLEU). Model in eval
  /// mode, no grad.
  virtual EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) = 0;
  /// Every sample of `split`, each with its input, reference, prediction and loss (`evaluate`
  /// and the Errors dock). Calls `progress` as it goes and stops with an error when it says
  /// cancelled. The default: an error saying the task cannot.
  virtual Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                         const ScoringProgress& progress);
  /// Loss, accuracy and every declared figure (tracked and not) of a whole scored split
  /// (`evaluate`, the Errors dock). The default: the mean loss and the share of right answers,
  /// no figures.
  virtual EvaluationOutcome summarizeScores(const std::vector<ScoredSample>& scored) const;

  /// Attention of every layer and head for validation sample `index` (eval mode, no dropout),
  /// the same capture an asked input's InferenceOutcome::attention gets.
  virtual AttentionSnapshot probeAttention(int index) = 0;
  virtual SamplePrediction predictSample(int index) = 0;
  /// One probe of the timeline: the attention of each validation sample in `indices`, in that
  /// order, each with its prediction in `sample` where the same forward pass gives it (a class).
  /// A prediction generated token by token (a translation) is left out (nullopt) and made by
  /// generatePredictions, as often as its cost allows. The default asks probeAttention and
  /// predictSample sample by sample; a task answers the whole set in one batched pass instead.
  virtual std::vector<AttentionSnapshot> probeSamples(const std::vector<int>& indices);
  /// The predictions probeSamples leaves out, for the same samples; the default: predictSample
  /// of each.
  virtual std::vector<SamplePrediction> generatePredictions(const std::vector<int>& indices);

  /// The validation rows the probe sample numbers stand for (they wrap around the split); empty
  /// when there is no validation split.
  std::vector<int64_t> validationRows(const std::vector<int>& indices) const;
  virtual PositionalEncodingSnapshot positionalEncoding() = 0;
  /// Every attention module of the model, grouped and ordered as probeAttention's groups and
  /// layers are, so that head ablation can address "group, layer, head".
  virtual std::vector<AttentionSite> attentionSites() = 0;

  /// Classification: the class names, in class-index order; empty for other tasks.
  virtual std::vector<std::string> classNames() const { return {}; }

  /// Tokenizers and class names the run folder needs for inference later.
  virtual Status saveArtifacts(const std::string& run_dir) const = 0;
  /// Text tasks: classify or translate `text`, with the attention of `text`. Image task: error.
  virtual Expected<InferenceOutcome> inferText(const std::string& text);
  /// Image task: classify an image (channel-planar RGB at the model's size). Text tasks: error.
  virtual Expected<InferenceOutcome> inferImage(const ImageBuffer& image);
  /// Image tasks: the patches the model cuts its input into and the pixel its normalisation reads
  /// as 0, for asking about an image with one patch occluded; nullopt for tasks that read text.
  virtual std::optional<PatchGrid> patchGrid() const { return std::nullopt; }
};

/// What a task factory needs: the run's settings, the device, and for an inference task the run
/// folder its tokenizers and class names are read from. Warnings from loading data go to
/// `warnings` when it is set.
struct TaskBuild {
  const TrainingConfig& config;
  torch::Device device;
  std::string run_dir;
  std::vector<std::string>* warnings = nullptr;
  /// Training tasks for `bench` only: shapes that replace the data's (a factory refuses those it
  /// cannot honour, so a benchmark never times other work than it was asked to).
  BenchmarkShapes shapes;
  /// Inference tasks for scoring a data set (`evaluate`, the Errors dock): the task also reads
  /// config.data and splits it as a training task of `config` would, but keeps the run's own
  /// tokenizers and class names. Off: no data at all.
  bool with_data = false;
};

}  // namespace ascope
