#include "engine/text/unicode/utf8_repair.h"

#include <cstdint>

#include "engine/core/utf8_lead_byte.h"

namespace ascope {

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

    const Utf8LeadByte lead = classifyUtf8Lead(static_cast<std::uint8_t>(in[i]));
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
