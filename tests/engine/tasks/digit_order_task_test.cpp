// The digit-order task: a task with its own model and its own input (digit sequences), added as
// one folder (engine/tasks/digit_order/) and one line of the registry. Trained here through the
// Trainer like any task; tests/cli and tests/app train and show it through the CLI and the GUI.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

#include "engine/performance/run_time_estimate.h"
#include "engine/runfolder/run_reader.h"
#include "engine/tasks/digit_order/digit_order_config.h"
#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/digit_order/digit_sequences.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/trainer.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TEST(DigitOrderData, HalfInOrderLabelledByWhatTheyAreAndRepeatable) {
  const std::vector<DigitSequence> a = generateDigitSequences(2000, 8, 7);
  ASSERT_EQ(a.size(), 2000u);
  int ordered = 0, one_swap = 0;
  for (const DigitSequence& s : a) {
    ASSERT_EQ(s.digits.size(), 8u);
    EXPECT_EQ(s.label, inOrder(s.digits) ? 1 : 0);
    ordered += s.label;
    int descents = 0;
    for (std::size_t i = 1; i < s.digits.size(); ++i) descents += s.digits[i] < s.digits[i - 1];
    one_swap += s.label == 0 && descents == 1;
  }
  EXPECT_NEAR(ordered, 1000, 100);
  EXPECT_GT(one_swap, 600);  // most of the others are out of order at one place only
  const std::vector<DigitSequence> b = generateDigitSequences(2000, 8, 7);
  const std::vector<DigitSequence> c = generateDigitSequences(2000, 8, 8);
  EXPECT_EQ(a[123].digits, b[123].digits);
  EXPECT_NE(a[123].digits, c[123].digits);
}

TEST(DigitOrderData, TypedDigitsAreReadOrRefusedWithAReason) {
  EXPECT_EQ(*parseDigits("1 3 3 7", 8), (std::vector<int>{1, 3, 3, 7}));
  EXPECT_EQ(*parseDigits("1337", 8), (std::vector<int>{1, 3, 3, 7}));
  EXPECT_EQ(*parseDigits("1,2, 9", 8), (std::vector<int>{1, 2, 9}));
  EXPECT_EQ(parseDigits("1 a 2", 8).error(),
            "only the digits 0-9, spaces and commas, got 'a' (U+0061)");
  EXPECT_EQ(parseDigits("  ", 8).error(), "no digits: type some, e.g. 1 3 3 7");
  EXPECT_EQ(parseDigits("123456789", 8).error(), "9 digits: the model reads at most 8");
  EXPECT_EQ(digitsText({1, 3, 3, 7}), "1 3 3 7");
}

TEST(DigitOrderTask, TheRegistryKnowsItFromItsDescriptorAlone) {
  Expected<const TaskDescriptor*> task = findTask(kDigitOrderTaskId);
  ASSERT_TRUE(task.ok()) << task.error();
  EXPECT_EQ((*task)->special_tokens, std::vector<std::string>{"CLS"});
  TrainingConfig config = *makePreset(kDigitOrderTaskId, "laptop");
  EXPECT_TRUE(validateConfig(config).ok()) << validateConfig(config).error();
  // Its model settings live under its own key of config.json.
  const nlohmann::json json(config);
  ASSERT_TRUE(json.contains(DigitOrderConfig::kConfigKey));
  EXPECT_EQ(json[DigitOrderConfig::kConfigKey]["d_model"], 32);
  EXPECT_EQ(json.get<TrainingConfig>().task_settings.get<DigitOrderConfig>().layers, 2);
  // Its own cost, not a text classifier's: the estimate counts its model.
  Expected<double> flops = (*task)->step_flops(config);
  ASSERT_TRUE(flops.ok());
  EXPECT_DOUBLE_EQ(*flops, digitOrderStepFlops(config.task_settings.get<DigitOrderConfig>(), 64));
  Expected<std::optional<RunTimeEstimate>> estimate = estimateRunTime(config, 2);
  ASSERT_TRUE(estimate.ok() && estimate->has_value());
  EXPECT_DOUBLE_EQ((*estimate)->flops_per_step, *flops);
  config.data = "/some/file.csv";
  EXPECT_EQ(validateConfig(config).error(),
            "the digits task makes its own sequences: data must be builtin, got "
            "\"/some/file.csv\"");
}

TEST(DigitOrderTask, TrainsAndLearnsToTellTheOrder) {
  // The laptop model, cut to 600 steps (measured: validation accuracy 0.78; chance is 0.5).
  TrainingConfig config = *makePreset(kDigitOrderTaskId, "laptop");
  config.max_steps = 600;
  config.optimization.lr = 6e-3;
  config.probe_every_steps = 200;
  const fs::path dir = fs::path(::testing::TempDir()) / "digit_order_run";
  fs::remove_all(dir);
  config.out_dir = dir.string();
  Trainer trainer(config);
  ASSERT_TRUE(trainer.start().ok());
  trainer.wait();
  EventBatch events = trainer.drainEvents();
  ASSERT_FALSE(events.states.empty());
  ASSERT_EQ(events.states.back().state, TrainerState::kFinished);
  ASSERT_FALSE(events.epochs.empty());
  EXPECT_GT(events.epochs.back().val_accuracy, 0.7);
  EXPECT_LT(events.epochs.back().val_loss, events.epochs.front().val_loss);
  // The probe saw CLS and the digits, through its own labels.
  ASSERT_TRUE(events.attention != nullptr);
  const AttentionGroup& group = events.attention->samples.front().groups.front();
  EXPECT_EQ(group.name, "encoder");
  ASSERT_EQ(group.col_labels.size(), 9u);
  EXPECT_EQ(group.col_labels.front(), "CLS");
  Expected<OpenedRun> run = readRunFiles(dir.string());
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_EQ(run->config.task_settings.get<DigitOrderConfig>().d_model, 32);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ascope
