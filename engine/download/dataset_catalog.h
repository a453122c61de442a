#pragma once
// The list of downloadable datasets, read from resources/datasets.json: for each task its official
// URL, file name, size, SHA-256, archive type and the folder the loaders expect after extraction.
//
// "sha256": null means the hash is not pinned (the OPUS zip: no published hash, and none known
// offline). Such a download is accepted; its computed hash is reported with a warning so that it
// can be pinned in the file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// One dataset of resources/datasets.json.
struct CatalogEntry {
  /// The task it feeds: a task id of the registry (engine/tasks/registry/task_registry.h).
  std::string task;
  /// A name for people, e.g. "CIFAR-10 (binary version)".
  std::string name;
  /// Where it is downloaded from (http or https).
  std::string url;
  /// The archive's file name in the data folder while it is downloaded and extracted.
  std::string file;
  /// Size in bytes: progress when the server sends no length, and the check where no SHA-256 is
  /// pinned.
  std::optional<std::int64_t> size;
  /// 64 lowercase hex digits, or empty when not pinned.
  std::string sha256;
  /// "tar.gz" or "zip".
  std::string archive;
  /// The folder inside the archive that becomes `folder`; empty: the archive's top level.
  std::string archive_folder;
  /// The dataset's folder in the data folder, the one the loaders read.
  std::string folder;
  /// Paths inside `folder` that must exist once extracted (files or folders).
  std::vector<std::string> expect;
};

class DatasetCatalog {
 public:
  /// Reads a catalog file; errors name the file and the entry or field that is wrong.
  static Expected<DatasetCatalog> load(const std::string& path);
  /// Parses catalog JSON; `name` appears in messages.
  static Expected<DatasetCatalog> parse(const std::string& json_text, const std::string& name);

  /// Where datasets.json is looked for, first match wins: next to the installed binary
  /// (<prefix>/share/attentionscope/), then the source tree's resources/ (for the build tree).
  static std::vector<std::string> searchPaths();
  /// Loads the first file of searchPaths() that exists; the error lists the places tried.
  static Expected<DatasetCatalog> loadDefault();

  const std::vector<CatalogEntry>& entries() const { return entries_; }
  /// The entry for `task`; the error lists the tasks the catalog knows.
  Expected<CatalogEntry> find(const std::string& task) const;

 private:
  std::vector<CatalogEntry> entries_;
};

}  // namespace ascope
