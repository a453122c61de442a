#include "engine/tasks/image_classification/image_tensors.h"

#include <ATen/ATen.h>

#include <algorithm>

namespace ascope {

void toImageTensors(const std::vector<ImageSample>& samples, int height, int width,
                    at::Tensor* images, at::Tensor* labels) {
  const int64_t n = static_cast<int64_t>(samples.size());
  const int64_t pixels = 3LL * height * width;
  *images = at::empty({n, 3, height, width}, at::kByte);
  *labels = at::empty({n}, at::kLong);
  auto* image_data = images->data_ptr<uint8_t>();
  auto* label_data = labels->data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    std::copy(samples[i].pixels.begin(), samples[i].pixels.end(), image_data + i * pixels);
    label_data[i] = samples[i].label;
  }
}

ImageBuffer imageBufferAt(const at::Tensor& images, int64_t index) {
  const at::Tensor image = images[index].contiguous();
  ImageBuffer buffer;
  buffer.height = static_cast<int>(image.size(1));
  buffer.width = static_cast<int>(image.size(2));
  buffer.pixels.assign(image.data_ptr<uint8_t>(), image.data_ptr<uint8_t>() + image.numel());
  return buffer;
}

}  // namespace ascope
