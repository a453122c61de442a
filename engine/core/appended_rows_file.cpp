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

namespace {

/// "line 7", "lines 7 and 9", "lines 7, 9, 12 and 2 more".
std::string lineList(const std::vector<std::size_t>& lines) {
  constexpr std::size_t kShown = 3;
  std::string text = lines.size() == 1 ? "line " : "lines ";
  for (std::size_t i = 0; i < lines.size() && i < kShown; ++i) {
    if (i > 0) text += (i + 1 == lines.size() ? " and " : ", ");
    text += std::to_string(lines[i]);
  }
  if (lines.size() > kShown) text += " and " + std::to_string(lines.size() - kShown) + " more";
  return text;
}

}  // namespace

Expected<AppendedRowsFile> AppendedRowsFile::open(const std::string& path, std::string_view header,
                                                  bool resume, std::uint64_t max_bytes,
                                                  const Judge& judge, std::string what,
                                                  std::vector<std::string>* warnings) {
  std::string kept = std::string(header) + "\n";
  std::error_code ec;
  if (Status s = refuseSymbolicLink(path); !s.ok()) return Error{s.error()};
  if (resume && std::filesystem::exists(path, ec)) {
    // A FIFO or folder in its place is refused here rather than blocking or being replaced.
    Expected<std::string> text = readRegularFile(path, max_bytes);
    if (!text.ok()) return Error{text.error()};
    const std::vector<std::string_view> lines = splitLines(*text);
    const bool cut_short = !text->empty() && text->back() != '\n';
    std::vector<std::size_t> unreadable;
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
      if (lines[i].empty()) continue;
      const Row row = judge(lines[i]);
      if (row == Row::kAfter) continue;
      if (row == Row::kUnreadable && i + 1 == lines.size() && cut_short) {
        if (warnings != nullptr) {
          warnings->push_back(path +
                              ": its last line was cut short (the run stopped while "
                              "writing it) and is dropped");
        }
        continue;
      }
      if (row == Row::kUnreadable) unreadable.push_back(i + 1);
      kept.append(lines[i]).push_back('\n');
    }
    if (!unreadable.empty() && warnings != nullptr) {
      const bool one = unreadable.size() == 1;
      warnings->push_back(
          path + ": " + lineList(unreadable) + (one ? " is not a row" : " are not rows") +
          " this program writes, kept as written (readers skip " + (one ? "it" : "them") + ")");
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  // O_NOFOLLOW: the file just written is a regular one; a link put in its place since is refused.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
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
