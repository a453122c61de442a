#pragma once
// Opens a run folder for inspection (the GUI's File → Open run folder…, comparisons): every file
// of the folder (engine/runfolder/run_reader.h) and, recomputed from the newest checkpoint, the
// positional encoding. Loading the checkpoint takes a moment: front ends call it off their UI
// thread.
#include <string>

#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Reads everything a run folder holds; an error only when it is not a run folder at all or its
/// settings are not a run's (readRunConfig's checks, engine/tasks/registry/run_config_reader.h).
/// What cannot be read (the checkpoint among it) becomes a warning of the run.
Expected<OpenedRun> readRun(const std::string& dir);

}  // namespace ascope
