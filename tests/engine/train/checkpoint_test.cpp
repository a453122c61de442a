#include <gtest/gtest.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/core/atomic_file.h"
#include "engine/models/text_classifier.h"
#include "engine/train/checkpoint.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TextClassifier smallClassifier() {
  TextClassifierConfig c;
  c.vocab_size = 30, c.d_model = 16, c.d_ff = 32, c.max_len = 10;
  return TextClassifier(c);
}

TEST(Checkpoint, RoundTripsModelOptimizerAndProgress) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_roundtrip.pt").string();
  torch::manual_seed(0);
  TextClassifier a = smallClassifier();
  torch::optim::Adam opt_a(a->parameters(), torch::optim::AdamOptions(1e-2));
  opt_a.zero_grad();
  a(torch::randint(1, 30, {2, 10})).sum().backward();
  opt_a.step();
  ASSERT_TRUE(saveCheckpoint(path, *a, &opt_a, {42, 0.75}).ok());

  torch::manual_seed(1);
  TextClassifier b = smallClassifier();
  torch::optim::Adam opt_b(b->parameters(), torch::optim::AdamOptions(1e-2));
  Expected<TrainingProgress> p = loadCheckpoint(path, *b, &opt_b);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->step, 42);
  EXPECT_DOUBLE_EQ(p->best_val_accuracy, 0.75);
  for (std::size_t i = 0; i < a->parameters().size(); ++i) {
    EXPECT_TRUE(torch::equal(a->parameters()[i], b->parameters()[i]));
  }
}

TEST(Checkpoint, CrashMidWriteLeavesThePreviousCheckpointLoadable) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_crash.pt").string();
  torch::manual_seed(0);
  TextClassifier model = smallClassifier();
  ASSERT_TRUE(saveCheckpoint(path, *model, nullptr, {10, 0.5}).ok());
  const auto size_before = fs::file_size(path);

  // The process "dies" half-way through writing the next checkpoint: the temp file holds garbage
  // and the rename never happens.
  const Status crashed = writeFileAtomicallyWith(path, [](const std::string& tmp) {
    std::ofstream(tmp, std::ios::binary) << "PK\x03\x04 half a checkpoint";
    throw std::runtime_error("simulated crash");
  });
  EXPECT_FALSE(crashed.ok());
  EXPECT_NE(crashed.error().find("simulated crash"), std::string::npos);
  EXPECT_EQ(fs::file_size(path), size_before);
  // A stale temp file from a real crash does not matter either.
  std::ofstream(path + ".tmp", std::ios::binary) << "torn";

  TextClassifier restored = smallClassifier();
  Expected<TrainingProgress> p = loadCheckpoint(path, *restored, nullptr);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->step, 10);
}

TEST(Checkpoint, CorruptOrMissingFilesGiveMessagesNamingTheFile) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_corrupt.pt").string();
  std::ofstream(path, std::ios::binary) << "not a checkpoint at all";
  TextClassifier model = smallClassifier();
  Expected<TrainingProgress> p = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find(path), std::string::npos);
  EXPECT_EQ(p.error().find('\n'), std::string::npos) << "one line, no backtrace";
  Expected<TrainingProgress> missing = loadCheckpoint(path + ".nope", *model, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("no such checkpoint"), std::string::npos);
}

/// `path` read whole.
std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Every parameter of `model`, copied: what must stay as it was when a load is refused.
std::vector<torch::Tensor> weightsOf(torch::nn::Module& model) {
  std::vector<torch::Tensor> copies;
  for (const torch::Tensor& p : model.parameters()) copies.push_back(p.detach().clone());
  return copies;
}

void expectUnchanged(torch::nn::Module& model, const std::vector<torch::Tensor>& before) {
  const std::vector<torch::Tensor> now = model.parameters();
  ASSERT_EQ(now.size(), before.size());
  for (std::size_t i = 0; i < now.size(); ++i) {
    EXPECT_TRUE(torch::equal(now[i], before[i])) << "parameter " << i << " changed";
  }
}

TEST(Checkpoint, ACheckpointOfAnotherModelIsRefusedByNameAndChangesNothing) {
  // Module::load replaced every tensor with the checkpoint's, whatever its shape: a checkpoint of
  // another preset loaded, and the first forward pass failed with "shape '[1, 40, 2, 16]' is
  // invalid".
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_other_model.pt").string();
  TextClassifierConfig wider;
  wider.vocab_size = 30, wider.d_model = 16, wider.d_ff = 48, wider.max_len = 10;
  TextClassifier other(wider);
  ASSERT_TRUE(saveCheckpoint(path, *other, nullptr, {5, 0.5}).ok());
  TextClassifier model = smallClassifier();
  const std::vector<torch::Tensor> before = weightsOf(*model);
  Expected<TrainingProgress> p = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find(path + ": not loaded: its tensor \""), std::string::npos) << p.error();
  EXPECT_NE(p.error().find("has shape [48, 16], the run's model [32, 16]: a checkpoint of another "
                           "model"),
            std::string::npos)
      << p.error();
  expectUnchanged(*model, before);

  TextClassifierConfig deeper;
  deeper.vocab_size = 30, deeper.d_model = 16, deeper.d_ff = 32, deeper.max_len = 10;
  deeper.layers = 2;
  TextClassifier two_layers(deeper);
  ASSERT_TRUE(saveCheckpoint(path, *two_layers, nullptr, {5, 0.5}).ok());
  Expected<TrainingProgress> extra = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.error().find("which the run's model lacks"), std::string::npos) << extra.error();
  expectUnchanged(*model, before);
}

TEST(Checkpoint, FlippedBytesAreFoundByTheZipChecksums) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_flipped.pt").string();
  torch::manual_seed(0);
  TextClassifier saved = smallClassifier();
  ASSERT_TRUE(saveCheckpoint(path, *saved, nullptr, {7, 0.5}).ok());
  std::string bytes = bytesOf(path);
  // A weight record: the embedding's 30 × 16 floats are the largest, well inside the file.
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 200; ++i) bytes[i] ^= 0x5a;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  TextClassifier model = smallClassifier();
  const std::vector<torch::Tensor> before = weightsOf(*model);
  Expected<TrainingProgress> p = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(p.ok()) << "loaded damaged weights without a word";
  EXPECT_NE(p.error().find(path + " is damaged: record \""), std::string::npos) << p.error();
  EXPECT_NE(p.error().find("fails its CRC-32 check"), std::string::npos) << p.error();
  expectUnchanged(*model, before);
}

TEST(Checkpoint, NonFiniteWeightsAreRefused) {
  // A sound file of a model that had diverged answered "negative (p=-nan)".
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_nan.pt").string();
  TextClassifier diverged = smallClassifier();
  {
    torch::NoGradGuard no_grad;
    diverged->parameters()[3].view(-1)[0] = NAN;
  }
  ASSERT_TRUE(saveCheckpoint(path, *diverged, nullptr, {9, 0.5}).ok());
  TextClassifier model = smallClassifier();
  Expected<TrainingProgress> p = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("holds NaN or infinite values: the weights are damaged"),
            std::string::npos)
      << p.error();
}

}  // namespace
}  // namespace ascope
