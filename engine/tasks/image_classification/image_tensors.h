#pragma once
// Image samples as the tensors the image tasks keep on the CPU between batches.
#include <ATen/core/Tensor.h>

#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/events.h"

namespace ascope {

/// `samples` (height × width, channel-planar RGB) → uint8 (N, 3, height, width) and their labels,
/// int64 (N).
void toImageTensors(const std::vector<ImageSample>& samples, int height, int width,
                    at::Tensor* images, at::Tensor* labels);

/// Image `index` of uint8 `images` (N, 3, H, W) as the channel-planar RGB the front ends draw.
ImageBuffer imageBufferAt(const at::Tensor& images, int64_t index);

}  // namespace ascope
