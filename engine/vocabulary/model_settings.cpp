#include "engine/vocabulary/model_settings.h"

#include <cstring>

namespace ascope {

void ModelSettings::writeTo(nlohmann::json& j) const {
  for (const auto& [key, section] : sections_) j[key] = section;
  if (write_ != nullptr) j[key_] = write_(value_);
}

void ModelSettings::readFrom(const nlohmann::json& j,
                             std::initializer_list<const char*> common_objects) {
  *this = ModelSettings{};
  for (const auto& [key, value] : j.items()) {
    if (!value.is_object()) continue;
    bool common = false;
    for (const char* name : common_objects) common = common || key == name;
    if (!common) sections_[key] = value;
  }
}

void ModelSettings::keepHeldAsSection() {
  if (write_ != nullptr) sections_[key_] = write_(value_);
}

}  // namespace ascope
