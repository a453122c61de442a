#include "engine/ablation/run_ablation.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/train/tensor_threads.h"

#include <ATen/Parallel.h>

#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "engine/ablation/head_ablation.h"
#include "engine/runfolder/ablation/ablation_csv.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"

namespace ascope {
namespace {

Expected<AblationTable> ablate(const std::string& run_dir, const AblationOptions& options,
                               const AblationProgress& progress) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  // Newest first: last.pt is at least as recent as best.pt.
  const std::vector<std::string> checkpoints = existingCheckpoints(folder->path(), "last");
  if (checkpoints.empty()) {
    return Error{"no checkpoint yet in " + run_dir +
                 " (one is written at the end of every epoch and when training stops)"};
  }
  useTensorThreads(static_cast<int>(options.threads));

  std::vector<std::string> warnings;  // the run's own log already has them
  Expected<std::unique_ptr<Task>> task =
      makeTrainingTask(*config, torch::Device(torch::kCPU), &warnings);
  if (!task.ok()) return Error{run_dir + ": " + task.error()};
  // A torn last.pt (a copy cut short) should not hide best.pt: same model, older weights.
  Expected<LoadedCheckpoint> loaded = loadFirstCheckpoint(checkpoints, (*task)->model(), nullptr);
  if (!loaded.ok()) return Error{loaded.error()};

  Expected<AblationTable> table = ablateHeads(**task, options, progress);
  if (!table.ok()) return table;
  table->checkpoint = loaded->path;
  table->step = loaded->progress.step;
  table->task = config->task;
  if (Status s = writeAblationCsv(ablationCsvPath(folder->path()), *table); !s.ok()) {
    return Error{s.error()};
  }
  return table;
}

}  // namespace

std::string ablationCsvPath(const std::string& run_dir) {
  return run_dir + "/ablation.csv";
}

Expected<AblationTable> ablateRun(const std::string& run_dir, const AblationOptions& options,
                                  const AblationProgress& progress) {
  // Exceptions from LibTorch stop here: a front end's worker thread calls this.
  try {
    return ablate(run_dir, options, progress);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"ablating " + run_dir + " failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
