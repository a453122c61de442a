// The letter-reversal task: a fifth task with a figure no other task has (an edit distance, lower
// is better) and a payload no other task makes (an answer aligned with the reversed word), added
// as one folder (engine/tasks/letter_reversal/) and one line of the registry. Its figure reaches
// metrics.csv, the final test and `evaluate`; its alignment travels with every stored sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "engine/evaluation/run_evaluation.h"
#include "engine/runfolder/metrics/metrics_csv_reader.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_reader.h"
#include "engine/tasks/letter_reversal/letter_reversal_config.h"
#include "engine/tasks/letter_reversal/letter_reversal_descriptor.h"
#include "engine/tasks/letter_reversal/letter_words.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/trainer.h"
#include "engine/vocabulary/payloads/text_alignment.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TEST(LetterWords, RandomWordsOfTheirLengthRepeatableBySeed) {
  const std::vector<std::string> a = generateLetterWords(500, 8, 3);
  ASSERT_EQ(a.size(), 500u);
  std::size_t shortest = 99, longest = 0;
  for (const std::string& w : a) {
    shortest = std::min(shortest, w.size());
    longest = std::max(longest, w.size());
    for (char c : w) EXPECT_TRUE(c >= 'a' && c <= 'z') << w;
  }
  EXPECT_EQ(shortest, 3u);
  EXPECT_EQ(longest, 8u);
  EXPECT_EQ(generateLetterWords(500, 8, 3)[77], a[77]);
  EXPECT_NE(generateLetterWords(500, 8, 4)[77], a[77]);
}

TEST(LetterWords, IdsAndTypedWords) {
  // Read right-aligned after START; written from the left, then END.
  const int64_t a = kFirstLetterId, b = a + 1, c = a + 2;
  EXPECT_EQ(letterIds("cab", 5), (std::vector<int64_t>{0, 0, kLetterStartId, c, a, b}));
  EXPECT_EQ(reversedLetterIds("cab", 5), (std::vector<int64_t>{b, a, c, kLetterEndId, 0, 0}));
  EXPECT_EQ(lettersOf({c, a, b, kLetterEndId, a}), "cab");
  EXPECT_EQ(lettersOf({kLetterPadId, a}), "");  // an answer starts at the first position
  EXPECT_EQ(letterTokenLabel(kLetterStartId), "START");
  EXPECT_EQ(*parseLetterWord("  Attend ", 8), "attend");
  EXPECT_EQ(parseLetterWord("two words", 8).error(),
            "type one word: \"two words\" has a space inside");
  EXPECT_EQ(parseLetterWord("héllo", 8).error(),
            "type letters a–z only: \"héllo\" has other characters");
  EXPECT_EQ(parseLetterWord("abcdefghi", 8).error(),
            "this model reverses words of at most 8 letters; \"abcdefghi\" has 9");
  EXPECT_EQ(parseLetterWord(" ", 8).error(), "type a word of letters a–z");
}

TEST(LetterReversalTask, DeclaresItsFigureAndPayload) {
  Expected<const TaskDescriptor*> task = findTask(kLetterReversalTaskId);
  ASSERT_TRUE(task.ok()) << task.error();
  const MetricInfo headline = (*task)->headline();
  EXPECT_EQ(headline.key, kEditDistanceKey);
  EXPECT_EQ(headline.better, Better::kLower);
  EXPECT_TRUE(headline.isBetter(0.5, 1.0));
  EXPECT_EQ((*task)->payloads, std::vector<std::string>{TextAlignment::kKind});
  TrainingConfig config = *makePreset(kLetterReversalTaskId, "laptop");
  EXPECT_TRUE(validateConfig(config).ok()) << validateConfig(config).error();
  const nlohmann::json json(config);
  ASSERT_TRUE(json.contains(LetterReversalConfig::kConfigKey));
  EXPECT_EQ(json.get<TrainingConfig>().task_settings.get<LetterReversalConfig>().max_letters, 8);
  config.data = "/some/words.txt";
  EXPECT_EQ(validateConfig(config).error(),
            "the reversal task makes its own words: data must be builtin, got "
            "\"/some/words.txt\"");
}

TEST(LetterReversalTask, LearnsToReverseAndReportsItsEditDistanceEverywhere) {
  // The laptop model cut to 400 steps, validated every 100 (measured: every word right by step
  // 250).
  TrainingConfig config = *makePreset(kLetterReversalTaskId, "laptop");
  config.max_steps = 400;
  config.eval_every_steps = 100;
  config.probe_every_steps = 100;
  const fs::path dir = fs::path(::testing::TempDir()) / "letter_reversal_run";
  fs::remove_all(dir);
  config.out_dir = dir.string();
  Trainer trainer(config);
  ASSERT_TRUE(trainer.start().ok());
  trainer.wait();
  EventBatch events = trainer.drainEvents();
  ASSERT_FALSE(events.states.empty());
  ASSERT_EQ(events.states.back().state, TrainerState::kFinished);
  ASSERT_FALSE(events.epochs.empty());
  const EpochSummary& first = events.epochs.front();
  const EpochSummary& last = events.epochs.back();
  ASSERT_TRUE(first.figures.has(kEditDistanceKey));
  ASSERT_TRUE(last.figures.has(kEditDistanceKey));
  // Lower is better: the distance fell as the letter accuracy rose.
  EXPECT_LT(*last.figures.get(kEditDistanceKey), *first.figures.get(kEditDistanceKey));
  EXPECT_LT(*last.figures.get(kEditDistanceKey), 1.0);
  EXPECT_GT(last.val_accuracy, 0.8);
  ASSERT_TRUE(events.test.has_value());
  EXPECT_EQ(events.test->split, "test");
  EXPECT_TRUE(events.test->figures.has(kEditDistanceKey));

  // The figure has its column in metrics.csv and comes back with the opened run.
  Expected<MetricsCsv> csv = readMetricsCsv((dir / "metrics.csv").string());
  ASSERT_TRUE(csv.ok()) << csv.error();
  EXPECT_GE(csv->columns.indexOf(kEditDistanceKey), 0);
  Expected<OpenedRun> run = readRunFiles(dir.string());
  ASSERT_TRUE(run.ok()) << run.error();
  ASSERT_TRUE(run->test.has_value());
  EXPECT_EQ(run->test->figures, events.test->figures);

  // Every stored sample carries its alignment, and the attention its letters and END.
  ASSERT_TRUE(events.attention != nullptr);
  const AttentionSnapshot& probe = events.attention->samples.front();
  ASSERT_TRUE(probe.sample.has_value());
  const TextAlignment* alignment = probe.sample->payloads.find<TextAlignment>();
  ASSERT_NE(alignment, nullptr);
  EXPECT_EQ(alignment->distance(),
            TextAlignment::align(probe.sample->expected, probe.sample->answer).distance());
  // Rows: what each position wrote; columns: START and the word it read.
  const AttentionGroup& group = probe.groups.front();
  EXPECT_EQ(group.col_labels.front(), "START");
  EXPECT_EQ(group.col_labels.size(), probe.sample->input.size() + 1);
  EXPECT_EQ(group.row_labels.size(), group.col_labels.size());
  // Learnt reversal reads the mirror: row i (the i-th letter written) weighs most the column
  // n − i of the word (n its length), an anti-diagonal, in the last layer at least.
  const AttentionMap& last_layer = group.map(group.layers - 1, 0);
  int on_mirror = 0;
  for (int r = 0; r + 1 < last_layer.rows; ++r) {
    const float* row = last_layer.values.data() + static_cast<std::size_t>(r) * last_layer.cols;
    const auto top = std::max_element(row, row + last_layer.cols) - row;
    on_mirror += top == last_layer.cols - 1 - r ? 1 : 0;
  }
  EXPECT_GE(on_mirror, (last_layer.rows - 1) / 2);
  ASSERT_FALSE(run->attention_files.empty());

  // `evaluate` scores a split with the same figure, and every scored sample is aligned.
  EvaluationRequest request;
  request.run_dir = dir.string();
  request.data = "builtin";
  request.split = DataSplit::kTest;
  request.errors = 2;
  Expected<EvaluationReport> report = evaluateRun(request);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->figures.has(kEditDistanceKey));
  EXPECT_TRUE(report->classes.empty());
  ASSERT_FALSE(report->scored.empty());
  EXPECT_NE(report->scored.front().prediction.payloads.find<TextAlignment>(), nullptr);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ascope
