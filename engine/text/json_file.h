#pragma once
// Reading and writing the small JSON files of a run folder (tokenizers) without exceptions
// escaping: nlohmann throws on bad input, callers here get an Expected instead.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/core/expected.h"

namespace ascope {

/// Parses `text`; the error names `name` and says where the JSON broke.
Expected<nlohmann::json> parseJson(std::string_view text, const std::string& name);

/// Reads and parses the file at `path`.
Expected<nlohmann::json> readJsonFile(const std::string& path);

/// Writes `json` to `path` atomically (temp file + rename), indented, ending in a newline.
Status writeJsonFile(const std::string& path, const nlohmann::json& json);

}  // namespace ascope
