#pragma once
// The one writer of files a person names for a command's output: `evaluate --out`, `infer` and
// `inspect --attention`, the window's `--screenshot` and `--report`, the attention video. Each
// checks the target before the work starts and again just before it writes, and never opens the
// target itself (it writes a temp file beside it and renames it over it,
// engine/core/atomic_file.h), so a FIFO cannot block the program and a device node cannot be
// replaced by a regular file: a report "written" over /dev/full replaced it for everyone.
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Something the command reads, which its output must never replace.
struct CommandInput {
  /// A file, or a folder: then every file under it (a data set's folder, checkpoints/).
  std::string path;
  std::string what;  ///< for the message: "the data set", "the run's checkpoints folder"
};

/// OK when `path` may take a command's output: a name (not ""), not a folder, in a folder that
/// exists and may be written, and either missing or a regular file. Refused: a device, a FIFO, a
/// socket, a symbolic link (write to the file it points to by naming that file), and any of
/// `inputs` — the same file (a hard link included), or a file under an input folder. Opens
/// nothing, so it never blocks. Errors name the path and what it is: "/dev/full is a character
/// device, not a file: give a file name", "data.csv is the data set this command reads".
Status checkOutputFile(const std::string& path, const std::vector<CommandInput>& inputs = {});

/// Writes `content` to `path` after checkOutputFile (again: the target may have changed during
/// the work) through writeFileAtomically: a reader never sees half a file, a failed write keeps
/// the old one, and the target is never opened.
Status writeOutputFile(const std::string& path, const std::string& content,
                       const std::vector<CommandInput>& inputs = {});

}  // namespace ascope
