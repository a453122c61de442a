// Upper bounds of TrainingConfig::validate(): config.json (read back on --resume and by the GUI)
// is as untrusted as a command line, and a batch size near 2^63 once ended a run with SIGFPE.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "engine/models/text_classifier_config.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_data_settings.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kHuge = std::numeric_limits<int64_t>::max();

using testing::removedAtExit;

std::string ownTemp(const std::string& name) {
  return removedAtExit(
      (std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid())))
          .string());
}

struct Case {
  const char* task;
  std::function<void(TrainingConfig&)> set;
  std::string expected;
};

TEST(TrainingConfigBounds, EveryNumberHasAnUpperBoundNamingFieldAndValue) {
  const Case cases[] = {
      {kSentimentTaskId, [](auto& c) { c.batch_size = kHuge; },
       "batch_size must be at most 65536, got 9223372036854775807"},
      {kSentimentTaskId, [](auto& c) { c.batch_size = 65537; },
       "batch_size must be at most 65536, got 65537"},
      {kSentimentTaskId, [](auto& c) { c.threads = 100000; },
       "threads must be at most 1024, got 100000"},
      {kSentimentTaskId, [](auto& c) { c.threads = -1; }, "threads must be at least 0, got -1"},
      {kSentimentTaskId, [](auto& c) { c.epochs = std::numeric_limits<int>::max(); },
       "epochs must be at most 1000000, got 2147483647"},
      {kSentimentTaskId, [](auto& c) { c.max_steps = kHuge; },
       "max_steps must be at most 1000000000000, got 9223372036854775807"},
      {kSentimentTaskId, [](auto& c) { c.probe_every_steps = kHuge; },
       "probe_every_steps must be at most 1000000000000"},
      {kSentimentTaskId, [](auto& c) { c.eval_every_steps = kHuge; },
       "eval_every_steps must be at most 1000000000000"},
      {kSentimentTaskId, [](auto& c) { c.checkpoint_every_steps = kHuge; },
       "checkpoint_every_steps must be at most 1000000000000"},
      {kSentimentTaskId, [](auto& c) { c.eval_max_samples = std::numeric_limits<int>::max(); },
       "eval_max_samples must be at most 100000000"},
      {kTranslationTaskId,
       [](auto& c) {
         c.task_settings.template as<TranslationDataSettings>().decode_samples = 2'000'000;
       },
       "decode_samples must be at most 1000000, got 2000000"},
      {kSentimentTaskId, [](auto& c) { c.optimization.warmup_steps = kHuge; },
       "warmup_steps must be at most 1000000000000"},
      {kSentimentTaskId, [](auto& c) { c.builtin.train_count = 2'000'000'000; },
       "builtin.train_count must be at most 1000000, got 2000000000"},
      {kSentimentTaskId, [](auto& c) { c.builtin.test_count = 1; },
       "builtin.test_count must be at least 2, got 1"},
      {kSentimentTaskId, [](auto& c) { c.max_seconds = 1e300; },
       "max_seconds must be in [0, 1e+07], got 1e+300"},
      {kSentimentTaskId, [](auto& c) { c.probe_every_seconds = 1e300; },
       "probe_every_seconds must be in (0, 1e+09], got 1e+300"},
      {kSentimentTaskId, [](auto& c) { c.optimization.adam_eps = 0; },
       "adam_eps must be in (0, 1], got 0"},
      {kSentimentTaskId, [](auto& c) { c.optimization.min_lr_ratio = 2; },
       "min_lr_ratio must be in [0, 1], got 2"},
      {kSentimentTaskId, [](auto& c) { c.optimization.grad_clip = 1e300; },
       "grad_clip must be in [0, 1e+06], got 1e+300"},
      {kSentimentTaskId, [](auto& c) { c.optimization.weight_decay = 1e300; },
       "weight_decay must be in [0, 10], got 1e+300"},
      {kSentimentTaskId,
       [](auto& c) {
         c.task_settings.template as<TextClassifierConfig>().d_model = int64_t{1} << 40;
       },
       "d_model must be at most 16384, got 1099511627776"},
      {kSentimentTaskId,
       [](auto& c) { c.task_settings.template as<TextClassifierConfig>().max_len = kHuge; },
       "max_len must be at most 100000"},
      {kImageClassificationTaskId,
       [](auto& c) {
         c.task_settings.template as<VisionTransformerConfig>().image_size = int64_t{1} << 32;
       },
       "image_size must be at most 1024, got 4294967296"},
      {kImageClassificationTaskId,
       [](auto& c) { c.task_settings.template as<VisionTransformerConfig>().layers = 100000; },
       "layers must be at most 256, got 100000"},
      {kImageClassificationTaskId,
       [](auto& c) { c.task_settings.template as<VisionTransformerConfig>().mlp_dim = kHuge; },
       "mlp_dim must be at most 65536"},
      {kTranslationTaskId,
       [](auto& c) { c.task_settings.template as<TranslatorConfig>().seq_len = kHuge; },
       "seq_len must be at most 100000"},
      {kTranslationTaskId,
       [](auto& c) { c.task_settings.template as<TranslatorConfig>().heads = 1024; },
       "heads must be at most 256, got 1024"},
  };
  for (const Case& test : cases) {
    TrainingConfig c = *makePreset(test.task, "tiny");
    ASSERT_TRUE(validateConfig(c).ok()) << test.expected;
    test.set(c);
    const Status s = validateConfig(c);
    ASSERT_FALSE(s.ok()) << test.expected;
    EXPECT_EQ(s.error().rfind(test.expected, 0), 0u) << s.error();
  }
}

TEST(TrainingConfigBounds, TheBoundsThemselvesAreAccepted) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.batch_size = 65536;
  c.threads = 1024;
  c.epochs = 1'000'000;
  c.max_steps = 1'000'000'000'000;
  c.max_seconds = 1e7;
  c.probe_every_seconds = 1e9;
  EXPECT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();
}

TEST(TrainingConfigBounds, ConfigJsonWithAHugeBatchSizeIsRefusedBeforeTheThreadStarts) {
  nlohmann::json j = *makePreset(kImageClassificationTaskId, "tiny");
  j["batch_size"] = kHuge;
  TrainingConfig c = j.get<TrainingConfig>();
  c.out_dir = ownTemp("ascope_bounds_never_made");
  std::filesystem::remove_all(c.out_dir);
  Trainer trainer(c);
  const Status s = trainer.start();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "batch_size must be at most 65536, got 9223372036854775807");
  EXPECT_FALSE(std::filesystem::exists(c.out_dir));
}

TEST(TrainingConfigBounds, ConfigJsonWithAFloatTooLargeForAnIntegerSettingIsRefused) {
  // nlohmann casts 1e99 to int unchecked (undefined behaviour); found by config_json_fuzzer.
  nlohmann::json j = *makePreset(kSentimentTaskId, "tiny");
  j["epochs"] = 1e99;
  EXPECT_THROW(j.get<TrainingConfig>(), nlohmann::json::exception);
  j["epochs"] = 7.0;  // a whole number written as a float still reads as before
  j["builtin"]["seed"] = 1e19;
  const TrainingConfig c = j.get<TrainingConfig>();
  EXPECT_EQ(c.epochs, 7);
  EXPECT_EQ(c.builtin.seed, std::uint64_t{10'000'000'000'000'000'000u});
}

TEST(TrainingConfigBounds, BatchLargerThanTheDataIsOneStepAnEpoch) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.batch_size = 65536;
  c.epochs = 2;
  c.probe_every_seconds = 1e9;
  c.out_dir = ownTemp("ascope_bounds_big_batch");
  std::filesystem::remove_all(c.out_dir);
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  std::vector<StepMetrics> steps;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  for (bool done = false; !done && std::chrono::steady_clock::now() < deadline;) {
    done = trainer.finished();
    EventBatch batch = trainer.drainEvents();
    ASSERT_TRUE(batch.failures.empty()) << batch.failures[0].message;
    steps.insert(steps.end(), batch.metrics.begin(), batch.metrics.end());
    std::this_thread::sleep_for(5ms);
  }
  trainer.wait();
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps.back().total_steps, 2);
  EXPECT_EQ(steps.back().epoch, 2);
}

}  // namespace
}  // namespace ascope

namespace ascope {
namespace {

TEST(TrainingConfigBounds, Bf16OnTheCpuIsRefusedNotRecorded) {
  // It was accepted and written to config.json, and did nothing.
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.bf16 = true;
  c.device = "cpu";
  EXPECT_EQ(validateConfig(c).error(),
            "bf16 needs device cuda: autocast to bfloat16 runs on a GPU only, not on the cpu");
  c.device = "cuda";
  EXPECT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();
}

TEST(TrainingConfigBounds, TextThatIsNotUtf8IsRefusedByName) {
  // config.json holds UTF-8 only: writing it failed with "[json.exception.type_error.316]".
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = "runs/caf\xe9";
  EXPECT_EQ(validateConfig(c).error(),
            "out_dir \"runs/caf\xef\xbf\xbd\" holds bytes that are not UTF-8 text (shown as "
            "\xef\xbf\xbd): config.json keeps only UTF-8; rename the file or folder");
  c.out_dir = "runs/caf\xc3\xa9";  // é in UTF-8
  EXPECT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();
  c.data = "reviews\xff.csv";
  EXPECT_EQ(validateConfig(c).error().rfind("data \"reviews", 0), 0u) << validateConfig(c).error();
}

}  // namespace
}  // namespace ascope
