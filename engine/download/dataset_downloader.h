#pragma once
// Gets one dataset of the catalog into a data folder: download (resumable), verify, extract.
//
//   <data>/<file>.part   the download in progress; kept on a broken connection or a cancel, and
//                        resumed with an HTTP Range request by the next fetch()
//   <data>/<file>        the whole, verified archive (renamed from .part); removed once extracted
//                        unless keep_archive
//   <data>/.<folder>.extracting   the extraction in progress; removed on any error
//   <data>/<folder>      the dataset, renamed into place only once complete
//
// A checksum mismatch deletes the bad file; a damaged archive deletes the archive and leaves no
// folder. Plain C++ with no Qt and no LibTorch: a GUI calls fetch() from a worker thread and
// cancels through the atomic flag; the callbacks run on that thread.
#include <atomic>
#include <string>
#include <vector>

#include "engine/download/dataset_catalog.h"
#include "engine/download/download_progress.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct DownloadOptions {
  /// Connection and stall timeouts of the transfer.
  TransferLimits limits;
  /// Keeps <data>/<file> after a successful extraction instead of deleting it.
  bool keep_archive = false;
  /// Told when verifying and extracting start (optional).
  StageCallback on_stage;
};

/// What fetch() produced.
struct FetchedDataset {
  /// The dataset folder, ready for the loaders (e.g. <data>/cifar-10-batches-bin).
  std::string folder;
  /// True when the folder was complete already and nothing was fetched.
  bool already_present = false;
  /// The archive's SHA-256 as computed; empty when already_present.
  std::string sha256;
  /// Things a person should see, e.g. that the hash is not pinned in the catalog.
  std::vector<std::string> warnings;
};

class DatasetDownloader {
 public:
  explicit DatasetDownloader(DownloadOptions options = {});

  /// Makes `entry`'s dataset available under `data_dir` (created when missing) and returns its
  /// folder. Does nothing when the folder is already complete. Errors are one line naming the URL
  /// or the file and the reason.
  Expected<FetchedDataset> fetch(const CatalogEntry& entry, const std::string& data_dir,
                                 const ProgressCallback& progress,
                                 const std::atomic<bool>* cancel) const;

 private:
  /// Downloads (or reuses) <data>/<file> and checks its hash; returns the computed hash.
  Expected<std::string> obtainArchive(const CatalogEntry& entry, const std::string& archive_path,
                                      const ProgressCallback& progress,
                                      const std::atomic<bool>* cancel,
                                      std::vector<std::string>& warnings) const;
  /// Extracts into a temporary folder, checks the expected paths, renames into place.
  Status extractIntoPlace(const CatalogEntry& entry, const std::string& archive_path,
                          const std::string& data_dir, const std::atomic<bool>* cancel) const;
  void announce(FetchStage stage) const;

  DownloadOptions options_;
};

}  // namespace ascope
