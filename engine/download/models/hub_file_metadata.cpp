#include "engine/download/models/hub_file_metadata.h"

#include <strings.h>

#include <algorithm>
#include <cctype>

#include "engine/download/server_text.h"
#include "engine/download/sha256.h"

namespace ascope {
namespace {

/// More digits than any file has bytes (10^18 bytes is an exabyte): longer is not a size.
constexpr std::size_t kMaxSizeDigits = 18;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trimmedValue(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1));
}

/// A size header's value; -1 when absent or not a whole number of bytes.
std::int64_t sizeFrom(const std::string& value) {
  if (value.empty() || value.size() > kMaxSizeDigits ||
      !std::all_of(value.begin(), value.end(),
                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return -1;
  }
  return std::stoll(value);
}

/// An ETag's value without the weak marker and the quotes: W/"abc" → abc.
std::string bareEtag(std::string etag) {
  if (etag.rfind("W/", 0) == 0) etag.erase(0, 2);
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return etag;
}

/// An address libcurl may be sent to: http(s), visible ASCII only (no spaces, no controls).
bool isPlainHttpUrl(const std::string& url) {
  const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
  return http &&
         std::all_of(url.begin(), url.end(), [](unsigned char c) { return c > 0x20 && c < 0x7F; });
}

}  // namespace

void HubAnswer::addHeaderLine(std::string_view line) {
  if (line.size() >= 5 && ::strncasecmp(line.data(), "HTTP/", 5) == 0) {
    headers.clear();  // a new answer
    const std::size_t space = line.find(' ');
    status = 0;
    for (std::size_t i = space == std::string_view::npos ? line.size() : space + 1;
         i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) != 0 && status < 1000;
         ++i) {
      status = status * 10 + (line[i] - '0');
    }
  } else if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    headers[lowercase(trimmedValue(line.substr(0, colon)))] = trimmedValue(line.substr(colon + 1));
  }
}

std::string HubAnswer::header(const std::string& name) const {
  const auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

Expected<HubFileMetadata> resolveHubFileMetadata(const std::string& url, const HubAsker& ask) {
  std::string current = url;
  for (int redirects = 0;; ++redirects) {
    Expected<HubAnswer> answer = ask(current);
    if (!answer.ok()) return Error{answer.error()};
    const std::string location = answer->header("location");
    const bool redirected = answer->status >= 300 && answer->status < 400 && !location.empty();
    // "/x" stays on the endpoint's host (a renamed repository); "//host/x" and "https://..." leave.
    if (redirected && location[0] == '/' && location.rfind("//", 0) != 0) {
      if (redirects == kMaxSameHostRedirects) {
        return Error{url + ": too many redirects (more than " +
                     std::to_string(kMaxSameHostRedirects) + "), the last to " +
                     printableServerText(location)};
      }
      current = answer->redirect_url;
      if (!isPlainHttpUrl(current)) {
        return Error{url + ": redirected to \"" + printableServerText(location) +
                     "\", which is not an http(s) address"};
      }
      continue;
    }

    HubFileMetadata metadata;
    metadata.status = answer->status;
    metadata.commit = printableServerText(answer->header("x-repo-commit"));
    metadata.error_code = printableServerText(answer->header("x-error-code"));
    metadata.error_message = printableServerText(answer->header("x-error-message"));
    metadata.download_url = current;
    if (redirected) {
      metadata.download_url = answer->redirect_url.empty() ? location : answer->redirect_url;
      metadata.download_on_endpoint = false;
      if (!isPlainHttpUrl(metadata.download_url)) {
        return Error{url + ": redirected to \"" + printableServerText(metadata.download_url) +
                     "\", which is not an http(s) address"};
      }
    }
    const std::string linked_size = answer->header("x-linked-size");
    std::string etag = answer->header("x-linked-etag");
    metadata.lfs = redirected || !linked_size.empty() || !etag.empty();
    // A redirect's own Content-Length measures its (empty) body, not the file.
    metadata.size = sizeFrom(linked_size);
    if (metadata.size < 0 && !redirected && linked_size.empty()) {
      metadata.size = sizeFrom(answer->header("content-length"));
    }
    if (etag.empty()) etag = answer->header("etag");
    etag = bareEtag(etag);
    metadata.etag = printableServerText(etag);
    if (const std::string hex = lowercase(etag); Sha256::isHexDigest(hex)) metadata.sha256 = hex;
    return metadata;
  }
}

}  // namespace ascope
