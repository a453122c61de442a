#include "engine/vocabulary/json_integral_settings.h"

#include <cmath>
#include <cstdint>

namespace ascope {

nlohmann::json integralSettings(const nlohmann::json& input, const nlohmann::json& defaults) {
  if (input.is_object() && defaults.is_object()) {
    nlohmann::json out = input;
    for (auto& [key, value] : out.items()) {
      const auto known = defaults.find(key);
      if (known != defaults.end()) value = integralSettings(value, *known);
    }
    return out;
  }
  if (!defaults.is_number_integer() || !input.is_number_float()) return input;
  const double whole = std::trunc(input.get<double>());
  const double two_63 = std::ldexp(1.0, 63);
  if (defaults.is_number_unsigned() && whole >= 0.0 && whole < 2.0 * two_63) {
    return static_cast<std::uint64_t>(whole);
  }
  if (whole >= -two_63 && whole < two_63) return static_cast<std::int64_t>(whole);
  throw nlohmann::json::out_of_range::create(
      406, "number " + input.dump() + " does not fit an integer setting", &input);
}

}  // namespace ascope
