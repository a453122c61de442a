#include "engine/vocabulary/json_integral_settings.h"

#include <cmath>
#include <cstdint>

namespace ascope {
namespace {

/// A value as it appears in a message: at most 60 characters of its JSON.
std::string shown(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string kindOf(const nlohmann::json& defaults) {
  switch (defaults.type()) {
    case nlohmann::json::value_t::object:
      return "an object of settings";
    case nlohmann::json::value_t::array:
      return "a list";
    case nlohmann::json::value_t::boolean:
      return "true or false";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "a whole number";
    default:
      return "a number";
  }
}

bool isWholeNumber(const nlohmann::json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double v = value.get<double>();
  return std::isfinite(v) && std::trunc(v) == v;
}

bool sameKind(const nlohmann::json& input, const nlohmann::json& defaults) {
  switch (defaults.type()) {
    case nlohmann::json::value_t::object:
      return input.is_object();
    case nlohmann::json::value_t::array:
      return input.is_array();
    case nlohmann::json::value_t::boolean:
      return input.is_boolean();
    case nlohmann::json::value_t::string:
      return input.is_string();
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return isWholeNumber(input);
    case nlohmann::json::value_t::number_float:
      return input.is_number();
    default:
      return true;  // null: an optional setting, any value is the reader's to judge
  }
}

Status checkValue(const nlohmann::json& input, const nlohmann::json& defaults,
                  const std::string& path) {
  if (!sameKind(input, defaults)) {
    return Error{"\"" + path + "\" must be " + kindOf(defaults) + ", got " + shown(input)};
  }
  if (defaults.is_number_integer() && input.is_number_float()) {
    const double v = input.get<double>();
    const double two_63 = std::ldexp(1.0, 63);
    if (v < -two_63 || v >= 2.0 * two_63 || (!defaults.is_number_unsigned() && v >= two_63)) {
      return Error{"\"" + path + "\" is " + shown(input) + ", out of range for this setting"};
    }
  }
  if (defaults.is_object()) return checkSettingTypes(input, defaults, path + ".");
  if (defaults.is_array() && !defaults.empty()) {
    for (std::size_t i = 0; i < input.size(); ++i) {
      if (Status s = checkValue(input[i], defaults[0], path + "[" + std::to_string(i) + "]");
          !s.ok()) {
        return s;
      }
    }
  }
  return {};
}

}  // namespace

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

Status checkSettingTypes(const nlohmann::json& input, const nlohmann::json& defaults,
                         const std::string& prefix) {
  if (!input.is_object() || !defaults.is_object()) return {};
  for (const auto& [key, value] : input.items()) {
    const auto known = defaults.find(key);
    if (known == defaults.end()) continue;
    if (Status s = checkValue(value, *known, prefix + key); !s.ok()) return s;
  }
  return {};
}

Status checkSettingRanges(const nlohmann::json& input, const nlohmann::json& read_back,
                          const std::string& prefix) {
  if (input.is_object() && read_back.is_object()) {
    // "optimization" and "warmup_steps" name "optimization.warmup_steps"; "text." and "layers"
    // name "text.layers".
    const std::string within = prefix.empty() || prefix.back() == '.' ? prefix : prefix + ".";
    for (const auto& [key, value] : input.items()) {
      const auto back = read_back.find(key);
      if (back == read_back.end()) continue;
      if (Status s = checkSettingRanges(value, *back, within + key); !s.ok()) return s;
    }
    return {};
  }
  const std::string name = prefix.empty() ? "the setting" : "\"" + prefix + "\"";
  if (input.is_array() && read_back.is_array() && input.size() == read_back.size()) {
    for (std::size_t i = 0; i < input.size(); ++i) {
      if (Status s =
              checkSettingRanges(input[i], read_back[i], prefix + "[" + std::to_string(i) + "]");
          !s.ok()) {
        return s;
      }
    }
    return {};
  }
  if (input.is_number_integer() && read_back.is_number_integer() && input != read_back) {
    return Error{name + " is " + input.dump() + ", out of range for this setting"};
  }
  return {};
}

std::string jsonErrorText(const std::exception& e) {
  const std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0) {
    const std::size_t end = what.find("] ");
    if (end != std::string::npos) return what.substr(end + 2);
  }
  return what;
}

}  // namespace ascope
