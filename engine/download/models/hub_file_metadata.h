#pragma once
// What the Hugging Face hub says about one file of a model without sending it: the answers to a
// HEAD request on the file's resolve URL (<endpoint>/<id>/resolve/<revision>/<file>), read into
// HubFileMetadata. No libcurl here: hub_head_request.h asks, this file reads the answers, so that
// tests/fuzz/hub_answer_fuzzer.cpp can hand it any answer at all.
//
// A file kept in git answers 200 with its size in Content-Length. A file in LFS storage (the
// weights) answers with a redirect to its content-addressed copy on a CDN and carries its size in
// X-Linked-Size and its SHA-256 in X-Linked-Etag (or ETag); the redirect is not followed, or those
// headers would be lost. X-Repo-Commit names the commit the revision resolved to, X-Error-Code and
// X-Error-Message explain an error ("EntryNotFound", "GatedRepo", ...).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct HubFileMetadata {
  /// The status of the final answer, e.g. 200, 302, 404, 401.
  long status = 0;
  /// Bytes; -1 when the hub did not say (or said something that is not a size).
  std::int64_t size = -1;
  /// 64 lowercase hex digits when the file's ETag is its SHA-256 (an LFS file); empty otherwise.
  std::string sha256;
  /// The ETag as sent, without quotes, for messages (printableServerText); empty when none.
  std::string etag;
  /// The hub keeps the file in LFS storage (a redirect to another host, X-Linked-Size or
  /// X-Linked-Etag): its ETag must then be its SHA-256.
  bool lfs = false;
  /// The commit the revision resolved to; empty when not sent.
  std::string commit;
  /// Where to GET the file: the redirect's target for an LFS file, else the resolve URL.
  std::string download_url;
  /// False when download_url is on another host (the CDN), which must not get the token.
  bool download_on_endpoint = true;
  /// The hub's explanation of an error status, when it sent one.
  std::string error_code;
  std::string error_message;

  /// The hub has the file: a success, or a redirect to where it is stored.
  bool exists() const { return (status >= 200 && status < 300) || !download_on_endpoint; }
};

/// One answer to a HEAD request.
struct HubAnswer {
  long status = 0;
  /// Header names lowercased; values trimmed, as sent.
  std::map<std::string, std::string> headers;
  /// The Location made absolute (libcurl's CURLINFO_REDIRECT_URL); empty without one.
  std::string redirect_url;

  /// One header line as libcurl hands it over ("Name: value\r\n"). A status line ("HTTP/1.1 302
  /// Found") starts a new answer: after a 100 Continue or a followed redirect only the last counts.
  void addHeaderLine(std::string_view line);
  /// The value of the header `name` (lowercase); empty when absent.
  std::string header(const std::string& name) const;
};

/// Sends a HEAD request for a URL and returns the answer; an Error is a transport failure.
using HubAsker = std::function<Expected<HubAnswer>(const std::string& url)>;

/// The most same-host redirects (a renamed repository) followed for one file.
inline constexpr int kMaxSameHostRedirects = 5;

/// Asks about `url` and reads the answer. Follows redirects within the endpoint's host ("/x") but
/// not to another host. An HTTP error status is a result, not an Error: the caller decides what a
/// 404 means. Errors name the URL: a transport failure, too many redirects, a redirect to
/// something that is not an http(s) address. Every text field of the result is printable
/// (server_text.h), so that it may go into a message as it is.
Expected<HubFileMetadata> resolveHubFileMetadata(const std::string& url, const HubAsker& ask);

}  // namespace ascope
