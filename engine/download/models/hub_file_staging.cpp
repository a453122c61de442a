#include "engine/download/models/hub_file_staging.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "engine/download/resumable_download.h"
#include "engine/download/sha256.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// Why the file at `path` is not the one `transfer` describes; empty when it is.
Expected<std::string> mismatchOf(const std::string& path, const HubFileTransfer& transfer) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return Error{path + ": cannot read its size: " + ec.message()};
  const HubFileMetadata& metadata = transfer.metadata;
  if (metadata.size >= 0 && size != static_cast<std::uintmax_t>(metadata.size)) {
    return transfer.name + ": size mismatch: expected " + std::to_string(metadata.size) +
           " bytes, got " + std::to_string(size);
  }
  if (metadata.sha256.empty()) return std::string();
  Expected<std::string> hash = Sha256::hexOfFile(path);
  if (!hash.ok()) return Error{hash.error()};
  if (*hash != metadata.sha256) {
    return transfer.name + ": SHA-256 mismatch: expected " + metadata.sha256 + ", got " + *hash;
  }
  return std::string();
}

}  // namespace

Status stageHubFile(const HubFileTransfer& transfer, const std::string& staging_dir,
                    const ProgressCallback& progress, const std::atomic<bool>* cancel) {
  const HubFileMetadata& metadata = transfer.metadata;
  const std::string path = (fs::path(staging_dir) / transfer.name).string();
  // An earlier run may have staged this file from another commit, or from another model that was
  // to go into the same folder. Only a SHA-256 tells it is the same file; without one (the small
  // files kept in git) the file is fetched whole again. A part is named after the hash it is meant
  // to have, so that it is only ever resumed towards that hash.
  const bool verifiable = !metadata.sha256.empty();
  const std::string part_path =
      verifiable ? path + "." + metadata.sha256.substr(0, 16) + ".part" : path + ".part";
  std::error_code ec;
  if (verifiable && fs::is_regular_file(path, ec)) {
    Expected<std::string> mismatch = mismatchOf(path, transfer);
    if (!mismatch.ok()) return Error{mismatch.error()};
    if (mismatch->empty()) {
      spdlog::info("{}: already downloaded", path);
      if (progress && metadata.size >= 0) progress(metadata.size, metadata.size, 0);
      return {};
    }
    spdlog::info("{}: {}; downloading it again", path, *mismatch);
  }
  fs::remove(path, ec);
  if (!verifiable) fs::remove(part_path, ec);

  const std::string& url = metadata.download_url;
  spdlog::info("downloading {} from {}", transfer.name, url);
  const std::int64_t most = metadata.size >= 0 ? metadata.size : transfer.max_bytes;
  ResumableDownload download(url, part_path, std::max<std::int64_t>(metadata.size, 0),
                             transfer.limits, most);
  if (!transfer.token.empty() && metadata.download_on_endpoint) {
    download.setHeaders({"Authorization: Bearer " + transfer.token});
  }
  if (Status done = download.run(progress, cancel); !done) return done;

  Expected<std::string> mismatch = mismatchOf(part_path, transfer);
  if (!mismatch.ok()) return Error{mismatch.error()};
  if (!mismatch->empty()) {
    std::remove(part_path.c_str());
    return Error{*mismatch + " (downloaded from " + url + "; the file was deleted)"};
  }
  if (std::rename(part_path.c_str(), path.c_str()) != 0) {
    return Error{path + ": cannot rename from " + part_path + ": " + std::strerror(errno)};
  }
  return {};
}

}  // namespace ascope
