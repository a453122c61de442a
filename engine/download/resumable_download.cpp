#include "engine/download/resumable_download.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

namespace ascope {
namespace {

constexpr std::int64_t kReportIntervalNs = 100'000'000;  // at most ~10 progress calls a second
constexpr int kMaxAttempts = 2;                          // the first, and one from byte zero
constexpr long kMaxRedirects = 10;

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t fileSize(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<std::int64_t>(info.st_size) : 0;
}

/// The numbers of a Content-Range value: "bytes 100-199/200" or "bytes */200"; -1 when absent.
struct ContentRange {
  std::int64_t start = -1;
  std::int64_t total = -1;
};

ContentRange parseContentRange(const std::string& value) {
  ContentRange range;
  long long start = 0, end = 0, total = 0;
  if (std::sscanf(value.c_str(), "bytes %lld-%lld/%lld", &start, &end, &total) == 3) {
    range.start = start;
    range.total = total;
  } else if (std::sscanf(value.c_str(), "bytes */%lld", &total) == 1) {
    range.total = total;
  }
  return range;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  const std::size_t first = text.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : text.substr(first);
}

bool startsWithNoCase(const std::string& text, const char* prefix) {
  return ::strncasecmp(text.c_str(), prefix, std::strlen(prefix)) == 0;
}

}  // namespace

ResumableDownload::ResumableDownload(std::string url, std::string part_path, std::int64_t size_hint,
                                     TransferLimits limits)
    : url_(std::move(url)),
      part_path_(std::move(part_path)),
      size_hint_(size_hint),
      limits_(limits) {}

Status ResumableDownload::run(const ProgressCallback& progress, const std::atomic<bool>* cancel) {
  initCurlOnce();
  progress_ = &progress;
  cancel_ = cancel;
  for (int attempt = 1;; ++attempt) {
    Expected<Attempt> outcome = runOnce();
    if (!outcome.ok()) return Error{outcome.error()};
    if (*outcome == Attempt::kDone) return {};
    if (attempt == kMaxAttempts) {
      return Error{url_ + ": the server cannot resume " + part_path_ +
                   " and a fresh download did not work either"};
    }
    spdlog::warn("{}: cannot resume {}; downloading it again from the start", url_, part_path_);
    std::remove(part_path_.c_str());
  }
}

Expected<ResumableDownload::Attempt> ResumableDownload::runOnce() {
  offset_ = fileSize(part_path_);
  written_ = 0;
  total_ = 0;
  body_started_ = false;
  restart_from_zero_ = false;
  status_line_.clear();
  content_range_.clear();
  disk_error_.clear();
  bytes_per_s_ = 0;
  last_report_ns_ = nowNs();
  last_report_bytes_ = offset_;
  fd_ = ::open(part_path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return Error{part_path_ + ": cannot open for writing: " + std::strerror(errno)};
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {  // two downloads appending to one part corrupt it
    ::close(fd_);
    fd_ = -1;
    return Error{part_path_ + ": another download is writing this file"};
  }

  Expected<Attempt> outcome = transfer();
  if (outcome.ok() && *outcome == Attempt::kDone && ::fsync(fd_) != 0) {
    outcome = Error{part_path_ + ": cannot flush to disk: " + std::strerror(errno)};
  }
  if (!outcome.ok() && ::lseek(fd_, 0, SEEK_END) == 0) {
    ::unlink(part_path_.c_str());  // nothing to resume from; removed while we hold the lock
  }
  if (::close(fd_) != 0 && outcome.ok()) {
    outcome = Error{part_path_ + ": cannot close: " + std::strerror(errno)};
  }
  fd_ = -1;
  return outcome;
}

Expected<ResumableDownload::Attempt> ResumableDownload::transfer() {
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Error{url_ + ": cannot start libcurl"};
  curl_ = curl.get();
  char curl_message[CURL_ERROR_SIZE] = "";
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_message);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // we run on worker threads
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, kMaxRedirects);
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
  curl_easy_setopt(c, CURLOPT_USERAGENT, "AttentionScope dataset downloader");
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, limits_.connect_timeout_s);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, limits_.stall_timeout_s);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &ResumableDownload::onHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, this);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &ResumableDownload::onBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &ResumableDownload::onTick);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, this);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(
      [this] {
        curl_slist* list = nullptr;
        for (const std::string& header : headers_) list = curl_slist_append(list, header.c_str());
        return list;
      }(),
      &curl_slist_free_all);
  if (header_list) curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  const std::string range = std::to_string(offset_) + "-";
  if (offset_ > 0) {
    // CURLOPT_RANGE rather than CURLOPT_RESUME_FROM: the latter fails on a 200 answer, and we
    // want to start over then.
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
    spdlog::info("{}: resuming {} at byte {}", url_, part_path_, offset_);
  }
  const CURLcode result = curl_easy_perform(c);
  Expected<Attempt> outcome = outcomeOf(result, curl_message);
  curl_ = nullptr;
  return outcome;
}

Expected<ResumableDownload::Attempt> ResumableDownload::outcomeOf(int curl_result,
                                                                  const char* curl_message) {
  if (restart_from_zero_) return Attempt::kRestartFromZero;
  const std::int64_t on_disk = offset_ + written_;
  const std::string kept =
      on_disk > 0 ? "; " + std::to_string(on_disk) + " bytes kept in " + part_path_ + " to resume"
                  : std::string();
  if (cancel_ != nullptr && cancel_->load()) return Error{url_ + ": cancelled" + kept};
  if (!disk_error_.empty()) return Error{part_path_ + ": cannot write: " + disk_error_};

  long code = 0;
  curl_easy_getinfo(static_cast<CURL*>(curl_), CURLINFO_RESPONSE_CODE, &code);
  if (code == 416) {
    // Range not satisfiable: our offset is at or past the end. Whole when the sizes agree.
    const ContentRange range = parseContentRange(content_range_);
    if (offset_ > 0 && range.total == offset_) {
      total_ = offset_;
      report(true);
      return Attempt::kDone;
    }
    return Attempt::kRestartFromZero;
  }
  if (code != 0 && code != 200 && code != 206) {
    const std::string status = trimmed(status_line_);
    const std::size_t space = status.find(' ');
    return Error{url_ + ": HTTP " +
                 (space == std::string::npos ? std::to_string(code) : status.substr(space + 1))};
  }
  if (curl_result == CURLE_PARTIAL_FILE) {
    return Error{url_ + ": connection closed after " + std::to_string(on_disk) +
                 (total_ > 0 ? " of " + std::to_string(total_) : std::string()) + " bytes" + kept};
  }
  if (curl_result == CURLE_OPERATION_TIMEDOUT) {
    return Error{url_ +
                 (body_started_ ? ": no data for " + std::to_string(limits_.stall_timeout_s) + " s"
                                : ": timed out connecting") +
                 kept};
  }
  if (curl_result != CURLE_OK) {
    const std::string reason = curl_message[0] != '\0'
                                   ? std::string(curl_message)
                                   : curl_easy_strerror(static_cast<CURLcode>(curl_result));
    return Error{url_ + ": " + reason + kept};
  }
  if (!body_started_ && code == 200 && ::ftruncate(fd_, 0) != 0) {  // an empty 200 answer
    return Error{part_path_ + ": cannot write: " + std::strerror(errno)};
  }
  if (total_ == 0) total_ = offset_ + written_;
  report(true);
  return Attempt::kDone;
}

std::size_t ResumableDownload::onHeader(char* data, std::size_t size, std::size_t count,
                                        void* self) {
  auto* me = static_cast<ResumableDownload*>(self);
  const std::string line(data, size * count);
  if (startsWithNoCase(line, "HTTP/")) {  // a new response (after a redirect or a 100 Continue)
    me->status_line_ = line;
    me->content_range_.clear();
  } else if (startsWithNoCase(line, "Content-Range:")) {
    me->content_range_ = trimmed(line.substr(std::strlen("Content-Range:")));
  }
  return size * count;
}

std::size_t ResumableDownload::onBody(char* data, std::size_t size, std::size_t count, void* self) {
  auto* me = static_cast<ResumableDownload*>(self);
  const std::size_t bytes = size * count;
  if (me->cancel_ != nullptr && me->cancel_->load()) return 0;
  if (!me->body_started_ && !me->startBody()) return 0;
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::write(me->fd_, data + done, bytes - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      me->disk_error_ = std::strerror(errno);
      return 0;
    }
    done += static_cast<std::size_t>(n);
  }
  me->written_ += static_cast<std::int64_t>(bytes);
  me->report(false);
  return bytes;
}

int ResumableDownload::onTick(void* self, std::int64_t, std::int64_t, std::int64_t, std::int64_t) {
  auto* me = static_cast<ResumableDownload*>(self);
  if (me->cancel_ != nullptr && me->cancel_->load()) return 1;  // aborts the transfer
  if (me->body_started_) me->report(false);
  return 0;
}

bool ResumableDownload::startBody() {
  CURL* c = static_cast<CURL*>(curl_);
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  if (code != 200 && code != 206) return false;  // an error page is not the file; see outcomeOf
  curl_off_t length = -1;
  curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  if (code == 206) {
    const ContentRange range = parseContentRange(content_range_);
    if (range.start != offset_) {
      spdlog::warn("{}: asked for bytes from {}, the server sent \"{}\"", url_, offset_,
                   content_range_);
      restart_from_zero_ = true;
      return false;
    }
    total_ = range.total > 0 ? range.total : (length >= 0 ? offset_ + length : 0);
  } else {
    if (offset_ > 0) spdlog::info("{}: the server does not resume; starting over", url_);
    offset_ = 0;
    total_ = length >= 0 ? length : 0;
  }
  if (total_ == 0) total_ = size_hint_;
  if (::ftruncate(fd_, offset_) != 0 || ::lseek(fd_, offset_, SEEK_SET) < 0) {
    disk_error_ = std::strerror(errno);
    return false;
  }
  body_started_ = true;
  last_report_ns_ = nowNs();
  last_report_bytes_ = offset_;
  return true;
}

void ResumableDownload::report(bool force) {
  if (progress_ == nullptr || !*progress_) return;
  const std::int64_t now = nowNs();
  const std::int64_t elapsed_ns = now - last_report_ns_;
  if (!force && elapsed_ns < kReportIntervalNs) return;
  const std::int64_t done = offset_ + written_;
  if (elapsed_ns >= kReportIntervalNs / 2) {  // too short an interval says nothing about the rate
    const double rate =
        static_cast<double>(done - last_report_bytes_) * 1e9 / static_cast<double>(elapsed_ns);
    bytes_per_s_ = bytes_per_s_ == 0 ? rate : 0.7 * bytes_per_s_ + 0.3 * rate;
  }
  last_report_ns_ = now;
  last_report_bytes_ = done;
  (*progress_)(done, total_, bytes_per_s_);
}

}  // namespace ascope
