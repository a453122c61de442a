#include "app/gui/views/encoding/positional_encoding_conversion.h"

namespace ascope {

PositionalEncodingData toPositionalEncodingData(const PositionalEncodingSnapshot& snapshot) {
  PositionalEncodingData data;
  data.kind = snapshot.kind == "learned" ? PositionalEncodingKind::Learned
                                         : PositionalEncodingKind::Sinusoidal;
  data.matrix.rows = snapshot.positions;
  data.matrix.cols = snapshot.dims;
  data.matrix.values = snapshot.values;
  data.grid_rows = snapshot.grid_rows;
  data.grid_cols = snapshot.grid_cols;
  data.has_cls_row = snapshot.has_cls;
  if (snapshot.has_cls && snapshot.positions > 0) {
    data.matrix.row_labels.reserve(snapshot.positions);
    data.matrix.row_labels.push_back(QStringLiteral("CLS"));
    for (int p = 1; p < snapshot.positions; ++p) {
      data.matrix.row_labels.push_back(QString::number(p - 1));
    }
  }
  return data;
}

}  // namespace ascope
