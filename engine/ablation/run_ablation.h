#pragma once
// Head ablation of a run folder, for front ends: plain C++ (the .cpp uses LibTorch). Does tensor
// work for minutes: call it off the GUI thread.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Where ablateRun writes its table: RUN/ablation.csv.
std::string ablationCsvPath(const std::string& run_dir);

/// Rebuilds the run's model from its folder on the CPU (as `infer` and `evaluate` do: its
/// config.json read by readRunConfig, the weights of its newest checkpoint, last.pt else best.pt),
/// reads the validation split of `data` as the run split its data (the run's own data,
/// named again, gives back its own validation split; built-in data is regenerated), runs
/// ablateHeads and writes ablationCsvPath(run_dir) atomically. `data` is the data set the user
/// named (`ablate --data`, the window's run or confirmation); "" stands for the run's own, and a
/// run whose config.json names a data path is then refused: nothing config.json names is opened
/// on its word. Only reads the run's files, so it works while a trainer holds the folder's
/// lock. Errors name the folder or file ("no checkpoint yet in RUN …").
Expected<AblationTable> ablateRun(const std::string& run_dir, const AblationOptions& options,
                                  const AblationProgress& progress,
                                  const std::string& data = std::string());

}  // namespace ascope
