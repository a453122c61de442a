#include "widgets/computation/computation_plot_data.h"

namespace ascope {

QString shapeText(int rows, int cols) {
  return QStringLiteral("[%1 × %2]").arg(rows).arg(cols);
}

QString ComputationStage::shape() const {
  if (matrices.empty()) return {};
  const LabeledMatrix& m = matrices.front().values;
  return shapeText(m.rows, m.cols);
}

bool ComputationStage::isQueryByKey() const {
  return kind == StageKind::Logits || kind == StageKind::Scaled || kind == StageKind::Masked ||
         kind == StageKind::Weights;
}

const ComputationStage* ComputationPlotData::stage(StageKind kind) const {
  for (const ComputationStage& s : stages) {
    if (s.kind == kind) return &s;
  }
  return nullptr;
}

}  // namespace ascope
