#include "engine/core/json_file.h"

#include "engine/core/atomic_file.h"
#include "engine/core/regular_file.h"

namespace ascope {

Expected<nlohmann::json> parseJson(std::string_view text, const std::string& name,
                                   const JsonLimits& limits) {
  if (Status s = checkJsonLimits(text, name, limits); !s.ok()) return Error{s.error()};
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return Error{name + ": not valid JSON: " + e.what()};
  }
}

Expected<nlohmann::json> readJsonFile(const std::string& path, const JsonLimits& limits,
                                      Links links) {
  auto bytes = readRegularFile(path, limits.max_bytes, links);
  if (!bytes) return Error{bytes.error()};
  return parseJson(*bytes, path, limits);
}

Status writeJsonFile(const std::string& path, const nlohmann::json& json) {
  // error_handler_t::replace: a string that is not UTF-8 becomes U+FFFD instead of a throw.
  std::string text = json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.push_back('\n');
  return writeFileAtomically(path, text);
}

}  // namespace ascope
