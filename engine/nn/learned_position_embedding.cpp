#include "engine/nn/learned_position_embedding.h"

#include <torch/nn/init.h>

#include "engine/nn/sequence_length_check.h"

namespace ascope {

LearnedPositionEmbeddingImpl::LearnedPositionEmbeddingImpl(int64_t num_positions, int64_t d_model) {
  weight = register_parameter("weight", torch::empty({num_positions, d_model}));
  torch::nn::init::normal_(weight, 0.0, 0.02);
}

Tensor LearnedPositionEmbeddingImpl::forward(const Tensor& x) {
  checkSequenceLength(x, weight.size(0), "number of learned positions");
  const Tensor positions = weight.narrow(0, 0, x.size(1)).unsqueeze(0);  // (1, T, d)
  if (sink_ != nullptr) sink_->push_back({x, positions});
  return x + positions;  // (B, T, d)
}

}  // namespace ascope
