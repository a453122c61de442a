#pragma once
// Where the body of one HTTP answer goes in a ".part" file that may already hold the start of the
// file (resumable_download.h asked for "Range: bytes=<offset>-"): a 206 answer must continue at
// exactly that offset and is appended, a 200 answer (a server that ignores ranges) starts the file
// over, any other status is not the file. Before the first byte the announced size is checked
// against the most the file may be and against the free space of the part file's disk; while the
// body arrives, nothing past that most is written. No libcurl here: ResumableDownload hands over
// the answer's header lines, status and body, and so does tests/fuzz/hub_answer_fuzzer.cpp.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ascope {

class PartFileWriter {
 public:
  /// `fd`: the part file, open for writing and `offset` bytes long. `max_bytes`: the most the
  /// whole file may be (-1: no limit), e.g. the size the hub declared. `size_hint`: the total to
  /// report when the server sends no length (0: none).
  PartFileWriter(int fd, std::int64_t offset, std::int64_t max_bytes, std::int64_t size_hint);

  /// One header line of the answer. A status line starts a new answer (a redirect was followed).
  void onHeaderLine(std::string_view line);

  /// Before the first body byte, with the answer's status and Content-Length (-1: none). False:
  /// the body is not to be written; then restartFromZero() or error() says why, or neither for a
  /// status that is not 200 or 206 (the caller names the status).
  bool begin(long status, std::int64_t content_length);

  /// Writes the next body bytes. False (with error()) on a disk error, or when they would take the
  /// file past max_bytes: then none of them is written.
  bool write(const char* data, std::size_t size);

  bool started() const { return started_; }
  /// Bytes in the part file before this answer's body.
  std::int64_t offset() const { return offset_; }
  /// Body bytes written.
  std::int64_t written() const { return written_; }
  /// The whole file's size as announced (or the hint); 0 when unknown.
  std::int64_t total() const { return total_; }
  /// A 206 answer for another range than asked: the part must be fetched again from byte zero.
  bool restartFromZero() const { return restart_from_zero_; }
  /// Why the body was refused or stopped; empty when it was not.
  const std::string& error() const { return error_; }
  /// The latest answer's status line as sent ("HTTP/1.1 404 Not Found"), and its Content-Range.
  const std::string& statusLine() const { return status_line_; }
  const std::string& contentRange() const { return content_range_; }
  /// The latest answer's Location (a redirect's target, as sent).
  const std::string& location() const { return location_; }

 private:
  /// False (with error_) when the announced total does not fit max_bytes or the disk.
  bool totalFits();

  int fd_;
  std::int64_t offset_;
  std::int64_t max_bytes_;
  std::int64_t size_hint_;
  std::int64_t written_ = 0;
  std::int64_t total_ = 0;
  bool started_ = false;
  bool restart_from_zero_ = false;
  std::string error_;
  std::string status_line_;
  std::string content_range_;
  std::string location_;
};

/// The numbers of a Content-Range value: "bytes 100-199/200" or "bytes */200"; -1 when absent.
struct ContentRange {
  std::int64_t start = -1;
  std::int64_t end = -1;
  std::int64_t total = -1;

  static ContentRange parse(std::string_view value);
};

}  // namespace ascope
