#include "engine/download/resumable_download.h"

#include <strings.h>

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
#include <mutex>

#include "engine/download/curl_transfer.h"
#include "engine/download/server_text.h"

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

}  // namespace

ResumableDownload::ResumableDownload(std::string url, std::string part_path, std::int64_t size_hint,
                                     TransferLimits limits, std::int64_t max_bytes)
    : url_(std::move(url)),
      part_path_(std::move(part_path)),
      size_hint_(size_hint),
      limits_(limits),
      max_bytes_(max_bytes) {}

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
  const std::int64_t offset = fileSize(part_path_);
  bytes_per_s_ = 0;
  last_report_ns_ = nowNs();
  last_report_bytes_ = offset;
  fd_ = ::open(part_path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return Error{part_path_ + ": cannot open for writing: " + std::strerror(errno)};
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {  // two downloads appending to one part corrupt it
    ::close(fd_);
    fd_ = -1;
    return Error{part_path_ + ": another download is writing this file"};
  }
  writer_ = std::make_unique<PartFileWriter>(fd_, offset, max_bytes_, size_hint_);

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
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &ResumableDownload::onHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, this);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &ResumableDownload::onBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, this);
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(
      [this] {
        curl_slist* list = nullptr;
        for (const std::string& header : headers_) list = curl_slist_append(list, header.c_str());
        return list;
      }(),
      &curl_slist_free_all);
  if (header_list) curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  const std::int64_t offset = writer_->offset();
  const std::string range = std::to_string(offset) + "-";
  if (offset > 0) {
    // CURLOPT_RANGE rather than CURLOPT_RESUME_FROM: the latter fails on a 200 answer, and we
    // want to start over then.
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
    spdlog::info("{}: resuming {} at byte {}", url_, part_path_, offset);
  }
  CurlTransfer run(c, limits_, cancel_);
  const CurlTransfer::End end = run.run();
  Expected<Attempt> outcome = end == CurlTransfer::End::kCancelled
                                  ? outcomeOf(CURLE_ABORTED_BY_CALLBACK, "", "")
                              : end == CurlTransfer::End::kStalled
                                  ? outcomeOf(CURLE_OPERATION_TIMEDOUT, "", run.stallText())
                                  : outcomeOf(run.curlCode(), curl_message, "");
  curl_ = nullptr;
  return outcome;
}

Expected<ResumableDownload::Attempt> ResumableDownload::outcomeOf(int curl_result,
                                                                  const std::string& curl_message,
                                                                  const std::string& stall_text) {
  const PartFileWriter& writer = *writer_;
  if (writer.restartFromZero()) {
    spdlog::warn("{}: asked for bytes from {}, the server sent \"{}\"", url_, writer.offset(),
                 printableServerText(writer.contentRange()));
    return Attempt::kRestartFromZero;
  }
  const std::int64_t on_disk = writer.offset() + writer.written();
  const std::string kept =
      on_disk > 0 ? "; " + std::to_string(on_disk) + " bytes kept in " + part_path_ + " to resume"
                  : std::string();
  if (cancel_ != nullptr && cancel_->load()) return Error{url_ + ": cancelled" + kept};
  if (!writer.error().empty()) return Error{url_ + ": " + part_path_ + ": " + writer.error()};

  if (curl_result == CURLE_TOO_MANY_REDIRECTS) {
    char* last = nullptr;
    curl_easy_getinfo(static_cast<CURL*>(curl_), CURLINFO_EFFECTIVE_URL, &last);
    return Error{url_ + ": too many redirects (more than " + std::to_string(kMaxRedirects) + ")" +
                 (last != nullptr ? ", the last to " + printableServerText(last) : std::string())};
  }
  long code = 0;
  curl_easy_getinfo(static_cast<CURL*>(curl_), CURLINFO_RESPONSE_CODE, &code);
  if (code >= 300 && code < 400 && !writer.location().empty()) {
    // A redirect libcurl would not follow (CURLOPT_REDIR_PROTOCOLS_STR: http and https only): a
    // server sending us to file:///etc/passwd is refused as such, not as "HTTP 302 Found".
    const std::string& to = writer.location();
    const bool http = ::strncasecmp(to.c_str(), "http://", 7) == 0 ||
                      ::strncasecmp(to.c_str(), "https://", 8) == 0 || to.rfind('/', 0) == 0;
    if (!http || curl_result == CURLE_UNSUPPORTED_PROTOCOL) {
      return Error{url_ + ": redirected to \"" + printableServerText(to) +
                   "\", which is not an http(s) address: refused"};
    }
  }
  if (code == 416) {
    // Range not satisfiable: our offset is at or past the end. Whole when the sizes agree.
    const ContentRange range = ContentRange::parse(writer.contentRange());
    if (writer.offset() > 0 && range.total == writer.offset()) {
      if (max_bytes_ >= 0 && range.total > max_bytes_) return Attempt::kRestartFromZero;
      report(true);
      return Attempt::kDone;
    }
    return Attempt::kRestartFromZero;
  }
  if (code != 0 && code != 200 && code != 206) {
    const std::string status = writer.statusLine();
    const std::size_t space = status.find(' ');
    return Error{url_ + ": HTTP " +
                 (space == std::string::npos ? std::to_string(code)
                                             : printableServerText(status.substr(space + 1)))};
  }
  if (curl_result == CURLE_PARTIAL_FILE) {
    return Error{url_ + ": connection closed after " + std::to_string(on_disk) +
                 (writer.total() > 0 ? " of " + std::to_string(writer.total()) : std::string()) +
                 " bytes" + kept};
  }
  if (curl_result == CURLE_OPERATION_TIMEDOUT) {
    return Error{url_ + ": " +
                 (stall_text.empty()
                      ? "could not connect within " + secondsText(limits_.connect_timeout_s)
                      : stall_text) +
                 kept};
  }
  if (curl_result != CURLE_OK) {
    const std::string reason = !curl_message.empty()
                                   ? curl_message
                                   : curl_easy_strerror(static_cast<CURLcode>(curl_result));
    return Error{url_ + ": " + reason + kept};
  }
  if (!writer.started() && code == 200 && ::ftruncate(fd_, 0) != 0) {  // an empty 200 answer
    return Error{part_path_ + ": cannot write: " + std::strerror(errno)};
  }
  report(true);
  return Attempt::kDone;
}

std::size_t ResumableDownload::onHeader(char* data, std::size_t size, std::size_t count,
                                        void* self) {
  static_cast<ResumableDownload*>(self)->writer_->onHeaderLine(
      std::string_view(data, size * count));
  return size * count;
}

std::size_t ResumableDownload::onBody(char* data, std::size_t size, std::size_t count, void* self) {
  auto* me = static_cast<ResumableDownload*>(self);
  PartFileWriter& writer = *me->writer_;
  if (me->cancel_ != nullptr && me->cancel_->load()) return 0;
  if (!writer.started()) {
    CURL* c = static_cast<CURL*>(me->curl_);
    long code = 0;
    curl_off_t length = -1;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (code == 200 && writer.offset() > 0) {
      spdlog::info("{}: the server does not resume; starting over", me->url_);
    }
    if (!writer.begin(code, length)) return 0;
    me->last_report_ns_ = nowNs();
    me->last_report_bytes_ = writer.offset();
  }
  if (!writer.write(data, size * count)) return 0;
  me->report(false);
  return size * count;
}

void ResumableDownload::report(bool force) {
  if (progress_ == nullptr || !*progress_) return;
  const std::int64_t now = nowNs();
  const std::int64_t elapsed_ns = now - last_report_ns_;
  if (!force && elapsed_ns < kReportIntervalNs) return;
  const std::int64_t done = writer_->offset() + writer_->written();
  if (elapsed_ns >= kReportIntervalNs / 2) {  // too short an interval says nothing about the rate
    const double rate =
        static_cast<double>(done - last_report_bytes_) * 1e9 / static_cast<double>(elapsed_ns);
    bytes_per_s_ = bytes_per_s_ == 0 ? rate : 0.7 * bytes_per_s_ + 0.3 * rate;
  }
  last_report_ns_ = now;
  last_report_bytes_ = done;
  // At the end an unannounced size is known: it is what arrived.
  const std::int64_t total = writer_->total() > 0 || !force ? writer_->total() : done;
  (*progress_)(done, total, bytes_per_s_);
}

}  // namespace ascope
