#include "engine/datasets/json_lines_pair_reader.h"

#include <nlohmann/json.hpp>

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace {

/// The trimmed string at `object[key]`, or an empty view when there is none. Never throws.
std::string_view stringField(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return trimSpace(it->get_ref<const std::string&>());
}

}  // namespace

Expected<Loaded<std::vector<TranslationPair>>> JsonLinesPairReader::parse(
    std::string_view bytes, const std::string& name, const std::string& source_language,
    const std::string& target_language) {
  if (trimSpace(bytes).empty()) return Error{name + ": file is empty"};
  Loaded<std::vector<TranslationPair>> loaded;
  RecordTally not_json("lines skipped for not being valid JSON");
  RecordTally no_pair("lines skipped for lacking translation." + source_language + " or ." +
                      target_language + " text");
  RecordTally invalid_utf8("invalid UTF-8 sequences replaced by U+FFFD");
  const std::vector<std::string_view> lines = splitLines(bytes);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (trimSpace(lines[i]).empty()) continue;
    const std::string where = "line " + std::to_string(i + 1);
    // nlohmann rejects invalid UTF-8 inside strings; repair first so one bad byte costs a
    // character, not the sentence pair.
    std::size_t replaced = 0;
    const std::string text = repairUtf8(lines[i], &replaced);
    invalid_utf8.add(where, replaced);
    // allow_exceptions = false: a bad line gives a "discarded" value instead of a throw.
    const nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
    if (line.is_discarded()) {
      not_json.add(where);
      continue;
    }
    const auto translation = line.is_object() ? line.find("translation") : line.end();
    const nlohmann::json& object =
        (line.is_object() && translation != line.end()) ? *translation : line;
    const std::string_view source = stringField(object, source_language);
    const std::string_view target = stringField(object, target_language);
    if (source.empty() || target.empty()) {
      no_pair.add(where);
      continue;
    }
    loaded.dataset.push_back(TranslationPair{std::string(source), std::string(target)});
  }
  not_json.appendWarning(name, loaded.warnings);
  no_pair.appendWarning(name, loaded.warnings);
  if (loaded.dataset.empty()) {
    return Error{withWarnings(
        name + ": no line holds a " + source_language + "/" + target_language + " translation pair",
        name, loaded.warnings)};
  }
  invalid_utf8.appendWarning(name, loaded.warnings);
  return loaded;
}

Expected<Loaded<std::vector<TranslationPair>>> JsonLinesPairReader::read(
    const std::string& path, const std::string& source_language,
    const std::string& target_language) {
  auto bytes = readFileBytes(path);
  if (!bytes) return Error{bytes.error()};
  return parse(*bytes, path, source_language, target_language);
}

}  // namespace ascope
