#include "engine/download/models/model_downloader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "engine/core/regular_file.h"
#include "engine/download/byte_count_text.h"
#include "engine/download/free_space.h"
#include "engine/download/models/hub_file_staging.h"
#include "engine/download/models/hub_model_access.h"
#include "engine/download/models/model_file_plan.h"
#include "engine/download/models/model_origin.h"
#include "engine/download/models/model_staging_folder.h"
#include "engine/download/server_text.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// The folder as given, without a trailing '/', so that "<folder>.part" is its sibling.
std::string withoutTrailingSlash(const std::string& folder) {
  fs::path path = fs::path(folder).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  return path.string();
}

std::vector<ModelFile> filesIn(const std::string& folder) {
  std::vector<ModelFile> files;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code size_ec;
    if (name.front() == '.' || !entry.is_regular_file(size_ec)) continue;
    const std::uintmax_t size = entry.file_size(size_ec);
    if (!size_ec) files.push_back({name, static_cast<std::int64_t>(size)});
  }
  std::sort(files.begin(), files.end(),
            [](const ModelFile& a, const ModelFile& b) { return a.name < b.name; });
  return files;
}

bool isEmptyModelFolder(const std::string& folder) {
  std::error_code ec;
  return fs::is_directory(folder, ec) && fs::is_empty(folder, ec) && !ec;
}

/// model_type of the config.json text; empty when it has none.
std::string modelTypeOf(const std::string& config) {
  Expected<ModelFilePlan> plan = ModelFilePlan::fromConfig(config);
  return plan.ok() ? plan->modelType() : std::string();
}

struct PlannedFile {
  std::string name;
  HubFileMetadata metadata;
  HubFileChoice choice;
};

/// Refuses a file the hub announces as larger than it may be, or that claims to be kept in LFS
/// without the SHA-256 that lets it be checked; warns about weights that come without one.
Status checkPlanned(const PlannedFile& file, std::vector<std::string>& warnings) {
  const HubFileMetadata& metadata = file.metadata;
  if (metadata.size > file.choice.max_bytes) {
    return Error{file.name + ": the hub says it is " + byteCountText(metadata.size) +
                 "; AttentionScope takes at most " + byteCountText(file.choice.max_bytes) +
                 " for a " + file.name};
  }
  if (metadata.sha256.empty() && metadata.lfs) {
    return Error{file.name + ": the hub keeps it in LFS storage but its ETag \"" + metadata.etag +
                 "\" is not a SHA-256, so the download could not be checked; not downloading it"};
  }
  if (metadata.sha256.empty() && file.choice.weights) {
    warnings.push_back(file.name + ": the server sent no SHA-256 for it, so only its size is " +
                       (metadata.size >= 0 ? "checked" : "limited"));
    spdlog::warn("{}", warnings.back());
  }
  return {};
}

/// Bytes `file` still needs in the staging folder: its size less what an earlier run left.
std::int64_t bytesToCome(const PlannedFile& file, const ModelStagingFolder& staging) {
  if (file.metadata.size < 0) return 0;
  std::int64_t there = 0;
  std::error_code ec;
  for (const std::string& name :
       {file.name, file.name + ".part",
        file.metadata.sha256.empty()
            ? std::string()
            : file.name + "." + file.metadata.sha256.substr(0, 16) + ".part"}) {
    if (name.empty()) continue;
    const std::uintmax_t size = fs::file_size(staging.pathOf(name), ec);
    if (!ec) there = std::max(there, static_cast<std::int64_t>(size));
  }
  return std::max<std::int64_t>(0, file.metadata.size - there);
}

/// Before any large transfer: the files must fit the staging folder's disk.
Status checkRoom(const std::vector<PlannedFile>& files, const ModelStagingFolder& staging) {
  std::int64_t needed = 0;
  const PlannedFile* largest = nullptr;
  for (const PlannedFile& file : files) {
    needed +=
        bytesToCome(file, staging);  // each at most 10^18 (hub_file_metadata.cpp): no overflow
    if (largest == nullptr || file.metadata.size > largest->metadata.size) largest = &file;
  }
  const std::int64_t free = freeBytesAt(staging.path());
  if (free < 0 || needed <= free) return {};
  return Error{"the model needs " + byteCountText(needed) + " more (" + largest->name + " is " +
               byteCountText(largest->metadata.size) + "), but " + staging.path() + " has " +
               byteCountText(free) + " free"};
}

/// What a replacement must remove from the old folder: each choice's candidates that would be
/// read before the file fetched now, and those of a choice the hub had none of.
std::vector<std::string> supersededBy(const ModelFilePlan& plan,
                                      const std::vector<PlannedFile>& files) {
  std::vector<std::string> superseded;
  for (const HubFileChoice& choice : plan.files()) {
    for (const std::string& name : choice.candidates) {
      const bool fetched = std::any_of(files.begin(), files.end(),
                                       [&](const PlannedFile& file) { return file.name == name; });
      if (fetched) break;
      superseded.push_back(name);
    }
  }
  return superseded;
}

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
  DownloadedModel result;
  Expected<HubModelAccess> hub = HubModelAccess::make(id, options_, cancel, result.warnings);
  if (!hub.ok()) return Error{hub.error()};
  result.folder = withoutTrailingSlash(folder);
  if (result.folder.empty() || result.folder == "/" || result.folder == ".") {
    return Error{"\"" + folder + "\" cannot be a model folder"};
  }
  if (ModelStagingFolder::hasInterruptedReplacement(result.folder)) {
    ModelStagingFolder staging(result.folder);
    Status finished = staging.open();
    if (finished.ok()) finished = staging.finishInterruptedReplacement();
    if (!finished.ok()) return Error{finished.error()};
  }

  std::error_code ec;
  const bool replace = fs::exists(result.folder, ec) && !isEmptyModelFolder(result.folder);
  if (replace && !holdsModel(result.folder)) {
    return Error{result.folder +
                 ": exists but holds no model (config.json and model.safetensors or "
                 "pytorch_model.bin); choose another folder or remove it"};
  }
  if (replace && !options_.force) return presentModel(*hub, std::move(result));

  const fs::path parent = fs::path(result.folder).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) return Error{parent.string() + ": cannot create the folder: " + ec.message()};
  std::vector<PlannedFile> files;
  {
    ModelStagingFolder staging(result.folder);
    if (Status opened = staging.open(); !opened) return Error{opened.error()};
    // Another download may have put a model there between the look above and the lock.
    if (!replace && !options_.force && holdsModel(result.folder)) {
      return presentModel(*hub, std::move(result));
    }
    const auto stage = [&](const PlannedFile& file) -> Status {
      if (hub->cancelled()) return Error{id.repoPath() + ": cancelled"};
      if (options_.on_file) options_.on_file(file.name, file.metadata.size);
      return stageHubFile(
          {file.name, file.metadata, hub->token(), hub->limits(), file.choice.max_bytes},
          staging.path(), progress, cancel);
    };

    // config.json first: its model_type decides the rest.
    Expected<HubFileMetadata> config_metadata = hub->metadataOf("config.json");
    if (!config_metadata.ok()) return Error{config_metadata.error()};
    if (!config_metadata->exists()) {
      return Error{hub->urlOf("config.json") + ": HTTP 404: the hub has no model " + id.repoPath() +
                   " with a config.json"};
    }
    result.commit = config_metadata->commit;
    files.push_back({"config.json", *config_metadata, ModelFilePlan::config()});
    if (Status checked = checkPlanned(files.front(), result.warnings); !checked)
      return Error{checked.error()};
    if (Status staged = stage(files.front()); !staged) return Error{staged.error()};
    Expected<std::string> config =
        readRegularFile(staging.pathOf("config.json"), kMaxSettingsFileBytes);
    if (!config.ok()) return Error{config.error()};
    Expected<ModelFilePlan> plan = ModelFilePlan::fromConfig(*config);
    if (!plan.ok()) return Error{id.repoPath() + ": " + plan.error()};
    result.model_type = plan->modelType();

    // Every file's metadata before any large transfer, so that a missing file fails early.
    for (const HubFileChoice& choice : plan->files()) {
      bool found = false;
      for (std::size_t i = 0; i < choice.candidates.size() && !found; ++i) {
        Expected<HubFileMetadata> metadata = hub->metadataOf(choice.candidates[i]);
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
        files.push_back({choice.candidates[i], *metadata, choice});
      }
      if (found || !choice.required) continue;
      std::string names;
      for (const std::string& name : choice.candidates) {
        names += (names.empty() ? "" : choice.candidates.size() > 2 ? ", " : " or ") + name;
      }
      return Error{id.repoPath() + ": the hub has no " + names + " for this " + result.model_type +
                   " model (at " + hub->urlOf(choice.candidates.front()) + ")"};
    }
    if (Status room = checkRoom(files, staging); !room) {
      return Error{id.repoPath() + ": " + room.error()};
    }
    for (std::size_t i = 1; i < files.size(); ++i) {
      if (Status checked = checkPlanned(files[i], result.warnings); !checked)
        return Error{checked.error()};
    }

    for (std::size_t i = 1; i < files.size(); ++i) {
      if (Status staged = stage(files[i]); !staged) return Error{staged.error()};
    }
    const ModelOrigin origin{id.repoPath(), hub->endpoint(), result.commit};
    if (Status recorded = writeModelOrigin(staging.path(), origin); !recorded)
      return Error{recorded.error()};
    // The record last: a replacement stopped half-way does not claim the new model yet.
    std::vector<std::string> names;
    for (const PlannedFile& file : files) names.push_back(file.name);
    names.push_back(kModelOriginFileName);
    staging.removeAllBut(names);
    if (Status moved = staging.moveIntoPlace(names, supersededBy(*plan, files)); !moved) {
      return Error{moved.error()};
    }
  }
  result.files = filesIn(result.folder);
  spdlog::info("{} is ready in {}", id.repoPath(), result.folder);
  return result;
}

Expected<DownloadedModel> ModelDownloader::presentModel(const HubModelAccess& hub,
                                                        DownloadedModel result) const {
  const std::string id = hub.id().repoPath();
  Expected<std::string> config =
      readRegularFile(result.folder + "/config.json", kMaxSettingsFileBytes);
  if (!config.ok()) return Error{config.error()};
  result.model_type = modelTypeOf(*config);
  const std::string kind =
      result.model_type.empty() ? "a model" : "a " + result.model_type + " model";
  const std::string advice =
      ": choose another folder, or --force to replace its model's files "
      "with " +
      id + "'s (its other files are kept)";

  Expected<std::optional<ModelOrigin>> origin = readModelOrigin(result.folder);
  if (!origin.ok()) {
    return Error{"cannot tell which model " + result.folder + " holds: " + origin.error() + advice};
  }
  if (origin->has_value()) {
    if ((*origin)->id != id) {
      return Error{result.folder + " holds " + printableServerText((*origin)->id) + " (" + kind +
                   "), not " + id + advice};
    }
  } else {
    // No record (a folder saved by hand, or downloaded before downloads were recorded): the hub's
    // config.json tells at least whether it is the same kind of model, and the same settings.
    ModelStagingFolder staging(result.folder);
    Expected<std::string> hub_config = Error{""};
    if (Status opened = staging.open(); !opened) {
      hub_config = Error{opened.error()};
    } else if (Expected<HubFileMetadata> metadata = hub.metadataOf("config.json");
               !metadata.ok() || !metadata->exists()) {
      hub_config =
          Error{metadata.ok() ? hub.urlOf("config.json") + ": HTTP 404" : metadata.error()};
    } else if (Status staged = stageHubFile(
                   {"config.json", *metadata, hub.token(), hub.limits(), kMaxSettingsFileBytes},
                   staging.path(), nullptr, hub.cancel());
               !staged) {
      hub_config = Error{staged.error()};
    } else {
      hub_config = readRegularFile(staging.pathOf("config.json"), kMaxSettingsFileBytes);
      std::error_code ec;
      fs::remove(staging.pathOf("config.json"), ec);
    }
    if (!hub_config.ok()) {
      if (hub.cancelled()) return Error{id + ": cancelled"};
      result.warnings.push_back("could not check that " + result.folder + " holds " + id +
                                " (it has no record of where it came from): " + hub_config.error());
      spdlog::warn("{}", result.warnings.back());
    } else if (const std::string hub_type = modelTypeOf(*hub_config);
               hub_type != result.model_type) {
      return Error{
          result.folder + " holds " + kind + ", but " + id + " is " +
          (hub_type.empty() ? std::string("another kind of model") : "a " + hub_type + " model") +
          advice};
    } else if (*hub_config != *config) {
      return Error{result.folder + " holds " + kind + " whose config.json differs from " + id +
                   "'s on the hub (another model, or a changed copy)" + advice};
    }
  }
  result.already_present = true;
  result.files = filesIn(result.folder);
  spdlog::info("{} is already in {}", id, result.folder);
  return result;
}

}  // namespace ascope
