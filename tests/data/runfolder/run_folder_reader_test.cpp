// The run folder as untrusted input to its readers (readRunFiles, the window's; RunFolderTail, a
// followed run's): no symbolic link is followed out of the folder (a log.txt linked to
// /etc/passwd showed that file in the Log dock), a damaged snapshot is left out with a note while
// every readable one stays, and a folder that disappears is said to be gone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_folder_tail.h"
#include "engine/runfolder/run_reader.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

constexpr char kSecret[] = "root:x:0:0:the secret line\n";

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& line : lines) {
    if (line.find(part) != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  return all;
}

class RunFolderReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = folder_.path("run");
    Expected<RunFolder> made = RunFolder::create(run_, "digits");
    ASSERT_TRUE(made.ok()) << made.error();
    TrainingConfig config;
    config.task = "digits";
    ASSERT_TRUE(made->writeConfig(config).ok());
    Expected<MetricsCsvWriter> metrics = MetricsCsvWriter::open(made->metricsPath(), false, 0, {});
    ASSERT_TRUE(metrics.ok()) << metrics.error();
    StepMetrics m;
    m.step = 1;
    m.loss = 0.5;
    ASSERT_TRUE(metrics->append(m).ok());
    secret_ = folder_.write("elsewhere/passwd", kSecret);
    for (const std::int64_t step : {10, 20, 30}) writeSnapshot(*made, step);
  }

  void writeSnapshot(const RunFolder& run, std::int64_t step) {
    ProbeSet probes;
    probes.step = step;
    AttentionSnapshot snapshot;
    snapshot.task = "digits";
    snapshot.step = step;
    probes.samples.push_back(snapshot);
    ASSERT_TRUE(run.writeProbeSet(probes).ok());
  }

  std::string snapshotPath(std::int64_t step) const {
    return RunFolder::open(run_)->attentionPath(step);
  }

  testing::FixtureFolder folder_;
  std::string run_;
  std::string secret_;
};

TEST_F(RunFolderReaderTest, ALinkedLogIsNamedNotShown) {
  fs::create_symlink(secret_, run_ + "/log.txt");
  Expected<OpenedRun> run = readRunFiles(run_);
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_TRUE(run->log.empty()) << "nothing of the linked file reaches the Log dock";
  EXPECT_TRUE(anyContains(run->warnings, run_ + "/log.txt is a symbolic link (to " + secret_))
      << joined(run->warnings);
  EXPECT_EQ(run->steps.size(), 1u) << "the rest of the run still opens";
}

TEST_F(RunFolderReaderTest, LinkedRecordsSnapshotsAndFoldersAreNotFollowed) {
  fs::remove(run_ + "/metrics.csv");
  fs::create_symlink(secret_, run_ + "/metrics.csv");
  fs::create_symlink(secret_, run_ + "/head_stats.csv");
  fs::create_symlink(secret_, run_ + "/ablation.csv");
  fs::create_symlink(snapshotPath(30), run_ + "/attention/step_000000040.msgpack");
  Expected<OpenedRun> run = readRunFiles(run_);
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_TRUE(run->steps.empty());
  for (const char* file : {"/metrics.csv", "/head_stats.csv", "/ablation.csv"}) {
    EXPECT_TRUE(anyContains(run->warnings, run_ + file + " is a symbolic link"))
        << file << "\n"
        << joined(run->warnings);
  }
  ASSERT_EQ(run->attention_files.size(), 3u) << "the linked snapshot is not listed";
  EXPECT_EQ(run->attention_files.back().step, 30);

  // attention/ itself a link to a folder elsewhere: nothing in it is listed.
  const std::string outside = folder_.makeFolder("outside_attention");
  fs::rename(run_ + "/attention", folder_.path("moved_attention"));
  fs::create_symlink(outside, run_ + "/attention");
  Expected<OpenedRun> linked = readRunFiles(run_);
  ASSERT_TRUE(linked.ok()) << linked.error();
  EXPECT_TRUE(linked->attention_files.empty());
  EXPECT_TRUE(anyContains(linked->warnings, run_ + "/attention is a symbolic link"))
      << joined(linked->warnings);
  EXPECT_FALSE(checkRunFilesReadable(run_).ok());
}

TEST_F(RunFolderReaderTest, ALinkedConfigIsRefusedByName) {
  fs::remove(run_ + "/config.json");
  const std::string other = folder_.write("elsewhere/config.json", "{\"task\": \"digits\"}");
  fs::create_symlink(other, run_ + "/config.json");
  Expected<OpenedRun> run = readRunFiles(run_);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().find(run_ + "/config.json is a symbolic link"), std::string::npos)
      << run.error();
}

TEST_F(RunFolderReaderTest, ASettingOfTheWrongTypeIsNamedWithItsFile) {
  std::ofstream(run_ + "/config.json") << R"({"task": "digits", "epochs": "4"})";
  Expected<OpenedRun> run = readRunFiles(run_);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error(), run_ + "/config.json: \"epochs\" must be a whole number, got \"4\"");
}

TEST_F(RunFolderReaderTest, ADamagedNewestSnapshotLeavesTheOthersShown) {
  std::ofstream(snapshotPath(30), std::ios::trunc) << "not MessagePack";
  Expected<OpenedRun> run = readRunFiles(run_);
  ASSERT_TRUE(run.ok()) << run.error();
  ASSERT_TRUE(run->last_probes.has_value()) << "the newest readable one stands in";
  EXPECT_EQ(run->last_probes->step, 20);
  ASSERT_EQ(run->attention_files.size(), 2u);
  EXPECT_EQ(run->attention_files.back().step, 20);
  EXPECT_TRUE(anyContains(run->warnings, "attention snapshot left out: " + snapshotPath(30)))
      << joined(run->warnings);
}

TEST_F(RunFolderReaderTest, AFollowedRunNamesALinkedLogOnceAndSaysWhenTheFolderIsGone) {
  RunFolderTail tail(run_);
  tail.startAfter(*readRunFiles(run_));
  fs::create_symlink(secret_, run_ + "/log.txt");
  const RunFolderNews first = tail.poll();
  EXPECT_TRUE(first.log.empty());
  EXPECT_TRUE(anyContains(first.warnings, run_ + "/log.txt is a symbolic link"))
      << joined(first.warnings);
  EXPECT_TRUE(first.any()) << "a warning alone is news to show";
  const RunFolderNews second = tail.poll();
  EXPECT_TRUE(second.warnings.empty())
      << "said once, not every second: " << joined(second.warnings);
  EXPECT_TRUE(second.log.empty());
  EXPECT_FALSE(second.folder_gone);

  fs::remove_all(run_);
  const RunFolderNews gone = tail.poll();
  EXPECT_TRUE(gone.folder_gone);
}

}  // namespace
}  // namespace ascope
