// releaseGradients: gradients set to "none" instead of zeroed give the same training steps.
#include <gtest/gtest.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>

#include <vector>

#include "engine/train/optim/fused_adam.h"
#include "engine/train/optim/gradient_release.h"

namespace ascope {
namespace {

torch::nn::Sequential smallSequential() {
  torch::manual_seed(21);
  return torch::nn::Sequential(torch::nn::Linear(6, 16), torch::nn::Tanh(),
                               torch::nn::Linear(16, 3));
}

TEST(GradientRelease, LeavesEveryGradientOfTheOptimizerUndefined) {
  torch::nn::Sequential model = smallSequential();
  std::vector<torch::Tensor> params = model->parameters();
  ASSERT_EQ(params.size(), 4u);
  // Two parameter groups; a tensor outside the optimizer keeps its gradient.
  FusedAdam optimizer({params[0], params[1]}, torch::optim::AdamOptions(1e-2));
  optimizer.add_param_group(torch::optim::OptimizerParamGroup({params[2]}));
  const torch::Tensor outside = params[3];

  model->forward(torch::randn({5, 6})).pow(2).sum().backward();
  for (const torch::Tensor& p : params) ASSERT_TRUE(p.grad().defined());
  releaseGradients(optimizer);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(params[i].grad().defined()) << i;
  ASSERT_TRUE(outside.grad().defined());
  EXPECT_GT(outside.grad().abs().sum().item<float>(), 0.0f);

  // Without gradients, the next backward hands its gradient over (not added to stale ones).
  const torch::Tensor input = torch::randn({5, 6});
  model->forward(input).sum().backward();
  const torch::Tensor first = params[0].grad().clone();
  releaseGradients(optimizer);
  model->forward(input).sum().backward();
  EXPECT_TRUE(torch::equal(params[0].grad(), first));
}

// Three steps with released gradients against three with zero_grad(): bit for bit the same.
TEST(GradientRelease, StepsMatchZeroGrad) {
  torch::nn::Sequential released = smallSequential();
  torch::nn::Sequential zeroed = smallSequential();
  FusedAdam released_optimizer(released->parameters(), torch::optim::AdamOptions(1e-2));
  FusedAdam zeroed_optimizer(zeroed->parameters(), torch::optim::AdamOptions(1e-2));
  const std::vector<torch::Tensor> start = zeroed->parameters();
  std::vector<torch::Tensor> start_copy;
  for (const torch::Tensor& p : start) start_copy.push_back(p.detach().clone());

  for (int step = 0; step < 3; ++step) {
    torch::manual_seed(100 + step);
    const torch::Tensor x = torch::randn({8, 6});
    const torch::Tensor target = torch::randint(0, 3, {8});

    releaseGradients(released_optimizer);
    torch::nn::functional::cross_entropy(released->forward(x), target).backward();
    released_optimizer.step();

    zeroed_optimizer.zero_grad();
    torch::nn::functional::cross_entropy(zeroed->forward(x), target).backward();
    zeroed_optimizer.step();
  }
  const std::vector<torch::Tensor> a = released->parameters();
  const std::vector<torch::Tensor> b = zeroed->parameters();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::equal(a[i], b[i])) << i;
    // Three steps of lr 0.01 moved every tensor.
    EXPECT_GT((a[i] - start_copy[i]).abs().max().item<float>(), 0.005f) << i;
  }
}

}  // namespace
}  // namespace ascope
