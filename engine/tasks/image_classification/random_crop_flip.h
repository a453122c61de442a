#pragma once
// The image task's training-time augmentation, shared by our ViT and a fine-tuned pretrained one.
#include <ATen/core/Tensor.h>

namespace ascope {

/// (B, C, H, W) → the same shape: each image cropped at a random offset from its copy padded with
/// 4 zeros on every side, and flipped left to right with probability ½. Uses the global (per-step
/// seeded) RNG, so a resumed run draws the same crops; draws for the whole batch and takes the
/// rows of this thread's BatchShard (engine/nn/batch_shard.h), so a data-parallel rank draws what
/// one process would for the same samples.
at::Tensor randomCropFlip(const at::Tensor& batch);

}  // namespace ascope
