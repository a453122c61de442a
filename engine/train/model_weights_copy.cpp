#include "engine/train/model_weights_copy.h"

#include <torch/utils.h>

#include <stdexcept>
#include <string>

namespace ascope {
namespace {

/// Parameters and buffers by their dotted names, as Module::save names them.
std::vector<std::pair<std::string, torch::Tensor>> namedTensors(const torch::nn::Module& model) {
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const auto& p : model.named_parameters()) tensors.emplace_back(p.key(), p.value());
  for (const auto& b : model.named_buffers()) tensors.emplace_back(b.key(), b.value());
  return tensors;
}

}  // namespace

ModelWeightsCopy::ModelWeightsCopy(const torch::nn::Module& model) {
  torch::NoGradGuard no_grad;
  for (auto& [name, tensor] : namedTensors(model)) {
    tensors_.emplace_back(name, tensor.detach().to(torch::kCPU, /*non_blocking=*/false,
                                                   /*copy=*/true));
  }
}

void ModelWeightsCopy::restoreInto(torch::nn::Module& model) const {
  torch::NoGradGuard no_grad;
  const std::vector<std::pair<std::string, torch::Tensor>> targets = namedTensors(model);
  if (targets.size() != tensors_.size()) {
    throw std::logic_error("ModelWeightsCopy: the model has " + std::to_string(targets.size()) +
                           " tensors, the copy " + std::to_string(tensors_.size()));
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    torch::Tensor target = targets[i].second;
    const auto& [name, saved] = tensors_[i];
    if (targets[i].first != name) {
      throw std::logic_error("ModelWeightsCopy: tensor " + std::to_string(i) + " is " +
                             targets[i].first + ", the copy's " + name);
    }
    target.copy_(saved);
  }
}

}  // namespace ascope
