#pragma once
// Reading and writing the small JSON files of a run folder (tokenizers) without exceptions
// escaping: nlohmann throws on bad input, callers here get an Expected instead.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/core/json_limits.h"
#include "engine/core/regular_file.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Parses `text` after checkJsonLimits (size and nesting, engine/core/json_limits.h); the error
/// names `name` and says where the JSON broke or which limit it passed.
Expected<nlohmann::json> parseJson(std::string_view text, const std::string& name,
                                   const JsonLimits& limits = {kMaxTokenizerJsonBytes, 32});

/// Reads (a regular file of at most `limits.max_bytes`, engine/core/regular_file.h) and parses
/// the file at `path`; with Links::kRefuse a symbolic link in its place is refused (a run
/// folder's own files).
Expected<nlohmann::json> readJsonFile(const std::string& path,
                                      const JsonLimits& limits = {kMaxTokenizerJsonBytes, 32},
                                      Links links = Links::kFollow);

/// Writes `json` to `path` atomically (temp file + rename), indented, ending in a newline.
Status writeJsonFile(const std::string& path, const nlohmann::json& json);

}  // namespace ascope
