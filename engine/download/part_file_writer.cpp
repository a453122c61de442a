#include "engine/download/part_file_writer.h"

#include <strings.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <limits>

#include "engine/download/byte_count_text.h"
#include "engine/download/free_space.h"

namespace ascope {
namespace {

constexpr std::int64_t kMaxNumber = std::numeric_limits<std::int64_t>::max() / 10 - 10;

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// Reads the whole number at `text`'s start into `value` and drops it from `text`; false when
/// there is none or it is too large to be a byte count.
bool takeNumber(std::string_view& text, std::int64_t& value) {
  std::size_t digits = 0;
  value = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) {
    if (value > kMaxNumber) return false;
    value = value * 10 + (text[digits] - '0');
    ++digits;
  }
  text.remove_prefix(digits);
  return digits > 0;
}

bool takeChar(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

ContentRange ContentRange::parse(std::string_view value) {
  ContentRange range;
  value = trimmed(value);
  if (value.size() < 6 || ::strncasecmp(value.data(), "bytes ", 6) != 0) return range;
  value.remove_prefix(6);
  std::int64_t start = 0, end = 0, total = 0;
  if (takeChar(value, '*')) {
    if (takeChar(value, '/') && takeNumber(value, total) && value.empty()) range.total = total;
    return range;
  }
  if (!takeNumber(value, start) || !takeChar(value, '-') || !takeNumber(value, end) ||
      !takeChar(value, '/') || end < start) {
    return range;
  }
  range.start = start;
  range.end = end;
  if (takeChar(value, '*') && value.empty()) return range;  // total unknown
  if (takeNumber(value, total) && value.empty() && total > end) range.total = total;
  return range;
}

PartFileWriter::PartFileWriter(int fd, std::int64_t offset, std::int64_t max_bytes,
                               std::int64_t size_hint)
    : fd_(fd), offset_(offset), max_bytes_(max_bytes), size_hint_(size_hint) {}

void PartFileWriter::onHeaderLine(std::string_view line) {
  if (line.size() >= 5 && ::strncasecmp(line.data(), "HTTP/", 5) == 0) {
    status_line_ = std::string(trimmed(line));  // a new answer (after a redirect or a 100)
    content_range_.clear();
    location_.clear();
  } else if (line.size() >= 14 && ::strncasecmp(line.data(), "Content-Range:", 14) == 0) {
    content_range_ = std::string(trimmed(line.substr(14)));
  } else if (line.size() >= 9 && ::strncasecmp(line.data(), "Location:", 9) == 0) {
    location_ = std::string(trimmed(line.substr(9)));
  }
}

bool PartFileWriter::begin(long status, std::int64_t content_length) {
  if (status != 200 && status != 206) return false;  // an error page is not the file
  if (status == 206) {
    const ContentRange range = ContentRange::parse(content_range_);
    if (range.start != offset_) {
      restart_from_zero_ = true;
      return false;
    }
    const std::int64_t room = std::numeric_limits<std::int64_t>::max() - offset_;
    total_ = range.total > 0         ? range.total
             : content_length < 0    ? 0
             : content_length > room ? std::numeric_limits<std::int64_t>::max()  // refused below
                                     : offset_ + content_length;
  } else {
    offset_ = 0;  // the server does not resume: the file starts over
    total_ = content_length >= 0 ? content_length : 0;
  }
  if (!totalFits()) return false;
  if (total_ == 0) total_ = size_hint_;
  if (::ftruncate(fd_, offset_) != 0 || ::lseek(fd_, offset_, SEEK_SET) < 0) {
    error_ = std::string("cannot write: ") + std::strerror(errno);
    return false;
  }
  started_ = true;
  return true;
}

bool PartFileWriter::totalFits() {
  if (total_ <= 0) return true;
  if (max_bytes_ >= 0 && total_ > max_bytes_) {
    error_ = "the server announces " + std::to_string(total_) + " bytes, more than the " +
             std::to_string(max_bytes_) + " expected";
    return false;
  }
  const std::int64_t free = freeBytesOf(fd_);
  const std::int64_t needed = total_ - offset_;
  if (free >= 0 && needed > free) {
    error_ = "needs " + byteCountText(needed) + " more on its disk, which has " +
             byteCountText(free) + " free";
    return false;
  }
  return true;
}

bool PartFileWriter::write(const char* data, std::size_t size) {
  const auto bytes = static_cast<std::int64_t>(size);
  if (max_bytes_ >= 0 && offset_ + written_ + bytes > max_bytes_) {
    error_ = "the server sent more than the " + std::to_string(max_bytes_) + " bytes expected";
    return false;
  }
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = std::string("cannot write: ") + (n < 0 ? std::strerror(errno) : "no progress");
      written_ += static_cast<std::int64_t>(done);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  written_ += bytes;
  return true;
}

}  // namespace ascope
