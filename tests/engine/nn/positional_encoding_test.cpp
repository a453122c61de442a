#include <gtest/gtest.h>

#include <cmath>

#include "engine/nn/learned_position_embedding.h"
#include "engine/nn/sinusoidal_positional_encoding.h"

namespace ascope {
namespace {

TEST(SinusoidalPositionalEncoding, MatchesTheFormula) {
  const int64_t d = 64;
  SinusoidalPositionalEncoding pe(d, 350);
  const torch::Tensor m = pe->matrix();
  ASSERT_EQ(m.sizes(), (std::vector<int64_t>{350, d}));
  for (int64_t pos : {0, 1, 7, 49, 349}) {
    for (int64_t i : {0, 1, 5, 16, 31}) {
      const double angle = pos / std::pow(10000.0, 2.0 * i / d);
      EXPECT_NEAR(m[pos][2 * i].item<float>(), std::sin(angle), 1e-5) << pos << "," << 2 * i;
      EXPECT_NEAR(m[pos][2 * i + 1].item<float>(), std::cos(angle), 1e-5)
          << pos << "," << 2 * i + 1;
    }
  }
}

TEST(SinusoidalPositionalEncoding, OddWidthAndForwardAddsRows) {
  SinusoidalPositionalEncoding pe(5, 10);
  EXPECT_NEAR(pe->matrix()[3][4].item<float>(), std::sin(3 / std::pow(10000.0, 4.0 / 5)), 1e-6);
  pe->eval();
  const torch::Tensor x = torch::zeros({2, 4, 5});
  EXPECT_TRUE(torch::allclose(pe(x)[1], pe->matrix().narrow(0, 0, 4)));
  EXPECT_THROW(pe(torch::zeros({1, 11, 5})), std::invalid_argument);
  // A buffer, not a parameter: it is saved but never trained.
  EXPECT_EQ(pe->parameters().size(), 0u);
  EXPECT_EQ(pe->buffers().size(), 1u);
}

TEST(LearnedPositionEmbedding, IsATrainableTable) {
  torch::manual_seed(0);
  LearnedPositionEmbedding pe(17, 8);
  ASSERT_EQ(pe->matrix().sizes(), (std::vector<int64_t>{17, 8}));
  EXPECT_TRUE(pe->matrix().requires_grad());
  EXPECT_LT(pe->matrix().std().item<float>(), 0.05f);
  const torch::Tensor x = torch::ones({1, 3, 8});
  EXPECT_TRUE(torch::allclose(pe(x)[0], 1 + pe->matrix().narrow(0, 0, 3)));
}

}  // namespace
}  // namespace ascope
