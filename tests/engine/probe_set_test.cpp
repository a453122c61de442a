// The probe set: several validation samples probed together, stored together (float16), with
// per-head statistics at every probe in head_stats.csv and as events; and the snapshot budget that
// keeps a long run's attention/ folder bounded while still covering the whole run.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "engine/analysis/head_statistics.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshot_store.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "removed_at_exit.h"

namespace ascope {
namespace {

using namespace std::chrono_literals;
using testing::freshTempPath;

EventBatch runToEnd(Trainer& trainer) {
  EventBatch all;
  const auto deadline = std::chrono::steady_clock::now() + 300s;
  for (bool done = false; !done && std::chrono::steady_clock::now() < deadline;) {
    done = trainer.finished();
    EventBatch b = trainer.drainEvents();
    if (b.attention) all.attention = b.attention;
    all.failures.insert(all.failures.end(), b.failures.begin(), b.failures.end());
    all.head_statistics.insert(all.head_statistics.end(), b.head_statistics.begin(),
                               b.head_statistics.end());
    std::this_thread::sleep_for(5ms);
  }
  trainer.wait();
  return all;
}

TrainingConfig probedConfig(const std::string& task, const std::string& name) {
  TrainingConfig c = *makePreset(task, "tiny");
  c.out_dir = freshTempPath(name);
  c.max_steps = 30;
  c.probe_every_steps = 10;
  c.probe_every_seconds = 1e9;
  c.probe_samples = {0, 2, 5};
  return c;
}

void expectProbeSetAndStatistics(const std::string& task) {
  const TrainingConfig c = probedConfig(task, "probe_set_" + task);
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = runToEnd(trainer);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;

  // The newest probe: one snapshot per probe sample, each with its own prediction.
  ASSERT_TRUE(events.attention.has_value());
  EXPECT_EQ(events.attention->step, 30);
  ASSERT_EQ(events.attention->samples.size(), 3u);
  std::set<std::string> texts;
  for (std::size_t k = 0; k < 3; ++k) {
    const AttentionSnapshot& s = events.attention->samples[k];
    EXPECT_EQ(s.sample_index, c.probe_samples[k]);
    ASSERT_TRUE(s.sample.has_value());
    EXPECT_EQ(s.sample->sample_index, c.probe_samples[k]);
    texts.insert(s.sample->text);
  }
  EXPECT_EQ(texts.size(), 3u) << "three different validation samples";

  // Statistics at every probe (steps 0, 10, 20, 30), in order, every value in its range.
  ASSERT_EQ(events.head_statistics.size(), 4u);
  EXPECT_EQ(events.head_statistics.front().step, 0);
  EXPECT_EQ(events.head_statistics.back().step, 30);
  int entropies = 0;
  for (const HeadStatistic& v : events.head_statistics.back().values) {
    const HeadMetricInfo* info = findHeadMetric(v.metric);
    ASSERT_NE(info, nullptr) << v.metric;
    if (info->unit_range) {
      EXPECT_GE(v.value, 0.0) << v.metric;
      EXPECT_LE(v.value, 1.0 + 1e-6) << v.metric;
    }
    if (v.metric == "entropy") ++entropies;
    if (v.metric == "distance") {
      EXPECT_GE(v.value, 0.0);
      EXPECT_LT(v.value, 64.0);  // tiny presets: sequences of at most a few dozen tokens
    }
  }
  EXPECT_GT(entropies, 0);

  // head_stats.csv holds the same numbers (to its six significant digits).
  Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(c.out_dir + "/head_stats.csv");
  ASSERT_TRUE(rows.ok()) << rows.error();
  std::size_t expected_rows = 0;
  for (const HeadStatisticsUpdate& u : events.head_statistics) expected_rows += u.values.size();
  ASSERT_EQ(rows->size(), expected_rows);
  const HeadStatistic& last = events.head_statistics.back().values.back();
  EXPECT_EQ(rows->back().step, 30);
  EXPECT_EQ(rows->back().statistic.metric, last.metric);
  EXPECT_NEAR(rows->back().statistic.value, last.value, 1e-5);

  // The stored sets hold all three samples; opening the run reads the statistics back.
  Expected<OpenedRun> run = readRun(c.out_dir);
  ASSERT_TRUE(run.ok()) << run.error();
  ASSERT_TRUE(run->last_probes.has_value());
  EXPECT_EQ(run->last_probes->samples.size(), 3u);
  EXPECT_EQ(run->head_statistics.size(), expected_rows);
}

TEST(ProbeSet, SentimentProbesEverySampleAndMeasuresEveryHead) {
  expectProbeSetAndStatistics(kSentimentTaskId);
}

TEST(ProbeSet, TranslationProbesEverySampleAndMeasuresEveryHead) {
  expectProbeSetAndStatistics(kTranslationTaskId);
}

TEST(ProbeSet, HeadStatisticsCanBeSwitchedOff) {
  TrainingConfig c = probedConfig(kSentimentTaskId, "probe_set_no_stats");
  c.head_statistics = false;
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = runToEnd(trainer);
  EXPECT_TRUE(events.head_statistics.empty());
  EXPECT_FALSE(std::filesystem::exists(c.out_dir + "/head_stats.csv"));
  ASSERT_TRUE(events.attention.has_value());
  EXPECT_EQ(events.attention->samples.size(), 3u);
}

ProbeSet setOfBytes(int64_t step, std::size_t weights) {
  ProbeSet probes;
  probes.step = step;
  AttentionSnapshot s;
  s.step = step;
  s.task = kSentimentTaskId;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = g.heads = 1;
  g.row_labels = {"a"};
  g.col_labels = std::vector<std::string>(weights, "k");
  g.maps.push_back({1, static_cast<int>(weights), std::vector<float>(weights, 0.5f)});
  s.groups.push_back(g);
  probes.samples.push_back(s);
  return probes;
}

TEST(SnapshotStore, ThinsOlderSetsToStayUnderItsBudgetAndKeepsBothEnds) {
  const std::string dir = freshTempPath("snapshot_store");
  Expected<RunFolder> folder = RunFolder::create(dir, kSentimentTaskId);
  ASSERT_TRUE(folder.ok()) << folder.error();
  ASSERT_TRUE(folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
  // A budget of about five sets (1,000 float16 weights and their labels each).
  const std::uint64_t budget = 5 * encodeProbeSet(setOfBytes(0, 1000)).size() + 100;
  SnapshotStore store(*folder, /*spacing_steps=*/10, budget);
  int stored = 0;
  for (int64_t step = 0; step <= 300; step += 10) {
    if (!store.due(step, step == 300)) continue;
    ASSERT_TRUE(store.store(setOfBytes(step, 1000)).ok());
    ++stored;
    EXPECT_LE(store.bytes(), budget) << "at step " << step;
  }
  const std::vector<AttentionFileEntry> files = listAttentionFiles(dir);
  ASSERT_EQ(files.size(), store.count());
  EXPECT_GE(files.size(), 3u);
  EXPECT_LE(files.size(), 5u);
  EXPECT_LT(static_cast<int>(files.size()), stored);
  EXPECT_EQ(files.front().step, 0);
  EXPECT_EQ(files.back().step, 300);
  EXPECT_GT(store.spacing(), 10);  // doubled at every thinning
  std::uintmax_t on_disk = 0;
  for (const AttentionFileEntry& f : files) on_disk += std::filesystem::file_size(f.path);
  EXPECT_EQ(on_disk, store.bytes());

  // A resumed run counts what is there already.
  SnapshotStore resumed(*folder, 10, budget);
  EXPECT_EQ(resumed.count(), files.size());
  EXPECT_EQ(resumed.bytes(), store.bytes());
  EXPECT_FALSE(resumed.due(305, false));
  EXPECT_TRUE(resumed.due(310, false));
}

// Issue 24: a 632-step run kept 7 sets and two runs differing only in learning rate shared 2
// steps. The spacing is a round number giving at least 100 sets, on multiples of itself.
TEST(SnapshotStore, SpacingIsRoundAndGivesAHundredSetsOrMore) {
  EXPECT_EQ(SnapshotStore::spacingFor(632), 5);
  EXPECT_EQ(SnapshotStore::spacingFor(300), 2);
  EXPECT_EQ(SnapshotStore::spacingFor(99), 1);
  EXPECT_EQ(SnapshotStore::spacingFor(0), 1);
  EXPECT_EQ(SnapshotStore::spacingFor(2000), 20);
  EXPECT_EQ(SnapshotStore::spacingFor(123456), 1000);
  for (int64_t total : {100, 137, 632, 999, 5000, 73'000, 1'000'000}) {
    EXPECT_GE(total / SnapshotStore::spacingFor(total), SnapshotStore::kMinSnapshots) << total;
  }
}

TEST(SnapshotStore, StoresTheSameStepsWhateverTheProbeCadence) {
  const auto stored_steps = [](const std::string& name, int64_t probe_every) {
    const std::string dir = freshTempPath(name);
    Expected<RunFolder> folder = RunFolder::create(dir, kSentimentTaskId);
    EXPECT_TRUE(folder.ok());
    EXPECT_TRUE(folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
    SnapshotStore store(*folder, SnapshotStore::spacingFor(632), 1ULL << 30);
    for (int64_t step = 0; step <= 632; ++step) {
      // A live probe now and then besides: only the timeline's steps are stored.
      const bool probed = step % probe_every == 0 || step % 5 == 0 || step == 632;
      if (probed && store.due(step, step == 632)) {
        EXPECT_TRUE(store.store(setOfBytes(step, 8)).ok());
      }
    }
    std::vector<int64_t> steps;
    for (const AttentionFileEntry& f : listAttentionFiles(dir)) steps.push_back(f.step);
    return steps;
  };
  const std::vector<int64_t> a = stored_steps("cadence_a", 7);
  const std::vector<int64_t> b = stored_steps("cadence_b", 3);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 128u);  // 0, 5, …, 630 and the last step
  EXPECT_EQ(a.back(), 632);
  EXPECT_EQ(a[1], 5);
}

}  // namespace
}  // namespace ascope
