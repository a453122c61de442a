#include "engine/download/models/hub_file_metadata.h"

#include <curl/curl.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>

#include "engine/download/sha256.h"

namespace ascope {
namespace {

constexpr int kMaxSameHostRedirects = 5;

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// The headers of the latest response, names lowercased.
struct ResponseHeaders {
  std::map<std::string, std::string> values;

  std::string get(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? std::string() : it->second;
  }
};

std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* target) {
  auto* headers = static_cast<ResponseHeaders*>(target);
  const std::string line(data, size * count);
  if (::strncasecmp(line.c_str(), "HTTP/", 5) == 0) {
    headers->values.clear();  // a new response
  } else if (const std::size_t colon = line.find(':'); colon != std::string::npos) {
    headers->values[lowercase(trimmed(line.substr(0, colon)))] = trimmed(line.substr(colon + 1));
  }
  return size * count;
}

/// A size header's value; -1 when absent or not a whole number.
std::int64_t sizeFrom(const std::string& value) {
  if (value.empty() || !std::all_of(value.begin(), value.end(),
                                    [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return -1;
  }
  try {
    return std::stoll(value);
  } catch (const std::exception&) {
    return -1;
  }
}

/// An ETag's value without the weak marker and the quotes: W/"abc" → abc.
std::string bareEtag(std::string etag) {
  if (etag.rfind("W/", 0) == 0) etag.erase(0, 2);
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return etag;
}

struct Answer {
  long status = 0;
  ResponseHeaders headers;
  std::string redirect_url;  ///< the Location made absolute
};

Expected<Answer> head(const std::string& url, const std::string& token,
                      const TransferLimits& limits) {
  const std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Error{url + ": cannot start libcurl"};
  const std::string authorization = "Authorization: Bearer " + token;
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(
      token.empty() ? nullptr : curl_slist_append(nullptr, authorization.c_str()),
      &curl_slist_free_all);
  Answer answer;
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
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, limits.connect_timeout_s);
  // A HEAD answer is a few hundred bytes: the whole exchange gets the connect and stall budgets.
  curl_easy_setopt(c, CURLOPT_TIMEOUT, limits.connect_timeout_s + limits.stall_timeout_s);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &onHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &answer.headers);
  if (header_list) curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  const CURLcode result = curl_easy_perform(c);
  if (result == CURLE_OPERATION_TIMEDOUT) {
    return Error{url + ": no answer within " +
                 std::to_string(limits.connect_timeout_s + limits.stall_timeout_s) + " s"};
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

}  // namespace

Expected<HubFileMetadata> fetchHubFileMetadata(const std::string& url, const std::string& token,
                                               const TransferLimits& limits) {
  initCurlOnce();
  std::string current = url;
  for (int redirects = 0;; ++redirects) {
    Expected<Answer> answer = head(current, token, limits);
    if (!answer.ok()) return Error{answer.error()};
    const ResponseHeaders& headers = answer->headers;
    const std::string location = headers.get("location");
    const bool redirected = answer->status >= 300 && answer->status < 400 && !location.empty();
    // "/x" stays on the endpoint's host (a renamed repository); "//host/x" and "https://..." leave.
    if (redirected && location[0] == '/' && location.rfind("//", 0) != 0) {
      if (redirects == kMaxSameHostRedirects) return Error{url + ": too many redirects"};
      current = answer->redirect_url;
      continue;
    }

    HubFileMetadata metadata;
    metadata.status = answer->status;
    metadata.commit = headers.get("x-repo-commit");
    metadata.error_code = headers.get("x-error-code");
    metadata.error_message = headers.get("x-error-message");
    metadata.download_url = current;
    if (redirected) {
      metadata.download_url = answer->redirect_url.empty() ? location : answer->redirect_url;
      metadata.download_on_endpoint = false;
    }
    // A redirect's own Content-Length measures its (empty) body, not the file.
    metadata.size = sizeFrom(headers.get("x-linked-size"));
    if (metadata.size < 0 && !redirected) metadata.size = sizeFrom(headers.get("content-length"));
    std::string etag = headers.get("x-linked-etag");
    if (etag.empty()) etag = headers.get("etag");
    etag = lowercase(bareEtag(etag));
    if (Sha256::isHexDigest(etag)) metadata.sha256 = etag;
    return metadata;
  }
}

}  // namespace ascope
