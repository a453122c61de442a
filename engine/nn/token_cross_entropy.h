#pragma once
// Cross-entropy per token with label smoothing and an ignored (padding) label, written out:
// LibTorch 1.13's cross_entropy takes masked_select and item() on that path (a wait for the device
// at every training step of the translator). The same formula, without them.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ascope {

/// logits (N, V), labels (N) → (N): (1 − s)·(−log p[label]) + s·mean over the vocabulary of
/// (−log p), and 0 where the label is `ignored`, as cross_entropy(…, ignore_index, label_smoothing,
/// reduction none) computes it.
at::Tensor tokenCrossEntropy(const at::Tensor& logits, const at::Tensor& labels, int64_t ignored,
                             double smoothing);

}  // namespace ascope
