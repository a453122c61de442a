#include "engine/datasets/moses_pair_reader.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace fs = std::filesystem;

Expected<Loaded<std::vector<TranslationPair>>> MosesPairReader::parse(
    std::string_view source, const std::string& source_name, std::string_view target,
    const std::string& target_name) {
  if (source.empty()) return Error{source_name + ": file is empty"};
  if (target.empty()) return Error{target_name + ": file is empty"};
  const std::vector<std::string_view> source_lines = splitLines(source);
  const std::vector<std::string_view> target_lines = splitLines(target);
  if (source_lines.size() != target_lines.size()) {
    return Error{source_name + " has " + std::to_string(source_lines.size()) + " lines but " +
                 target_name + " has " + std::to_string(target_lines.size()) +
                 "; the files of a moses pair must be line-aligned"};
  }
  Loaded<std::vector<TranslationPair>> loaded;
  RecordTally empty_side("line pairs skipped for an empty side");
  RecordTally invalid_utf8("invalid UTF-8 sequences replaced by U+FFFD");
  loaded.dataset.reserve(source_lines.size());
  for (std::size_t i = 0; i < source_lines.size(); ++i) {
    const std::string where = "line " + std::to_string(i + 1);
    const std::string_view source_line = trimSpace(source_lines[i]);
    const std::string_view target_line = trimSpace(target_lines[i]);
    if (source_line.empty() || target_line.empty()) {
      empty_side.add(where);
      continue;
    }
    std::size_t replaced = 0;
    TranslationPair pair{repairUtf8(source_line, &replaced), repairUtf8(target_line, &replaced)};
    invalid_utf8.add(where, replaced);
    loaded.dataset.push_back(std::move(pair));
  }
  const std::string names = source_name + " + " + target_name;
  empty_side.appendWarning(names, loaded.warnings);
  if (loaded.dataset.empty()) return Error{names + ": no line pair has text on both sides"};
  invalid_utf8.appendWarning(names, loaded.warnings);
  return loaded;
}

Expected<Loaded<std::vector<TranslationPair>>> MosesPairReader::read(
    const std::string& source_path, const std::string& target_path) {
  auto source = readFileBytes(source_path);
  if (!source) return Error{source.error()};
  auto target = readFileBytes(target_path);
  if (!target) return Error{target.error()};
  return parse(*source, source_path, *target, target_path);
}

std::pair<std::string, std::string> MosesPairReader::completePair(
    const std::string& path, const std::string& source_language,
    const std::string& target_language) {
  const fs::path file(path);
  const std::string extension = file.extension().string();
  std::error_code ec;
  const auto partner = [&](const std::string& language) {
    fs::path other = file;
    other.replace_extension("." + language);
    return fs::is_regular_file(other, ec) ? other.string() : std::string();
  };
  if (extension == "." + source_language) {
    const std::string target = partner(target_language);
    if (!target.empty()) return {path, target};
  } else if (extension == "." + target_language) {
    const std::string source = partner(source_language);
    if (!source.empty()) return {source, path};
  }
  return {};
}

Expected<std::pair<std::string, std::string>> MosesPairReader::findPairInFolder(
    const std::string& folder, const std::string& source_language,
    const std::string& target_language) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != "." + source_language) continue;
    auto pair = completePair(it->path().string(), source_language, target_language);
    if (!pair.first.empty()) pairs.push_back(std::move(pair));
  }
  if (pairs.size() == 1) return pairs.front();
  if (pairs.empty()) {
    return Error{folder + ": no moses pair <name>." + source_language + " + <name>." +
                 target_language};
  }
  std::sort(pairs.begin(), pairs.end());
  std::string list;
  for (const auto& pair : pairs)
    list += (list.empty() ? "" : ", ") + fs::path(pair.first).filename().string();
  return Error{folder + ": " + std::to_string(pairs.size()) + " moses pairs (" + list +
               "); pass the one to use"};
}

}  // namespace ascope
