#pragma once
// One HTTP(S) transfer into a ".part" file with libcurl, resuming what the file already holds:
// asks "Range: bytes=N-" when it is not empty; a 206 answer appends, a 200 answer (a server that
// ignores ranges) starts the file over, a 416 answer means the part is already whole when the
// server's length matches it, otherwise the part is discarded and fetched again.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/download/download_progress.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct TransferLimits {
  /// Seconds to wait for the connection.
  long connect_timeout_s = 30;
  /// Seconds without a byte before the transfer fails (the part is kept for resume).
  long stall_timeout_s = 60;
};

class ResumableDownload {
 public:
  /// `size_hint` (0: none) is the total reported to `progress` when the server sends no length.
  ResumableDownload(std::string url, std::string part_path, std::int64_t size_hint,
                    TransferLimits limits);

  /// Request headers to add, e.g. "Authorization: Bearer …". libcurl sends them to the URL's host
  /// only, never to the host of a redirect, so a token does not leak to a mirror or a CDN.
  void setHeaders(std::vector<std::string> headers) { headers_ = std::move(headers); }

  /// Runs the transfer; one at a time per object. Errors are one line naming the URL or the file
  /// and the reason (HTTP status, connection closed early, stalled, disk error, cancelled); the
  /// part file is kept whenever it holds bytes a later run can resume from.
  Status run(const ProgressCallback& progress, const std::atomic<bool>* cancel);

 private:
  enum class Attempt { kDone, kRestartFromZero };
  /// Opens the part file, runs one transfer, flushes and closes the file.
  Expected<Attempt> runOnce();
  /// The libcurl transfer itself, with fd_ open.
  Expected<Attempt> transfer();
  /// What the finished transfer means, from libcurl's result and the response.
  Expected<Attempt> outcomeOf(int curl_result, const char* curl_message);

  static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* self);
  static std::size_t onBody(char* data, std::size_t size, std::size_t count, void* self);
  static int onTick(void* self, std::int64_t, std::int64_t, std::int64_t, std::int64_t);

  /// On the first body bytes: checks the status and the range, positions the file.
  bool startBody();
  /// Calls the progress callback, at most every 100 ms unless `force`.
  void report(bool force);

  std::string url_;
  std::string part_path_;
  std::int64_t size_hint_;
  TransferLimits limits_;
  std::vector<std::string> headers_;

  // State of the attempt in progress; all of it lives on the calling thread.
  void* curl_ = nullptr;  ///< the CURL* (libcurl's handle type is void), kept out of this header
  int fd_ = -1;
  const ProgressCallback* progress_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  std::int64_t offset_ = 0;   ///< bytes already in the part when the attempt started
  std::int64_t written_ = 0;  ///< bytes written by this attempt
  std::int64_t total_ = 0;    ///< whole file size, 0 when unknown
  bool body_started_ = false;
  bool restart_from_zero_ = false;
  std::string status_line_;    ///< of the latest response, e.g. "HTTP/1.1 404 Not Found"
  std::string content_range_;  ///< of the latest response
  std::string disk_error_;
  std::int64_t last_report_ns_ = 0;
  std::int64_t last_report_bytes_ = 0;
  double bytes_per_s_ = 0;
};

}  // namespace ascope
