#include "engine/download/dataset_downloader.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "engine/core/folder_sync.h"
#include "engine/download/archive_extractor.h"
#include "engine/download/resumable_download.h"
#include "engine/download/sha256.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// The first path of entry.expect that `folder` lacks; empty when it has them all.
std::string firstMissing(const CatalogEntry& entry, const fs::path& folder) {
  for (const std::string& path : entry.expect) {
    std::error_code ec;
    if (!fs::exists(folder / path, ec)) return path;
  }
  return {};
}

void removeQuietly(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

}  // namespace

DatasetDownloader::DatasetDownloader(DownloadOptions options) : options_(std::move(options)) {}

Expected<FetchedDataset> DatasetDownloader::fetch(const CatalogEntry& entry,
                                                  const std::string& data_dir,
                                                  const ProgressCallback& progress,
                                                  const std::atomic<bool>* cancel) const {
  const fs::path data(data_dir);
  FetchedDataset result;
  result.folder = (data / entry.folder).string();
  std::error_code ec;
  if (fs::exists(result.folder, ec)) {
    const std::string missing = firstMissing(entry, result.folder);
    if (missing.empty()) {
      spdlog::info("{} is already in {}", entry.name, result.folder);
      result.already_present = true;
      return result;
    }
    return Error{result.folder + ": exists but lacks " + missing + "; remove it to download " +
                 entry.name + " again"};
  }
  fs::create_directories(data, ec);
  if (ec) return Error{data_dir + ": cannot create the folder: " + ec.message()};

  const std::string archive_path = (data / entry.file).string();
  Expected<std::string> hash =
      obtainArchive(entry, archive_path, progress, cancel, result.warnings);
  if (!hash.ok()) return Error{hash.error()};
  result.sha256 = *hash;
  if (Status extracted = extractIntoPlace(entry, archive_path, data_dir, cancel); !extracted) {
    // An unpinned archive that does not extract is most likely a bad download: fetch it afresh
    // next time. A pinned one is the publisher's file; keep it rather than download it again.
    const bool cancelled = cancel != nullptr && cancel->load();
    if (!cancelled && entry.sha256.empty()) fs::remove(archive_path, ec);
    return Error{extracted.error()};
  }
  if (!options_.keep_archive) fs::remove(archive_path, ec);
  spdlog::info("{} is ready in {}", entry.name, result.folder);
  return result;
}

Expected<std::string> DatasetDownloader::obtainArchive(const CatalogEntry& entry,
                                                       const std::string& archive_path,
                                                       const ProgressCallback& progress,
                                                       const std::atomic<bool>* cancel,
                                                       std::vector<std::string>& warnings) const {
  const std::string unpinned_warning = entry.file + ": SHA-256 not pinned in the catalog; got ";
  std::error_code ec;
  if (fs::is_regular_file(archive_path, ec)) {  // verified earlier, then extraction was stopped
    announce(FetchStage::kVerifying);
    Expected<std::string> hash = Sha256::hexOfFile(archive_path);
    if (!hash.ok()) return hash;
    if (entry.sha256.empty() || *hash == entry.sha256) {
      spdlog::info("{}: using the archive already downloaded", archive_path);
      if (entry.sha256.empty()) warnings.push_back(unpinned_warning + *hash);
      return hash;
    }
    spdlog::warn("{}: checksum {} does not match; downloading again", archive_path, *hash);
    fs::remove(archive_path, ec);
  }

  announce(FetchStage::kDownloading);
  const std::string part_path = archive_path + ".part";
  spdlog::info("downloading {} from {}", entry.name, entry.url);
  // The catalog's size is the archive's: a server that announces or sends more is refused before
  // it fills the disk.
  ResumableDownload download(entry.url, part_path, entry.size.value_or(0), options_.limits,
                             entry.size.value_or(-1));
  if (Status done = download.run(progress, cancel); !done) return Error{done.error()};

  announce(FetchStage::kVerifying);
  Expected<std::string> hash = Sha256::hexOfFile(part_path);
  if (!hash.ok()) return hash;
  if (!entry.sha256.empty() && *hash != entry.sha256) {
    std::remove(part_path.c_str());
    return Error{entry.url + ": checksum mismatch: expected " + entry.sha256 + " got " + *hash +
                 " (the file was deleted)"};
  }
  if (entry.sha256.empty()) {
    // Without a pinned hash the published size is the best check there is: a different file
    // (an error page, a newer release, a cut transfer the server called complete) fails it.
    const std::uintmax_t got = fs::file_size(part_path, ec);
    if (entry.size && !ec && got != static_cast<std::uintmax_t>(*entry.size)) {
      std::remove(part_path.c_str());
      return Error{entry.url + ": size mismatch: expected " + std::to_string(*entry.size) +
                   " bytes, got " + std::to_string(got) + " (the file was deleted)"};
    }
    warnings.push_back(unpinned_warning + *hash);
    spdlog::warn("{}", warnings.back());
  }
  if (std::rename(part_path.c_str(), archive_path.c_str()) != 0) {
    return Error{archive_path + ": cannot rename from " + part_path + ": " + std::strerror(errno)};
  }
  syncFolder(fs::path(archive_path).parent_path().string());
  return hash;
}

Status DatasetDownloader::extractIntoPlace(const CatalogEntry& entry,
                                           const std::string& archive_path,
                                           const std::string& data_dir,
                                           const std::atomic<bool>* cancel) const {
  announce(FetchStage::kExtracting);
  const fs::path staging = fs::path(data_dir) / ("." + entry.folder + ".extracting");
  const fs::path target = fs::path(data_dir) / entry.folder;
  removeQuietly(staging);  // left over by a crash
  std::error_code ec;
  fs::create_directories(staging, ec);
  if (ec) return Error{staging.string() + ": cannot create the folder: " + ec.message()};
  spdlog::info("extracting {} into {}", archive_path, target.string());

  Status status = ArchiveExtractor::extract(archive_path, entry.archive, staging.string(), cancel);
  const fs::path extracted =
      entry.archive_folder.empty() ? staging : staging / entry.archive_folder;
  if (status.ok()) {
    const std::string missing = firstMissing(entry, extracted);
    if (!fs::is_directory(extracted, ec)) {
      status = Error{archive_path + ": the archive has no folder " + entry.archive_folder};
    } else if (!missing.empty()) {
      status = Error{archive_path + ": the archive lacks " +
                     (fs::path(entry.archive_folder) / missing).string()};
    } else {
      fs::rename(extracted, target, ec);
      if (ec) {
        status = Error{target.string() + ": cannot move the extracted folder: " + ec.message()};
      }
    }
  }
  removeQuietly(staging);
  if (status.ok()) syncFolder(data_dir);
  return status;
}

void DatasetDownloader::announce(FetchStage stage) const {
  if (options_.on_stage) options_.on_stage(stage);
}

}  // namespace ascope
