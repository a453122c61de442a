#pragma once
// Reading files that a person or a run folder names, without ever blocking in open(): a FIFO,
// a character device (/dev/zero, a tty) or a socket given where a file belongs would block the
// caller forever (a FIFO with no writer) or read endlessly (/dev/zero). Every reader of a
// user-given or run-folder file goes through these, or calls requireRegularFile before a library
// (LibTorch, OpenCV) opens the path itself.
#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Whether a symbolic link in a file's place is followed. A file a person names may be one; a
/// run folder's own files (config.json, metrics.csv, log.txt, snapshots, …) may not: a log.txt
/// linked to /etc/passwd showed that file in the Log dock. kRefuse refuses the link by name
/// (refuseSymbolicLink's message) and opens with O_NOFOLLOW, so a link swapped in after the
/// check is refused too.
enum class Links { kFollow, kRefuse };

/// OK when `path` is a regular file (symlinks followed). Errors name the path and what it is
/// instead: "/tmp/p is not a regular file (a FIFO)", "x: is a folder, not a file",
/// "x: cannot open: No such file or directory". Costs one stat(), opens nothing.
Status requireRegularFile(const std::string& path);

/// What the symbolic link `path` points to, as a message may quote it (printableText); empty
/// when it is no link or cannot be read.
std::string symbolicLinkTargetText(const std::string& path);

/// OK unless `path` itself is a symbolic link (a path that does not exist is OK). A run folder's
/// files are its own: a link in their place would have a resumed run append to, or read, a file
/// anywhere ("RUN/log.txt is a symbolic link (to /tmp/notes.txt): …"). Costs one lstat().
Status refuseSymbolicLink(const std::string& path);

/// requireRegularFile, or with Links::kRefuse the same for `path` itself, not what it links to
/// (a link is refused).
Status requireRegularFile(const std::string& path, Links links);

/// What a file of stat's `mode` is, for messages: "a FIFO", "a character device", "a block
/// device", "a socket", "a symbolic link", "a folder", "a file".
std::string fileKindName(unsigned mode);

/// "1.5 MiB", "512 MiB", "300 bytes": sizes in messages.
std::string describeByteCount(std::uint64_t bytes);

/// The whole of a regular file, refusing anything else (see requireRegularFile) and files over
/// `max_bytes` ("x is 600 MiB, over the 512 MiB limit for this file"). Opened with O_NONBLOCK and
/// checked again with fstat, so a FIFO swapped in after the stat() cannot block either.
Expected<std::string> readRegularFile(const std::string& path, std::uint64_t max_bytes,
                                      Links links = Links::kFollow);

/// The end of a regular file: at most `max_bytes` of its last bytes. `cut` tells whether the
/// file was longer (the first line of the result is then likely partial).
struct FileTail {
  std::string bytes;
  bool cut = false;
};
Expected<FileTail> readRegularFileTail(const std::string& path, std::uint64_t max_bytes,
                                       Links links = Links::kFollow);

/// The first `max_bytes` of a regular file (all of it when shorter): a header line, without
/// reading a large file whole. Errors as readRegularFile's.
Expected<std::string> readRegularFileHead(const std::string& path, std::uint64_t max_bytes,
                                          Links links = Links::kFollow);

}  // namespace ascope
