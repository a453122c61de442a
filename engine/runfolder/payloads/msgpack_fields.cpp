#include "engine/runfolder/payloads/msgpack_fields.h"

#include <cmath>

namespace ascope {

MsgpackFields MsgpackFields::within(const std::string& where) const {
  MsgpackFields inner(name_);
  inner.within_ = within_ + where;
  return inner;
}

void MsgpackFields::refuse(const std::string& message) const {
  throw FieldError{name_ + ": " + within_ + message};
}

std::int64_t MsgpackFields::integer(const nlohmann::json& object, const char* key, std::int64_t min,
                                    std::int64_t max, const std::string& where) const {
  const nlohmann::json& v = object.at(key);
  if (!v.is_number_integer()) refuse(where + key + " is not an integer");
  const bool huge = v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX;
  const std::int64_t value = huge ? INT64_MAX : v.get<std::int64_t>();
  if (value < min || value > max) {
    refuse(where + key + " " + (huge ? v.dump() : std::to_string(value)) + " is outside " +
           std::to_string(min) + ".." + std::to_string(max));
  }
  return value;
}

int MsgpackFields::optionalInteger(const nlohmann::json& object, const char* key, std::int64_t max,
                                   const std::string& where) const {
  return object.contains(key) ? static_cast<int>(integer(object, key, 0, max, where)) : 0;
}

std::string MsgpackFields::text(const nlohmann::json& value, const std::string& what,
                                std::size_t max_bytes) const {
  if (!value.is_string()) refuse(what + " is not a string");
  if (value.get_ref<const std::string&>().size() > max_bytes) {
    refuse(what + " is longer than " + std::to_string(max_bytes) + " bytes");
  }
  return value.get<std::string>();
}

std::string MsgpackFields::optionalText(const nlohmann::json& object, const char* key,
                                        const std::string& where, std::size_t max_bytes) const {
  return object.contains(key) ? text(object.at(key), where + key, max_bytes) : std::string();
}

bool MsgpackFields::flag(const nlohmann::json& object, const char* key,
                         const std::string& where) const {
  if (!object.contains(key)) return false;
  const nlohmann::json& v = object.at(key);
  if (!v.is_boolean()) refuse(where + key + " is not a boolean");
  return v.get<bool>();
}

double MsgpackFields::probability(const nlohmann::json& value, const std::string& what) const {
  if (!value.is_number()) refuse(what + " is not a number");
  const double p = value.get<double>();
  if (!std::isnan(p) && !(p >= 0.0 && p <= 1.0))
    refuse(what + " " + value.dump() + " is outside 0..1");
  return p;
}

const nlohmann::json& MsgpackFields::submap(const nlohmann::json& object, const char* key) const {
  const nlohmann::json& v = object.at(key);
  if (!v.is_object()) refuse(std::string(key) + " is not a map");
  return v;
}

std::vector<std::string> MsgpackFields::labels(const nlohmann::json& object, const char* key,
                                               const std::string& where) const {
  const nlohmann::json& v = object.at(key);
  if (!v.is_array()) refuse(where + key + " is not an array");
  if (v.size() > static_cast<std::size_t>(kMaxSide)) {
    refuse(where + key + " has " + std::to_string(v.size()) + " labels, over " +
           std::to_string(kMaxSide));
  }
  std::vector<std::string> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out.push_back(text(v[i], where + key + "[" + std::to_string(i) + "]"));
  }
  return out;
}

ImageBuffer MsgpackFields::image(const nlohmann::json& object, const std::string& where) const {
  ImageBuffer out;
  const auto side = [&](const char* key) {
    return object.contains(key) ? static_cast<int>(integer(object, key, 0, kMaxSide, where)) : 0;
  };
  out.width = side("image_width");
  out.height = side("image_height");
  if (object.contains("image") && object.at("image").is_binary())
    out.pixels = object.at("image").get_binary();
  const std::size_t plane = static_cast<std::size_t>(out.width) * out.height;
  const std::size_t pixels = out.pixels.size();
  if (pixels != 0 && pixels != plane && pixels != 3 * plane) {
    refuse(where + "image of " + std::to_string(out.width) + "×" + std::to_string(out.height) +
           " has " + std::to_string(pixels) + " bytes (expected " + std::to_string(plane) + " or " +
           std::to_string(3 * plane) + ")");
  }
  return out;
}

}  // namespace ascope
