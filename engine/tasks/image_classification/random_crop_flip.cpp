#include "engine/tasks/image_classification/random_crop_flip.h"

#include <torch/nn/functional/padding.h>

#include <vector>

#include "engine/nn/batch_shard.h"

namespace ascope {

at::Tensor randomCropFlip(const at::Tensor& batch) {
  namespace F = torch::nn::functional;
  const int64_t b = batch.size(0), h = batch.size(2), w = batch.size(3), pad = 4;
  const torch::Tensor padded = F::pad(batch, F::PadFuncOptions({pad, pad, pad, pad}));
  // Drawn for the whole batch and read at this shard's samples: a rank of a data-parallel job
  // crops its images as one process training the whole batch would.
  const BatchShard shard = currentBatchShard(b);
  const torch::Tensor offsets =
      torch::randint(0, 2 * pad + 1, {shard.total, 2}, torch::kLong).narrow(0, shard.first, b);
  const torch::Tensor flips = (torch::rand({shard.total}) < 0.5).narrow(0, shard.first, b);
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
