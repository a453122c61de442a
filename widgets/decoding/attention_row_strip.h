#pragma once

#include "widgets/decoding/attention_row.h"
#include "widgets/decoding/decoding_plot.h"

namespace ascope {

/// One query's attention row as a heatmap strip one cell high, the key tokens below the cells.
/// Masked keys are hatched and their tokens greyed; the query's own cell is outlined. The strip
/// sets its own height to fit its content and lays itself out again when its width changes.
class AttentionRowStrip : public DecodingPlot {
  Q_OBJECT

 public:
  /// `empty_hint` is shown while a row has no weights.
  explicit AttentionRowStrip(const QString& empty_hint, QWidget* parent = nullptr);

  /// Shows `row` under `title` (elided to the width). `query` is the key index of the query itself
  /// in causal self-attention: that cell is outlined and later keys are masked; -1 for none.
  void showRow(const QString& title, const AttentionRow& row, int query);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void render();

  QCPColorMap* map_ = nullptr;
  QString empty_hint_;
  QString title_;
  AttentionRow row_;
  int query_ = -1;
  bool has_row_ = false;  // nothing to lay out before the first showRow
};

}  // namespace ascope
