#pragma once

#include "widgets/common/labeled_matrix.h"
#include "widgets/images/rgb_image.h"

#include <QString>

#include <memory>
#include <vector>

namespace ascope {

/// One kind of attention of a model, e.g. "encoder self", "decoder self" or "cross":
/// layers[l][h] is the (queries x keys) weight matrix of head h in layer l.
struct AttentionPlotGroup {
  QString name;  ///< as shown: "encoder self"
  /// The model's own name of the group, as its run stores it ("encoder", "cross"): a lesson's
  /// moment names its group by it. "" for an aggregate (mean of heads, rollout).
  QString id;
  QString query_title = QStringLiteral("query");  ///< what the rows are ("target token")
  QString key_title = QStringLiteral("key");      ///< what the columns are ("source token")
  std::vector<std::vector<LabeledMatrix>> layers;
  /// Decoder self attention: cells above the diagonal are masked out (a query never sees later
  /// keys); drawn as masked, not as near-zero weights.
  bool causal = false;
  /// Decoder rows: the token row i's output predicted (row i is fed token i). Empty otherwise.
  QStringList row_predictions;
  /// An aggregate of the model's group named here (mean of heads, rollout), not a group of the
  /// model: its one "layer" holds one matrix per model layer, titled by `head_names`.
  QString aggregate_of;
  /// Titles of the matrices of a layer; empty = "head 0", "head 1", …
  QStringList head_names;

  int layerCount() const { return static_cast<int>(layers.size()); }
  int headCount(int layer) const;
  /// "head 3", or the matrix's own title in an aggregate group.
  QString headName(int head) const;
};

/// For vision transformers: the probed image and how its tokens map to patches, so the panel can
/// lay the CLS token's attention over the picture.
struct PatchImageContext {
  RgbImage image;
  int grid_rows = 0;
  int grid_cols = 0;
  bool has_cls_token = true;  ///< token 0 is CLS, tokens 1.. are patches in row-major order

  bool isValid() const { return image.isValid() && grid_rows > 0 && grid_cols > 0; }
};

/// One step of greedy decoding: the most probable next tokens, best first.
struct DecodingCandidates {
  QStringList tokens;
  std::vector<double> probabilities;
};

struct BeamTreeData;

/// Everything the attention panel shows for one probe step (or one asked input).
struct AttentionPlotData {
  long long step = -1;  ///< training step of the probe; -1 when unknown
  std::vector<AttentionPlotGroup> groups;
  PatchImageContext image;  ///< optional; ignored unless isValid()
  /// Translation: decoding step i fed decoder row i and chose among these. Empty otherwise.
  std::vector<DecodingCandidates> decoding;
  /// Translation: the rows were fed the reference (teacher forcing: a training probe) rather
  /// than the model's own previous prediction (greedy decoding: an asked sentence).
  bool decoder_fed_reference = false;
  /// Translation decoded with a beam (an asked sentence): the tree and each hypothesis'
  /// attention (widgets/decoding/beam_tree_data.h); null otherwise.
  std::shared_ptr<const BeamTreeData> beam;
};

/// A snapshot as the window passes it on: made once (converted from the engine's), then shared
/// read-only by every view that draws it — the heatmaps, the decoding steps — and never copied.
using SharedPlotData = std::shared_ptr<const AttentionPlotData>;

}  // namespace ascope
