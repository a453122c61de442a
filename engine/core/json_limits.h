#pragma once
// A first look at JSON text before nlohmann parses it. Its parser keeps its own stack, but
// building, converting (get<T>()) and destroying the parsed value recurse once per nesting level:
// a config.json of 200,000 '[' would crash the reader. The scan below counts brackets outside
// strings iteratively and refuses too deep or too large text with a message naming the file.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct JsonLimits {
  std::uint64_t max_bytes = std::uint64_t{1} << 20;
  std::size_t max_depth = 32;  ///< arrays and objects inside each other
};

/// config.json holds a few dozen settings; classes.json a few thousand names at most.
inline constexpr std::uint64_t kMaxConfigJsonBytes = std::uint64_t{1} << 20;
/// Tokenizer files hold a vocabulary: a 200,000-word one is about 3 MiB.
inline constexpr std::uint64_t kMaxTokenizerJsonBytes = std::uint64_t{64} << 20;

/// OK when `text` is within `limits`; only brackets are looked at (the parser checks the rest).
/// Errors name `name`, the limit and the place: "config.json: JSON nested deeper than 32 levels
/// at line 1, byte 33".
Status checkJsonLimits(std::string_view text, const std::string& name,
                       const JsonLimits& limits = {});

}  // namespace ascope
