#include "engine/download/dataset_catalog.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engine/download/sha256.h"

namespace ascope {
namespace {

using nlohmann::json;

constexpr const char* kCatalogFileName = "datasets.json";

/// A relative path that stays inside its folder: not empty, not absolute, no "." or ".." part.
bool isContainedRelativePath(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  std::istringstream parts(path);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return path.back() != '/';
}

bool isPlainDatasetName(const std::string& name) {
  return isContainedRelativePath(name) && name.find('/') == std::string::npos;
}

Expected<std::string> stringField(const json& object, const char* key, const std::string& where,
                                  bool allow_empty) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    return Error{where + ": \"" + key + "\" must be a string"};
  std::string value = it->get<std::string>();
  if (value.empty() && !allow_empty) return Error{where + ": \"" + key + "\" is empty"};
  return value;
}

Expected<CatalogEntry> parseEntry(const json& object, const std::string& where) {
  if (!object.is_object()) return Error{where + ": not a JSON object"};
  CatalogEntry entry;
  struct TextField {
    const char* key;
    std::string* target;
    bool allow_empty;
  };
  const TextField text_fields[] = {
      {"task", &entry.task, false},       {"name", &entry.name, true},
      {"url", &entry.url, false},         {"file", &entry.file, false},
      {"archive", &entry.archive, false}, {"archive_folder", &entry.archive_folder, true},
      {"folder", &entry.folder, false}};
  for (const TextField& field : text_fields) {
    Expected<std::string> value = stringField(object, field.key, where, field.allow_empty);
    if (!value.ok()) return Error{value.error()};
    *field.target = std::move(*value);
  }
  const std::string named = where + " (" + entry.task + ")";
  if (entry.url.rfind("http://", 0) != 0 && entry.url.rfind("https://", 0) != 0) {
    return Error{named + ": url \"" + entry.url + "\" is not http(s)"};
  }
  if (!isPlainDatasetName(entry.file))
    return Error{named + ": file \"" + entry.file + "\" is not a plain file name"};
  if (!isPlainDatasetName(entry.folder)) {
    return Error{named + ": folder \"" + entry.folder + "\" is not a plain folder name"};
  }
  if (!entry.archive_folder.empty() && !isContainedRelativePath(entry.archive_folder)) {
    return Error{named + ": archive_folder \"" + entry.archive_folder + "\" leaves the archive"};
  }
  if (entry.archive != "tar.gz" && entry.archive != "zip") {
    return Error{named + ": archive \"" + entry.archive + "\" is not tar.gz or zip"};
  }

  const auto sha = object.find("sha256");
  if (sha != object.end() && sha->is_string()) {
    entry.sha256 = sha->get<std::string>();
    if (!Sha256::isHexDigest(entry.sha256)) {
      return Error{named + ": sha256 \"" + entry.sha256 + "\" is not 64 hex digits"};
    }
    std::transform(entry.sha256.begin(), entry.sha256.end(), entry.sha256.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  } else if (sha != object.end() && !sha->is_null()) {
    return Error{named + ": sha256 must be a string or null"};
  }

  const auto size = object.find("size");
  if (size != object.end() && size->is_number_integer() && size->get<std::int64_t>() > 0) {
    entry.size = size->get<std::int64_t>();
  } else if (size != object.end() && !size->is_null()) {
    return Error{named + ": size must be a positive whole number or null"};
  }

  const auto expect = object.find("expect");
  if (expect == object.end() || !expect->is_array() || expect->empty()) {
    return Error{named + ": \"expect\" must list the paths the extracted folder holds"};
  }
  for (const json& path : *expect) {
    if (!path.is_string() || !isContainedRelativePath(path.get<std::string>())) {
      return Error{named + ": \"expect\" holds " + path.dump() + ", not a path inside the folder"};
    }
    entry.expect.push_back(path.get<std::string>());
  }
  return entry;
}

std::string executableFolder() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace

Expected<DatasetCatalog> DatasetCatalog::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the dataset catalog"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

Expected<DatasetCatalog> DatasetCatalog::parse(const std::string& json_text,
                                               const std::string& name) {
  const json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Error{name + ": not valid JSON"};
  const auto list = root.is_object() ? root.find("datasets") : root.end();
  if (list == root.end() || !list->is_array()) return Error{name + ": no \"datasets\" list"};
  DatasetCatalog catalog;
  std::set<std::string> tasks;
  for (std::size_t i = 0; i < list->size(); ++i) {
    Expected<CatalogEntry> entry =
        parseEntry((*list)[i], name + ": dataset " + std::to_string(i + 1));
    if (!entry.ok()) return Error{entry.error()};
    if (!tasks.insert(entry->task).second) {
      return Error{name + ": task \"" + entry->task + "\" is listed twice"};
    }
    catalog.entries_.push_back(std::move(*entry));
  }
  return catalog;
}

std::vector<std::string> DatasetCatalog::searchPaths() {
  std::vector<std::string> paths;
  const std::string exe_folder = executableFolder();
  if (!exe_folder.empty()) {
    paths.push_back(exe_folder + "/../share/attentionscope/" + kCatalogFileName);
  }
#ifdef ATTENTIONSCOPE_SOURCE_RESOURCES
  paths.push_back(std::string(ATTENTIONSCOPE_SOURCE_RESOURCES) + "/" + kCatalogFileName);
#endif
  return paths;
}

Expected<DatasetCatalog> DatasetCatalog::loadDefault() {
  std::string tried;
  for (const std::string& path : searchPaths()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return load(path);
    tried += (tried.empty() ? "" : ", ") + path;
  }
  return Error{std::string("no dataset catalog (") + kCatalogFileName + ") found; looked in " +
               (tried.empty() ? "no place" : tried)};
}

Expected<CatalogEntry> DatasetCatalog::find(const std::string& task) const {
  std::string known;
  for (const CatalogEntry& entry : entries_) {
    if (entry.task == task) return entry;
    known += (known.empty() ? "" : ", ") + entry.task;
  }
  return Error{"no dataset for task \"" + task + "\" (known: " + (known.empty() ? "none" : known) +
               ")"};
}

}  // namespace ascope
