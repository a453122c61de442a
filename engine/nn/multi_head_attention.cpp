#include "engine/nn/multi_head_attention.h"

#include <torch/nn/init.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "engine/nn/split_matmul.h"
namespace ascope {

MultiHeadAttentionImpl::MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options)
    : options_(options) {
  const int64_t e = options_.embed_dim();
  const int64_t h = options_.num_heads();
  if (e <= 0 || h <= 0 || e % h != 0) {
    throw std::invalid_argument("embed_dim " + std::to_string(e) +
                                " must be a positive multiple of "
                                "num_heads " +
                                std::to_string(h));
  }
  head_dim_ = e / h;
  in_proj_weight = register_parameter("in_proj_weight", torch::empty({3 * e, e}));
  if (options_.bias()) {
    in_proj_bias = register_parameter("in_proj_bias", torch::empty({3 * e}));
  }
  out_proj = register_module(
      "out_proj", torch::nn::Linear(torch::nn::LinearOptions(e, e).bias(options_.bias())));
  reset_parameters();
}

void MultiHeadAttentionImpl::reset_parameters() {
  // Same initialisation as PyTorch's MultiheadAttention.
  torch::nn::init::xavier_uniform_(in_proj_weight);
  if (in_proj_bias.defined()) {
    torch::nn::init::constant_(in_proj_bias, 0.0);
    torch::nn::init::constant_(out_proj->bias, 0.0);
  }
}

void MultiHeadAttentionImpl::setHeadMask(std::vector<bool> keep) {
  const int64_t h = options_.num_heads();
  if (!keep.empty() && static_cast<int64_t>(keep.size()) != h) {
    throw std::invalid_argument("head mask has " + std::to_string(keep.size()) +
                                " entries; this attention has " + std::to_string(h) + " heads");
  }
  head_mask_ = std::move(keep);
  dropped_heads_ = Tensor();
}

Tensor MultiHeadAttentionImpl::gateHeads(const Tensor& heads) {
  if (!dropped_heads_.defined() || dropped_heads_.device() != heads.device()) {
    const int64_t h = options_.num_heads();
    Tensor dropped = torch::empty({1, h, 1, 1}, torch::kBool);
    for (int64_t i = 0; i < h; ++i) dropped.data_ptr<bool>()[i] = !head_mask_[i];
    dropped_heads_ = dropped.to(heads.device());
  }
  // masked_fill, not a multiply by 0/1: a kept head stays bit-identical and a dropped one is 0
  // even where its output is not finite.
  return heads.masked_fill(dropped_heads_, 0.0);
}

Tensor MultiHeadAttentionImpl::splitHeads(const Tensor& x) const {
  return x.view({x.size(0), x.size(1), options_.num_heads(), head_dim_}).transpose(1, 2);
}

AttentionResult MultiHeadAttentionImpl::forward(const Tensor& query, const Tensor& key,
                                                const Tensor& value, const AttentionMasks& masks,
                                                bool need_weights) {
  const int64_t e = options_.embed_dim();
  const Tensor b = in_proj_bias;
  Tensor q, k, v;  // each (B, T, E)
  if (query.is_same(key) && key.is_same(value)) {
    // Self-attention: one matmul for all three projections.
    auto qkv = splitLinear(query, in_proj_weight, b).chunk(3, -1);  // 3 × (B, T, E)
    q = qkv[0], k = qkv[1], v = qkv[2];
  } else {
    auto part = [&](int64_t i) { return in_proj_weight.narrow(0, i * e, e); };
    auto part_bias = [&](int64_t i) { return b.defined() ? b.narrow(0, i * e, e) : Tensor(); };
    q = splitLinear(query, part(0), part_bias(0));
    if (key.is_same(value)) {
      // Cross-attention over one memory: keys and values in one matmul.
      auto kv = splitLinear(key, in_proj_weight.narrow(0, e, 2 * e),
                            b.defined() ? b.narrow(0, e, 2 * e) : Tensor())
                    .chunk(2, -1);
      k = kv[0], v = kv[1];
    } else {
      k = splitLinear(key, part(1), part_bias(1));
      v = splitLinear(value, part(2), part_bias(2));
    }
  }
  q = splitHeads(q);  // (B, H, Tq, Dh)
  k = splitHeads(k);  // (B, H, Tk, Dh)
  v = splitHeads(v);  // (B, H, Tk, Dh)

  const Tensor mask = combineMasks(masks, q.size(2), k.size(2), q.device());
  if (sink_ != nullptr) *sink_ = {query, key, value, mask};
  AttentionResult heads;
  if (need_weights) {
    heads = scaledDotProductAttention(q, k, v, mask, options_.dropout(), is_training(), true);
  } else {
    heads.output = fusedScaledDotProductAttention(q, k, v, mask, options_.dropout(), is_training());
  }
  if (!head_mask_.empty()) heads.output = gateHeads(heads.output);
  Tensor merged =
      heads.output.transpose(1, 2).reshape({query.size(0), query.size(1), e});  // (B, Tq, E)
  return {splitLinear(merged, out_proj->weight, out_proj->bias), heads.weights};
}

}  // namespace ascope
