// `attentionscope-cli train` as a data-parallel job, the way people start one: --nproc 2, or two
// processes with torchrun's variables. Both give the same run (bit for bit: the same metrics.csv
// figures, the same weights), and the run of one process with the whole batch up to float
// rounding, dropout included (drawn per sample of the whole batch). A rank killed mid-run ends the
// job within seconds, naming the rank and the checkpoint, and the run resumes with another number
// of ranks. Each run is the imdb task's tiny preset on one thread per process.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include <ATen/ATen.h>
#include <torch/serialize/input-archive.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli_job.h"
#include "engine/core/run_folder_lock.h"
#include "engine/distributed/rank_launcher.h"
#include "engine/runfolder/metrics/metrics_csv_reader.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using job_test::readText;
using job_test::startCli;
using job_test::waitFor;

class DataParallelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() /
            ("data_parallel_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  /// The imdb tiny preset (3 epochs of 13 batches of 32, the last of 16; dropout 0.1) into
  /// dir_/name, one thread per process; more arguments after.
  std::vector<std::string> train(const std::string& name, std::vector<std::string> more = {}) {
    std::vector<std::string> args{"train",          "--task", "imdb",   "--preset", "tiny",
                                  "--threads",      "1",      "--seed", "5",        "--out",
                                  dir_ + "/" + name};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  /// Runs to the end; its output when the exit code is not `expected`.
  void run(const std::vector<std::string>& args, int expected = 0,
           const std::map<std::string, std::string>& env = {}) {
    const std::string log = dir_ + "/" + std::to_string(++runs_) + ".log";
    const int code = waitFor(startCli(args, env, log), 600);
    EXPECT_EQ(code, expected) << readText(log);
  }
  /// Two processes with the variables torchrun sets, waited for together.
  void runAsTorchrunWould(const std::vector<std::string>& args) {
    const std::string port = std::to_string(freeLoopbackPort());
    std::vector<pid_t> ranks;
    for (int r = 0; r < 2; ++r) {
      const std::map<std::string, std::string> env{{"RANK", std::to_string(r)},
                                                   {"LOCAL_RANK", std::to_string(r)},
                                                   {"WORLD_SIZE", "2"},
                                                   {"MASTER_ADDR", "127.0.0.1"},
                                                   {"MASTER_PORT", port}};
      ranks.push_back(startCli(args, env, dir_ + "/torchrun_rank" + std::to_string(r) + ".log"));
    }
    for (int r = 0; r < 2; ++r) {
      const std::string log = dir_ + "/torchrun_rank" + std::to_string(r) + ".log";
      EXPECT_EQ(waitFor(ranks[static_cast<std::size_t>(r)], 600), 0) << readText(log);
    }
  }

  std::vector<MetricsRow> trainRows(const std::string& name) {
    Expected<MetricsCsv> csv = readMetricsCsv(dir_ + "/" + name + "/metrics.csv");
    EXPECT_TRUE(csv.ok()) << (csv.ok() ? "" : csv.error());
    std::vector<MetricsRow> rows;
    if (!csv.ok()) return rows;
    for (const MetricsRow& row : csv->rows) {
      if (row.split == "train") rows.push_back(row);
    }
    return rows;
  }
  /// metrics.csv's loss and accuracy columns of the train rows, as written.
  std::vector<std::string> printedFigures(const std::string& name) {
    std::vector<std::string> out;
    std::istringstream lines(readText(dir_ + "/" + name + "/metrics.csv"));
    for (std::string line; std::getline(lines, line);) {
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
      if (fields.size() > 4 && fields[2] != "split") {
        out.push_back(fields[0] + " " + fields[2] + " " + fields[3] + " " + fields[4]);
      }
    }
    return out;
  }

  /// Train rows in dir_/killed/metrics.csv so far (0 before the file is there).
  std::size_t trainRowsCount() {
    Expected<MetricsCsv> csv = readMetricsCsv(dir_ + "/killed/metrics.csv");
    if (!csv.ok()) return 0;
    std::size_t rows = 0;
    for (const MetricsRow& row : csv->rows) rows += row.split == "train" ? 1 : 0;
    return rows;
  }

  std::string dir_;
  int runs_ = 0;
};

/// Every tensor of a checkpoint's model, by dotted name.
void collect(torch::serialize::InputArchive& archive, const std::string& prefix,
             std::map<std::string, at::Tensor>& out) {
  for (const std::string& key : archive.keys()) {
    at::Tensor tensor;
    if (archive.try_read(key, tensor) || archive.try_read(key, tensor, /*is_buffer=*/true)) {
      out[prefix + key] = tensor;
      continue;
    }
    torch::serialize::InputArchive child;
    if (archive.try_read(key, child)) collect(child, prefix + key + ".", out);
  }
}

std::map<std::string, at::Tensor> weights(const std::string& checkpoint) {
  torch::serialize::InputArchive archive;
  archive.load_from(checkpoint);
  torch::serialize::InputArchive model;
  archive.read("model", model);
  std::map<std::string, at::Tensor> out;
  collect(model, "", out);
  return out;
}

/// The largest difference between two models' weights, relative to the largest weight.
double largestDifference(const std::map<std::string, at::Tensor>& a,
                         const std::map<std::string, at::Tensor>& b) {
  EXPECT_EQ(a.size(), b.size());
  double difference = 0, scale = 0;
  for (const auto& [name, tensor] : a) {
    const auto other = b.find(name);
    if (other == b.end()) {
      ADD_FAILURE() << name << " missing";
      continue;
    }
    difference = std::max(difference, (tensor - other->second).abs().max().item<double>());
    scale = std::max(scale, tensor.abs().max().item<double>());
  }
  return difference / std::max(scale, 1e-12);
}

TEST_F(DataParallelCli, TwoRanksTrainTheRunOneProcessTrains) {
  run(train("one"));
  run(train("nproc", {"--nproc", "2"}));
  runAsTorchrunWould(train("torchrun"));
  if (HasFailure()) return;

  // --nproc 2 and torchrun's two processes: the same job, the same run to the last digit.
  EXPECT_EQ(printedFigures("nproc"), printedFigures("torchrun"));
  const auto nproc = weights(dir_ + "/nproc/checkpoints/last.pt");
  EXPECT_EQ(largestDifference(nproc, weights(dir_ + "/torchrun/checkpoints/last.pt")), 0.0);

  // One process with the whole batch: the same steps to float rounding. Each rank trims its
  // reviews' padding to its own longest and sums half the batch, so the figures differ in the
  // last bits, not more.
  const std::vector<MetricsRow> one = trainRows("one"), two = trainRows("nproc");
  ASSERT_EQ(one.size(), 39u);
  ASSERT_EQ(two.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(two[i].step, one[i].step);
    EXPECT_NEAR(two[i].loss, one[i].loss, 2e-4 * std::max(1.0, one[i].loss)) << "step " << i + 1;
    EXPECT_NEAR(two[i].accuracy, one[i].accuracy, 1e-9) << "step " << i + 1;
  }
  const double relative = largestDifference(weights(dir_ + "/one/checkpoints/last.pt"), nproc);
  EXPECT_LT(relative, 1e-3) << "after 39 steps of Adam";

  // Rank 0 alone wrote a run folder; its log says what the job was.
  const std::string log = readText(dir_ + "/nproc/log.txt");
  EXPECT_NE(log.find("rank 0 of 2"), std::string::npos) << log;
  EXPECT_TRUE(std::regex_search(log, std::regex("data parallel: 2 ranks over gloo"))) << log;
}

TEST_F(DataParallelCli, AKilledRankEndsTheJobAndTheRunResumesWithOneProcess) {
  const std::string log = dir_ + "/launcher.log";
  const pid_t launcher = startCli(train("killed", {"--nproc", "2", "--steps", "100000"}), {}, log);
  // The launcher names its ranks' pids; rank 1 is killed once a few steps are in metrics.csv.
  pid_t rank1 = -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch pids;
    const std::string text = readText(log);
    if (rank1 < 0 && std::regex_search(text, pids, std::regex(R"(pids (\d+), (\d+))"))) {
      rank1 = std::stoi(pids[2].str());
    }
    if (rank1 > 0 && trainRowsCount() >= 15) break;  // past the first epoch's checkpoint
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_GT(rank1, 0) << readText(log);
  ASSERT_GE(trainRowsCount(), 15u) << readText(log);
  const auto killed_at = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(rank1, SIGKILL), 0);
  const int code = waitFor(launcher, 120);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
  const std::string output = readText(log);
  EXPECT_EQ(code, 1) << output;
  EXPECT_LT(seconds, 30) << output;
  EXPECT_NE(output.find("rank 1 (pid " + std::to_string(rank1) + ") ended with signal SIGKILL"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("rank 1 is gone"), std::string::npos) << output;
  EXPECT_NE(output.find("checkpoints/last.pt"), std::string::npos) << output;

  // Resumed by one process from what rank 0 kept: on from the last complete step, to past the
  // furthest step the ranks reached before the kill (more than 40 on a fast machine).
  const int64_t target = std::max<int64_t>(40, trainRows("killed").back().step + 10);
  run({"train", "--resume", dir_ + "/killed", "--steps", std::to_string(target), "--threads", "1"});
  EXPECT_EQ(trainRows("killed").back().step, target);
}

TEST_F(DataParallelCli, TheLaunchersDeathIsOneStopRequestForTheRanks) {
  // A Ctrl+C the launcher passed on, then the launcher killed outright: the ranks took its death
  // for a second signal and exited without the checkpoint the first one asked for.
  const std::string log = dir_ + "/launcher.log";
  const pid_t launcher =
      startCli(train("orphaned", {"--nproc", "2", "--steps", "100000"}), {}, log);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  const auto rows = [&] {
    Expected<MetricsCsv> csv = readMetricsCsv(dir_ + "/orphaned/metrics.csv");
    return csv.ok() ? csv->rows.size() : std::size_t{0};
  };
  while (std::chrono::steady_clock::now() < deadline && rows() < 5) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_GE(rows(), 5u) << readText(log);
  ASSERT_EQ(::kill(launcher, SIGTERM), 0);
  // Passed on to the ranks once rank 0 says it stops: then the launcher dies at once, before the
  // ranks end and it could exit by itself (a fixed wait let it, on a fast machine).
  const auto passed_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < passed_deadline &&
         readText(log).find("stopping after the current step") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(::kill(launcher, SIGKILL), 0);
  EXPECT_EQ(waitFor(launcher, 30), -SIGKILL);
  // The ranks, orphaned, stop after the same step; rank 0 writes the checkpoint and lets go.
  const auto stop_deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (std::chrono::steady_clock::now() < stop_deadline &&
         RunFolderLock::inspect(dir_ + "/orphaned").kind == RunFolderWriterState::Kind::kWriting) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // Its last words reach the log when the ranks exit (stdout to a file is flushed then): wait
  // for the processes the launcher named, orphans now, to be gone.
  std::smatch pids;
  const std::string started = readText(log);
  ASSERT_TRUE(std::regex_search(started, pids, std::regex(R"(pids (\d+), (\d+)\))"))) << started;
  for (std::size_t i = 1; i <= 2; ++i) {
    const pid_t rank = static_cast<pid_t>(std::stol(pids[i].str()));
    const auto exit_deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < exit_deadline && ::kill(rank, 0) == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const std::string output = readText(log);
  EXPECT_EQ(RunFolderLock::inspect(dir_ + "/orphaned").kind, RunFolderWriterState::Kind::kNone)
      << output;
  // The first signal's line says what a second would do; a second one never came.
  EXPECT_EQ(output.find("second signal: exiting now"), std::string::npos) << output;
  EXPECT_NE(output.find("stopped by SIGTERM; continue with"), std::string::npos) << output;
  EXPECT_TRUE(fs::exists(dir_ + "/orphaned/checkpoints/last.pt")) << output;
}

TEST_F(DataParallelCli, ResumesWithAnotherNumberOfRanks) {
  run(train("whole", {"--steps", "20"}));
  run(train("split", {"--steps", "20", "--interrupt-at-step", "8"}));
  run({"train", "--resume", dir_ + "/split", "--nproc", "2", "--threads", "1"});
  if (HasFailure()) return;
  const std::vector<MetricsRow> whole = trainRows("whole"), split = trainRows("split");
  ASSERT_EQ(split.size(), whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    EXPECT_NEAR(split[i].loss, whole[i].loss, 2e-4 * std::max(1.0, whole[i].loss)) << i + 1;
  }
  EXPECT_LT(largestDifference(weights(dir_ + "/whole/checkpoints/last.pt"),
                              weights(dir_ + "/split/checkpoints/last.pt")),
            1e-3);
}

TEST_F(DataParallelCli, ATakenPortAndAMissingRankAreClearErrors) {
  // Rank 0 alone, told to expect a second rank that never comes: it gives up after --dist-timeout.
  const std::string port = std::to_string(freeLoopbackPort());
  const std::string log = dir_ + "/alone.log";
  const auto t0 = std::chrono::steady_clock::now();
  const int code =
      waitFor(startCli(train("alone", {"--dist-timeout", "3"}),
                       {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", port}}, log),
              120);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(code, 1) << readText(log);
  EXPECT_NE(readText(log).find("not every rank joined"), std::string::npos) << readText(log);
  EXPECT_LT(seconds, 60);
  EXPECT_FALSE(fs::exists(dir_ + "/alone/config.json")) << "a job that never met writes nothing";

  // --nproc with a MASTER_PORT another program listens on: rank 0 says so; rank 1, which reached
  // that program instead of rank 0, gives up after --dist-timeout.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const std::string taken_port = std::to_string(ntohs(address.sin_port));
  const std::string taken_log = dir_ + "/taken.log";
  const int taken = waitFor(startCli(train("taken", {"--nproc", "2", "--dist-timeout", "5"}),
                                     {{"MASTER_PORT", taken_port}}, taken_log),
                            180);
  ::close(listener);
  EXPECT_EQ(taken, 1) << readText(taken_log);
  EXPECT_NE(readText(taken_log).find("MASTER_PORT " + taken_port + " is in use"), std::string::npos)
      << readText(taken_log);
}

}  // namespace
}  // namespace ascope
