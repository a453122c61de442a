#include "engine/core/appended_rows_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "engine/core/atomic_file.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"

namespace ascope {

Expected<AppendedRowsFile> AppendedRowsFile::open(const std::string& path, std::string_view header,
                                                  bool resume, std::uint64_t max_bytes,
                                                  const std::function<bool(std::string_view)>& keep,
                                                  std::string what) {
  std::string kept = std::string(header) + "\n";
  std::error_code ec;
  if (resume && std::filesystem::exists(path, ec)) {
    // A FIFO or folder in its place is refused here rather than blocking or being replaced.
    Expected<std::string> text = readRegularFile(path, max_bytes);
    if (!text.ok()) return Error{text.error()};
    const std::vector<std::string_view> lines = splitLines(*text);
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
      if (keep(lines[i])) kept.append(lines[i]).push_back('\n');
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open for appending: " + std::strerror(errno)};
  return AppendedRowsFile(fd, path, std::move(what));
}

AppendedRowsFile::AppendedRowsFile(AppendedRowsFile&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      failing_(other.failing_),
      torn_(other.torn_) {
  other.fd_ = -1;
}

AppendedRowsFile::~AppendedRowsFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status AppendedRowsFile::append(std::string_view row) {
  std::string line = torn_ ? "\n" : "";
  line.append(row);
  const ssize_t written = ::write(fd_, line.data(), line.size());
  if (written == static_cast<ssize_t>(line.size())) {
    failing_ = torn_ = false;
    return {};
  }
  if (written > 0) torn_ = true;
  return fail(written < 0 ? errno : ENOSPC);
}

Status AppendedRowsFile::fail(int error) {
  if (failing_) return {};
  failing_ = true;
  return Error{path_ + ": cannot append " + what_ + " (" + std::strerror(error) +
               "); training goes on, the rows until there is room again are lost"};
}

}  // namespace ascope
