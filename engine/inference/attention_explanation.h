#pragma once
// The Computation view's question to the engine: one head of one layer, for a run's validation
// sample, an asked text or image, or a pretrained model being inspected, recomputed stage by
// stage with the model's own weights (engine/vocabulary/attention_computation.h). Plain C++ (the
// .cpp uses LibTorch); every call does tensor work: call it off the GUI thread.
#include <memory>
#include <optional>
#include <string>

#include "engine/inference/checkpoint_inference.h"
#include "engine/vocabulary/attention_computation.h"
#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct ExplainRequest {
  std::string run_dir;       ///< a trained run; or
  std::string model_folder;  ///< a pretrained Hugging Face model (BERT, ViT)
  std::string device = "cpu";
  CheckpointChoice checkpoint = CheckpointChoice::kNewest;
  /// A validation sample of the run, numbered as its probes number them; -1: the input below.
  int sample = -1;
  std::string text;        ///< asked text (BERT: the sentence)
  std::string text_pair;   ///< BERT: an optional second sentence
  std::string image_file;  ///< an asked image (ViT runs and pretrained ViTs)
  std::string group;       ///< "" for the model's first attention group
  int layer = 0;
  int head = 0;
};

struct Explanation {
  AttentionComputation computation;
  /// The same head as the model's own forward pass recorded it (the probe's capture for a
  /// sample, the answer's for an asked input): what the recomputed weights must equal.
  AttentionMap recorded;
  /// The largest |recomputed − recorded| weight over the head's cells, the one figure every
  /// front end reports; nullopt when the recorded map has another shape or none.
  std::optional<double> largest_difference;
  std::string answer;  ///< the model's answer for the input (class, sentiment, translation)
  std::string note;    ///< "" or one line for a person (another checkpoint answered, …)
};

/// Keeps the last model it loaded, so that stepping through layers and heads of one run or
/// pretrained folder loads it once; a newer checkpoint of the run is loaded again.
class AttentionExplainer {
 public:
  AttentionExplainer();
  ~AttentionExplainer();
  AttentionExplainer(const AttentionExplainer&) = delete;
  AttentionExplainer& operator=(const AttentionExplainer&) = delete;

  /// Errors name the run or folder, the sample, group, layer or head out of range, an input the
  /// model does not read; LibTorch's exceptions stop here.
  Expected<Explanation> explain(const ExplainRequest& request);

 private:
  struct Loaded;
  std::unique_ptr<Loaded> loaded_;
};

/// One question, with a model loaded for it alone.
Expected<Explanation> explainAttention(const ExplainRequest& request);

}  // namespace ascope
