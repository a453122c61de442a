#include "engine/download/server_text.h"

#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

bool isUnprintable(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) ||  // C0, DEL, C1 (ESC, CSI, OSC, …)
         (c >= 0x200E && c <= 0x200F) ||          // left-to-right / right-to-left marks
         (c >= 0x202A && c <= 0x202E) ||          // embeddings and overrides
         (c >= 0x2066 && c <= 0x2069);            // isolates
}

}  // namespace

std::string printableServerText(std::string_view text) {
  std::u32string code_points;
  appendCodePoints(text, code_points);  // invalid bytes become U+FFFD
  std::string out;
  for (const char32_t c : code_points) {
    std::string next;
    appendUtf8(isUnprintable(c) ? U'?' : c, next);
    if (out.size() + next.size() > kMaxServerTextBytes) return out + std::string(kEllipsis);
    out += next;
  }
  return out;
}

bool isPrintableServerText(std::string_view text) {
  std::u32string code_points;
  appendCodePoints(text, code_points);
  std::string again;  // differs from `text` where `text` is not valid UTF-8
  for (const char32_t c : code_points) {
    if (isUnprintable(c)) return false;
    appendUtf8(c, again);
  }
  return again == text && text.size() <= kMaxServerTextBytes + kEllipsis.size();
}

}  // namespace ascope
