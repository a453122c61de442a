#pragma once
// What a probe saw: attention maps of every head with their token labels, the sample and its
// prediction, the positional encoding. Copied out of tensors on the training thread.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/payloads/decoding_payload.h"
#include "engine/vocabulary/payloads/image_payload.h"
#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

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
  /// The first column's key in the model's input, for a task that shows a window of its keys
  /// (the letter reversal); 0 otherwise. Not stored: the live model's computation reads it.
  int col_offset = 0;
  /// Decoder self attention: a query never sees later keys (cells above the diagonal are masked
  /// out, not near-zero weights).
  bool causal = false;
  /// Decoder rows (decoder self and cross): the token each row's output predicted, since row i is
  /// fed token i and predicts token i + 1. Empty for encoders.
  std::vector<std::string> row_predictions;
  std::vector<AttentionMap> maps;  ///< layers × heads, index layer * heads + head
  const AttentionMap& map(int layer, int head) const { return maps[layer * heads + head]; }
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

/// One sample and what the model made of it, in the three texts every task has (the task's
/// descriptor names them: TaskDescriptor::sample_terms) and the payloads only some have.
struct SamplePrediction {
  int64_t step = 0;
  std::string task;
  int sample_index = 0;
  std::string input;       ///< what the model read (a review, a source sentence); "" for an image
  std::string expected;    ///< the right answer (a class name, a reference translation)
  std::string answer;      ///< the model's answer
  double probability = 0;  ///< of the answer, where the model gives one (a class)
  bool correct = false;
  Payloads payloads;  ///< e.g. the image (ImagePayload), an alignment (TextAlignment)
};

/// Everything the probe saw at one step, or everything one asked input produced.
struct AttentionSnapshot {
  int64_t step = 0;
  std::string task;  ///< id of the task that made it (see the task registry)
  int sample_index = 0;
  std::vector<AttentionGroup> groups;
  /// What the task adds to its attention: a ViT's probe image with its patch grid
  /// (ImagePayload), a translation's decoding steps (DecodingPayload).
  Payloads payloads;
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

}  // namespace ascope
