#pragma once
// Converting between UTF-8 bytes and code points for tokenizers that work character by character.
#include <string>
#include <string_view>

namespace ascope {

/// Appends the code points of `text` to `out`. Each maximal invalid subsequence becomes one U+FFFD,
/// by the same rule as repairUtf8 (engine/text/unicode/utf8_repair.h), so bytes that are not UTF-8
/// read as Python reads them with errors="replace".
void appendCodePoints(std::string_view text, std::u32string& out);

/// Appends `c` as UTF-8; code points above U+10FFFF and surrogates become U+FFFD.
void appendUtf8(char32_t c, std::string& out);

/// The number of code points of valid UTF-8 `text` (its bytes that do not continue a sequence).
std::size_t countCodePoints(std::string_view text);

}  // namespace ascope
