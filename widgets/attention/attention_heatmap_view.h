#pragma once

#include <memory>

#include "widgets/attention/attention_head_display.h"
#include "widgets/common/heatmap_view.h"

namespace ascope {

class GuessLayer;
class MaskedCellLegend;

/// One attention head, large: rows are the query tokens, columns the key tokens, hover shows
/// "query → key: weight". Colours, masked cells and row labels follow the same
/// AttentionHeadDisplay as the head grid, so the two always match. Every token is labelled up to
/// kDenseLabelLimit tokens; the mouse wheel zooms (never beyond the whole head).
class AttentionHeatmapView : public HeatmapView {
  Q_OBJECT

 public:
  /// Up to this many tokens every one is labelled (font down to kMinLabelPointSize).
  static constexpr int kDenseLabelLimit = 128;
  static constexpr double kMinLabelPointSize = 7.0;

  explicit AttentionHeatmapView(QWidget* parent = nullptr);
  ~AttentionHeatmapView() override;

  /// `title` e.g. "encoder self · layer 2 · head 3"; axis titles name what rows and columns are.
  /// The weights are kept shared, not copied: pass a pointer into the snapshot they belong to
  /// (std::shared_ptr's aliasing constructor), which then lives as long as the view shows them.
  void setAttention(std::shared_ptr<const LabeledMatrix> weights, const QString& title,
                    const QString& query_title, const QString& key_title,
                    const AttentionHeadDisplay& display);
  /// The same with a copy of `weights` (figures drawn once for export).
  void setAttention(const LabeledMatrix& weights, const QString& title, const QString& query_title,
                    const QString& key_title, const AttentionHeadDisplay& display);
  /// The head's weights as given (matrix() holds them as drawn: masked cells NaN, PerRow
  /// normalised, decoder row labels "fed → predicted").
  const LabeledMatrix& weights() const { return *weights_; }
  const AttentionHeadDisplay& display() const { return display_; }
  MaskedCellLegend* maskedLegend() const { return masked_legend_; }
  /// A prediction round's cover and guess, drawn over the head (PredictionRound's).
  GuessLayer* guessLayer() const { return guess_layer_.get(); }

  /// Plain text: "una → box: 0.42", "una (predicts scatola) → box: 0.42", "… → box: masked";
  /// "… → box: hidden" while a prediction round covers the row.
  QString hoverText(const QPoint& pos) const override;

 protected:
  QString toolTipAt(const QPoint& pos) const override;

 private:
  void applyTheme(const PlotTheme& theme);
  /// Keeps zoom and pan inside the head: there is nothing to see beyond it.
  void clampRange(QCPAxis* axis, int cells);

  std::shared_ptr<const LabeledMatrix> weights_ = std::make_shared<const LabeledMatrix>();
  AttentionHeadDisplay display_;
  MaskedCellLegend* masked_legend_ = nullptr;
  std::unique_ptr<GuessLayer> guess_layer_;
};

}  // namespace ascope
