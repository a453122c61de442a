#include "engine/download/models/hub_model_access.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "engine/download/models/hub_head_request.h"
#include "engine/download/models/model_downloader.h"

namespace ascope {
namespace {

constexpr const char* kEndpointVariable = "ATTENTIONSCOPE_HF_ENDPOINT";
constexpr const char* kTokenVariable = "HF_TOKEN";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : value;
}

/// The host of an http(s) address, without user, port or path: "http://u@h:80/x" → "h".
std::string hostOf(const std::string& url) {
  std::string rest = url.substr(url.find("://") + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const std::size_t at = rest.rfind('@'); at != std::string::npos) rest.erase(0, at + 1);
  if (!rest.empty() && rest.front() == '[') return rest.substr(0, rest.find(']') + 1);
  return rest.substr(0, rest.find(':'));
}

/// Traffic to these never leaves the machine, so a token sent there in clear reaches no one else.
bool isLoopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "[::1]";
}

}  // namespace

HubModelAccess::HubModelAccess(ModelId id, std::string endpoint, std::string token,
                               bool token_withheld, TransferLimits limits,
                               const std::atomic<bool>* cancel)
    : id_(std::move(id)),
      endpoint_(std::move(endpoint)),
      token_(std::move(token)),
      token_withheld_(token_withheld),
      limits_(limits),
      cancel_(cancel) {}

Expected<HubModelAccess> HubModelAccess::make(const ModelId& id,
                                              const ModelDownloadOptions& options,
                                              const std::atomic<bool>* cancel,
                                              std::vector<std::string>& warnings) {
  const bool from_environment = options.endpoint.empty() && !environment(kEndpointVariable).empty();
  std::string endpoint = !options.endpoint.empty() ? options.endpoint
                         : from_environment        ? environment(kEndpointVariable)
                                                   : kDefaultHubEndpoint;
  const bool https = endpoint.rfind("https://", 0) == 0;
  if (!https && endpoint.rfind("http://", 0) != 0) {
    return Error{"hub address \"" + endpoint + "\"" +
                 (from_environment ? std::string(" (from ") + kEndpointVariable + ")" : "") +
                 " is not an http(s) address"};
  }
  while (endpoint.back() == '/') endpoint.pop_back();

  std::string token = options.token.empty() ? environment(kTokenVariable) : options.token;
  const bool withheld = !token.empty() && !https && !isLoopback(hostOf(endpoint));
  if (withheld) {
    token.clear();
    warnings.push_back(std::string(kTokenVariable) + " is not sent to " + endpoint +
                       ": over plain http anyone on the way could read it; use an https:// "
                       "address to send it");
    spdlog::warn("{}", warnings.back());
  }
  return HubModelAccess(id, endpoint, token, withheld, options.limits, cancel);
}

std::string HubModelAccess::urlOf(const std::string& file) const {
  return endpoint_ + "/" + id_.repoPath() + "/resolve/main/" + file;
}

Expected<HubFileMetadata> HubModelAccess::metadataOf(const std::string& file) const {
  Expected<HubFileMetadata> metadata = fetchHubFileMetadata(urlOf(file), token_, limits_, cancel_);
  if (!metadata.ok()) return metadata;
  if (metadata->exists() || metadata->status == 404) return metadata;
  return refusal(file, *metadata);
}

Error HubModelAccess::refusal(const std::string& file, const HubFileMetadata& metadata) const {
  const std::string status = "HTTP " + std::to_string(metadata.status);
  const std::string hub_says = metadata.error_message.empty()
                                   ? std::string()
                                   : " (the hub says: " + metadata.error_message + ")";
  const std::string model = id_.repoPath();
  if (metadata.status == 401 || metadata.status == 403) {
    const std::string advice =
        token_withheld_
            ? "; " + std::string(kTokenVariable) + " was not sent because the address is not https"
        : token_.empty()
            ? "; it needs a token: set " + std::string(kTokenVariable) +
                  " to a Hugging Face access token that may read it"
            : "; the token given (" + std::string(kTokenVariable) +
                  ") may not read it: for a gated model, accept its terms on the hub first";
    return Error{model + ": " + file + ": " + status +
                 ": the model is private or gated, or does not exist" + advice + hub_says};
  }
  return Error{urlOf(file) + ": " + status + hub_says};
}

}  // namespace ascope
