#pragma once
// The walk over parameter groups shared by FusedAdam and FusedAdamW: checks that every parameter
// can take the one-pass update, creates the optimizer state exactly as LibTorch's Adam does (same
// state type, same key), and runs the one-pass update on each parameter.
#include <torch/optim/optimizer.h>

#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/train/optim/adam_update_kernel.h"

namespace ascope {

/// The key LibTorch's optimizers file a parameter's state under: its TensorImpl's address, as
/// text in LibTorch 1.x, as the pointer itself where a later LibTorch keys by pointer.
template <typename Key>
Key optimizerStateKey(const torch::Tensor& p) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;
    text << p.unsafeGetTensorImpl();
    return text.str();
  } else {
    return static_cast<Key>(p.unsafeGetTensorImpl());
  }
}

inline bool isDenseCpuFloat(const torch::Tensor& t) {
  return t.device().is_cpu() && t.scalar_type() == torch::kFloat && !t.is_sparse() &&
         t.is_contiguous();
}

/// A gradient for some rows of a matrix only (a sparse embedding gradient).
inline bool isRowSparseCpuFloat(const torch::Tensor& p, const torch::Tensor& g) {
  return g.is_sparse() && g.device().is_cpu() && g.scalar_type() == torch::kFloat &&
         g.sparse_dim() == 1 && g.dense_dim() == 1 && p.dim() == 2;
}

inline bool takesOnePassAdam(const torch::Tensor& p) {
  // A parameter without a gradient is skipped, as LibTorch's step skips it.
  if (!p.grad().defined()) return true;
  return isDenseCpuFloat(p) && (isDenseCpuFloat(p.grad()) || isRowSparseCpuFloat(p, p.grad()));
}

/// One parameter's update; its gradient is dense or row-sparse.
inline void onePassAdamUpdate(torch::Tensor& p, torch::Tensor& exp_avg, torch::Tensor& exp_avg_sq,
                              const AdamStepScalars& s) {
  const torch::Tensor& grad = p.grad();
  if (!grad.is_sparse()) {
    adamUpdate(p.data_ptr<float>(), grad.data_ptr<float>(), exp_avg.data_ptr<float>(),
               exp_avg_sq.data_ptr<float>(), p.numel(), s);
    return;
  }
  // Repeated rows (a word used twice in a batch) are summed, as the dense gradient sums them.
  const torch::Tensor g = grad.coalesce();
  const torch::Tensor rows = g._indices()[0].contiguous();
  const torch::Tensor values = g._values().contiguous();  // (k, cols)
  std::vector<int64_t> slot(static_cast<std::size_t>(p.size(0)), -1);
  const int64_t* row = rows.data_ptr<int64_t>();
  for (int64_t j = 0; j < rows.numel(); ++j) slot[static_cast<std::size_t>(row[j])] = j;
  adamUpdateRows(p.data_ptr<float>(), values.data_ptr<float>(), slot.data(),
                 exp_avg.data_ptr<float>(), exp_avg_sq.data_ptr<float>(), p.size(0), p.size(1), s);
}

/// False (and nothing changed) when some parameter needs LibTorch's own step.
template <typename ParamState, typename Options, typename StateMap>
bool onePassAdamStep(std::vector<torch::optim::OptimizerParamGroup>& groups, StateMap& states,
                     bool decoupled_weight_decay) {
  for (auto& group : groups) {
    if (static_cast<Options&>(group.options()).amsgrad()) return false;
    for (const torch::Tensor& p : group.params()) {
      if (!takesOnePassAdam(p)) return false;
    }
  }
  torch::NoGradGuard no_grad;
  using Key = typename StateMap::key_type;
  for (auto& group : groups) {
    auto& options = static_cast<Options&>(group.options());
    for (torch::Tensor& p : group.params()) {
      if (!p.grad().defined()) continue;
      const Key key = optimizerStateKey<Key>(p);
      auto found = states.find(key);
      if (found == states.end()) {
        auto fresh = std::make_unique<ParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        found = states.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<ParamState&>(*found->second);
      // A state loaded from a checkpoint may not be contiguous float32 on the CPU.
      if (!isDenseCpuFloat(state.exp_avg()) || !isDenseCpuFloat(state.exp_avg_sq())) {
        state.exp_avg(state.exp_avg().to(p.options()).contiguous());
        state.exp_avg_sq(state.exp_avg_sq().to(p.options()).contiguous());
      }
      state.step(state.step() + 1);
      AdamStepScalars s;
      s.lr = options.lr();
      s.beta1 = std::get<0>(options.betas());
      s.beta2 = std::get<1>(options.betas());
      s.eps = options.eps();
      s.weight_decay = options.weight_decay();
      s.decoupled_weight_decay = decoupled_weight_decay;
      s.step = state.step();
      onePassAdamUpdate(p, state.exp_avg(), state.exp_avg_sq(), s);
    }
  }
  return true;
}

}  // namespace ascope
