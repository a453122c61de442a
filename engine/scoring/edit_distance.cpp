#include "engine/scoring/edit_distance.h"

#include "engine/scoring/tokenizer_13a.h"
#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {

std::string normalizedSpacing(const std::string& text) {
  std::string out;
  for (const std::u32string& word : splitOnWhitespace(codePoints(text))) {
    if (!out.empty()) out.push_back(' ');
    for (char32_t c : word) appendUtf8(c, out);
  }
  return out;
}

}  // namespace ascope
