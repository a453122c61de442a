#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"

#include <string>

namespace ascope {

using at::Tensor;

/// kGelu is the exact erf GELU; kGeluTanh its tanh approximation (the original BERT code's, which
/// some pretrained checkpoints were trained with).
enum class Activation { kRelu, kGelu, kGeluTanh };

/// "relu" / "gelu" / "gelu_tanh"; anything else is an error for the caller's config validation.
bool parseActivation(const std::string& name, Activation* out);
std::string activationName(Activation activation);

/// Position-wise feed-forward block: Linear(d, d_ff) → activation → dropout → Linear(d_ff, d).
class FeedForwardImpl : public torch::nn::Module {
 public:
  FeedForwardImpl(int64_t d_model, int64_t d_ff, Activation activation, double dropout);

  /// Shape: (B, T, d_model) → (B, T, d_model).
  Tensor forward(const Tensor& x);

  torch::nn::Linear linear1{nullptr};
  HashDropout dropout{nullptr};
  torch::nn::Linear linear2{nullptr};

 private:
  Activation activation_;
};
TORCH_MODULE(FeedForward);

}  // namespace ascope
