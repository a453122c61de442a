#include "engine/tasks/image_classification/random_crop_flip.h"

#include <torch/nn/functional/padding.h>

#include "engine/nn/batch_shard.h"

namespace ascope {

at::Tensor randomCropFlip(const at::Tensor& batch) {
  namespace F = torch::nn::functional;
  const int64_t b = batch.size(0), c = batch.size(1), h = batch.size(2), w = batch.size(3);
  const int64_t pad = 4;
  const torch::Tensor padded = F::pad(batch, F::PadFuncOptions({pad, pad, pad, pad}));
  // Drawn for the whole batch and read at this shard's samples: a rank of a data-parallel job
  // crops its images as one process training the whole batch would. Drawn on the host (the same
  // numbers on every device) and used as indices on the batch's device.
  const BatchShard shard = currentBatchShard(b);
  const torch::Tensor offsets =
      torch::randint(0, 2 * pad + 1, {shard.total, 2}, torch::kLong).narrow(0, shard.first, b);
  const torch::Tensor flips = (torch::rand({shard.total}) < 0.5).narrow(0, shard.first, b);
  // Every image's crop as one gather, rows then columns: no number travels back to the host.
  const auto on_device = torch::TensorOptions().dtype(torch::kLong).device(batch.device());
  const torch::Tensor along_h = torch::arange(h, on_device), along_w = torch::arange(w, on_device);
  const torch::Tensor first = offsets.to(batch.device());
  const torch::Tensor rows = first.select(1, 0).unsqueeze(1) + along_h;  // (B, H)
  const torch::Tensor columns =
      first.select(1, 1).unsqueeze(1) +
      torch::where(flips.to(batch.device()).unsqueeze(1), (w - 1) - along_w, along_w);  // (B, W)
  const torch::Tensor cropped_rows =
      padded.gather(2, rows.view({b, 1, h, 1}).expand({b, c, h, padded.size(3)}));
  return cropped_rows.gather(3, columns.view({b, 1, 1, w}).expand({b, c, h, w}));  // (B, C, H, W)
}

}  // namespace ascope
