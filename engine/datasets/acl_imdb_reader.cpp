#include "engine/datasets/acl_imdb_reader.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <tuple>
#include <vector>

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/text/words/review_text.h"

namespace ascope {
namespace fs = std::filesystem;
namespace {

struct ReviewFile {
  std::uint64_t id = 0;
  std::string name;
  fs::path path;
};

/// The id before the '_' of "<id>_<rating>.txt"; files named otherwise sort after, by name.
std::uint64_t reviewId(const std::string& name) {
  std::uint64_t id = 0;
  std::size_t i = 0;
  for (; i < name.size() && i < 18 && name[i] >= '0' && name[i] <= '9'; ++i) {
    id = id * 10 + static_cast<std::uint64_t>(name[i] - '0');
  }
  return i == 0 ? UINT64_MAX : id;
}

Expected<std::vector<ReviewFile>> listReviews(const fs::path& folder) {
  std::vector<ReviewFile> files;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".txt") continue;
    const std::string name = it->path().filename().string();
    files.push_back({reviewId(name), name, it->path()});
  }
  if (ec) return Error{folder.string() + ": cannot list: " + ec.message()};
  if (files.empty()) return Error{folder.string() + ": no review .txt files"};
  std::sort(files.begin(), files.end(), [](const ReviewFile& a, const ReviewFile& b) {
    return std::tie(a.id, a.name) < std::tie(b.id, b.name);
  });
  return files;
}

}  // namespace

std::string AclImdbReader::findRoot(const std::string& path) {
  const fs::path root(path);
  std::error_code ec;
  if (fs::is_directory(root / "aclImdb", ec)) return (root / "aclImdb").string();
  if (fs::is_directory(root / "train", ec) && fs::is_directory(root / "test", ec)) {
    return root.string();
  }
  return {};
}

Expected<Loaded<TextDataset>> AclImdbReader::read(const std::string& path) {
  const std::string found = findRoot(path);
  const fs::path root(found.empty() ? path : found);
  struct LabelFolder {
    const char* path;
    bool test;
    int label;
  };
  const LabelFolder kFolders[] = {{"train/neg", false, 0},
                                  {"train/pos", false, 1},
                                  {"test/neg", true, 0},
                                  {"test/pos", true, 1}};
  std::string missing;
  std::error_code ec;
  for (const LabelFolder& folder : kFolders) {
    if (!fs::is_directory(root / folder.path, ec)) {
      missing += (missing.empty() ? "" : ", ") + std::string(folder.path);
    }
  }
  if (!missing.empty()) {
    return Error{root.string() + ": not an aclImdb folder, missing " + missing};
  }

  Loaded<TextDataset> loaded;
  RecordTally empty("empty review files skipped");
  RecordTally invalid_utf8("invalid UTF-8 sequences replaced by U+FFFD");
  for (const LabelFolder& folder : kFolders) {
    auto files = listReviews(root / folder.path);
    if (!files) return Error{files.error()};
    auto& split = folder.test ? loaded.dataset.test : loaded.dataset.train;
    split.reserve(split.size() + files->size());
    for (const ReviewFile& file : *files) {
      auto bytes = readFileBytes(file.path.string());
      if (!bytes) return Error{bytes.error()};
      const std::string where = std::string(folder.path) + "/" + file.name;
      std::size_t replaced = 0;
      std::string text = cleanReviewText(*bytes, replaced);
      invalid_utf8.add(where, replaced);
      if (trimSpace(text).empty()) {
        empty.add(where);
        continue;
      }
      split.push_back(TextSample{std::move(text), folder.label});
    }
  }
  empty.appendWarning(root.string(), loaded.warnings);
  invalid_utf8.appendWarning(root.string(), loaded.warnings);
  return loaded;
}

}  // namespace ascope
