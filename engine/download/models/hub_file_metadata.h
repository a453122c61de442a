#pragma once
// What the Hugging Face hub says about one file of a model without sending it: a HEAD request on
// the file's resolve URL (<endpoint>/<id>/resolve/<revision>/<file>).
//
// A file kept in git answers 200 with its size in Content-Length. A file in LFS storage (the
// weights) answers with a redirect to its content-addressed copy on a CDN and carries its size in
// X-Linked-Size and its SHA-256 in X-Linked-Etag (or ETag); the redirect is not followed, or those
// headers would be lost. X-Repo-Commit names the commit the revision resolved to, X-Error-Code and
// X-Error-Message explain an error ("EntryNotFound", "GatedRepo", ...).
#include <cstdint>
#include <string>

#include "engine/download/resumable_download.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct HubFileMetadata {
  /// The status of the final answer, e.g. 200, 302, 404, 401.
  long status = 0;
  /// Bytes; -1 when the hub did not say.
  std::int64_t size = -1;
  /// 64 lowercase hex digits when the file's ETag is its SHA-256 (an LFS file); empty otherwise.
  std::string sha256;
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

/// Sends the HEAD request, with "Authorization: Bearer <token>" unless `token` is empty. Follows
/// redirects within the endpoint's host (a renamed repository) but not to another host. An HTTP
/// error status is a result, not an Error: the caller decides what a 404 means. Errors are
/// transport failures (no connection, timeout, a redirect loop), one line naming the URL.
Expected<HubFileMetadata> fetchHubFileMetadata(const std::string& url, const std::string& token,
                                               const TransferLimits& limits);

}  // namespace ascope
