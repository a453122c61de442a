#pragma once

#include "widgets/common/labeled_matrix.h"

namespace ascope {

enum class PositionalEncodingKind { Sinusoidal, Learned };

/// A positional-encoding table (positions x model dimensions) and, for vision transformers, the
/// patch grid its positions come from.
struct PositionalEncodingData {
  PositionalEncodingKind kind = PositionalEncodingKind::Sinusoidal;
  LabeledMatrix matrix;  ///< rows = positions, cols = dimensions
  int grid_rows = 0;     ///< patch grid; 0 when the positions are a sequence
  int grid_cols = 0;
  bool has_cls_row = false;  ///< row 0 is the CLS token, the patches follow in row-major order

  bool hasPatchGrid() const {
    return grid_rows > 0 && grid_cols > 0 &&
           matrix.rows == grid_rows * grid_cols + (has_cls_row ? 1 : 0);
  }
};

}  // namespace ascope
