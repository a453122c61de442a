#include "engine/tasks/image_classification/random_crop_flip.h"

#include <torch/nn/functional/padding.h>

#include <vector>

namespace ascope {

at::Tensor randomCropFlip(const at::Tensor& batch) {
  namespace F = torch::nn::functional;
  const int64_t b = batch.size(0), h = batch.size(2), w = batch.size(3), pad = 4;
  const torch::Tensor padded = F::pad(batch, F::PadFuncOptions({pad, pad, pad, pad}));
  const torch::Tensor offsets = torch::randint(0, 2 * pad + 1, {b, 2}, torch::kLong);
  const torch::Tensor flips = torch::rand({b}) < 0.5;
  std::vector<torch::Tensor> crops;
  crops.reserve(b);
  for (int64_t i = 0; i < b; ++i) {
    torch::Tensor crop = padded[i]
                             .narrow(1, offsets[i][0].item<int64_t>(), h)
                             .narrow(2, offsets[i][1].item<int64_t>(), w);  // (3, H, W)
    if (flips[i].item<bool>()) crop = crop.flip({2});
    crops.push_back(crop);
  }
  return torch::stack(crops);  // (B, 3, H, W)
}

}  // namespace ascope
