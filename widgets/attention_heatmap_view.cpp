#include "widgets/attention_heatmap_view.h"

namespace ascope {

AttentionHeatmapView::AttentionHeatmapView(QWidget* parent) : HeatmapView(parent) {
  setEmptyHint(tr("Click a head to enlarge it"));
  setColorScaleLabel(tr("attention weight"));
  setExportBaseName(QStringLiteral("attention_head"));
  setFixedRange(0.0, 1.0);
  setTooltipFormatter([this](int row, int col, float value) {
    return QStringLiteral("<b>%1</b> → <b>%2</b>: %3")
        .arg(matrix().rowLabel(row).toHtmlEscaped(), matrix().colLabel(col).toHtmlEscaped(),
             QString::number(value, 'f', 3));
  });
}

void AttentionHeatmapView::setAttention(const LabeledMatrix& weights, const QString& title,
                                        const QString& query_title, const QString& key_title,
                                        double max_weight) {
  setTitle(title);
  setAxisTitles(key_title, query_title);
  setFixedRange(0.0, max_weight > 0.0 ? max_weight : 1.0);
  setMatrix(weights);
}

}  // namespace ascope
