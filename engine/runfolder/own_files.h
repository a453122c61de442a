#pragma once
// A run folder's own files, as its readers and the commands that read it see them: no reader
// follows a symbolic link out of the folder (a log.txt linked to /etc/passwd was shown in the Log
// dock), and no command writes its output over one of them (engine/core/output_file.h).
#include <string>
#include <vector>

#include "engine/core/output_file.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// OK unless the run folder's attention/, checkpoints/ or pretrained/ is a symbolic link; the
/// error names the first as refuseSymbolicLink does (engine/core/regular_file.h).
Status checkOwnFolders(const std::string& run_dir);

/// The files of the run folder `run_dir` as a command's inputs: its settings, records,
/// tokenizers and class names, and everything in checkpoints/, attention/ and pretrained/. A
/// command that reads a run never writes its output over one of them; a file of the user's own
/// beside them is theirs to replace.
std::vector<CommandInput> runFolderInputs(const std::string& run_dir);

}  // namespace ascope
