#pragma once
// How many leading columns of a padded batch hold anything: a batch costs its longest row, and
// the columns past it are padding every row shares. Read on the host, where the batches are cut,
// before they travel to the device: no training step waits for the device to find it.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ascope {

/// The last column of `host_rows` (B, T; integers, on the CPU) holding a value other than
/// `padding` in some row, plus one; at least 1, so an all-padding batch keeps one column.
int64_t usedColumns(const at::Tensor& host_rows, int64_t padding);

}  // namespace ascope
