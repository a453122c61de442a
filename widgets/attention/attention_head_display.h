#pragma once

#include "widgets/attention/attention_color_scale.h"
#include "widgets/attention/attention_plot_data.h"
#include "widgets/common/labeled_matrix.h"
#include "widgets/common/qcustomplot_include.h"

#include <QCoreApplication>
#include <QStringList>

#include <vector>

namespace ascope {

struct PlotTheme;

/// How the heads of one attention group are drawn: which cells are masked, the colour range of
/// the chosen scale, the row labels of decoder groups and the hover text. The head grid and the
/// enlarged head both draw through it, so the two never disagree about a cell.
class AttentionHeadDisplay {
  Q_DECLARE_TR_FUNCTIONS(AttentionHeadDisplay)

 public:
  AttentionHeadDisplay() = default;
  /// `run_max_weight` is the top of the Run scale (ignored by the other scales).
  AttentionHeadDisplay(AttentionColorScale scale, double run_max_weight, bool causal,
                       QStringList row_predictions);

  AttentionColorScale scale() const { return scale_; }
  /// The top of the Run scale of a head drawn alone (colorRange without a head index).
  double runMaxWeight() const { return run_max_; }
  /// The Run scale per head of the layer drawn, in head order: each head's largest weight over
  /// the run (AttentionRunMaxima). A head without one (0, or past the end) has runMaxWeight().
  AttentionHeadDisplay withHeadRunMaxima(std::vector<double> maxima) const;
  /// For head `head` of the layer drawn alone: its own Run top becomes runMaxWeight().
  AttentionHeadDisplay forHead(int head) const;
  /// Whether the heads of a grid each have a colour range of their own (PerHead, and Run with
  /// per-head tops): the grid's colour bar then shows fractions of a head's top.
  bool headsHaveOwnRanges() const;
  bool isCausal() const { return causal_; }
  const QStringList& rowPredictions() const { return row_predictions_; }

  /// A cell the model never lets the query see (above the diagonal of a causal head), or one
  /// without a value (NaN).
  bool isMasked(const LabeledMatrix& head, int row, int col) const;
  bool hasMaskedCells(const LabeledMatrix& head) const;

  /// The values of displayMatrix(head) that map to the lowest and highest colour: weights for
  /// Fixed (0..1), Run (0..the run top of head number `index` of the layer, else runMaxWeight())
  /// and PerHead (0..the head's max); fractions of each row's max (0..1) for PerRow.
  QCPRange colorRange(const LabeledMatrix& head, int index = -1) const;
  /// The values as drawn: masked cells NaN, PerRow rows divided by their max. With pool > 1
  /// every pool x pool block becomes its largest value, so a thumbnail smaller than the matrix
  /// keeps every peak (a one-cell diagonal would vanish if every pool-th row were sampled).
  /// Row labels read "fed → predicted" for decoder groups; pooled matrices have no labels.
  LabeledMatrix displayMatrix(const LabeledMatrix& head, int pool = 1) const;

  /// "una → scatola" (fed token → predicted token) when the group has row predictions.
  QString rowLabel(const LabeledMatrix& head, int row) const;
  /// What the rows are: "fed token → predicts" for decoder groups, else `query_title`.
  QString rowTitle(const QString& query_title) const;
  /// "una → box: 0.42"; "una (predicts scatola) → box: 0.42"; "… → box: masked".
  QString cellText(const LabeledMatrix& head, int row, int col) const;
  /// Colour-scale title naming the scale. `several_heads`: the bar stands for heads that each
  /// have their own range (PerHead in the grid), so it shows fractions of the head's max.
  QString scaleLabel(bool several_heads) const;

  /// Two decimals ("0.42") where they carry the value, two significant digits below 0.01
  /// ("0.0019"), so the small weights of long sequences do not all read "0.00".
  static QString formatWeight(double weight);
  /// Flat grey, unlike every colour of the weight gradient, in light and dark themes.
  static QColor maskedColor(const PlotTheme& theme);
  /// The weight gradient with masked (NaN) cells in maskedColor().
  static QCPColorGradient gradient(const PlotTheme& theme);
  /// Largest weight that tells something about the model. The first row of a causal head sees
  /// only itself, so its weight is always 1; counting it would pin every scale to 0..1. Falls
  /// back to the plain maximum when no other row exists; 0 when there is no finite weight.
  static double informativeMax(const LabeledMatrix& head, bool causal);

 private:
  AttentionColorScale scale_ = AttentionColorScale::Run;
  double run_max_ = 1.0;
  /// The Run top of head number `index` of the layer drawn, else run_max_.
  double runTopOf(int index) const;

  std::vector<double> head_run_max_;  ///< see withHeadRunMaxima
  bool causal_ = false;
  QStringList row_predictions_;
};

}  // namespace ascope
