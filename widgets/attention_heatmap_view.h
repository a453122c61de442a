#pragma once

#include "widgets/heatmap_view.h"

namespace ascope {

/// One attention head, large: rows are the query tokens, columns the key tokens, hover shows
/// "query → key: weight". Weights are drawn on [0, max_weight] so it matches the head grid.
class AttentionHeatmapView : public HeatmapView {
  Q_OBJECT

 public:
  explicit AttentionHeatmapView(QWidget* parent = nullptr);

  /// `title` e.g. "encoder self · layer 2 · head 3"; axis titles name what rows and columns are.
  void setAttention(const LabeledMatrix& weights, const QString& title, const QString& query_title,
                    const QString& key_title, double max_weight);
};

}  // namespace ascope
