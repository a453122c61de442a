#pragma once
// One model on the hub as the downloader's requests need it: the endpoint, the token (sent only
// where it cannot be read on the way), the limits and the cancel flag, and the metadata of each
// of its files.
#include <atomic>
#include <string>
#include <vector>

#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/models/model_id.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct ModelDownloadOptions;

class HubModelAccess {
 public:
  /// The endpoint from `options` or $ATTENTIONSCOPE_HF_ENDPOINT (else the hub), the token from
  /// `options` or $HF_TOKEN. A token is not sent over plain http to another machine (anyone on the
  /// way could read it): it is dropped and `warnings` says so. Errors: an endpoint that is not an
  /// http(s) address, naming where it came from.
  static Expected<HubModelAccess> make(const ModelId& id, const ModelDownloadOptions& options,
                                       const std::atomic<bool>* cancel,
                                       std::vector<std::string>& warnings);

  const ModelId& id() const { return id_; }
  const std::string& endpoint() const { return endpoint_; }
  /// Empty when none is sent.
  const std::string& token() const { return token_; }
  const TransferLimits& limits() const { return limits_; }
  const std::atomic<bool>* cancel() const { return cancel_; }
  bool cancelled() const { return cancel_ != nullptr && cancel_->load(); }

  /// <endpoint>/<id>/resolve/main/<file>.
  std::string urlOf(const std::string& file) const;

  /// The hub's answer about `file` when it is the file or a 404; any other status is an Error
  /// that says what it means (a token needed, the hub's own explanation).
  Expected<HubFileMetadata> metadataOf(const std::string& file) const;

 private:
  HubModelAccess(ModelId id, std::string endpoint, std::string token, bool token_withheld,
                 TransferLimits limits, const std::atomic<bool>* cancel);
  /// One line for an answer that is neither the file nor its absence.
  Error refusal(const std::string& file, const HubFileMetadata& metadata) const;

  ModelId id_;
  std::string endpoint_;
  std::string token_;
  bool token_withheld_;
  TransferLimits limits_;
  const std::atomic<bool>* cancel_;
};

}  // namespace ascope
