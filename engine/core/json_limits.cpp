#include "engine/core/json_limits.h"

#include "engine/core/regular_file.h"

namespace ascope {

Status checkJsonLimits(std::string_view text, const std::string& name, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return Error{name + " is " + describeByteCount(text.size()) + ", over the " +
                 describeByteCount(limits.max_bytes) + " limit for this JSON file"};
  }
  std::size_t depth = 0;
  std::size_t line = 1;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limits.max_depth) {
        return Error{name + ": JSON nested deeper than " + std::to_string(limits.max_depth) +
                     " levels at line " + std::to_string(line) + ", byte " + std::to_string(i + 1)};
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;  // a stray closer is the parser's to report
    }
  }
  return {};
}

}  // namespace ascope
