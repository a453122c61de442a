#include <gtest/gtest.h>
#include <torch/optim/adam.h>

#include <filesystem>
#include <fstream>

#include "engine/core/atomic_file.h"
#include "engine/models/text_classifier.h"
#include "engine/train/checkpoint.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TextClassifier smallModel() {
  TextClassifierConfig c;
  c.vocab_size = 30, c.d_model = 16, c.d_ff = 32, c.max_len = 10;
  return TextClassifier(c);
}

TEST(Checkpoint, RoundTripsModelOptimizerAndProgress) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_roundtrip.pt").string();
  torch::manual_seed(0);
  TextClassifier a = smallModel();
  torch::optim::Adam opt_a(a->parameters(), torch::optim::AdamOptions(1e-2));
  opt_a.zero_grad();
  a(torch::randint(1, 30, {2, 10})).sum().backward();
  opt_a.step();
  ASSERT_TRUE(saveCheckpoint(path, *a, &opt_a, {42, 0.75}).ok());

  torch::manual_seed(1);
  TextClassifier b = smallModel();
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
  TextClassifier model = smallModel();
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

  TextClassifier restored = smallModel();
  Expected<TrainingProgress> p = loadCheckpoint(path, *restored, nullptr);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->step, 10);
}

TEST(Checkpoint, CorruptOrMissingFilesGiveMessagesNamingTheFile) {
  const std::string path = (fs::temp_directory_path() / "ascope_ckpt_corrupt.pt").string();
  std::ofstream(path, std::ios::binary) << "not a checkpoint at all";
  TextClassifier model = smallModel();
  Expected<TrainingProgress> p = loadCheckpoint(path, *model, nullptr);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find(path), std::string::npos);
  EXPECT_EQ(p.error().find('\n'), std::string::npos) << "one line, no backtrace";
  Expected<TrainingProgress> missing = loadCheckpoint(path + ".nope", *model, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("no such checkpoint"), std::string::npos);
}

}  // namespace
}  // namespace ascope
