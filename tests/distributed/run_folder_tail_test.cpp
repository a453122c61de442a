// RunFolderTail: following a run folder another writer is still filling. Each poll returns only
// what was appended since (rows, log lines, a snapshot, a replaced checkpoint), never a row twice,
// never a half-written row, and tells whether a writer holds the folder's lock.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "engine/core/atomic_file.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_folder_tail.h"
#include "engine/runfolder/run_reader.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using Kind = RunFolderWriterState::Kind;

class RunFolderTailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() /
            ("tail_test_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
    Expected<RunFolderWriter> writer = RunFolderWriter::createNew(dir_, "digits");
    ASSERT_TRUE(writer.ok()) << writer.error();
    writer_.emplace(std::move(*writer));
    TrainingConfig config;
    config.task = "digits";
    ASSERT_TRUE(writer_->folder().writeConfig(config).ok());
    Expected<MetricsCsvWriter> metrics =
        MetricsCsvWriter::open(writer_->folder().metricsPath(), false, 0, {});
    ASSERT_TRUE(metrics.ok()) << metrics.error();
    metrics_.emplace(std::move(*metrics));
  }
  void TearDown() override {
    metrics_.reset();
    writer_.reset();
    fs::remove_all(dir_);
  }

  void step(int64_t step, double loss) {
    StepMetrics m;
    m.step = step;
    m.epoch = 1;
    m.loss = loss;
    m.accuracy = 0.5;
    ASSERT_TRUE(metrics_->append(m).ok());
  }
  void appendText(const std::string& file, const std::string& text) {
    std::ofstream out(dir_ + "/" + file, std::ios::app | std::ios::binary);
    out << text;
  }

  std::string dir_;
  std::optional<RunFolderWriter> writer_;
  std::optional<MetricsCsvWriter> metrics_;
};

TEST_F(RunFolderTailTest, PollsReturnOnlyWhatWasAppendedSince) {
  step(1, 0.9);
  step(2, 0.8);
  RunFolderTail tail(dir_);
  step(3, 0.7);  // written after the ends were noted, before the folder was read
  Expected<OpenedRun> opened = readRunFiles(dir_);
  ASSERT_TRUE(opened.ok()) << opened.error();
  ASSERT_EQ(opened->steps.size(), 3u);
  tail.startAfter(*opened);

  RunFolderNews first = tail.poll();
  EXPECT_TRUE(first.steps.empty()) << "step 3 was read with the folder: not again";
  EXPECT_EQ(first.writer.kind, Kind::kWriting);
  EXPECT_NE(first.writer.holder.find("pid " + std::to_string(::getpid())), std::string::npos)
      << first.writer.holder;
  EXPECT_FALSE(first.any());

  step(4, 0.6);
  step(5, 0.5);
  EpochSummary e;
  e.epoch = 1;
  e.step = 5;
  e.val_loss = 0.4;
  e.val_accuracy = 0.75;
  ASSERT_TRUE(metrics_->append(e, 1e-3).ok());
  RunFolderNews second = tail.poll();
  ASSERT_EQ(second.steps.size(), 2u);
  EXPECT_EQ(second.steps[0].step, 4);
  EXPECT_DOUBLE_EQ(second.steps[1].loss, 0.5);
  ASSERT_EQ(second.epochs.size(), 1u);
  EXPECT_DOUBLE_EQ(second.epochs[0].val_accuracy, 0.75);
  // The epoch's train loss is the mean of the train rows this tail saw since the last val row.
  EXPECT_NEAR(second.epochs[0].train_loss, 0.55, 1e-9);
  EXPECT_TRUE(tail.poll().steps.empty());
}

TEST_F(RunFolderTailTest, AHalfWrittenRowWaitsForItsEnd) {
  RunFolderTail tail(dir_);
  tail.startAfter(*readRunFiles(dir_));
  appendText("metrics.csv", "6,1,train,0.25");
  EXPECT_TRUE(tail.poll().steps.empty());
  appendText("metrics.csv", "00,0.5,0.001,100,,\n");  // under the header's nine columns
  RunFolderNews news = tail.poll();
  ASSERT_EQ(news.steps.size(), 1u);
  EXPECT_EQ(news.steps[0].step, 6);
  EXPECT_DOUBLE_EQ(news.steps[0].loss, 0.25);
}

TEST_F(RunFolderTailTest, SnapshotsLogAndCheckpointsArrive) {
  RunFolderTail tail(dir_);
  tail.startAfter(*readRunFiles(dir_));
  ProbeSet probes;
  probes.step = 10;
  AttentionSnapshot snapshot;
  snapshot.task = "digits";
  snapshot.step = 10;
  probes.samples.push_back(snapshot);
  ASSERT_TRUE(writer_->folder().writeProbeSet(probes).ok());
  appendText("log.txt", "[2026-11-21 14:03:22.123] [trainer] [warning] loss is rising\n");
  ASSERT_TRUE(writeFileAtomically(writer_->folder().checkpointPath("last"), "weights").ok());

  RunFolderNews news = tail.poll();
  ASSERT_TRUE(news.attention_files.has_value());
  ASSERT_EQ(news.attention_files->size(), 1u);
  EXPECT_EQ(news.attention_files->front().step, 10);
  ASSERT_NE(news.newest_probes, nullptr);
  EXPECT_EQ(news.newest_probes->step, 10);
  ASSERT_EQ(news.log.size(), 1u);
  EXPECT_EQ(news.log[0].level, Severity::kWarning);
  EXPECT_EQ(news.log[0].text, "14:03:22 loss is rising");
  EXPECT_TRUE(news.checkpoint_changed);

  RunFolderNews quiet = tail.poll();
  EXPECT_FALSE(quiet.checkpoint_changed);
  EXPECT_FALSE(quiet.attention_files.has_value());
  EXPECT_EQ(quiet.newest_probes, nullptr);
  ASSERT_TRUE(writeFileAtomically(writer_->folder().checkpointPath("last"), "newer").ok());
  EXPECT_TRUE(tail.poll().checkpoint_changed);
}

TEST_F(RunFolderTailTest, ARewrittenMetricsFileIsReadAgainWhole) {
  step(1, 0.9);
  step(2, 0.8);
  step(3, 0.7);
  RunFolderTail tail(dir_);
  tail.startAfter(*readRunFiles(dir_));
  // A resume from the checkpoint of step 2 rewrites the file without step 3.
  metrics_.reset();
  Expected<MetricsCsvWriter> resumed =
      MetricsCsvWriter::open(writer_->folder().metricsPath(), true, 2, {});
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  metrics_.emplace(std::move(*resumed));
  step(3, 0.65);
  RunFolderNews news = tail.poll();
  EXPECT_TRUE(news.restarted);
  ASSERT_EQ(news.steps.size(), 3u);
  EXPECT_DOUBLE_EQ(news.steps[2].loss, 0.65);
}

TEST_F(RunFolderTailTest, TellsWhenTheWriterEndsOrDiedHoldingTheFolder) {
  RunFolderTail tail(dir_);
  tail.startAfter(*readRunFiles(dir_));
  EXPECT_EQ(tail.poll().writer.kind, Kind::kWriting);
  metrics_.reset();
  writer_.reset();  // releases the lock: the file goes
  EXPECT_EQ(tail.poll().writer.kind, Kind::kNone);
  EXPECT_EQ(RunFolderLock::inspect(dir_).kind, Kind::kNone);
  // A writer killed with SIGKILL leaves its .lock behind, held by nobody.
  appendText(".lock", "pid 4242\nhost elsewhere\nsince 2026-11-21 14:03:22\n");
  const RunFolderWriterState abandoned = RunFolderLock::inspect(dir_);
  EXPECT_EQ(abandoned.kind, Kind::kAbandoned);
  EXPECT_NE(abandoned.holder.find("pid 4242"), std::string::npos) << abandoned.holder;
  // The shared lock taken to look was let go again: a writer can take the folder.
  EXPECT_TRUE(RunFolderLock::acquire(dir_).ok());
}

}  // namespace
}  // namespace ascope
