#pragma once
// Head ablation of a run folder, for front ends: plain C++ (the .cpp uses LibTorch). Does tensor
// work for minutes: call it off the GUI thread.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Where ablateRun writes its table: RUN/ablation.csv.
std::string ablationCsvPath(const std::string& run_dir);

/// Rebuilds the run's training task from its config.json on the CPU (regenerating or reloading the
/// same data and validation split), loads the model weights of its newest checkpoint (last.pt,
/// else best.pt; not the optimizer), runs ablateHeads and writes ablationCsvPath(run_dir)
/// atomically. Only reads the run's files, so it works while a trainer holds the folder's lock.
/// Errors name the folder or file ("no checkpoint yet in RUN …").
Expected<AblationTable> ablateRun(const std::string& run_dir, const AblationOptions& options,
                                  const AblationProgress& progress);

}  // namespace ascope
