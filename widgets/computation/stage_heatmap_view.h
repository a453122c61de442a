#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "widgets/common/heatmap_view.h"

namespace ascope {

class MaskedCellLegend;

/// One matrix of a Computation stage: a heatmap whose masked cells are hatched grey and hover as
/// "masked" (they have no number), with one cell or row outlined (the cell taken apart).
class StageHeatmapView : public HeatmapView {
  Q_OBJECT

 public:
  using CellText = std::function<QString(int row, int col)>;

  explicit StageHeatmapView(QWidget* parent = nullptr);

  /// `values` with masked cells NaN; `masked` row-major (1 = masked) or empty; `text` what
  /// hovering a cell says (also for masked cells).
  void setStage(LabeledMatrix values, const std::vector<std::uint8_t>& masked, const QString& title,
                const QString& row_title, const QString& col_title, CellText text);
  /// Outlines cell (row, col), or the whole row when col < 0, or nothing when row < 0.
  void setHighlight(int row, int col);
  bool hasMaskedCells() const { return masked_count_ > 0; }
  MaskedCellLegend* maskedLegend() const { return masked_legend_; }

  /// What an exported slide says before the figure's own title: "encoder · layer 1 · head 2".
  void setSlideHeading(const QString& heading) { slide_heading_ = heading; }
  /// Exports carry the run and step, the slide heading and the stage's title.
  void setExportTitle(const QString& title) override;

  QString hoverText(const QPoint& pos) const override;

 protected:
  QString toolTipAt(const QPoint& pos) const override;

 private:
  void applyStageTheme(const PlotTheme& theme);
  void placeHighlight();

  CellText text_;
  QString own_title_;
  QString slide_heading_;
  int masked_count_ = 0;
  int highlight_row_ = -1;
  int highlight_col_ = -1;
  MaskedCellLegend* masked_legend_ = nullptr;
  QCPItemRect* highlight_ = nullptr;
};

}  // namespace ascope
