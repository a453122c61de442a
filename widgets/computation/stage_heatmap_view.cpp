#include "widgets/computation/stage_heatmap_view.h"

#include "widgets/attention/masked_cell_legend.h"

#include <QTextDocument>

namespace ascope {

StageHeatmapView::StageHeatmapView(QWidget* parent) : HeatmapView(parent) {
  setEmptyHint(tr("No computation yet"));
  setDenseLabels(64, 7.0);
  setGrowsForLabels(false);
  masked_legend_ = new MaskedCellLegend(this);
  masked_legend_->setText(tr("masked"));
  plotLayout()->addElement(0, 1, masked_legend_);
  highlight_ = new QCPItemRect(this);
  highlight_->setVisible(false);
  highlight_->setBrush(Qt::NoBrush);
  placeInCells(highlight_);
  // After HeatmapView's own theming, which paints the cells' background plain.
  connect(this, &ThemedPlot::themeChanged, this, &StageHeatmapView::applyStageTheme);
  applyStageTheme(theme());
}

void StageHeatmapView::setStage(LabeledMatrix values, const std::vector<std::uint8_t>& masked,
                                const QString& title, const QString& row_title,
                                const QString& col_title, CellText text) {
  text_ = std::move(text);
  masked_count_ = 0;
  for (std::uint8_t m : masked) masked_count_ += m != 0 ? 1 : 0;
  masked_legend_->setShown(masked_count_ > 0);
  own_title_ = title;
  setTitle(title);
  setAxisTitles(col_title, row_title);
  setMatrix(std::move(values));
  placeHighlight();
}

void StageHeatmapView::setHighlight(int row, int col) {
  highlight_row_ = row;
  highlight_col_ = col;
  placeHighlight();
}

void StageHeatmapView::placeHighlight() {
  const LabeledMatrix& m = matrix();
  const bool shown =
      m.isValid() && highlight_row_ >= 0 && highlight_row_ < m.rows && highlight_col_ < m.cols;
  highlight_->setVisible(shown);
  if (shown) {
    const double left = highlight_col_ < 0 ? -0.5 : highlight_col_ - 0.5;
    const double right = highlight_col_ < 0 ? m.cols - 0.5 : highlight_col_ + 0.5;
    highlight_->topLeft->setCoords(left, highlight_row_ - 0.5);
    highlight_->bottomRight->setCoords(right, highlight_row_ + 0.5);
  }
  replot(rpQueuedReplot);
}

void StageHeatmapView::setExportTitle(const QString& title) {
  if (title.isEmpty()) {
    setTitle(own_title_);
    return;
  }
  // The window's title ends with the export's file name, which says less than the stage does.
  const QString name = QStringLiteral(" · ") + exportBaseName();
  QStringList parts{title.endsWith(name) ? title.left(title.size() - name.size()) : title};
  if (!slide_heading_.isEmpty()) parts << slide_heading_;
  parts << own_title_;
  setTitle(parts.join(QStringLiteral(" · ")));
}

QString StageHeatmapView::hoverText(const QPoint& pos) const {
  int row = 0, col = 0;
  if (!text_ || !cellAt(pos, &row, &col)) return {};
  return text_(row, col);
}

QString StageHeatmapView::toolTipAt(const QPoint& pos) const {
  // Tokens such as "<s>" must not be read as markup.
  const QString text = hoverText(pos);
  return text.isEmpty() ? text : Qt::convertFromPlainText(text);
}

void StageHeatmapView::applyStageTheme(const PlotTheme& theme) {
  // Masked cells are NaN, drawn transparent: the hatching behind them is what shows.
  QColor grey = theme.foreground;
  grey.setAlphaF(0.35);
  heatmapRect()->setBackground(QBrush(grey, Qt::BDiagPattern));
  QPen pen(theme.foreground, 2.5);
  highlight_->setPen(pen);
  masked_legend_->setFont(theme.font);
  masked_legend_->setColors(grey, theme.foreground);
  replot(rpQueuedReplot);
}

}  // namespace ascope
