#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace ascope {

/// The replacement character U+FFFD in UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

/// Appends `in` to `out` as valid UTF-8: each maximal invalid subsequence (Unicode 3.9, "U+FFFD
/// substitution of maximal subparts", the same rule as Python's errors="replace" and the WHATWG
/// decoder) becomes one U+FFFD. Returns how many were replaced. Text we store must be valid UTF-8
/// because nlohmann-json refuses to write anything else into tokenizer.json.
std::size_t appendRepairedUtf8(std::string_view in, std::string& out);

/// `in` as valid UTF-8; `replaced` (if given) is increased by the number of replacements.
std::string repairUtf8(std::string_view in, std::size_t* replaced = nullptr);

}  // namespace ascope
