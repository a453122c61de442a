#pragma once
// The digit-order task's own model: a CLS token and the digits, embedded with learned positions,
// a small pre-norm encoder, and a classifier on the CLS token's output.
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "engine/nn/learned_position_embedding.h"
#include "engine/tasks/digit_order/digit_order_config.h"

namespace ascope {

class DigitOrderModelImpl : public torch::nn::Module {
 public:
  /// Token ids: the digits 0..9, then kClsId.
  static constexpr int64_t kClsId = 10;

  explicit DigitOrderModelImpl(const DigitOrderConfig& config);

  /// Shape: ids (B, T) int64 with CLS first, T ≤ length + 1 → logits (B, 2). With `attention`,
  /// one (B, H, T, T) tensor per layer.
  at::Tensor forward(const at::Tensor& ids, std::vector<at::Tensor>* attention = nullptr);

  torch::nn::Embedding embedding{nullptr};
  LearnedPositionEmbedding positions{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear classifier{nullptr};

 private:
  DigitOrderConfig config_;
};
TORCH_MODULE(DigitOrderModel);

}  // namespace ascope
