#include "engine/text/words/review_text.h"

#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace {

char lowerAsciiChar(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Length of the line-break tag starting at text[at] ('<' there), or 0 if there is none.
std::size_t breakTagLength(std::string_view text, std::size_t at) {
  if (text.size() - at < 4 || lowerAsciiChar(text[at + 1]) != 'b' ||
      lowerAsciiChar(text[at + 2]) != 'r') {
    return 0;
  }
  std::size_t i = at + 3;
  if (text[i] == ' ') ++i;
  if (i < text.size() && text[i] == '/') ++i;
  return (i < text.size() && text[i] == '>') ? i + 1 - at : 0;
}

}  // namespace

std::string cleanReviewText(std::string_view raw, std::size_t& replaced_utf8) {
  const std::string valid = repairUtf8(raw, &replaced_utf8);
  const std::string_view text(valid);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t tag = text.find('<', i);
    if (tag == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, tag - i));
    const std::size_t length = breakTagLength(text, tag);
    out.push_back(length > 0 ? ' ' : '<');
    i = tag + (length > 0 ? length : 1);
  }
  return out;
}

}  // namespace ascope
