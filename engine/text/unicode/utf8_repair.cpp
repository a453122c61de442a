#include "engine/text/unicode/utf8_repair.h"

#include <cstdint>

namespace ascope {
namespace {

/// Length of the well-formed sequence led by `lead` and the allowed range of its second byte
/// (Unicode Table 3-7); 0 when `lead` cannot start a sequence.
struct LeadByte {
  int length = 0;
  std::uint8_t second_min = 0x80;
  std::uint8_t second_max = 0xBF;
};

LeadByte classify(std::uint8_t lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
  if (lead == 0xE0) return {3, 0xA0, 0xBF};
  if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) return {3, 0x80, 0xBF};
  if (lead == 0xED) return {3, 0x80, 0x9F};  // excludes the UTF-16 surrogates
  if (lead == 0xF0) return {4, 0x90, 0xBF};
  if (lead >= 0xF1 && lead <= 0xF3) return {4, 0x80, 0xBF};
  if (lead == 0xF4) return {4, 0x80, 0x8F};  // nothing above U+10FFFF
  return {};
}

}  // namespace

std::size_t appendRepairedUtf8(std::string_view in, std::string& out) {
  std::size_t replaced = 0;
  std::size_t i = 0;
  const std::size_t n = in.size();
  out.reserve(out.size() + n);
  while (i < n) {
    // Copy the ASCII run in one go; reviews are mostly ASCII.
    std::size_t run = i;
    while (run < n && static_cast<std::uint8_t>(in[run]) < 0x80) ++run;
    out.append(in.data() + i, run - i);
    i = run;
    if (i >= n) break;

    const LeadByte lead = classify(static_cast<std::uint8_t>(in[i]));
    std::size_t valid = 0;  // bytes of a well-formed prefix, lead included
    if (lead.length > 0) {
      valid = 1;
      while (valid < static_cast<std::size_t>(lead.length) && i + valid < n) {
        const auto byte = static_cast<std::uint8_t>(in[i + valid]);
        const std::uint8_t lo = valid == 1 ? lead.second_min : 0x80;
        const std::uint8_t hi = valid == 1 ? lead.second_max : 0xBF;
        if (byte < lo || byte > hi) break;
        ++valid;
      }
    }
    if (lead.length > 0 && valid == static_cast<std::size_t>(lead.length)) {
      out.append(in.data() + i, valid);
      i += valid;
    } else {
      out.append(kReplacementCharacter);
      ++replaced;
      i += valid > 0 ? valid : 1;
    }
  }
  return replaced;
}

std::string repairUtf8(std::string_view in, std::size_t* replaced) {
  std::string out;
  const std::size_t count = appendRepairedUtf8(in, out);
  if (replaced) *replaced += count;
  return out;
}

}  // namespace ascope
