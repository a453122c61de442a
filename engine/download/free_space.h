#pragma once
// Room on a disk before a large write: a server's announced size is checked against it, so that a
// download that cannot fit fails at once with the numbers instead of filling the disk first.
#include <cstdint>
#include <string>

namespace ascope {

/// Bytes an unprivileged process may still write on the file system of the open file `fd`; -1
/// when the system does not say.
std::int64_t freeBytesOf(int fd);

/// The same for the file system that holds `path` (a file or a folder).
std::int64_t freeBytesAt(const std::string& path);

}  // namespace ascope
