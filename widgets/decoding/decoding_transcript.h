#pragma once

#include "widgets/attention/attention_plot_data.h"
#include "widgets/decoding/attention_row.h"

#include <utility>

namespace ascope {

/// The decoder's side of an attention snapshot of a translation, read one greedy decoding step at
/// a time: at step i the decoder was fed target token i and predicted the next one, choosing among
/// the recorded candidates; its attention rows i come from the "decoder self" and "cross" groups.
class DecodingTranscript {
 public:
  /// Head index that stands for the mean over all heads of a layer.
  static constexpr int kAverageHeads = -1;

  DecodingTranscript() = default;
  /// Reads `data` where it is: the snapshot is shared, not copied.
  explicit DecodingTranscript(SharedPlotData data)
      : data_(data ? std::move(data) : std::make_shared<const AttentionPlotData>()) {}

  int stepCount() const { return static_cast<int>(data_->decoding.size()); }
  /// Whether the steps were fed the reference (teacher forcing) instead of their predictions.
  bool fedReference() const { return data_->decoder_fed_reference; }
  /// The candidates of `step`, which must be below stepCount().
  const DecodingCandidates& candidates(int step) const;

  /// Token fed to the decoder at `step` and the token it predicted there.
  QString fedToken(int step) const;
  QString predictedToken(int step) const;

  /// Layers and heads of the two groups; the larger count where they differ.
  int layerCount() const;
  int headCount(int layer) const;

  /// Row `step` of `head` in `layer`, or with kAverageHeads the mean over the heads of the layer.
  AttentionRow selfAttentionRow(int layer, int head, int step) const;
  AttentionRow crossAttentionRow(int layer, int head, int step) const;

 private:
  const AttentionPlotGroup* group(const QString& name) const;

  SharedPlotData data_ = std::make_shared<const AttentionPlotData>();
};

}  // namespace ascope
