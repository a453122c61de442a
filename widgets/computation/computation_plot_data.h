#pragma once
// What the Computation view draws: one head's attention as the stages the seed documents teach
// (layer input → Q, K, V → QKᵀ → ÷√d_head → mask → softmax → weights·V → heads joined → output
// projection), each stage a few labelled matrices with its shape and formula, and one cell of the
// weights taken apart. Plain data: app/gui makes it from the engine's AttentionComputation
// (app/gui/views/computation/computation_plot_conversion.h); widgets/ knows no engine.
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <vector>

#include "widgets/common/labeled_matrix.h"

namespace ascope {

/// The stages in the order the computation runs; each stage's hover words follow its kind.
enum class StageKind {
  Input,
  Projections,
  Logits,
  Scaled,
  Masked,
  Weights,
  HeadOutput,
  Joined,
  Output
};

/// One matrix of a stage: "X", "Q", "K", "V", "QKᵀ", … with its rows and columns named.
struct StageMatrix {
  QString name;          ///< "Q": what hover and the figure's title call it
  LabeledMatrix values;  ///< masked cells are NaN (never drawn as numbers)
  QString row_title;     ///< "query token"
  QString col_title;     ///< "d_head", "key token"
  QString row_symbol;    ///< "q" for Q's rows (q_it), "k", "v"; "" where rows have no name
};

struct ComputationStage {
  StageKind kind = StageKind::Input;
  QString title;                      ///< "QKᵀ"
  QString short_title;                ///< the pipeline's button: "QKᵀ", "÷√d", "softmax"
  QString shape_words;                ///< as the seeds write it: "[tokens × d_head]"
  QString formula;                    ///< "QKᵀ[i, j] = q_i · k_j"
  std::vector<StageMatrix> matrices;  ///< one; Q, K and V; a cross layer's queries and keys
  /// Query × key stages: the mask (1 = blocked), row-major; empty for none.
  std::vector<std::uint8_t> masked;

  /// The first matrix's shape with its numbers: "[9 × 16]".
  QString shape() const;
  bool isQueryByKey() const;
};

struct ComputationPlotData {
  QString heading;       ///< "encoder · layer 1 · head 2 · validation sample 3"
  QString weights_note;  ///< "weights of step 400 (last.pt)"
  /// "" when the weights are the shown step's; else said plainly ("… the shown step 120 has no
  /// stored weights").
  QString step_warning;
  QString answer;  ///< what the model answered for the input, "" if nothing
  int heads = 0;
  int head = 0;
  int d_head = 0;
  int d_model = 0;
  double scale = 1;  ///< 1/√d_head
  QStringList query_labels;
  QStringList key_labels;
  std::vector<ComputationStage> stages;

  bool isEmpty() const { return stages.empty(); }
  /// The stage of `kind`, or null.
  const ComputationStage* stage(StageKind kind) const;
};

/// One cell (query, key) taken apart.
struct CellBreakdownData {
  int query = 0;
  int key = 0;
  QString query_label;
  QString key_label;
  bool masked = false;
  std::vector<double> products;  ///< q[d]·k[d] per dimension of the head
  double sum = 0;                ///< Σ products
  double logit = 0;              ///< QKᵀ as the engine computed it
  double scale = 1;
  double scaled = 0;
  double weight = 0;
  int rank_before = 0;
  int rank_after = 0;
  int unmasked_keys = 0;
  QStringList key_labels;           ///< the query's row, key by key
  std::vector<double> row_weights;  ///< after the softmax (masked keys NaN)
  bool has_parts = false;
  std::array<double, 4> parts{};
  QStringList part_names;  ///< "token·token", "token·position", …
  /// Why there are no parts: where the split exists at all.
  QString no_parts_reason;

  bool isValid() const { return !key_label.isEmpty() || !products.empty(); }
};

/// "[9 × 16]"
QString shapeText(int rows, int cols);

}  // namespace ascope
