#include "engine/train/weight_average.h"

#include <torch/utils.h>

#include <stdexcept>
#include <string>

namespace ascope {

void WeightAverage::add(const torch::nn::Module& model) {
  torch::NoGradGuard no_grad;
  const std::vector<torch::Tensor> parameters = model.parameters();
  if (count_ == 0) {
    means_.clear();
    means_.reserve(parameters.size());
    for (const torch::Tensor& p : parameters) means_.push_back(p.detach().clone());
    count_ = 1;
    return;
  }
  if (parameters.size() != means_.size()) {
    throw std::logic_error("WeightAverage: the model has " + std::to_string(parameters.size()) +
                           " parameters, the average " + std::to_string(means_.size()));
  }
  ++count_;
  // mean += (p − mean) / n: the running mean itself, never a sum of n weights.
  const double share = 1.0 / static_cast<double>(count_);
  for (std::size_t i = 0; i < means_.size(); ++i) means_[i].lerp_(parameters[i].detach(), share);
}

void WeightAverage::copyInto(torch::nn::Module& model) const {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> parameters = model.parameters();
  if (count_ == 0 || parameters.size() != means_.size()) {
    throw std::logic_error("WeightAverage: nothing averaged for this model");
  }
  for (std::size_t i = 0; i < means_.size(); ++i) parameters[i].copy_(means_[i]);
}

}  // namespace ascope
