// The probe set: several validation samples probed together, stored together (float16), with
// per-head statistics at every probe in head_stats.csv and as events; and the snapshot budget that
// keeps a long run's attention/ folder bounded while still covering the whole run.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "engine/analysis/head_statistics.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshot_store.h"
#include "engine/runfolder/snapshot_writer.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/payload_access.h"

namespace ascope {
namespace {

using namespace std::chrono_literals;
using testing::freshTempPath;

EventBatch probedEvents(Trainer& trainer) {
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
  const EventBatch events = probedEvents(trainer);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;

  // The newest probe: one snapshot per probe sample, each with its own prediction.
  ASSERT_NE(events.attention, nullptr);
  EXPECT_EQ(events.attention->step, 30);
  ASSERT_EQ(events.attention->samples.size(), 3u);
  std::set<std::string> texts;
  for (std::size_t k = 0; k < 3; ++k) {
    const AttentionSnapshot& s = events.attention->samples[k];
    EXPECT_EQ(s.sample_index, c.probe_samples[k]);
    ASSERT_TRUE(s.sample.has_value());
    EXPECT_EQ(s.sample->sample_index, c.probe_samples[k]);
    texts.insert(s.sample->input);
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
  const EventBatch events = probedEvents(trainer);
  EXPECT_TRUE(events.head_statistics.empty());
  EXPECT_FALSE(std::filesystem::exists(c.out_dir + "/head_stats.csv"));
  ASSERT_NE(events.attention, nullptr);
  EXPECT_EQ(events.attention->samples.size(), 3u);
}

/// A new run folder at `dir` with a config, for a timeline's sets to be stored in.
Expected<RunFolder> timelineFolder(const std::string& dir) {
  Expected<RunFolder> folder = RunFolder::create(dir, kSentimentTaskId);
  if (!folder.ok()) return folder;
  if (Status written = folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")); !written.ok()) {
    return Error{written.error()};
  }
  return folder;
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
  Expected<RunFolder> folder = timelineFolder(dir);
  ASSERT_TRUE(folder.ok()) << folder.error();
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

// A 632-step run kept 7 sets and two runs differing only in learning rate shared 2
// steps. The spacing gives at least 100 sets and fewer than 200, on multiples of itself.
TEST(SnapshotStore, SpacingGivesAHundredSetsOrMoreButNotTwoHundred) {
  EXPECT_EQ(SnapshotStore::spacingFor(632), 6);
  EXPECT_EQ(SnapshotStore::spacingFor(300), 3);
  EXPECT_EQ(SnapshotStore::spacingFor(99), 1);
  EXPECT_EQ(SnapshotStore::spacingFor(0), 1);
  EXPECT_EQ(SnapshotStore::spacingFor(2000), 20);
  EXPECT_EQ(SnapshotStore::spacingFor(123456), 1234);
  for (int64_t total : {100, 137, 376, 632, 999, 5000, 73'000, 1'000'000}) {
    const int64_t sets = total / SnapshotStore::spacingFor(total);
    EXPECT_GE(sets, SnapshotStore::kMinSnapshots) << total;
    EXPECT_LT(sets, 2 * SnapshotStore::kMinSnapshots) << total;
  }
}

TEST(SnapshotStore, StoresTheSameStepsWhateverTheProbeCadence) {
  const auto stored_steps = [](const std::string& name, int64_t probe_every) {
    const std::string dir = freshTempPath(name);
    Expected<RunFolder> folder = timelineFolder(dir);
    EXPECT_TRUE(folder.ok()) << folder.error();
    const int64_t spacing = SnapshotStore::spacingFor(632);
    SnapshotStore store(*folder, spacing, 1ULL << 30);
    for (int64_t step = 0; step <= 632; ++step) {
      // The session probes the timeline's steps, and now and then besides: only the timeline's
      // steps are stored.
      const bool probed = step % probe_every == 0 || step % spacing == 0 || step == 632;
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
  ASSERT_EQ(a.size(), 107u);  // 0, 6, …, 630 and the last step
  EXPECT_EQ(a.back(), 632);
  EXPECT_EQ(a[1], 6);
}

// A probe answers all its samples in one batched pass: the same maps and the same answers as
// asking for each sample alone (a probe made cheap rather than rare).
void expectBatchedProbeEqualsOneByOne(const std::string& task_id) {
  TrainingConfig c = *makePreset(task_id, "tiny");
  c.out_dir = freshTempPath("batched_probe_" + task_id);
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  const std::vector<int> indices{0, 3, 1};
  const std::vector<AttentionSnapshot> batched = (*task)->probeSamples(indices);
  ASSERT_EQ(batched.size(), indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    SCOPED_TRACE(i);
    const AttentionSnapshot alone = (*task)->probeAttention(indices[i]);
    const AttentionSnapshot& b = batched[i];
    EXPECT_EQ(b.sample_index, alone.sample_index);
    ASSERT_EQ(b.groups.size(), alone.groups.size());
    for (std::size_t g = 0; g < b.groups.size(); ++g) {
      EXPECT_EQ(b.groups[g].row_labels, alone.groups[g].row_labels);
      ASSERT_EQ(b.groups[g].maps.size(), alone.groups[g].maps.size());
      for (std::size_t m = 0; m < b.groups[g].maps.size(); ++m) {
        const std::vector<float>& x = b.groups[g].maps[m].values;
        const std::vector<float>& y = alone.groups[g].maps[m].values;
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t k = 0; k < x.size(); ++k) ASSERT_NEAR(x[k], y[k], 1e-5) << m << ":" << k;
      }
    }
    ASSERT_TRUE(b.sample.has_value());  // a class comes with the forward pass
    const SamplePrediction one = (*task)->predictSample(indices[i]);
    EXPECT_EQ(b.sample->answer, one.answer);
    EXPECT_EQ(b.sample->expected, one.expected);
    EXPECT_NEAR(b.sample->probability, one.probability, 1e-5);
  }
}

TEST(BatchedProbe, SentimentAnswersEverySampleInOnePassAsOneByOne) {
  expectBatchedProbeEqualsOneByOne(kSentimentTaskId);
}

TEST(BatchedProbe, ImagesAnswersEverySampleInOnePassAsOneByOne) {
  expectBatchedProbeEqualsOneByOne(kImageClassificationTaskId);
}

// A translation probe feeds the reference (teacher forcing), so its rows are the same at every
// step; the translations themselves are decoded together, as each would be alone.
TEST(BatchedProbe, TranslationFeedsTheReferenceAndDecodesTogether) {
  TrainingConfig c = *makePreset(kTranslationTaskId, "tiny");
  c.out_dir = freshTempPath("batched_probe_translation");
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  const std::vector<int> indices{0, 2, 4};
  const std::vector<AttentionSnapshot> probed = (*task)->probeSamples(indices);
  ASSERT_EQ(probed.size(), indices.size());
  const std::vector<SamplePrediction> translated = (*task)->generatePredictions(indices);
  ASSERT_EQ(translated.size(), indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    SCOPED_TRACE(i);
    const AttentionSnapshot& s = probed[i];
    ASSERT_NE(s.payloads.find<DecodingPayload>(), nullptr);
    EXPECT_TRUE(s.payloads.find<DecodingPayload>()->fed_reference);
    EXPECT_FALSE(s.sample.has_value());  // left to generatePredictions
    ASSERT_EQ(s.groups.size(), 3u);
    const AttentionGroup& decoder = s.groups[1];
    ASSERT_FALSE(decoder.row_labels.empty());
    EXPECT_EQ(decoder.row_labels.front(), "[SOS]");
    EXPECT_EQ(s.groups[2].row_labels, decoder.row_labels);
    EXPECT_EQ(decoder.row_predictions.size(), decoder.row_labels.size());
    EXPECT_EQ(testing::decodingOf(s).size(), decoder.row_labels.size());
    // Each row's attention is a distribution over the tokens it may see.
    for (const AttentionMap& m : decoder.maps) {
      for (int r = 0; r < m.rows; ++r) {
        double sum = 0;
        for (int k = 0; k < m.cols; ++k) sum += m.values[static_cast<std::size_t>(r * m.cols + k)];
        EXPECT_NEAR(sum, 1.0, 1e-4);
      }
    }
    // The same rows at the next probe: the reference, not this step's guesses.
    EXPECT_EQ((*task)->probeSamples({indices[i]}).front().groups[1].row_labels, decoder.row_labels);
    const SamplePrediction alone = (*task)->predictSample(indices[i]);
    EXPECT_EQ(translated[i].answer, alone.answer);
    EXPECT_EQ(translated[i].expected, alone.expected);
    EXPECT_EQ(translated[i].sample_index, s.sample_index);
  }
  // Stored and read back, a snapshot still says what its decoder was fed.
  ProbeSet set;
  set.samples = probed;
  Expected<ProbeSet> decoded = decodeProbeSet(encodeProbeSet(set), "set");
  ASSERT_TRUE(decoded.ok()) << decoded.error();
  const DecodingPayload* fed = decoded->samples.front().payloads.find<DecodingPayload>();
  ASSERT_NE(fed, nullptr);
  EXPECT_TRUE(fed->fed_reference);
}

// A run's translation probes carry the newest translation with the step that made it, and the
// last stored step has its own.
TEST(BatchedProbe, TranslationRunCarriesItsNewestTranslationWithItsStep) {
  TrainingConfig c = probedConfig(kTranslationTaskId, "probe_set_carried");
  c.probe_time_share = 0.02;
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = probedEvents(trainer);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  Expected<OpenedRun> run = readRun(c.out_dir);
  ASSERT_TRUE(run.ok()) << run.error();
  ASSERT_TRUE(run->last_probes.has_value());
  EXPECT_EQ(run->last_probes->step, 30);
  for (const AttentionSnapshot& s : run->last_probes->samples) {
    ASSERT_TRUE(s.sample.has_value());
    EXPECT_EQ(s.sample->step, 30);
    EXPECT_FALSE(s.sample->answer.empty() && s.sample->expected.empty());
  }
  for (const AttentionFileEntry& f : listAttentionFiles(c.out_dir)) {
    Expected<ProbeSet> set = readProbeSet(f.path);
    ASSERT_TRUE(set.ok()) << set.error();
    for (const AttentionSnapshot& s : set->samples) {
      ASSERT_TRUE(s.sample.has_value()) << f.step;
      // Made at this step or carried from an earlier one (how often: the time share decides).
      EXPECT_LE(s.sample->step, set->step);
    }
  }
}

// The timeline's writer: sets written in order off the caller's thread, the steps due decided
// from what was handed over, everything on disk after flush.
TEST(SnapshotWriter, WritesInOrderAndDecidesFromWhatWasHandedOver) {
  const std::string dir = freshTempPath("snapshot_writer");
  Expected<RunFolder> folder = timelineFolder(dir);
  ASSERT_TRUE(folder.ok()) << folder.error();
  std::vector<std::string> warnings;
  {
    SnapshotWriter writer(SnapshotStore(*folder, 5, 1ULL << 30),
                          [&](const std::string& w) { warnings.push_back(w); });
    for (int64_t step = 0; step <= 40; ++step) {
      if (!writer.due(step, step == 40)) continue;
      writer.write(std::make_shared<const ProbeSet>(setOfBytes(step, 64)));
      EXPECT_FALSE(writer.due(step, false));  // handed over, even if not yet written
    }
    writer.flush();
    EXPECT_EQ(writer.count(), 9u);  // 0, 5, …, 40
    EXPECT_GE(writer.busySeconds(), 0.0);
    writer.write(std::make_shared<const ProbeSet>(setOfBytes(45, 64)));
  }  // the destructor writes what is still queued
  std::vector<int64_t> steps;
  for (const AttentionFileEntry& f : listAttentionFiles(dir)) steps.push_back(f.step);
  EXPECT_EQ(steps, (std::vector<int64_t>{0, 5, 10, 15, 20, 25, 30, 35, 40, 45}));
  EXPECT_TRUE(warnings.empty());
}

TEST(SnapshotWriter, AFailedWriteIsSaidAndTheNextIsTried) {
  const std::string dir = freshTempPath("snapshot_writer_fails");
  Expected<RunFolder> folder = timelineFolder(dir);
  ASSERT_TRUE(folder.ok()) << folder.error();
  std::vector<std::string> warnings;
  std::mutex warned;
  SnapshotWriter writer(SnapshotStore(*folder, 1, 1ULL << 30), [&](const std::string& w) {
    std::lock_guard<std::mutex> lock(warned);
    warnings.push_back(w);
  });
  // The attention/ folder replaced by a file: the write fails, the writer goes on.
  std::filesystem::remove_all(dir + "/attention");
  { std::ofstream(dir + "/attention") << "not a folder"; }
  writer.write(std::make_shared<const ProbeSet>(setOfBytes(1, 8)));
  writer.flush();
  std::filesystem::remove(dir + "/attention");
  std::filesystem::create_directory(dir + "/attention");
  writer.write(std::make_shared<const ProbeSet>(setOfBytes(2, 8)));
  writer.flush();
  std::lock_guard<std::mutex> lock(warned);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("attention"), std::string::npos) << warnings[0];
  EXPECT_EQ(writer.count(), 1u);
}

}  // namespace
}  // namespace ascope
