#pragma once
#include <cstdint>

namespace ascope {

/// What a byte that starts a UTF-8 sequence says of the sequence: its length and the allowed range
/// of its second byte (Unicode Table 3-7: no overlong forms, no UTF-16 surrogates, nothing above
/// U+10FFFF). `length` is 0 for a byte that cannot start a sequence (ASCII included).
struct Utf8LeadByte {
  int length = 0;
  std::uint8_t second_min = 0x80;
  std::uint8_t second_max = 0xBF;
};

/// `lead` as the first byte of a multi-byte UTF-8 sequence.
Utf8LeadByte classifyUtf8Lead(std::uint8_t lead);

}  // namespace ascope
