#pragma once
// One pass of Adam over a float32 parameter: the moment updates, the bias-corrected step and the
// weight decay read and write each element once, spread over the intra-op threads.
#include <cstdint>

namespace ascope {

struct AdamStepScalars {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0;
  bool decoupled_weight_decay = false;  ///< AdamW: shrink the weight; Adam: add to the gradient
  int64_t step = 1;                     ///< this update's number, counted from 1
};

/// p, m (first moment) and v (second moment) are updated in place from the gradient g, as
/// LibTorch's Adam (or AdamW) step does to within float rounding. All four hold n elements.
void adamUpdate(float* p, const float* g, float* m, float* v, int64_t n, const AdamStepScalars& s);

/// adamUpdate of a (rows × cols) parameter whose gradient is given for some rows only, as a
/// sparse embedding gradient is: row r's gradient is row slot[r] of grad_rows, or zero where
/// slot[r] < 0. Every row is updated (its moments decay), so the result is that of the dense
/// gradient with zero rows.
void adamUpdateRows(float* p, const float* grad_rows, const int64_t* slot, float* m, float* v,
                    int64_t rows, int64_t cols, const AdamStepScalars& s);

}  // namespace ascope
