#pragma once
// One HTTP(S) transfer into a ".part" file with libcurl, resuming what the file already holds:
// asks "Range: bytes=N-" when it is not empty; a 206 answer appends, a 200 answer (a server that
// ignores ranges) starts the file over, a 416 answer means the part is already whole when the
// server's length matches it, otherwise the part is discarded and fetched again
// (part_file_writer.h). A cancel or a silent server ends it within a tenth of a second
// (curl_transfer.h).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/download/download_progress.h"
#include "engine/download/part_file_writer.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class ResumableDownload {
 public:
  /// `size_hint` (0: none) is the total reported to `progress` when the server sends no length.
  /// `max_bytes` (-1: none) is the most the file may be: a server that announces or sends more is
  /// refused before the disk fills.
  ResumableDownload(std::string url, std::string part_path, std::int64_t size_hint,
                    TransferLimits limits, std::int64_t max_bytes = -1);

  /// Request headers to add, e.g. "Authorization: Bearer …". libcurl sends them to the URL's host
  /// only, never to the host of a redirect, so a token does not leak to a mirror or a CDN.
  void setHeaders(std::vector<std::string> headers) { headers_ = std::move(headers); }

  /// Runs the transfer; one at a time per object. Errors are one line naming the URL or the file
  /// and the reason (HTTP status, connection closed early, stalled, disk error, too large, too
  /// many redirects, cancelled); the part file is kept whenever it holds bytes a later run can
  /// resume from.
  Status run(const ProgressCallback& progress, const std::atomic<bool>* cancel);

 private:
  enum class Attempt { kDone, kRestartFromZero };
  /// Opens the part file, runs one transfer, flushes and closes the file.
  Expected<Attempt> runOnce();
  /// The libcurl transfer itself, with fd_ open.
  Expected<Attempt> transfer();
  /// What the finished transfer means, from how it ended and the answer.
  Expected<Attempt> outcomeOf(int curl_result, const std::string& curl_message,
                              const std::string& stall_text);

  static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* self);
  static std::size_t onBody(char* data, std::size_t size, std::size_t count, void* self);

  /// Calls the progress callback, at most every 100 ms unless `force`.
  void report(bool force);

  std::string url_;
  std::string part_path_;
  std::int64_t size_hint_;
  TransferLimits limits_;
  std::int64_t max_bytes_;
  std::vector<std::string> headers_;

  // State of the attempt in progress; all of it lives on the calling thread.
  void* curl_ = nullptr;  ///< the CURL* (libcurl's handle type is void), kept out of this header
  int fd_ = -1;
  std::unique_ptr<PartFileWriter> writer_;
  const ProgressCallback* progress_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  std::int64_t last_report_ns_ = 0;
  std::int64_t last_report_bytes_ = 0;
  double bytes_per_s_ = 0;
};

}  // namespace ascope
