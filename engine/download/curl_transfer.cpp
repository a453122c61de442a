#include "engine/download/curl_transfer.h"

#include <curl/curl.h>

#include <chrono>
#include <cmath>
#include <memory>

namespace ascope {
namespace {

/// How often the loop looks at the flag and the clock when nothing arrives.
constexpr int kWakeIntervalMs = 100;

using Clock = std::chrono::steady_clock;

long millisecondsOf(double seconds) {
  return std::max(1L, static_cast<long>(std::ceil(seconds * 1000)));
}

}  // namespace

std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

CurlTransfer::CurlTransfer(void* easy, const TransferLimits& limits,
                           const std::atomic<bool>* cancel)
    : easy_(easy), limits_(limits), cancel_(cancel) {}

CurlTransfer::End CurlTransfer::run() {
  CURL* easy = static_cast<CURL*>(easy_);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, millisecondsOf(limits_.connect_timeout_s));
  const std::unique_ptr<CURLM, CURLMcode (*)(CURLM*)> multi(curl_multi_init(), &curl_multi_cleanup);
  if (!multi || curl_multi_add_handle(multi.get(), easy) != CURLM_OK) {
    curl_code_ = CURLE_OUT_OF_MEMORY;
    return End::kCurl;
  }
  const auto stall = std::chrono::milliseconds(millisecondsOf(limits_.stall_timeout_s));
  curl_off_t bytes_seen = 0;
  Clock::time_point last_byte = Clock::now();
  End end = End::kCurl;
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi.get(), &running) != CURLM_OK) {
      curl_code_ = CURLE_RECV_ERROR;
      break;
    }
    // Headers count as much as the body: a server that sends neither is the one to give up on.
    curl_off_t body = 0;
    long headers = 0;
    curl_easy_getinfo(easy, CURLINFO_SIZE_DOWNLOAD_T, &body);
    curl_easy_getinfo(easy, CURLINFO_HEADER_SIZE, &headers);
    const Clock::time_point now = Clock::now();
    if (body + headers != bytes_seen) {
      bytes_seen = body + headers;
      received_any_ = true;
      last_byte = now;
    }
    if (running == 0) {
      int left = 0;
      curl_code_ = CURLE_RECV_ERROR;
      while (const CURLMsg* message = curl_multi_info_read(multi.get(), &left)) {
        if (message->msg == CURLMSG_DONE) curl_code_ = message->data.result;
      }
      break;
    }
    if (cancel_ != nullptr && cancel_->load()) {
      end = End::kCancelled;
      break;
    }
    if (now - last_byte >= stall) {
      end = End::kStalled;
      break;
    }
    curl_multi_poll(multi.get(), nullptr, 0, kWakeIntervalMs, nullptr);
  }
  curl_multi_remove_handle(multi.get(), easy);
  return end;
}

std::string CurlTransfer::stallText() const {
  return (received_any_ ? "no data for " : "no answer within ") +
         secondsText(limits_.stall_timeout_s);
}

}  // namespace ascope
