#include "engine/ablation/run_ablation.h"

#include "engine/inference/run_model.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/tensor_threads.h"

#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>
#include <vector>

#include "engine/ablation/head_ablation.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/ablation/ablation_csv.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/task.h"

namespace ascope {
namespace {

Expected<AblationTable> ablate(const std::string& run_dir, const AblationOptions& options,
                               const AblationProgress& progress, const std::string& data) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = readRunConfig(run_dir);
  if (!config.ok()) return Error{config.error()};
  if (data.empty()) {
    const std::string refusal = unnamedDataMessage(*config, folder->configPath(),
                                                   "name the data to ablate on (--data PATH)");
    if (!refusal.empty()) return Error{refusal};
  }
  // ablation.csv goes into the run folder, which has one writer: this process when it trains the
  // run (the window ablating its live run), else the ablation itself for its minutes, so that no
  // training resumes meanwhile and none of another process is written into.
  std::optional<RunFolderLock> lock;
  if (!RunFolderLock::inspect(folder->path()).held_here) {
    Expected<RunFolderLock> taken = RunFolderLock::acquire(folder->path());
    if (!taken.ok()) {
      return Error{taken.error() + ": an ablation writes ablation.csv there, so it waits until " +
                   "that run has finished"};
    }
    lock.emplace(std::move(*taken));
  }
  useTensorThreads(static_cast<int>(options.threads));
  // The model from the run's own files (its tokenizers, class names, pretrained/ and newest
  // checkpoint: last.pt, else best.pt), the data from where the user said: nothing else that
  // config.json names is opened.
  std::vector<std::string> warnings;  // the run's own log already has them
  TrainingConfig data_config = data.empty() ? *config : withNamedData(*config, data);
  if (const TaskDescriptor* task = TaskRegistry::instance().find(config->task);
      task != nullptr && task->set_figure_samples) {
    task->set_figure_samples(data_config, options.figure_samples);
  }
  Expected<RunModel> model =
      loadRunModel(run_dir, CheckpointChoice::kNewest, "cpu", data_config, &warnings);
  if (!model.ok()) return Error{model.error()};

  Expected<AblationTable> table = ablateHeads(*model->task, options, progress);
  if (!table.ok()) return table;
  table->checkpoint = model->checkpoint;
  table->step = model->step;
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
                                  const AblationProgress& progress, const std::string& data) {
  // Exceptions from LibTorch stop here: a front end's worker thread calls this.
  try {
    return ablate(run_dir, options, progress, data);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"ablating " + run_dir + " failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
