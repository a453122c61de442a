#include "engine/nn/sinusoidal_positional_encoding.h"

#include "engine/nn/sequence_length_check.h"

#include <cmath>

namespace ascope {

SinusoidalPositionalEncodingImpl::SinusoidalPositionalEncodingImpl(int64_t d_model, int64_t max_len,
                                                                   double dropout) {
  const Tensor position = torch::arange(max_len, torch::kDouble).unsqueeze(1);  // (L, 1)
  // 10000^(-2i/d) for the even dimensions 2i; computed in double so the table is exact to float.
  const Tensor inv_freq =
      torch::exp(torch::arange(0, d_model, 2, torch::kDouble) * (-std::log(10000.0) / d_model));
  const Tensor angles = position * inv_freq;  // (L, ceil(d/2))
  Tensor pe = torch::zeros({max_len, d_model}, torch::kDouble);
  using torch::indexing::Slice;
  pe.index_put_({Slice(), Slice(0, torch::indexing::None, 2)}, torch::sin(angles));
  pe.index_put_({Slice(), Slice(1, torch::indexing::None, 2)},
                torch::cos(angles).narrow(1, 0, d_model / 2));
  pe_ = register_buffer("pe", pe.to(torch::kFloat));
  dropout_ = register_module("dropout", HashDropout(dropout));
}

Tensor SinusoidalPositionalEncodingImpl::forward(const Tensor& x) {
  checkSequenceLength(x, pe_.size(0), "positional encoding's max_len");
  const Tensor positions = pe_.narrow(0, 0, x.size(1)).unsqueeze(0);  // (1, T, d)
  if (sink_ != nullptr) sink_->push_back({x, positions});
  return dropout_(x + positions);  // (B, T, d)
}

}  // namespace ascope
