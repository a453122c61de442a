// FusedAdam / FusedAdamW against LibTorch's own Adam / AdamW: same parameters, same state (so
// checkpoints load either way), and LibTorch's step wherever the one-pass update does not apply.
#include <gtest/gtest.h>
#include <torch/nn/modules/embedding.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>

#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/train/optim/fused_adam.h"
#include "engine/train/optim/fused_adam_step.h"
#include "engine/train/optim/fused_adamw.h"
#include "two_intra_op_threads.h"

namespace ascope {
namespace {

using torch::Tensor;

using FusedAdamTest = TwoIntraOpThreads;

// 120,000 elements in the third: above the kernel's grain (32,768), so two threads share it.
std::vector<Tensor> makeParams(torch::ScalarType dtype = torch::kFloat) {
  torch::manual_seed(3);
  std::vector<Tensor> params;
  for (const std::vector<int64_t>& sizes :
       {std::vector<int64_t>{3}, {17, 5}, {400, 300}, {2, 1, 6}}) {
    params.push_back(torch::randn(sizes, torch::TensorOptions().dtype(dtype)).requires_grad_());
  }
  return params;
}

std::vector<Tensor> clonesOf(const std::vector<Tensor>& params) {
  std::vector<Tensor> copies;
  for (const Tensor& p : params) copies.push_back(p.detach().clone().requires_grad_());
  return copies;
}

/// The same random gradients for every set of parameters given the same step number; a
/// different scale per parameter.
void setGradients(std::vector<Tensor>& params, int step) {
  torch::manual_seed(1000 + step);
  for (std::size_t i = 0; i < params.size(); ++i) {
    params[i].mutable_grad() = torch::randn_like(params[i]) * (0.1 * static_cast<double>(i + 1));
  }
}

template <typename State>
const State* stateOf(torch::optim::Optimizer& optimizer, const Tensor& p) {
  auto& states = optimizer.state();
  // The key LibTorch's optimizers use, through the engine's one spelling of it (LibTorch 2.x has
  // no c10::guts::to_string).
  using Key = typename std::decay_t<decltype(states)>::key_type;
  auto found = states.find(optimizerStateKey<Key>(p));
  return found == states.end() ? nullptr : static_cast<const State*>(found->second.get());
}

/// Equal to `relative` of the larger values of `expected` (an absolute floor at that scale, so
/// that elements near zero do not need an impossible relative precision).
void expectStepClose(const Tensor& actual, const Tensor& expected, double relative,
                     const std::string& what) {
  ASSERT_EQ(actual.sizes(), expected.sizes()) << what;
  const double scale = expected.abs().max().item<double>();
  EXPECT_TRUE(torch::allclose(actual, expected, relative, relative * scale))
      << what << ": max difference " << (actual - expected).abs().max().item<double>()
      << " at scale " << scale;
}

/// The steps taken from `before` agree to `relative` of the largest step, give or take the float
/// rounding of the parameters themselves (two ulps of the largest weight).
void expectSameStep(const Tensor& after, const Tensor& expected_after, const Tensor& before,
                    double relative, const std::string& what) {
  const Tensor step = after.detach() - before.detach();
  const Tensor expected = expected_after.detach() - before.detach();
  const double rounding =
      2.0 * std::numeric_limits<float>::epsilon() * before.abs().max().item<double>();
  const double tolerance = relative * expected.abs().max().item<double>() + rounding;
  EXPECT_TRUE(torch::allclose(step, expected, 0, tolerance))
      << what << ": max difference " << (step - expected).abs().max().item<double>()
      << ", tolerance " << tolerance;
}

/// Five steps of Fused and of Reference from the same start with the same gradients: the steps
/// taken (parameter minus start) and the moments agree.
template <typename Fused, typename Reference, typename State, typename Options>
void expectSameSteps(const Options& options) {
  std::vector<Tensor> fused_params = makeParams();
  std::vector<Tensor> reference_params = clonesOf(fused_params);
  const std::vector<Tensor> start = clonesOf(fused_params);
  Fused fused(fused_params, options);
  Reference reference(reference_params, options);
  for (int step = 1; step <= 5; ++step) {
    setGradients(fused_params, step);
    setGradients(reference_params, step);
    fused.step();
    reference.step();
  }
  for (std::size_t i = 0; i < start.size(); ++i) {
    const std::string name = "parameter " + std::to_string(i);
    const Tensor moved = reference_params[i].detach() - start[i].detach();
    // Five steps of lr 0.01 move every weight by up to 0.05: the comparison is not of equal starts.
    EXPECT_GT(moved.abs().max().item<double>(), 0.02) << name;
    expectSameStep(fused_params[i], reference_params[i], start[i], 1e-5, name + " step");
    expectStepClose(fused_params[i].detach(), reference_params[i].detach(), 1e-6, name);
    const State* fused_state = stateOf<State>(fused, fused_params[i]);
    const State* reference_state = stateOf<State>(reference, reference_params[i]);
    ASSERT_NE(fused_state, nullptr) << name;
    ASSERT_NE(reference_state, nullptr) << name;
    EXPECT_EQ(fused_state->step(), 5) << name;
    EXPECT_EQ(reference_state->step(), 5) << name;
    expectStepClose(fused_state->exp_avg(), reference_state->exp_avg(), 1e-6, name + " exp_avg");
    expectStepClose(fused_state->exp_avg_sq(), reference_state->exp_avg_sq(), 1e-6,
                    name + " exp_avg_sq");
    EXPECT_FALSE(fused_state->max_exp_avg_sq().defined()) << name;
  }
}

TEST_F(FusedAdamTest, FiveStepsMatchLibTorchAdam) {
  expectSameSteps<FusedAdam, torch::optim::Adam, torch::optim::AdamParamState>(
      torch::optim::AdamOptions(1e-2));
}

TEST_F(FusedAdamTest, FiveStepsWithWeightDecayMatchLibTorchAdam) {
  expectSameSteps<FusedAdam, torch::optim::Adam, torch::optim::AdamParamState>(
      torch::optim::AdamOptions(1e-2).weight_decay(0.01).betas({0.8, 0.99}).eps(1e-6));
}

TEST_F(FusedAdamTest, FiveStepsMatchLibTorchAdamW) {
  expectSameSteps<FusedAdamW, torch::optim::AdamW, torch::optim::AdamWParamState>(
      torch::optim::AdamWOptions(1e-2).weight_decay(0.05));
}

TEST_F(FusedAdamTest, FiveStepsWithoutDecayMatchLibTorchAdamW) {
  expectSameSteps<FusedAdamW, torch::optim::AdamW, torch::optim::AdamWParamState>(
      torch::optim::AdamWOptions(1e-2).weight_decay(0));
}

// Worked numbers: with the same gradient g each step, m̂ = g and v̂ = g² exactly, so every step
// moves each weight by lr against the sign of its gradient (eps is negligible next to |g| ≥ 2).
TEST_F(FusedAdamTest, WorkedStepsOfAdamAndAdamW) {
  const Tensor p = torch::tensor({1.0f, -2.0f, 3.0f}).requires_grad_();
  FusedAdam adam({p}, torch::optim::AdamOptions(0.1).weight_decay(0.5));
  // Coupled decay: the gradient becomes g + 0.5·p = (2.5, −5, 7.5); same signs, same step.
  p.mutable_grad() = torch::tensor({2.0f, -4.0f, 6.0f});
  adam.step();
  EXPECT_TRUE(torch::allclose(p.detach(), torch::tensor({0.9f, -1.9f, 2.9f}), 0, 1e-6)) << p;
  const auto* state = stateOf<torch::optim::AdamParamState>(adam, p);
  ASSERT_NE(state, nullptr);
  // m = (1 − β1)·(g + 0.5·p) and v = (1 − β2)·(g + 0.5·p)².
  EXPECT_TRUE(torch::allclose(state->exp_avg(), torch::tensor({0.25f, -0.5f, 0.75f}), 1e-6, 0));
  EXPECT_TRUE(
      torch::allclose(state->exp_avg_sq(), torch::tensor({6.25e-3f, 25e-3f, 56.25e-3f}), 1e-5, 0));

  const Tensor q = torch::tensor({1.0f, -2.0f, 3.0f}).requires_grad_();
  FusedAdamW adamw({q}, torch::optim::AdamWOptions(0.1).weight_decay(0.5));
  for (int step = 0; step < 2; ++step) {
    q.mutable_grad() = torch::tensor({2.0f, -4.0f, 6.0f});
    adamw.step();
  }
  // Each step: q·(1 − 0.1·0.5) − 0.1·sign(g). (1, −2, 3) → (0.85, −1.8, 2.75) → (0.7075, −1.61,
  // 2.5125).
  EXPECT_TRUE(torch::allclose(q.detach(), torch::tensor({0.7075f, -1.61f, 2.5125f}), 0, 1e-6)) << q;
  const auto* w_state = stateOf<torch::optim::AdamWParamState>(adamw, q);
  ASSERT_NE(w_state, nullptr);
  EXPECT_EQ(w_state->step(), 2);
  // Decoupled decay leaves the moments alone: m = (1 − 0.9²)·g.
  EXPECT_TRUE(torch::allclose(w_state->exp_avg(), torch::tensor({0.38f, -0.76f, 1.14f}), 1e-6, 0));
}

TEST_F(FusedAdamTest, ParameterWithoutGradientIsUntouchedAndGetsNoState) {
  std::vector<Tensor> fused_params = makeParams();
  std::vector<Tensor> reference_params = clonesOf(fused_params);
  const Tensor untouched = fused_params[1].detach().clone();
  FusedAdam fused(fused_params, torch::optim::AdamOptions(1e-2));
  torch::optim::Adam reference(reference_params, torch::optim::AdamOptions(1e-2));
  for (int step = 1; step <= 2; ++step) {
    setGradients(fused_params, step);
    setGradients(reference_params, step);
    fused_params[1].mutable_grad().reset();
    reference_params[1].mutable_grad().reset();
    fused.step();
    reference.step();
  }
  EXPECT_TRUE(torch::equal(fused_params[1].detach(), untouched));
  EXPECT_EQ(stateOf<torch::optim::AdamParamState>(fused, fused_params[1]), nullptr);
  EXPECT_EQ(stateOf<torch::optim::AdamParamState>(reference, reference_params[1]), nullptr);
  EXPECT_EQ(fused.state().size(), 3u);
  EXPECT_EQ(reference.state().size(), 3u);

  // When it does get a gradient, its state starts then: one step, as LibTorch counts it.
  setGradients(fused_params, 3);
  setGradients(reference_params, 3);
  fused.step();
  reference.step();
  const auto* late = stateOf<torch::optim::AdamParamState>(fused, fused_params[1]);
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->step(), 1);
  EXPECT_EQ(stateOf<torch::optim::AdamParamState>(fused, fused_params[0])->step(), 3);
  for (std::size_t i = 0; i < fused_params.size(); ++i) {
    expectStepClose(fused_params[i].detach(), reference_params[i].detach(), 1e-6,
                    "parameter " + std::to_string(i));
  }
  EXPECT_FALSE(torch::equal(fused_params[1].detach(), untouched));
}

// amsgrad is LibTorch's step: bit for bit the same, and its extra state is there.
TEST_F(FusedAdamTest, AmsgradTakesLibTorchsStep) {
  std::vector<Tensor> fused_params = makeParams();
  std::vector<Tensor> reference_params = clonesOf(fused_params);
  const auto options = torch::optim::AdamOptions(1e-2).amsgrad(true).weight_decay(0.01);
  FusedAdam fused(fused_params, options);
  torch::optim::Adam reference(reference_params, options);
  for (int step = 1; step <= 3; ++step) {
    setGradients(fused_params, step);
    setGradients(reference_params, step);
    fused.step();
    reference.step();
  }
  for (std::size_t i = 0; i < fused_params.size(); ++i) {
    EXPECT_TRUE(torch::equal(fused_params[i], reference_params[i])) << i;
    const auto* state = stateOf<torch::optim::AdamParamState>(fused, fused_params[i]);
    ASSERT_NE(state, nullptr);
    ASSERT_TRUE(state->max_exp_avg_sq().defined()) << i;
    EXPECT_TRUE(torch::equal(
        state->max_exp_avg_sq(),
        stateOf<torch::optim::AdamParamState>(reference, reference_params[i])->max_exp_avg_sq()));
  }
}

TEST_F(FusedAdamTest, ClosureIsCalledAndItsLossReturned) {
  for (bool decoupled : {false, true}) {
    const Tensor p = torch::tensor({1.0f, -2.0f, 3.0f}).requires_grad_();
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    if (decoupled) {
      optimizer = std::make_unique<FusedAdamW>(std::vector<Tensor>{p},
                                               torch::optim::AdamWOptions(0.1).weight_decay(0));
    } else {
      optimizer =
          std::make_unique<FusedAdam>(std::vector<Tensor>{p}, torch::optim::AdamOptions(0.1));
    }
    int calls = 0;
    const Tensor loss = optimizer->step([&] {
      ++calls;
      optimizer->zero_grad();
      Tensor l = (p * p).sum();
      l.backward();
      return l;
    });
    EXPECT_EQ(calls, 1) << decoupled;
    ASSERT_TRUE(loss.defined()) << decoupled;
    EXPECT_FLOAT_EQ(loss.item<float>(), 14.0f) << decoupled;  // 1 + 4 + 9
    // The gradient 2p = (2, −4, 6) was applied: one step of lr against its sign.
    EXPECT_TRUE(torch::allclose(p.detach(), torch::tensor({0.9f, -1.9f, 2.9f}), 0, 1e-6))
        << decoupled << p;
  }
}

// The optimizer's state is LibTorch's: a FusedAdam checkpoint resumes in a plain Adam, and a plain
// Adam checkpoint in a FusedAdam, and the next step is the one an uninterrupted run takes.
template <typename First, typename Second>
void expectResumedStepMatches() {
  const auto options = torch::optim::AdamOptions(1e-2).weight_decay(0.01);
  std::vector<Tensor> straight = makeParams();
  First straight_optimizer(straight, options);
  std::vector<Tensor> before_last;
  for (int step = 1; step <= 4; ++step) {
    if (step == 4) before_last = clonesOf(straight);
    setGradients(straight, step);
    straight_optimizer.step();
  }

  std::vector<Tensor> interrupted = makeParams();
  std::stringstream checkpoint;
  {
    First first(interrupted, options);
    for (int step = 1; step <= 3; ++step) {
      setGradients(interrupted, step);
      first.step();
    }
    torch::save(first, checkpoint);
  }
  std::vector<Tensor> resumed = clonesOf(interrupted);
  Second second(resumed, options);
  torch::load(second, checkpoint);
  for (const Tensor& p : resumed) {
    const auto* state = stateOf<torch::optim::AdamParamState>(second, p);
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->step(), 3);
  }
  setGradients(resumed, 4);
  second.step();
  for (std::size_t i = 0; i < resumed.size(); ++i) {
    const std::string name = "parameter " + std::to_string(i);
    // The last step itself (≈ lr), not just the weights, so a fresh state would show.
    expectSameStep(resumed[i], straight[i], before_last[i], 1e-5, name + " step");
    EXPECT_EQ(stateOf<torch::optim::AdamParamState>(second, resumed[i])->step(), 4) << name;
  }
}

TEST_F(FusedAdamTest, FusedCheckpointResumesInLibTorchAdam) {
  expectResumedStepMatches<FusedAdam, torch::optim::Adam>();
}

TEST_F(FusedAdamTest, LibTorchCheckpointResumesInFusedAdam) {
  expectResumedStepMatches<torch::optim::Adam, FusedAdam>();
}

TEST_F(FusedAdamTest, DoubleParametersTakeLibTorchsStep) {
  std::vector<Tensor> fused_params = makeParams(torch::kDouble);
  std::vector<Tensor> reference_params = clonesOf(fused_params);
  FusedAdam fused(fused_params, torch::optim::AdamOptions(1e-2).weight_decay(0.01));
  torch::optim::Adam reference(reference_params,
                               torch::optim::AdamOptions(1e-2).weight_decay(0.01));
  for (int step = 1; step <= 3; ++step) {
    setGradients(fused_params, step);
    setGradients(reference_params, step);
    fused.step();
    reference.step();
  }
  for (std::size_t i = 0; i < fused_params.size(); ++i) {
    EXPECT_EQ(fused_params[i].scalar_type(), torch::kDouble);
    EXPECT_TRUE(torch::equal(fused_params[i], reference_params[i])) << i;
  }
}

// One parameter that LibTorch must step (a double one, or a float one with a transposed
// gradient) sends them all to its step: bit for bit LibTorch's result.
TEST_F(FusedAdamTest, OneUnfusableParameterSendsAllToLibTorchsStep) {
  for (bool transposed_gradient : {false, true}) {
    std::vector<Tensor> fused_params = makeParams();
    fused_params.push_back(
        torch::randn({5, 6}, transposed_gradient ? torch::kFloat : torch::kDouble)
            .requires_grad_());
    std::vector<Tensor> reference_params = clonesOf(fused_params);
    FusedAdamW fused(fused_params, torch::optim::AdamWOptions(1e-2));
    torch::optim::AdamW reference(reference_params, torch::optim::AdamWOptions(1e-2));
    for (int step = 1; step <= 2; ++step) {
      setGradients(fused_params, step);
      setGradients(reference_params, step);
      if (transposed_gradient) {
        const Tensor g = torch::randn({6, 5});
        fused_params.back().mutable_grad() = g.t();
        reference_params.back().mutable_grad() = g.t();
        ASSERT_FALSE(fused_params.back().grad().is_contiguous());
      }
      fused.step();
      reference.step();
    }
    for (std::size_t i = 0; i < fused_params.size(); ++i) {
      EXPECT_TRUE(torch::equal(fused_params[i], reference_params[i]))
          << i << (transposed_gradient ? " transposed gradient" : " double parameter");
    }
  }
}

// A sparse embedding gradient (rows used by the batch, one of them twice) gives the step that the
// dense gradient gives in LibTorch's Adam, rows that were not used included (their moments decay
// and they keep moving).
template <typename Fused, typename Reference, typename Options>
void expectSparseRowsMatchDense(const Options& options, double unused_row_factor) {
  torch::manual_seed(5);
  torch::nn::Embedding sparse(torch::nn::EmbeddingOptions(50, 8).sparse(true));
  torch::nn::Embedding dense(torch::nn::EmbeddingOptions(50, 8));
  {
    torch::NoGradGuard no_grad;
    dense->weight.copy_(sparse->weight);
  }
  const Tensor start = dense->weight.detach().clone();
  Fused fused({sparse->weight}, options);
  Reference reference({dense->weight}, options);
  const std::vector<std::vector<int64_t>> batches = {{3, 7, 3, 40}, {0, 7, 49}, {12, 12, 12}};
  Tensor row3_after_first;
  for (std::size_t step = 0; step < batches.size(); ++step) {
    const Tensor ids = torch::tensor(batches[step]);
    torch::manual_seed(static_cast<uint64_t>(100 + step));
    const Tensor upstream = torch::randn({ids.size(0), 8});
    sparse->weight.mutable_grad().reset();
    dense->weight.mutable_grad().reset();
    (sparse(ids) * upstream).sum().backward();
    (dense(ids) * upstream).sum().backward();
    ASSERT_TRUE(sparse->weight.grad().is_sparse());
    ASSERT_FALSE(dense->weight.grad().is_sparse());
    fused.step();
    reference.step();
    if (step == 0) row3_after_first = sparse->weight[3].detach().clone();
  }
  expectSameStep(sparse->weight, dense->weight, start, 1e-5, "step");
  expectStepClose(sparse->weight.detach(), dense->weight.detach(), 1e-6, "weights");
  // Row 3 was in the first batch only, and its first moment still moved it on the later steps.
  EXPECT_GT((sparse->weight[3] - row3_after_first).abs().min().item<float>(), 1e-4f);
  // Row 5 was never used: zero moments, no step; only a decoupled decay shrinks it.
  EXPECT_TRUE(torch::allclose(sparse->weight[5], start[5] * unused_row_factor, 1e-6, 1e-7))
      << sparse->weight[5] << start[5];
}

TEST_F(FusedAdamTest, RowSparseGradientMatchesDenseAdam) {
  expectSparseRowsMatchDense<FusedAdam, torch::optim::Adam>(torch::optim::AdamOptions(1e-2), 1.0);
}

TEST_F(FusedAdamTest, RowSparseGradientMatchesDenseAdamW) {
  expectSparseRowsMatchDense<FusedAdamW, torch::optim::AdamW>(
      torch::optim::AdamWOptions(1e-2).weight_decay(0.05), std::pow(1.0 - 1e-2 * 0.05, 3));
}

}  // namespace
}  // namespace ascope
