#include "widgets/attention/attention_heatmap_view.h"

#include "widgets/attention/masked_cell_legend.h"
#include "widgets/quiz/guess_layer.h"

#include <QTextDocument>

namespace ascope {

AttentionHeatmapView::AttentionHeatmapView(QWidget* parent) : HeatmapView(parent) {
  setEmptyHint(tr("Click a head to enlarge it"));
  setColorScaleLabel(display_.scaleLabel(false));
  setExportBaseName(QStringLiteral("attention_head"));
  setFixedRange(0.0, 1.0);
  setDenseLabels(kDenseLabelLimit, kMinLabelPointSize);
  // Beside the title, above the colour scale: the legend costs no height there.
  masked_legend_ = new MaskedCellLegend(this);
  plotLayout()->addElement(0, 1, masked_legend_);
  guess_layer_ = std::make_unique<GuessLayer>(this);
  connect(this, &ThemedPlot::themeChanged, this, &AttentionHeatmapView::applyTheme);
  connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this] { clampRange(xAxis, matrix().cols); });
  connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this] { clampRange(yAxis, matrix().rows); });
  applyTheme(theme());
}

AttentionHeatmapView::~AttentionHeatmapView() = default;

void AttentionHeatmapView::setAttention(const LabeledMatrix& weights, const QString& title,
                                        const QString& query_title, const QString& key_title,
                                        const AttentionHeadDisplay& display) {
  setAttention(std::make_shared<const LabeledMatrix>(weights), title, query_title, key_title,
               display);
}

void AttentionHeatmapView::setAttention(std::shared_ptr<const LabeledMatrix> weights,
                                        const QString& title, const QString& query_title,
                                        const QString& key_title,
                                        const AttentionHeadDisplay& display) {
  weights_ = weights ? std::move(weights) : std::make_shared<const LabeledMatrix>();
  display_ = display;
  setTitle(title);
  setAxisTitles(key_title, display_.rowTitle(query_title));
  setColorScaleLabel(display_.scaleLabel(false));
  const QCPRange range = display_.colorRange(*weights_);
  setFixedRange(range.lower, range.upper);
  masked_legend_->setShown(display_.hasMaskedCells(*weights_));
  masked_legend_->setText(display_.isCausal() ? tr("masked (causal)") : tr("masked"));
  setMatrix(display_.displayMatrix(*weights_));
  guess_layer_->redraw();
}

QString AttentionHeatmapView::hoverText(const QPoint& pos) const {
  int row = 0, col = 0;
  if (!cellAt(pos, &row, &col) || row >= weights_->rows || col >= weights_->cols) return {};
  if (guess_layer_->hides(row)) {
    return tr("%1 → %2: hidden").arg(weights_->rowLabel(row), weights_->colLabel(col));
  }
  return display_.cellText(*weights_, row, col);
}

QString AttentionHeatmapView::toolTipAt(const QPoint& pos) const {
  // Tokens such as "<s>" must not be read as markup.
  const QString text = hoverText(pos);
  return text.isEmpty() ? text : Qt::convertFromPlainText(text);
}

void AttentionHeatmapView::applyTheme(const PlotTheme& theme) {
  colorMap()->setGradient(AttentionHeadDisplay::gradient(theme));
  masked_legend_->setFont(theme.font);
  masked_legend_->setColors(AttentionHeadDisplay::maskedColor(theme), theme.foreground);
  if (guess_layer_) guess_layer_->redraw();
  replot(rpQueuedReplot);
}

void AttentionHeatmapView::clampRange(QCPAxis* axis, int cells) {
  if (cells <= 0) return;
  const QCPRange whole(-0.5, cells - 0.5);
  QCPRange range = axis->range();
  if (range.size() >= whole.size()) {
    range = whole;
  } else if (range.lower < whole.lower) {
    range = QCPRange(whole.lower, whole.lower + range.size());
  } else if (range.upper > whole.upper) {
    range = QCPRange(whole.upper - range.size(), whole.upper);
  }
  if (range != axis->range()) axis->setRange(range);
}

}  // namespace ascope
