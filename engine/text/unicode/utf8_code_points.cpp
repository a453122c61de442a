#include "engine/text/unicode/utf8_code_points.h"

#include <cstdint>

#include "engine/core/utf8_lead_byte.h"

namespace ascope {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

}  // namespace

void appendCodePoints(std::string_view text, std::u32string& out) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const auto lead = static_cast<std::uint8_t>(text[i]);
    if (lead < 0x80) {
      out.push_back(lead);
      ++i;
      continue;
    }
    const Utf8LeadByte shape = classifyUtf8Lead(lead);
    if (shape.length == 0) {
      out.push_back(kReplacement);
      ++i;
      continue;
    }
    char32_t c = lead & (0xFFu >> (shape.length + 1));
    std::size_t valid = 1;
    while (valid < static_cast<std::size_t>(shape.length) && i + valid < n) {
      const auto byte = static_cast<std::uint8_t>(text[i + valid]);
      const std::uint8_t lo = valid == 1 ? shape.second_min : 0x80;
      const std::uint8_t hi = valid == 1 ? shape.second_max : 0xBF;
      if (byte < lo || byte > hi) break;
      c = (c << 6) | (byte & 0x3Fu);
      ++valid;
    }
    out.push_back(valid == static_cast<std::size_t>(shape.length) ? c : kReplacement);
    i += valid;
  }
}

void appendUtf8(char32_t c, std::string& out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = kReplacement;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::size_t countCodePoints(std::string_view text) {
  std::size_t count = 0;
  for (const char byte : text) count += (static_cast<std::uint8_t>(byte) & 0xC0) != 0x80;
  return count;
}

}  // namespace ascope
