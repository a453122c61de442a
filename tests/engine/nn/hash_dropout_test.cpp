// hashDropout: the statistics of a dropout mask (fraction kept, scale, no correlation between
// neighbours), repeatability under torch::manual_seed whatever the thread count, its gradient, and
// the cases that leave the input alone or go to at::dropout.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "engine/nn/batch_shard.h"
#include "engine/nn/hash_dropout.h"

namespace ascope {
namespace {

class ScopedThreads {
 public:
  explicit ScopedThreads(int threads) : saved_(at::get_num_threads()) {
    at::set_num_threads(threads);
  }
  ~ScopedThreads() { at::set_num_threads(saved_); }
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  int saved_;
};

constexpr int64_t kMillion = 1000000;

double keptFraction(const Tensor& y) {
  return (y != 0).to(torch::kDouble).mean().item<double>();
}

Tensor droppedOnes(int64_t n, double p, uint64_t seed) {
  torch::manual_seed(seed);
  return hashDropout(torch::ones({n}), p, /*training=*/true);
}

TEST(HashDropout, KeepsOneMinusPScaledByItsInverse) {
  const ScopedThreads threads(2);
  for (double p : {0.1, 0.3, 0.5}) {
    const Tensor y = droppedOnes(kMillion, p, 17);
    ASSERT_EQ(y.scalar_type(), torch::kFloat);
    // 1 M draws: one standard deviation of the fraction is at most 0.0005.
    EXPECT_NEAR(keptFraction(y), 1.0 - p, 0.002) << p;
    const Tensor kept = y.masked_select(y != 0);
    const auto scale = static_cast<float>(1.0 / (1.0 - p));
    EXPECT_TRUE(kept.eq(scale).all().item<bool>())
        << p << ": kept values in [" << kept.min().item<float>() << ", " << kept.max().item<float>()
        << "], not " << scale;
  }
  // The values are the input's times the mask: 1/(1 − 0.2) = 1.25.
  torch::manual_seed(4);
  const Tensor x = torch::full({1000}, -2.0f);
  const Tensor y = hashDropout(x, 0.2, true);
  EXPECT_TRUE(((y == 0) | (y == -2.5f)).all().item<bool>());
  EXPECT_TRUE(torch::equal(x, torch::full({1000}, -2.0f)));  // input not written to
}

TEST(HashDropout, NeighboursAreNotCorrelated) {
  const Tensor kept = droppedOnes(kMillion, 0.1, 23) != 0;
  const int64_t n = kept.numel();
  for (int64_t gap : {1, 2, 64, 1 << 16}) {
    const Tensor both = kept.narrow(0, 0, n - gap) & kept.narrow(0, gap, n - gap);
    // Independent decisions: 0.9 · 0.9.
    EXPECT_NEAR(both.to(torch::kDouble).mean().item<double>(), 0.81, 0.003) << "gap " << gap;
  }
  // Runs: with independent decisions, a dropped element follows a kept one 0.9 · 0.1 of the time.
  const Tensor kept_then_dropped = kept.narrow(0, 0, n - 1) & ~kept.narrow(0, 1, n - 1);
  EXPECT_NEAR(kept_then_dropped.to(torch::kDouble).mean().item<double>(), 0.09, 0.002);
}

TEST(HashDropout, LeavesTheInputAloneWhenNotTrainingOrPIsZero) {
  const Tensor x = torch::randn({4, 5});
  EXPECT_TRUE(hashDropout(x, 0.3, /*training=*/false).is_same(x));
  EXPECT_TRUE(hashDropout(x, 0.0, /*training=*/true).is_same(x));

  HashDropout module(0.3);
  EXPECT_DOUBLE_EQ(module->p(), 0.3);
  module->eval();
  EXPECT_TRUE(module(x).is_same(x));
  module->train();
  torch::manual_seed(9);
  const Tensor trained = module(torch::ones({10000}));
  EXPECT_NEAR(keptFraction(trained), 0.7, 0.015);
  // The module is the function: same seed, same mask.
  torch::manual_seed(9);
  EXPECT_TRUE(torch::equal(trained, hashDropout(torch::ones({10000}), 0.3, true)));
}

TEST(HashDropout, ManualSeedRepeatsTheMask) {
  const Tensor first = droppedOnes(100000, 0.1, 42);
  const Tensor again = droppedOnes(100000, 0.1, 42);
  const Tensor other_seed = droppedOnes(100000, 0.1, 43);
  EXPECT_TRUE(torch::equal(first, again));
  // Two independent masks agree where both keep or both drop: 0.81 + 0.01 of the elements.
  EXPECT_NEAR(first.eq(other_seed).to(torch::kDouble).mean().item<double>(), 0.82, 0.01);

  torch::manual_seed(42);
  const Tensor x = torch::ones({100000});
  const Tensor call1 = hashDropout(x, 0.1, true);
  const Tensor call2 = hashDropout(x, 0.1, true);
  EXPECT_TRUE(torch::equal(call1, first));
  EXPECT_NEAR(call1.eq(call2).to(torch::kDouble).mean().item<double>(), 0.82, 0.01);
}

TEST(HashDropout, MaskDoesNotDependOnTheThreadCount) {
  Tensor one_thread, two_threads;
  {
    const ScopedThreads threads(1);
    one_thread = droppedOnes(kMillion, 0.25, 7);
  }
  {
    const ScopedThreads threads(2);
    two_threads = droppedOnes(kMillion, 0.25, 7);
    // A non-contiguous input is masked by its logical coordinates: the same mask.
    torch::manual_seed(7);
    const Tensor square = hashDropout(torch::ones({1000, 1000}), 0.25, true);
    torch::manual_seed(7);
    const Tensor transposed = hashDropout(torch::ones({1000, 1000}).t(), 0.25, true);
    EXPECT_TRUE(torch::equal(transposed, square));
  }
  EXPECT_TRUE(torch::equal(one_thread, two_threads));
}

TEST(HashDropout, GradientIsTheMask) {
  torch::manual_seed(31);
  const Tensor mask = hashDropout(torch::ones({3, 7000}), 0.4, true);
  const Tensor x = torch::randn({3, 7000}).requires_grad_();
  torch::manual_seed(31);
  const Tensor y = hashDropout(x, 0.4, true);
  EXPECT_TRUE(torch::equal(y, x.detach() * mask));
  y.sum().backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_TRUE(torch::equal(x.grad(), mask));
}

TEST(HashDropout, RejectsPOutsideZeroToOne) {
  const Tensor x = torch::ones({10});
  EXPECT_THROW(hashDropout(x, -0.1, true), std::invalid_argument);
  EXPECT_THROW(hashDropout(x, 1.5, true), std::invalid_argument);
  EXPECT_THROW(HashDropout(-0.1), std::invalid_argument);
  EXPECT_THROW(HashDropout(1.01), std::invalid_argument);
  EXPECT_NO_THROW(HashDropout(1.0));
  // NaN compares false both ways; and a bad p is refused even when not training, as at::dropout
  // refuses it.
  EXPECT_THROW(hashDropout(x, std::nan(""), true), std::invalid_argument);
  EXPECT_THROW(HashDropout(std::nan("")), std::invalid_argument);
  EXPECT_THROW(hashDropout(x, 1.5, false), std::invalid_argument);
}

TEST(HashDropout, PSoSmallThatOneMinusPIsOneKeepsEverything) {
  const Tensor x = torch::ones({100000});
  EXPECT_TRUE(hashDropout(x, 1e-17, true).equal(x));
  EXPECT_TRUE(hashDropout(x, 1e-16, true).equal(x));
}

TEST(HashDropout, POfOneDropsEverything) {
  const Tensor y = hashDropout(torch::randn({1000}), 1.0, true);
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{1000}));
  EXPECT_TRUE(torch::equal(y, torch::zeros({1000})));
}

TEST(HashDropout, DoubleTensorsTakeLibTorchsDropout) {
  torch::manual_seed(2);
  const Tensor y = hashDropout(torch::ones({100000}, torch::kDouble), 0.25, true);
  ASSERT_EQ(y.scalar_type(), torch::kDouble);
  // 100,000 draws: one standard deviation is 0.0014.
  EXPECT_NEAR(keptFraction(y), 0.75, 0.006);
  const Tensor kept = y.masked_select(y != 0);
  EXPECT_TRUE(torch::allclose(kept, torch::full_like(kept, 1.0 / 0.75), 1e-12, 0));
}

TEST(HashDropout, ModuleHasNoParametersOrBuffers) {
  HashDropout module(0.1);
  EXPECT_TRUE(module->parameters().empty());
  EXPECT_TRUE(module->buffers().empty());
  // Cloneable: the copy keeps p.
  auto copy = std::dynamic_pointer_cast<HashDropoutImpl>(module->clone());
  ASSERT_NE(copy, nullptr);
  EXPECT_DOUBLE_EQ(copy->p(), 0.1);
}

TEST(HashDropout, RowsOfAMatrixAreNotCorrelated) {
  // Each row's key is a hash of its coordinates: neighbouring rows, and the same column of
  // neighbouring rows, decide independently.
  torch::manual_seed(3);
  const Tensor kept = hashDropout(torch::ones({1000, 1000}), 0.1, true) != 0;
  const Tensor rows_apart = kept.narrow(0, 0, 999) & kept.narrow(0, 1, 999);
  EXPECT_NEAR(rows_apart.to(torch::kDouble).mean().item<double>(), 0.81, 0.003);
  EXPECT_NEAR(kept.to(torch::kDouble).mean().item<double>(), 0.9, 0.002);
}

TEST(HashDropout, AnElementsDecisionDoesNotDependOnThePaddedLength) {
  // Attention weights (B, H, Tq, Tk) of a batch padded to 7 and of the same batch trimmed to 5:
  // the elements they share are dropped alike, so trimming padding changes no result.
  torch::manual_seed(8);
  const Tensor padded = hashDropout(torch::ones({3, 2, 7, 7}), 0.3, true);
  torch::manual_seed(8);
  const Tensor trimmed = hashDropout(torch::ones({3, 2, 5, 5}), 0.3, true);
  EXPECT_TRUE(torch::equal(trimmed, padded.narrow(2, 0, 5).narrow(3, 0, 5)));
  torch::manual_seed(8);
  const Tensor features = hashDropout(torch::ones({3, 7, 16}), 0.3, true);
  torch::manual_seed(8);
  EXPECT_TRUE(
      torch::equal(hashDropout(torch::ones({3, 4, 16}), 0.3, true), features.narrow(1, 0, 4)));
}

TEST(HashDropout, AShardDropsWhatTheWholeBatchDropsForItsSamples) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{6, 2, 5, 5}, std::vector<int64_t>{6, 16}}) {
    torch::manual_seed(21);
    const Tensor whole = hashDropout(torch::ones(shape), 0.4, true);
    std::vector<int64_t> half = shape;
    half[0] = 3;
    torch::manual_seed(21);
    Tensor second;
    {
      const BatchShardScope scope({3, 3, 6});
      second = hashDropout(torch::ones(half), 0.4, true);
    }
    EXPECT_TRUE(torch::equal(second, whole.narrow(0, 3, 3))) << shape.size() << " dimensions";
    EXPECT_FALSE(torch::equal(second, whole.narrow(0, 0, 3)));
  }
  // The batch merged with the heads as the first dimension, (B·H, T, T), moves by H per sample.
  torch::manual_seed(22);
  const Tensor merged = hashDropout(torch::ones({12, 4, 4}), 0.4, true);
  torch::manual_seed(22);
  const BatchShardScope scope({2, 4, 6});
  EXPECT_TRUE(torch::equal(hashDropout(torch::ones({8, 4, 4}), 0.4, true), merged.narrow(0, 4, 8)));
  // A tensor whose first dimension is not the shard's samples cannot be placed in the batch.
  EXPECT_THROW(hashDropout(torch::ones({5, 4}), 0.4, true), std::logic_error);
}

}  // namespace
}  // namespace ascope
