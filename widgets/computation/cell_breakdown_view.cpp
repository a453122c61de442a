#include "widgets/computation/cell_breakdown_view.h"

#include "widgets/common/fitting_label.h"
#include "widgets/computation/computation_bar_plot.h"
#include "widgets/computation/stage_cell_text.h"

#include <QVBoxLayout>

#include <cmath>

namespace ascope {

CellBreakdownView::CellBreakdownView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  heading_ = new FittingLabel(this);
  heading_->setObjectName(QStringLiteral("computationCellHeading"));
  QFont bold = heading_->font();
  bold.setBold(true);
  heading_->setFont(bold);
  products_ = new ComputationBarPlot(this);
  products_->setObjectName(QStringLiteral("computationProducts"));
  products_->setExportBaseName(QStringLiteral("computation_cell_products"));
  sum_ = new FittingLabel(this);
  sum_->setObjectName(QStringLiteral("computationCellSum"));
  rank_ = new FittingLabel(this);
  rank_->setObjectName(QStringLiteral("computationCellRank"));
  row_ = new ComputationBarPlot(this);
  row_->setObjectName(QStringLiteral("computationRow"));
  row_->setExportBaseName(QStringLiteral("computation_cell_row"));
  parts_ = new ComputationBarPlot(this);
  parts_->setObjectName(QStringLiteral("computationParts"));
  parts_->setExportBaseName(QStringLiteral("computation_cell_parts"));
  parts_line_ = new FittingLabel(this);
  parts_line_->setObjectName(QStringLiteral("computationPartsLine"));
  layout->addWidget(heading_);
  layout->addWidget(products_, 3);
  layout->addWidget(sum_);
  layout->addWidget(rank_);
  layout->addWidget(row_, 2);
  layout->addWidget(parts_, 2);
  layout->addWidget(parts_line_);
  clear();
}

void CellBreakdownView::setSlideHeading(const QString& heading) {
  for (ComputationBarPlot* plot : {products_, row_, parts_}) plot->setSlideHeading(heading);
}

void CellBreakdownView::clear() {
  heading_->setVersions({tr("Click a weight to take it apart")});
  sum_->setVersions({});
  rank_->setVersions({});
  parts_line_->setVersions({});
  products_->clearBars();
  row_->clearBars();
  parts_->clearBars();
  parts_->setVisible(false);
}

QStringList CellBreakdownView::partsVerdict(const std::array<double, 4>& parts,
                                            const QStringList& names) {
  int largest = 0;
  for (int i = 1; i < 4; ++i) {
    if (std::abs(parts[static_cast<std::size_t>(i)]) >
        std::abs(parts[static_cast<std::size_t>(largest)]))
      largest = i;
  }
  const QString name = largest < names.size() ? names[largest] : QString();
  const QString how = largest == 0   ? tr("by content")
                      : largest == 3 ? tr("by place")
                                     : tr("by content and place together");
  const QString value = computationNumber(parts[static_cast<std::size_t>(largest)]);
  return {tr("This head attends %1 here: %2 is the largest part (%3)").arg(how, name, value),
          tr("Attends %1 (%2 largest)").arg(how, name), tr("Attends %1").arg(how)};
}

void CellBreakdownView::setBreakdown(const CellBreakdownData& cell) {
  if (!cell.isValid()) {
    clear();
    return;
  }
  const QString q = cell.query_label;
  const QString k = cell.key_label;
  heading_->setVersions({tr("Taking apart %1 → %2").arg(q, k), tr("%1 → %2").arg(q, k)});
  row_->setBars(tr("row %1 after the softmax (%2 highlighted)").arg(q, k), cell.key_labels,
                cell.row_weights, cell.key);
  if (cell.masked) {
    products_->clearBars();
    sum_->setVersions({tr("%1 → %2 is masked: no logit, weight 0").arg(q, k), tr("masked")});
    rank_->setVersions({tr("the softmax spreads row %1 over its %2 unmasked keys")
                            .arg(q)
                            .arg(cell.unmasked_keys)});
  } else {
    QStringList dims;
    for (std::size_t d = 0; d < cell.products.size(); ++d) dims << QString::number(d);
    products_->setBars(tr("q_%1[d] · k_%2[d], d = 0…%3 · Σ = %4")
                           .arg(q, k)
                           .arg(cell.products.size() - 1)
                           .arg(computationNumber(cell.sum)),
                       dims, cell.products);
    sum_->setVersions(
        {tr("Σ_d q_%1[d]·k_%2[d] = %3 = QKᵀ[%1, %2] %4")
             .arg(q, k, computationNumber(cell.sum), computationNumber(cell.logit)),
         tr("Σ = %1 = QKᵀ %2").arg(computationNumber(cell.sum), computationNumber(cell.logit))});
    rank_->setVersions(
        {tr("× 1/√d_head = %1 → %2, rank %3 of %4 in its row; softmax → %5, rank %6 of %4")
             .arg(computationNumber(cell.scale), computationNumber(cell.scaled))
             .arg(cell.rank_before)
             .arg(cell.unmasked_keys)
             .arg(computationNumber(cell.weight))
             .arg(cell.rank_after),
         tr("× %1 → %2 (rank %3/%4) → softmax %5 (rank %6)")
             .arg(computationNumber(cell.scale), computationNumber(cell.scaled))
             .arg(cell.rank_before)
             .arg(cell.unmasked_keys)
             .arg(computationNumber(cell.weight))
             .arg(cell.rank_after),
         tr("rank %1 of %2 → %3 after the softmax")
             .arg(cell.rank_before)
             .arg(cell.unmasked_keys)
             .arg(cell.rank_after)});
  }
  parts_->setVisible(cell.has_parts && !cell.masked);
  if (cell.has_parts && !cell.masked) {
    QStringList labels;
    // Two lines each: four names of 15 letters do not fit under four bars of a narrow dock.
    for (const QString& name : cell.part_names)
      labels << QString(name).replace(QStringLiteral("·"), QStringLiteral("·\n"));
    parts_->setBars(tr("QKᵀ[%1, %2] in four parts").arg(q, k), labels,
                    {cell.parts.begin(), cell.parts.end()});
    parts_line_->setVersions(partsVerdict(cell.parts, cell.part_names));
  } else {
    parts_line_->setVersions({cell.no_parts_reason,
                              tr("No token/position parts: only the first "
                                 "layer of a stack fed token + position "
                                 "has them"),
                              tr("No token/position parts here (first layer only)")});
  }
}

}  // namespace ascope
