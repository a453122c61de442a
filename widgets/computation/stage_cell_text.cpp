#include "widgets/computation/stage_cell_text.h"

#include <QObject>

namespace ascope {

QString computationNumber(double value) {
  return QString::number(value, 'g', 4);
}

namespace {

bool isMaskedCell(const ComputationStage& stage, const LabeledMatrix& m, int row, int col) {
  const std::size_t at = static_cast<std::size_t>(row) * m.cols + col;
  return at < stage.masked.size() && stage.masked[at] != 0;
}

}  // namespace

QString stageCellText(const ComputationPlotData& data, const ComputationStage& stage, int matrix,
                      int row, int col) {
  if (matrix < 0 || matrix >= static_cast<int>(stage.matrices.size())) return {};
  const StageMatrix& sm = stage.matrices[static_cast<std::size_t>(matrix)];
  const LabeledMatrix& m = sm.values;
  if (row < 0 || col < 0 || row >= m.rows || col >= m.cols) return {};
  const QString r = m.rowLabel(row);
  const QString c = m.colLabel(col);
  const QString cell = QStringLiteral("%1[%2, %3]").arg(sm.name, r, c);
  if (stage.isQueryByKey() && isMaskedCell(stage, m, row, col)) {
    return stage.kind == StageKind::Weights
               ? QObject::tr("%1: masked (weight 0: the softmax never sees it)").arg(cell)
               : QObject::tr("%1: masked (−∞ before the softmax)").arg(cell);
  }
  const double v = m.at(row, col);
  const QString value = computationNumber(v);
  switch (stage.kind) {
    case StageKind::Input:
      return QObject::tr("%1 = %2 (the layer's input at %3, feature %4)").arg(cell, value, r, c);
    case StageKind::Projections:
      return QObject::tr("%1 = (X W_%2)[%3, %4] = %5 (head %6's column %4)")
          .arg(cell, sm.name, r, c, value)
          .arg(data.head);
    case StageKind::Logits:
      return QObject::tr("%1 = q_%2 · k_%3 = %4").arg(cell, r, c, value);
    case StageKind::Scaled:
      return QObject::tr("%1 = QKᵀ[%2, %3] × 1/√%4 = %5 × %6 = %7")
          .arg(cell, r, c)
          .arg(data.d_head)
          .arg(computationNumber(data.scale != 0 ? v / data.scale : 0),
               computationNumber(data.scale), value);
    case StageKind::Masked:
      return QObject::tr("%1: not masked, %2 goes into the softmax").arg(cell, value);
    case StageKind::Weights:
      return QObject::tr("%1 = exp(s_%2,%3) / Σ_j exp(s_%2,j) = %4").arg(cell, r, c, value);
    case StageKind::HeadOutput:
      return QObject::tr("%1 = Σ_j A[%2, j] · v_j[%3] = %4").arg(cell, r, c, value);
    case StageKind::Joined: {
      const int d_head = data.d_head > 0 ? data.d_head : 1;
      const int head = col / d_head;
      return QObject::tr("%1 = head %2's (A V)[%3, %4] = %5%6")
          .arg(cell)
          .arg(head)
          .arg(r)
          .arg(col % d_head)
          .arg(value, head == data.head ? QObject::tr(" (this head)") : QString());
    }
    case StageKind::Output:
      return QObject::tr("%1 = (Concat W_Oᵀ + b_O)[%2, %3] = %4").arg(cell, r, c, value);
  }
  return {};
}

}  // namespace ascope
