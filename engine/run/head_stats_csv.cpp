#include "engine/run/head_stats_csv.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "engine/core/atomic_file.h"
#include "engine/data/regular_file.h"
#include "engine/data/text_lines.h"

namespace ascope {
namespace {

/// "0.123457" (six significant digits, like %.6g) or "nan". std::to_chars ignores the locale,
/// which snprintf would not: a GUI under a decimal-comma locale would write "0,5".
std::string formatValue(double value) {
  if (!std::isfinite(value)) return "nan";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::general, 6);
  return std::string(buffer.data(), result.ptr);
}

std::string formatRow(int64_t step, const HeadStatistic& s) {
  return std::to_string(step) + "," + s.group + "," + std::to_string(s.layer) + "," +
         std::to_string(s.head) + "," + s.metric + "," + formatValue(s.value);
}

}  // namespace

Expected<HeadStatsCsvWriter> HeadStatsCsvWriter::open(const std::string& path, bool resume,
                                                      int64_t keep_up_to_step) {
  std::string kept = std::string(kHeadStatsCsvHeader) + "\n";
  std::error_code ec;
  if (resume && std::filesystem::exists(path, ec)) {
    // A FIFO or folder in its place is refused here rather than blocking or being replaced.
    Expected<std::string> text = readRegularFile(path, kMaxHeadStatsCsvBytes);
    if (!text.ok()) return Error{text.error()};
    const std::vector<std::string_view> lines = splitLines(*text);
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
      // Torn rows from the interruption and other unparsable rows are dropped.
      const Expected<HeadStatsRow> row = parseHeadStatsRow(lines[i]);
      if (row.ok() && row->step <= keep_up_to_step) kept.append(lines[i]).push_back('\n');
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open for appending: " + std::strerror(errno)};
  return HeadStatsCsvWriter(fd, path);
}

HeadStatsCsvWriter::HeadStatsCsvWriter(HeadStatsCsvWriter&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), failing_(other.failing_), torn_(other.torn_) {
  other.fd_ = -1;
}

HeadStatsCsvWriter::~HeadStatsCsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status HeadStatsCsvWriter::append(int64_t step, const std::vector<HeadStatistic>& statistics) {
  std::string refused;  // the first statistic not written for what it holds
  int write_error = 0;  // the error that started a failing stretch, to be said once
  for (const HeadStatistic& statistic : statistics) {
    const std::string row = formatRow(step, statistic);
    // What the reader would refuse is not written: it would make the whole file unreadable.
    if (Expected<HeadStatsRow> check = parseHeadStatsRow(row); !check.ok()) {
      if (refused.empty()) refused = check.error();
      continue;
    }
    int error = 0;
    if (writeRow(row + "\n", &error) || failing_) continue;
    failing_ = true;
    if (write_error == 0) write_error = error;
  }
  if (write_error != 0) {
    return Error{path_ + ": cannot append the head statistics (" + std::strerror(write_error) +
                 "); training goes on, the rows until there is room again are lost"};
  }
  if (!refused.empty()) {
    return Error{path_ + ": a head statistic of step " + std::to_string(step) +
                 " was not written: " + refused};
  }
  return {};
}

bool HeadStatsCsvWriter::writeRow(const std::string& row, int* error) {
  // After a short write (a full disk) the file ends in a torn row: the next row starts on a line
  // of its own, so that the reader skips only the torn one.
  const std::string line = torn_ ? "\n" + row : row;
  const ssize_t written = ::write(fd_, line.data(), line.size());
  if (written == static_cast<ssize_t>(line.size())) {
    failing_ = torn_ = false;
    return true;
  }
  *error = written < 0 ? errno : ENOSPC;
  if (written > 0) torn_ = true;
  return false;
}

}  // namespace ascope
