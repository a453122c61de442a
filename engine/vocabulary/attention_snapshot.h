#pragma once
// What a probe saw: attention maps of every head with their token labels, the sample and its
// prediction, the positional encoding. Copied out of tensors on the training thread.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
  /// Translation: whether row i + 1 was fed the prediction of row i (greedy decoding: an asked
  /// sentence) or the validation pair's reference (teacher forcing: a probe of the timeline, so
  /// every stored step of a sample has the same rows and two steps can be compared cell by cell).
  bool decoder_fed_reference = false;
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
