#include "widgets/computation/stage_figure.h"

#include "widgets/common/fitting_label.h"
#include "widgets/computation/stage_cell_text.h"
#include "widgets/computation/stage_heatmap_view.h"

#include <QHBoxLayout>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>

namespace ascope {

StageFigure::StageFigure(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  title_ = new FittingLabel(this);
  title_->setObjectName(QStringLiteral("computationStageTitle"));
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  formula_ = new FittingLabel(this);
  formula_->setObjectName(QStringLiteral("computationStageFormula"));
  layout->addWidget(title_);
  layout->addWidget(formula_);
  auto* row = new QHBoxLayout;
  row->setSpacing(4);
  for (int i = 0; i < kMaxMatrices; ++i) {
    auto* view = new StageHeatmapView(this);
    view->setObjectName(QStringLiteral("computationStageView%1").arg(i));
    view->setMinimumSize(100, 90);
    view->setVisible(i == 0);
    row->addWidget(view, 1);
    views_.push_back(view);
    connect(view, &HeatmapView::cellClicked, this, [this](int r, int c) {
      if (stage_ != nullptr && stage_->isQueryByKey()) Q_EMIT cellClicked(r, c);
    });
  }
  layout->addLayout(row, 1);
}

std::vector<StageHeatmapView*> StageFigure::views() const {
  const std::size_t used = stage_ != nullptr ? stage_->matrices.size() : 0;
  return {views_.begin(),
          views_.begin() + static_cast<std::ptrdiff_t>(std::min(used, views_.size()))};
}

void StageFigure::clear() {
  data_.reset();
  stage_ = nullptr;
  title_->setVersions({});
  formula_->setVersions({});
  for (StageHeatmapView* view : views_) view->clear();
}

void StageFigure::setStage(std::shared_ptr<const ComputationPlotData> data, int index) {
  if (!data || index < 0 || index >= static_cast<int>(data->stages.size())) {
    clear();
    return;
  }
  data_ = std::move(data);
  stage_ = &data_->stages[static_cast<std::size_t>(index)];
  const ComputationStage* stage = stage_;
  const QString shape = stage->shape();
  title_->setVersions({QStringLiteral("%1 · %2 = %3").arg(stage->title, stage->shape_words, shape),
                       QStringLiteral("%1 %2").arg(stage->title, shape), stage->title});
  formula_->setVersions({stage->formula});
  for (std::size_t i = 0; i < views_.size(); ++i) {
    StageHeatmapView* view = views_[i];
    const bool used = i < stage->matrices.size();
    view->setVisible(used);
    if (!used) {
      view->clear();
      continue;
    }
    const StageMatrix& m = stage->matrices[i];
    const int matrix = static_cast<int>(i);
    view->setStage(m.values, stage->masked,
                   QStringLiteral("%1 %2").arg(m.name, shapeText(m.values.rows, m.values.cols)),
                   m.row_title, m.col_title, [this, matrix](int r, int c) {
                     return data_ != nullptr && stage_ != nullptr
                                ? stageCellText(*data_, *stage_, matrix, r, c)
                                : QString();
                   });
    view->setSlideHeading(data_->heading);
    // Square cells only where rows and columns are both tokens: a [9 × 512] input would be a
    // sliver.
    view->setKeepAspect(stage->isQueryByKey());
    view->setGradientKind(stage->kind == StageKind::Weights ? HeatmapView::GradientKind::Sequential
                                                            : HeatmapView::GradientKind::Diverging);
    if (stage->kind == StageKind::Weights) {
      view->setFixedRange(0.0, 1.0);
    } else {
      view->setRangeMode(HeatmapView::RangeMode::Symmetric);
    }
    view->setExportBaseName(QStringLiteral("computation_%1_%2")
                                .arg(static_cast<int>(stage->kind) + 1)
                                .arg(m.name.toLower()
                                         .replace(QStringLiteral("ᵀ"), QStringLiteral("t"))
                                         .replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")),
                                                  QStringLiteral("_"))));
  }
}

void StageFigure::setCell(int query, int key) {
  if (stage_ == nullptr) return;
  for (std::size_t i = 0; i < views_.size() && i < stage_->matrices.size(); ++i) {
    const QString& symbol = stage_->matrices[i].row_symbol;
    if (stage_->isQueryByKey()) {
      views_[i]->setHighlight(query, key);
    } else if (symbol == QStringLiteral("k") || symbol == QStringLiteral("v")) {
      views_[i]->setHighlight(key, -1);
    } else {
      views_[i]->setHighlight(query, -1);
    }
  }
}

}  // namespace ascope
