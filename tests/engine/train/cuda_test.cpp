// Tests that need a GPU; named *_CUDA and skipped when none is present.
#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>

#include <filesystem>

#include "engine/models/seq2seq_translator.h"
#include "engine/models/text_classifier.h"
#include "engine/nn/multi_head_attention.h"
#include "engine/train/checkpoint.h"

namespace ascope {
namespace {

#define SKIP_WITHOUT_CUDA() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device"

TEST(Cuda, MultiHeadAttentionMatchesCpu_CUDA) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(0);
  MultiHeadAttention cpu(MultiHeadAttentionOptions(64, 8));
  cpu->eval();
  const torch::Tensor x = torch::randn({4, 33, 64});
  AttentionMasks masks;
  masks.causal = true;
  const AttentionResult expected = cpu(x, x, x, masks, true);
  cpu->to(torch::kCUDA);
  const torch::Tensor xg = x.to(torch::kCUDA);
  const AttentionResult with_weights = cpu(xg, xg, xg, masks, true);
  const AttentionResult fused = cpu(xg, xg, xg, masks, false);
  EXPECT_TRUE(torch::allclose(with_weights.output.cpu(), expected.output, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(with_weights.weights.cpu(), expected.weights, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(fused.output.cpu(), expected.output, 1e-4, 1e-4));
}

TEST(Cuda, TranslatorTrainsOnGpu_CUDA) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(1);
  TranslatorConfig c;
  c.source_vocab_size = 100, c.target_vocab_size = 100, c.seq_len = 32;
  c.d_model = 64, c.heads = 4, c.d_ff = 128, c.encoder_layers = 2, c.decoder_layers = 2;
  Seq2SeqTranslator model(c);
  model->to(torch::kCUDA);
  const auto opts = torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA);
  const torch::Tensor src = torch::randint(4, 100, {8, 20}, opts);
  const torch::Tensor tgt = torch::randint(4, 100, {8, 21}, opts);
  const torch::Tensor tgt_in = tgt.slice(1, 0, 20), tgt_out = tgt.slice(1, 1, 21);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  double first = 0, last = 0;
  for (int step = 0; step < 30; ++step) {
    optimizer.zero_grad();
    const torch::Tensor logits = model(src, tgt_in);  // (B, T, V)
    ASSERT_EQ(logits.device().type(), torch::kCUDA);
    ASSERT_EQ(logits.sizes(), (std::vector<int64_t>{8, 20, 100}));
    const torch::Tensor loss =
        torch::nn::functional::cross_entropy(logits.reshape({-1, 100}), tgt_out.reshape({-1}));
    loss.backward();
    optimizer.step();
    (step == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, 0.7 * first) << "loss " << first << " → " << last;
}

TEST(Cuda, CheckpointFromGpuLoadsOnCpu_CUDA) {
  SKIP_WITHOUT_CUDA();
  const std::string path =
      (std::filesystem::temp_directory_path() / "ascope_ckpt_gpu_to_cpu.pt").string();
  TextClassifierConfig c;
  c.vocab_size = 30, c.d_model = 16, c.d_ff = 32, c.max_len = 10;
  torch::manual_seed(0);
  TextClassifier gpu(c);
  gpu->to(torch::kCUDA);
  torch::optim::Adam gpu_optimizer(gpu->parameters(), torch::optim::AdamOptions(1e-2));
  gpu(torch::randint(1, 30, {2, 10},
                     torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA)))
      .sum()
      .backward();
  gpu_optimizer.step();
  ASSERT_TRUE(saveCheckpoint(path, *gpu, &gpu_optimizer, {7, 0.5}).ok());

  torch::manual_seed(1);
  TextClassifier cpu(c);
  torch::optim::Adam cpu_optimizer(cpu->parameters(), torch::optim::AdamOptions(1e-2));
  const Expected<TrainingProgress> loaded = loadCheckpoint(path, *cpu, &cpu_optimizer);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->step, 7);
  for (std::size_t i = 0; i < cpu->parameters().size(); ++i) {
    EXPECT_TRUE(cpu->parameters()[i].device().is_cpu());
    EXPECT_TRUE(torch::equal(cpu->parameters()[i], gpu->parameters()[i].cpu()));
  }
  // The optimizer goes on from the restored state on the CPU.
  cpu(torch::randint(1, 30, {2, 10})).sum().backward();
  cpu_optimizer.step();
}

}  // namespace
}  // namespace ascope
