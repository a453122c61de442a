#pragma once
// The letter-reversal task's own model: the word read (right-aligned after START) embedded with
// learned positions, a small pre-norm encoder whose keys skip padding, and at every position a
// choice among the letters, the marks and PAD.
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "engine/nn/learned_position_embedding.h"
#include "engine/tasks/letter_reversal/letter_reversal_config.h"

namespace ascope {

class LetterReversalModelImpl : public torch::nn::Module {
 public:
  explicit LetterReversalModelImpl(const LetterReversalConfig& config);

  /// Shape: ids (B, T) int64 (letter_words.h), T ≤ max_letters + 1 → logits (B, T, 29). With
  /// `attention`, one (B, H, T, T) tensor per layer.
  at::Tensor forward(const at::Tensor& ids, std::vector<at::Tensor>* attention = nullptr);

  torch::nn::Embedding embedding{nullptr};
  LearnedPositionEmbedding positions{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear head{nullptr};

 private:
  LetterReversalConfig config_;
};
TORCH_MODULE(LetterReversalModel);

}  // namespace ascope
