#pragma once
// The HEAD requests behind hub_file_metadata.h, sent with libcurl.
#include <atomic>
#include <string>

#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// One HEAD request, with "Authorization: Bearer <token>" unless `token` is empty; no redirect is
/// followed. Errors name the URL: no connection, no answer within the limits, cancelled.
Expected<HubAnswer> headRequest(const std::string& url, const std::string& token,
                                const TransferLimits& limits, const std::atomic<bool>* cancel);

/// resolveHubFileMetadata() with headRequest(): what the hub says about the file at `url`.
Expected<HubFileMetadata> fetchHubFileMetadata(const std::string& url, const std::string& token,
                                               const TransferLimits& limits,
                                               const std::atomic<bool>* cancel = nullptr);

}  // namespace ascope
