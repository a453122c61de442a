#include "engine/download/models/hub_head_request.h"

#include <curl/curl.h>

#include <cmath>
#include <memory>
#include <mutex>

#include "engine/download/curl_transfer.h"

namespace ascope {
namespace {

/// A HEAD answer is a few hundred bytes; a server that sends headers without end is not a hub.
constexpr std::size_t kMaxHeaderBytes = 256 * 1024;

void initCurlForHeadRequests() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct HeaderReader {
  HubAnswer* answer;
  std::size_t bytes = 0;
};

std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* target) {
  auto* reader = static_cast<HeaderReader*>(target);
  reader->bytes += size * count;
  if (reader->bytes > kMaxHeaderBytes) return 0;  // ends the transfer with CURLE_WRITE_ERROR
  reader->answer->addHeaderLine(std::string_view(data, size * count));
  return size * count;
}

}  // namespace

Expected<HubAnswer> headRequest(const std::string& url, const std::string& token,
                                const TransferLimits& limits, const std::atomic<bool>* cancel) {
  initCurlForHeadRequests();
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Error{url + ": cannot start libcurl"};
  const std::string authorization = "Authorization: Bearer " + token;
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(
      token.empty() ? nullptr : curl_slist_append(nullptr, authorization.c_str()),
      &curl_slist_free_all);
  HubAnswer answer;
  HeaderReader reader{&answer};
  char curl_message[CURL_ERROR_SIZE] = "";
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_message);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
  curl_easy_setopt(c, CURLOPT_USERAGENT, "AttentionScope model downloader");
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &onHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &reader);
  if (header_list) curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  // A HEAD answer is a few hundred bytes: the whole exchange gets the connect and stall budgets,
  // so that a server trickling header lines cannot keep it going either.
  const double whole_s = limits.connect_timeout_s + limits.stall_timeout_s;
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::ceil(whole_s * 1000)));
  CurlTransfer transfer(c, limits, cancel);
  const CurlTransfer::End end = transfer.run();
  if (end == CurlTransfer::End::kCancelled) return Error{url + ": cancelled"};
  if (end == CurlTransfer::End::kStalled) return Error{url + ": " + transfer.stallText()};
  const auto result = static_cast<CURLcode>(transfer.curlCode());
  if (result == CURLE_WRITE_ERROR && reader.bytes > kMaxHeaderBytes) {
    return Error{url + ": the answer's headers go on beyond " +
                 std::to_string(kMaxHeaderBytes / 1024) + " KiB"};
  }
  if (result == CURLE_OPERATION_TIMEDOUT) {
    curl_off_t connected_us = 0;
    curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connected_us);
    return Error{url + (connected_us == 0
                            ? ": could not connect within " + secondsText(limits.connect_timeout_s)
                            : ": no complete answer within " + secondsText(whole_s))};
  }
  if (result != CURLE_OK) {
    return Error{
        url + ": " +
        (curl_message[0] != '\0' ? std::string(curl_message) : curl_easy_strerror(result))};
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &answer.status);
  const char* redirect = nullptr;
  curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &redirect);
  if (redirect != nullptr) answer.redirect_url = redirect;
  return answer;
}

Expected<HubFileMetadata> fetchHubFileMetadata(const std::string& url, const std::string& token,
                                               const TransferLimits& limits,
                                               const std::atomic<bool>* cancel) {
  return resolveHubFileMetadata(
      url, [&](const std::string& address) { return headRequest(address, token, limits, cancel); });
}

}  // namespace ascope
