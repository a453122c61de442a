#pragma once
// A CSV file training appends to row by row (metrics.csv, head_stats.csv). Each row goes out with
// one write() on an O_APPEND descriptor, so it is never interleaved or left half-buffered by stdio.
// A full disk is said once, when writing starts to fail, and the file stays line-aligned: after a
// short write the next row starts on a line of its own, so a reader skips only the torn one.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

class AppendedRowsFile {
 public:
  /// What a resumed run does with a row of the file.
  enum class Row {
    kKeep,        ///< written up to the checkpoint the run resumes from
    kAfter,       ///< written after that checkpoint: the resumed run writes it again
    kUnreadable,  ///< not a row the writer could have written (an edit, a torn write)
  };
  using Judge = std::function<Row(std::string_view line)>;

  /// Opens `path` for appending under `header`. On resume the file (a regular file of at most
  /// `max_bytes`, not a symbolic link) keeps its rows but those `judge` finds kAfter, rewritten
  /// atomically; otherwise it starts afresh with the header. A row that cannot be read is kept as
  /// it is (readers skip it and say so), except a last line cut short by the interruption; either
  /// is said in `warnings` (resume deleted hand-edited rows without a word). `what`
  /// names the rows in messages ("the metrics").
  static Expected<AppendedRowsFile> open(const std::string& path, std::string_view header,
                                         bool resume, std::uint64_t max_bytes, const Judge& judge,
                                         std::string what,
                                         std::vector<std::string>* warnings = nullptr);
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
