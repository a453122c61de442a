#pragma once
// Writing safetensors files as the official library lays them out, for test fixtures and for
// exporting weights: header padded with spaces to 8 bytes, tensors back to back in the order
// given, little-endian.
#include <torch/types.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Writes `tensors` (float32 as F32; float16 and bfloat16 as F16 and BF16, unconverted) and
/// `metadata` to `path` atomically (engine/core/atomic_file.h): a failed write leaves the old
/// file. Tensors on another device are copied to the CPU. Refuses other dtypes, undefined or
/// sparse tensors, repeated names and the reserved name "__metadata__", naming the tensor.
Status writeSafetensors(const std::string& path,
                        const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                        const std::map<std::string, std::string>& metadata = {});

}  // namespace ascope
