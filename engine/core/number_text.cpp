#include "engine/core/number_text.h"

#include <array>
#include <charconv>
#include <system_error>

namespace ascope {

std::string formatNumber(double value, int significant_digits) {
  std::array<char, 64> buffer{};
  const std::to_chars_result result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general,
                    significant_digits);
  return std::string(buffer.data(), result.ptr);
}

std::optional<double> parseNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double value = 0;
  const std::from_chars_result result =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace ascope
