#include "engine/download/models/model_downloader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/models/hub_file_staging.h"
#include "engine/download/models/model_file_plan.h"
#include "engine/download/models/model_staging_folder.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEndpointVariable = "ATTENTIONSCOPE_HF_ENDPOINT";
constexpr const char* kTokenVariable = "HF_TOKEN";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : value;
}

Expected<std::string> endpointOf(const std::string& configured) {
  const bool from_environment = configured.empty() && !environment(kEndpointVariable).empty();
  std::string endpoint = !configured.empty() ? configured
                         : from_environment  ? environment(kEndpointVariable)
                                             : kDefaultHubEndpoint;
  if (endpoint.rfind("http://", 0) != 0 && endpoint.rfind("https://", 0) != 0) {
    return Error{"hub address \"" + endpoint + "\"" +
                 (from_environment ? std::string(" (from ") + kEndpointVariable + ")" : "") +
                 " is not an http(s) address"};
  }
  while (endpoint.back() == '/') endpoint.pop_back();
  return endpoint;
}

/// The folder as given, without a trailing '/', so that "<folder>.part" is its sibling.
std::string withoutTrailingSlash(const std::string& folder) {
  fs::path path = fs::path(folder).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  return path.string();
}

Expected<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return Error{path + ": cannot read"};
  return text.str();
}

std::vector<ModelFile> filesIn(const std::string& folder) {
  std::vector<ModelFile> files;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    std::error_code size_ec;
    const std::uintmax_t size = entry.is_regular_file(size_ec) ? entry.file_size(size_ec) : 0;
    if (!size_ec && entry.is_regular_file(size_ec)) {
      files.push_back({entry.path().filename().string(), static_cast<std::int64_t>(size)});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const ModelFile& a, const ModelFile& b) { return a.name < b.name; });
  return files;
}

bool isEmptyFolder(const std::string& folder) {
  std::error_code ec;
  return fs::is_directory(folder, ec) && fs::is_empty(folder, ec) && !ec;
}

/// The hub, the model and the account, as the requests need them.
struct HubModel {
  const ModelId& id;
  std::string endpoint;
  std::string token;
  TransferLimits limits;

  std::string urlOf(const std::string& file) const {
    return endpoint + "/" + id.repoPath() + "/resolve/main/" + file;
  }
};

/// One line for an answer that is neither the file nor its absence.
Error refusal(const HubModel& hub, const std::string& file, const HubFileMetadata& metadata) {
  const std::string status = "HTTP " + std::to_string(metadata.status);
  const std::string hub_says = metadata.error_message.empty()
                                   ? std::string()
                                   : " (the hub says: " + metadata.error_message + ")";
  const std::string model = hub.id.repoPath();
  if (metadata.status == 401 || metadata.status == 403) {
    const std::string advice =
        hub.token.empty()
            ? "; it needs a token: set " + std::string(kTokenVariable) +
                  " to a Hugging Face access token that may read it"
            : "; the token given (" + std::string(kTokenVariable) +
                  ") may not read it: for a gated model, accept its terms on the hub first";
    return Error{model + ": " + file + ": " + status +
                 ": the model is private or gated, or does not exist" + advice + hub_says};
  }
  return Error{hub.urlOf(file) + ": " + status + hub_says};
}

/// The hub's answer about `file` when it is the file or a 404; any other status is an Error.
Expected<HubFileMetadata> metadataOf(const HubModel& hub, const std::string& file) {
  Expected<HubFileMetadata> metadata = fetchHubFileMetadata(hub.urlOf(file), hub.token, hub.limits);
  if (!metadata.ok()) return metadata;
  if (metadata->exists() || metadata->status == 404) return metadata;
  return refusal(hub, file, *metadata);
}

struct PlannedFile {
  std::string name;
  HubFileMetadata metadata;
};

}  // namespace

ModelDownloader::ModelDownloader(ModelDownloadOptions options) : options_(std::move(options)) {}

bool ModelDownloader::holdsModel(const std::string& folder) {
  std::error_code ec;
  const fs::path path(folder);
  return fs::is_regular_file(path / "config.json", ec) &&
         (fs::is_regular_file(path / "model.safetensors", ec) ||
          fs::is_regular_file(path / "pytorch_model.bin", ec));
}

Expected<DownloadedModel> ModelDownloader::fetch(const ModelId& id, const std::string& folder,
                                                 const ProgressCallback& progress,
                                                 const std::atomic<bool>* cancel) const {
  Expected<std::string> endpoint = endpointOf(options_.endpoint);
  if (!endpoint.ok()) return Error{endpoint.error()};
  const HubModel hub{id, *endpoint,
                     options_.token.empty() ? environment(kTokenVariable) : options_.token,
                     options_.limits};
  DownloadedModel result;
  result.folder = withoutTrailingSlash(folder);
  if (result.folder.empty() || result.folder == "/" || result.folder == ".") {
    return Error{"\"" + folder + "\" cannot be a model folder"};
  }

  const auto already_there = [&] {
    result.already_present = true;
    result.files = filesIn(result.folder);
    if (Expected<std::string> config = readFile(result.folder + "/config.json"); config.ok()) {
      if (Expected<ModelFilePlan> plan = ModelFilePlan::fromConfig(*config); plan.ok()) {
        result.model_type = plan->modelType();
      }
    }
    spdlog::info("{} is already in {}", id.repoPath(), result.folder);
    return result;
  };
  std::error_code ec;
  const bool replace = fs::exists(result.folder, ec) && !isEmptyFolder(result.folder);
  if (replace && !holdsModel(result.folder)) {
    return Error{result.folder +
                 ": exists but holds no model (config.json and model.safetensors or "
                 "pytorch_model.bin); choose another folder or remove it"};
  }
  if (replace && !options_.force) return already_there();

  const fs::path parent = fs::path(result.folder).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) return Error{parent.string() + ": cannot create the folder: " + ec.message()};
  ModelStagingFolder staging(result.folder);
  if (Status opened = staging.open(); !opened) return Error{opened.error()};
  // Another download of the model may have finished between the look above and the lock.
  if (!replace && !options_.force && holdsModel(result.folder)) {
    staging.removeAllBut({});  // the folder itself goes with `staging`, empty
    return already_there();
  }
  const auto stage = [&](const PlannedFile& file) -> Status {
    if (cancel != nullptr && cancel->load()) return Error{id.repoPath() + ": cancelled"};
    if (options_.on_file) options_.on_file(file.name, file.metadata.size);
    return stageHubFile({file.name, file.metadata, hub.token, hub.limits}, staging.path(), progress,
                        cancel);
  };

  // config.json first: its model_type decides the rest.
  Expected<HubFileMetadata> config_metadata = metadataOf(hub, "config.json");
  if (!config_metadata.ok()) return Error{config_metadata.error()};
  if (!config_metadata->exists()) {
    return Error{hub.urlOf("config.json") + ": HTTP 404: the hub has no model " + id.repoPath() +
                 " with a config.json"};
  }
  result.commit = config_metadata->commit;
  std::vector<PlannedFile> files = {{"config.json", *config_metadata}};
  if (Status staged = stage(files.front()); !staged) return Error{staged.error()};
  Expected<std::string> config = readFile(staging.pathOf("config.json"));
  if (!config.ok()) return Error{config.error()};
  Expected<ModelFilePlan> plan = ModelFilePlan::fromConfig(*config);
  if (!plan.ok()) return Error{id.repoPath() + ": " + plan.error()};
  result.model_type = plan->modelType();

  // Every file's metadata before any large transfer, so that a missing file fails early.
  for (const HubFileChoice& choice : plan->files()) {
    bool found = false;
    for (std::size_t i = 0; i < choice.candidates.size() && !found; ++i) {
      Expected<HubFileMetadata> metadata = metadataOf(hub, choice.candidates[i]);
      if (!metadata.ok()) return Error{metadata.error()};
      if (!metadata->exists()) continue;
      found = true;
      if (!result.commit.empty() && !metadata->commit.empty() &&
          metadata->commit != result.commit) {
        return Error{id.repoPath() + ": the model changed on the hub during the download (" +
                     "config.json from commit " + result.commit + ", " + choice.candidates[i] +
                     " from " + metadata->commit + "); run again"};
      }
      if (i > 0 && !choice.fallback_warning.empty()) {
        result.warnings.push_back(id.repoPath() + ": " + choice.fallback_warning);
        spdlog::warn("{}", result.warnings.back());
      }
      files.push_back({choice.candidates[i], *metadata});
    }
    if (found || !choice.required) continue;
    std::string names;
    for (const std::string& name : choice.candidates) {
      names += (names.empty() ? "" : choice.candidates.size() > 2 ? ", " : " or ") + name;
    }
    return Error{id.repoPath() + ": the hub has no " + names + " for this " + result.model_type +
                 " model (at " + hub.urlOf(choice.candidates.front()) + ")"};
  }

  for (std::size_t i = 1; i < files.size(); ++i) {
    if (Status staged = stage(files[i]); !staged) return Error{staged.error()};
  }
  std::vector<std::string> names;
  for (const PlannedFile& file : files) names.push_back(file.name);
  staging.removeAllBut(names);
  if (Status moved = staging.moveIntoPlace(replace); !moved) return Error{moved.error()};
  result.files = filesIn(result.folder);
  spdlog::info("{} is ready in {}", id.repoPath(), result.folder);
  return result;
}

}  // namespace ascope
