#pragma once
#include <cstddef>
#include <functional>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Writes `path` atomically: the content goes to a temp file next to it
/// (`<path>.tmp.<pid>.<n>`, unique per write, so two writers never share one), is written with
/// checked write() calls and fsync'ed, then renamed over `path`. A crash at any point leaves either
/// the old file or the new one, never a mix. On failure the temp file is removed and the old file
/// kept; a full disk reads "disk full while writing PATH".
Status writeFileAtomically(const std::string& path, const std::string& content);

/// Receives the next bytes of the file being written.
using ByteSink = std::function<void(const void* data, std::size_t size)>;

/// Same, for content produced in pieces (a torch archive): `produce` hands every piece to the sink
/// in order. A write error does not reach `produce`: the sink swallows the rest and the error is
/// returned afterwards, because LibTorch's zip writer aborts the process when its output fails
/// mid-archive. An exception from `produce` fails the write too.
Status writeFileAtomicallyStreamed(const std::string& path,
                                   const std::function<void(const ByteSink& sink)>& produce);

/// For writers that need a file name of their own: `write` gets the temp path and throws on
/// failure; the temp file is removed then.
Status writeFileAtomicallyWith(const std::string& path,
                               const std::function<void(const std::string& tmp_path)>& write);

/// True for a name writeFileAtomically* gives its temp files (also the older `<name>.tmp`): what a
/// process that died mid-write leaves behind.
bool isAtomicWriteTempName(const std::string& file_name);

/// Removes the temp files of `path` (`<path>.tmp.<pid>.<n>`) whose writer was killed before it
/// renamed or removed them, never one a live process is still writing.
void removeTempFilesOfDeadWriters(const std::string& path);

namespace atomic_file_testing {

/// Fault injection for tests: from now on, the writes of files whose path contains `path_part`
/// stop half-way through their first write() and fail with `error_number` (e.g. ENOSPC), as a
/// full disk would. Any thread may write meanwhile.
void failWrites(const std::string& path_part, int error_number);
void stopFailingWrites();

}  // namespace atomic_file_testing

}  // namespace ascope
