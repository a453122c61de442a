#pragma once
// A CSV file training appends to row by row (metrics.csv, head_stats.csv). Each row goes out with
// one write() on an O_APPEND descriptor, so it is never interleaved or left half-buffered by stdio.
// A full disk is said once, when writing starts to fail, and the file stays line-aligned: after a
// short write the next row starts on a line of its own, so a reader skips only the torn one.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

class AppendedRowsFile {
 public:
  /// Opens `path` for appending under `header`. On resume the file (a regular file of at most
  /// `max_bytes`) keeps the rows `keep` accepts (rows written after the checkpoint the run
  /// resumes from, and rows cut short, are dropped), rewritten atomically; otherwise it starts
  /// afresh with the header. `what` names the rows in the error of a full disk ("the metrics").
  static Expected<AppendedRowsFile> open(const std::string& path, std::string_view header,
                                         bool resume, std::uint64_t max_bytes,
                                         const std::function<bool(std::string_view)>& keep,
                                         std::string what);
  AppendedRowsFile(AppendedRowsFile&& other) noexcept;
  AppendedRowsFile& operator=(AppendedRowsFile&&) = delete;
  AppendedRowsFile(const AppendedRowsFile&) = delete;
  ~AppendedRowsFile();

  /// Appends `row` (ending in a newline). An error only when writing starts to fail; ok again
  /// once rows get through.
  [[nodiscard]] Status append(std::string_view row);
  /// A row that could not even be made (errno-like `error`) counts as a failed write.
  [[nodiscard]] Status fail(int error);

  const std::string& path() const { return path_; }

 private:
  AppendedRowsFile(int fd, std::string path, std::string what)
      : fd_(fd), path_(std::move(path)), what_(std::move(what)) {}
  int fd_ = -1;
  std::string path_;
  std::string what_;
  bool failing_ = false;
  bool torn_ = false;  // the last write was cut short: the file does not end with a newline
};

}  // namespace ascope
