// Running out of CPU memory is a fault a person can act on (a smaller batch or model), not an
// "internal error": LibTorch's CPU allocator says "can't allocate memory", not "out of memory".
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/train/trainer.h"
#include "engine/train/training_session.h"
#include "forwarding_task.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr const char* kStepOomId = "oom_in_step";
constexpr const char* kPrepareOomId = "oom_in_prepare";

/// An allocation no machine can serve: LibTorch's DefaultCPUAllocator refuses it.
torch::Tensor impossibleTensor() {
  return torch::empty({int64_t{1} << 46}, torch::kFloat);
}

/// The sentiment task, except that its training step asks for 256 TiB.
class GreedyTask final : public testing::ForwardingTask {
 public:
  using ForwardingTask::ForwardingTask;
  BatchOutcome trainBatch(const std::vector<int64_t>&) override {
    impossibleTensor();
    return {};
  }
};

void registerGreedyTasks() {
  if (TaskRegistry::instance().find(kStepOomId) != nullptr) return;
  const TaskDescriptor* sentiment = TaskRegistry::instance().find(kSentimentTaskId);
  ASSERT_NE(sentiment, nullptr);
  for (const char* id : {kStepOomId, kPrepareOomId}) {
    TaskDescriptor d = *sentiment;
    d.id = id;
    d.make_preset = [make = sentiment->make_preset, id](const std::string& preset) {
      TrainingConfig c = make(preset);
      c.task = id;
      return c;
    };
    const bool in_step = std::string(id) == kStepOomId;
    d.make_training_task = [make = sentiment->make_training_task,
                            in_step](const TaskBuild& b) -> Expected<std::unique_ptr<Task>> {
      if (!in_step) impossibleTensor();  // e.g. a dataset too large to load
      Expected<std::unique_ptr<Task>> inner = make(b);
      if (!inner.ok()) return inner;
      return std::unique_ptr<Task>(std::make_unique<GreedyTask>(std::move(*inner)));
    };
    ASSERT_TRUE(TaskRegistry::instance().add(std::move(d)).ok());
  }
}

using testing::removedAtExit;

std::string memoryRunDir(const char* task) {
  return removedAtExit((fs::temp_directory_path() /
                        ("ascope_oom_test_" + std::string(task) + "_" + std::to_string(::getpid())))
                           .string());
}

std::vector<Failure> failuresOf(const char* task, bool gui) {
  TrainingConfig c = *makePreset(task, "tiny");
  c.out_dir = memoryRunDir(task);
  fs::remove_all(c.out_dir);
  c.probe_every_seconds = 1e9;
  c.stop_on_nonfinite = !gui;
  Trainer trainer(c);
  EXPECT_TRUE(trainer.start().ok());
  std::vector<Failure> failures;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!trainer.finished() && trainer.state() != TrainerState::kPaused &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EventBatch batch = trainer.drainEvents();
  EXPECT_EQ(trainer.state(), gui ? TrainerState::kPaused : TrainerState::kFailed);
  return batch.failures;
}

TEST(OutOfMemory, CpuAllocatorFailuresAreRecognised) {
  try {
    impossibleTensor();
    GTEST_SKIP() << "this machine allocated 256 TiB";
  } catch (const std::exception& e) {
    EXPECT_TRUE(isOutOfMemoryError(e)) << e.what();
  }
  EXPECT_TRUE(isOutOfMemoryError(std::bad_alloc()));
  EXPECT_TRUE(isOutOfMemoryError(std::runtime_error("CUDA out of memory. Tried to allocate")));
  EXPECT_FALSE(isOutOfMemoryError(std::runtime_error("shape mismatch")));
}

TEST(OutOfMemory, TrainingStepStopsTheCliWithAdviceNotAnInternalError) {
  registerGreedyTasks();
  const std::vector<Failure> failures = failuresOf(kStepOomId, /*gui=*/false);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message.rfind("out of memory while running the training step at step 1 "
                                      "with batch_size 32",
                                      0),
            0u)
      << failures[0].message;
  EXPECT_NE(failures[0].message.find("Try a smaller batch_size (e.g. 16) or a smaller model"),
            std::string::npos)
      << failures[0].message;
}

TEST(OutOfMemory, TrainingStepPausesTheGui) {
  registerGreedyTasks();
  const std::vector<Failure> failures = failuresOf(kStepOomId, /*gui=*/true);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message.rfind("out of memory while running the training step", 0), 0u)
      << failures[0].message;
}

TEST(OutOfMemory, WhilePreparingTheRunSaysSoAndLeavesNoFolder) {
  registerGreedyTasks();
  const std::vector<Failure> failures = failuresOf(kPrepareOomId, /*gui=*/false);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message.rfind("out of memory while preparing the run", 0), 0u)
      << failures[0].message;
  EXPECT_NE(failures[0].message.find("try a smaller batch_size or a smaller model"),
            std::string::npos)
      << failures[0].message;
  EXPECT_EQ(failures[0].message.find("internal error"), std::string::npos);
  EXPECT_FALSE(fs::exists(memoryRunDir(kPrepareOomId)));
}

}  // namespace
}  // namespace ascope
