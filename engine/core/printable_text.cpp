#include "engine/core/printable_text.h"

#include <cstdint>
#include <cstdio>

#include "engine/core/utf8_lead_byte.h"

namespace ascope {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

bool actedOn(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) ||  // C0, DEL, C1 (ESC, CSI, OSC, …)
         (c >= 0x200E && c <= 0x200F) ||          // left-to-right / right-to-left marks
         (c >= 0x202A && c <= 0x202E) ||          // embeddings and overrides
         (c >= 0x2066 && c <= 0x2069);            // isolates
}

std::string escapedByte(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "\\x%02X", byte);
  return text;
}

/// The length of the well-formed UTF-8 sequence at `at` and its code point; 0 when malformed.
std::size_t sequenceAt(std::string_view bytes, std::size_t at, char32_t* c) {
  const auto lead = static_cast<unsigned char>(bytes[at]);
  if (lead < 0x80) {
    *c = lead;
    return 1;
  }
  const Utf8LeadByte shape = classifyUtf8Lead(lead);
  const auto length = static_cast<std::size_t>(shape.length);
  if (length == 0 || at + length > bytes.size()) return 0;
  const auto second = static_cast<unsigned char>(bytes[at + 1]);
  if (second < shape.second_min || second > shape.second_max) return 0;
  char32_t value = lead & (0xFF >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(bytes[at + i]);
    if ((next & 0xC0) != 0x80) return 0;
    value = value << 6 | (next & 0x3F);
  }
  *c = value;
  return length;
}

}  // namespace

std::string printableText(std::string_view bytes, std::size_t max_bytes) {
  std::string out;
  for (std::size_t at = 0; at < bytes.size();) {
    char32_t c = 0;
    const std::size_t length = sequenceAt(bytes, at, &c);
    std::string next;
    if (length == 0) {
      next = escapedByte(static_cast<unsigned char>(bytes[at]));
    } else if (c < 0x80 && actedOn(c)) {
      next = escapedByte(static_cast<unsigned char>(c));
    } else if (actedOn(c)) {
      char text[16];
      std::snprintf(text, sizeof text, "\\u{%X}", static_cast<unsigned>(c));
      next = text;
    } else {
      next.assign(bytes.substr(at, length));
    }
    if (out.size() + next.size() > max_bytes) return out + std::string(kEllipsis);
    out += next;
    at += length == 0 ? 1 : length;
  }
  return out;
}

bool isPrintableText(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes + kEllipsis.size()) return false;
  for (std::size_t at = 0; at < text.size();) {
    char32_t c = 0;
    const std::size_t length = sequenceAt(text, at, &c);
    if (length == 0 || actedOn(c)) return false;
    at += length;
  }
  return true;
}

}  // namespace ascope
