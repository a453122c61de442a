// A disk that fills up while a file is written: an error for a person, the previous file intact,
// no temp file left, and for a checkpoint the trainer's fault path (CLI stops, GUI pauses).
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <torch/optim/adam.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/atomic_file.h"
#include "engine/models/text_classifier.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/checkpoint.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::readFile;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string diskFullDir(const std::string& name) {
  const std::string dir = testing::freshTempPath("ascope_disk_full_test_" + name);
  fs::create_directories(dir);
  return dir;
}

std::set<std::string> namesIn(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

/// Writes to paths containing `part` fail with ENOSPC while this lives.
class FullDisk {
 public:
  explicit FullDisk(const std::string& part) { atomic_file_testing::failWrites(part, ENOSPC); }
  ~FullDisk() { atomic_file_testing::stopFailingWrites(); }
  FullDisk(const FullDisk&) = delete;
  FullDisk& operator=(const FullDisk&) = delete;
};

TextClassifier model(int64_t vocab) {
  TextClassifierConfig c;
  c.vocab_size = vocab, c.d_model = 32, c.d_ff = 32, c.max_len = 10;
  return TextClassifier(c);
}

TEST(AtomicFile, DiskFullKeepsTheOldFileAndLeavesNoTempFile) {
  const std::string dir = diskFullDir("atomic");
  const std::string path = dir + "/config.json";
  ASSERT_TRUE(writeFileAtomically(path, "old").ok());
  {
    const FullDisk full(path);
    const Status s = writeFileAtomically(path, std::string(100000, 'x'));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error(), "disk full while writing " + path);
  }
  EXPECT_EQ(readFile(path), "old");
  EXPECT_EQ(namesIn(dir), std::set<std::string>{"config.json"});
  ASSERT_TRUE(writeFileAtomically(path, "new").ok());
  EXPECT_EQ(readFile(path), "new");
}

TEST(AtomicFile, EveryWriteHasATempFileOfItsOwn) {
  const std::string path = diskFullDir("names") + "/a.json";
  std::vector<std::string> temps;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(writeFileAtomicallyWith(path, [&](const std::string& tmp) {
                  temps.push_back(tmp);
                  std::ofstream(tmp) << i;
                }).ok());
  }
  ASSERT_EQ(temps.size(), 2u);
  EXPECT_NE(temps[0], temps[1]);
  const std::string mine = path + ".tmp." + std::to_string(::getpid()) + ".";
  EXPECT_EQ(temps[0].rfind(mine, 0), 0u) << temps[0];
  EXPECT_TRUE(isAtomicWriteTempName(fs::path(temps[0]).filename().string()));
  EXPECT_TRUE(isAtomicWriteTempName("last.pt.tmp"));
  EXPECT_FALSE(isAtomicWriteTempName("last.pt"));
  EXPECT_FALSE(isAtomicWriteTempName("notes.tmp.txt"));
  EXPECT_FALSE(isAtomicWriteTempName("last.pt.tmp.12"));
}

TEST(Checkpoint, DiskFullIsAnErrorAndThePreviousCheckpointStays) {
  const std::string dir = diskFullDir("checkpoint");
  const std::string path = dir + "/last.pt";
  torch::manual_seed(0);
  TextClassifier m = model(300);
  torch::optim::Adam optimizer(m->parameters(), torch::optim::AdamOptions(1e-3));
  ASSERT_TRUE(saveCheckpoint(path, *m, &optimizer, {10, 0.5}).ok());
  {
    const FullDisk full("last.pt");
    const Status s = saveCheckpoint(path, *m, &optimizer, {20, 0.6});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error(), "disk full while writing " + path);
  }
  EXPECT_EQ(namesIn(dir), std::set<std::string>{"last.pt"});
  Expected<TrainingProgress> p = loadCheckpoint(path, *m, &optimizer);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->step, 10);
}

/// A tmpfs of `kib` KiB mounted on `dir` while this lives (needs root; see ok()).
class TinyFileSystem {
 public:
  TinyFileSystem(const std::string& dir, int kib) : dir_(dir) {
    const std::string options = "size=" + std::to_string(kib) + "k";
    mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0;
  }
  ~TinyFileSystem() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  TinyFileSystem(const TinyFileSystem&) = delete;
  TinyFileSystem& operator=(const TinyFileSystem&) = delete;
  bool ok() const { return mounted_; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

TEST(Checkpoint, RealFullDiskIsAnErrorNotAnAbort) {
  const std::string dir = diskFullDir("tmpfs");
  const TinyFileSystem tiny(dir, 200);
  if (!tiny.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << strerror(errno);
  torch::manual_seed(0);
  TextClassifier m = model(5000);  // 160k embedding weights: 640 KB, more than the disk holds
  const std::string path = dir + "/last.pt";
  const Status s = saveCheckpoint(path, *m, nullptr, {1, 0});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "disk full while writing " + path);
  EXPECT_TRUE(namesIn(dir).empty());
}

/// Drains until the trainer finished or reached `until`; the failures that arrived.
std::vector<Failure> failuresUntil(Trainer& trainer, TrainerState until) {
  std::vector<Failure> failures;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (!trainer.finished() && trainer.state() != until &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EventBatch batch = trainer.drainEvents();
  failures.insert(failures.end(), batch.failures.begin(), batch.failures.end());
  return failures;
}

TrainingConfig tenStepRun(const std::string& name) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");  // 13 batches an epoch
  c.out_dir = diskFullDir(name) + "/run";
  c.probe_every_seconds = 1e9;
  c.max_steps = 10;
  c.checkpoint_every_steps = 5;
  return c;
}

/// A run of 10 steps (last.pt at step 10), then its resumption to 30 steps on a "full disk".
TrainingConfig resumedOnAFullDisk(const std::string& name, bool gui) {
  const TrainingConfig first = tenStepRun(name);
  Trainer trainer(first);
  EXPECT_TRUE(trainer.start().ok());
  EXPECT_TRUE(failuresUntil(trainer, TrainerState::kFinished).empty());
  trainer.wait();
  TrainingConfig resumed = first;
  resumed.resume = true;
  resumed.max_steps = 30;
  resumed.stop_on_nonfinite = !gui;
  return resumed;
}

TEST(Trainer, DiskFullDuringACheckpointStopsTheCliAndKeepsThePreviousOne) {
  const TrainingConfig c = resumedOnAFullDisk("cli", /*gui=*/false);
  const std::string last = c.out_dir + "/checkpoints/last.pt";
  {
    const FullDisk full(last);
    Trainer trainer(c);
    ASSERT_TRUE(trainer.start().ok());
    const std::vector<Failure> failures = failuresUntil(trainer, TrainerState::kFailed);
    trainer.wait();
    EXPECT_EQ(trainer.state(), TrainerState::kFailed);
    ASSERT_EQ(failures.size(), 1u);
    // The first checkpoint after step 10 is the end of epoch 1, step 13.
    EXPECT_EQ(failures[0].message.rfind("disk full while writing " + last + " at step 13", 0), 0u)
        << failures[0].message;
  }
  for (const auto& entry : fs::directory_iterator(c.out_dir + "/checkpoints")) {
    EXPECT_FALSE(isAtomicWriteTempName(entry.path().filename().string())) << entry.path();
  }
  Trainer probe(c);  // the checkpoint still resumes: from step 10
  ASSERT_TRUE(probe.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  std::vector<StepMetrics> steps;
  while (steps.empty() && std::chrono::steady_clock::now() < deadline) {
    steps = probe.drainEvents().metrics;
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.front().step, 11);
  probe.stop();
}

TEST(Trainer, DiskFullDuringACheckpointPausesTheGuiUntilResumed) {
  const TrainingConfig c = resumedOnAFullDisk("gui", /*gui=*/true);
  const std::string last = c.out_dir + "/checkpoints/last.pt";
  Trainer trainer(c);
  std::vector<Failure> failures;
  {
    const FullDisk full(last);
    ASSERT_TRUE(trainer.start().ok());
    failures = failuresUntil(trainer, TrainerState::kPaused);
  }
  ASSERT_EQ(trainer.state(), TrainerState::kPaused);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].message.find("disk full while writing " + last), std::string::npos)
      << failures[0].message;
  trainer.resume();  // space was freed: the next checkpoint goes through
  const std::vector<Failure> after = failuresUntil(trainer, TrainerState::kFinished);
  trainer.wait();
  EXPECT_TRUE(after.empty()) << after[0].message;
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
}

}  // namespace
}  // namespace ascope

namespace ascope {
namespace {

TEST(MetricsCsv, RealFullDiskIsSaidOnceAndRowsResumeWhenThereIsRoom) {
  const std::string dir = diskFullDir("metrics_tmpfs");
  const TinyFileSystem tiny(dir, 64);
  if (!tiny.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << strerror(errno);
  const std::string path = dir + "/metrics.csv";
  Expected<MetricsCsvWriter> writer = MetricsCsvWriter::open(path, false, 0, {});
  ASSERT_TRUE(writer.ok()) << writer.error();
  StepMetrics m;
  m.step = 1;
  ASSERT_TRUE(writer->append(m).ok());
  {
    // Takes every block that is left.
    std::ofstream filler(dir + "/filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }
  Status first = Status{};
  for (int step = 2; step < 400 && first.ok(); ++step) {
    m.step = step;  // stdio buffers a little: the failure shows within a few rows
    first = writer->append(m);
  }
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.error().find(path), std::string::npos) << first.error();
  EXPECT_NE(first.error().find("No space left on device"), std::string::npos) << first.error();
  m.step = 500;
  EXPECT_TRUE(writer->append(m).ok()) << "said once, not for every row";
  fs::remove(dir + "/filler");
  m.step = 501;
  ASSERT_TRUE(writer->append(m).ok());
  const std::string text = readFile(path);
  EXPECT_NE(text.find("\n501,"), std::string::npos)
      << text.size() << " bytes, ending: " << text.substr(text.size() - 200);
}

}  // namespace
}  // namespace ascope
