#include "engine/vocabulary/task_settings.h"

namespace ascope {

void TaskSettings::writeTo(nlohmann::json& j) const {
  for (const auto& [key, value] : loose_.items()) j[key] = value;
  for (const auto& [key, section] : sections_) j[key] = section;
  for (const auto& [key, held] : held_) j[key] = held.write(held.value);
}

void TaskSettings::readFrom(const nlohmann::json& j,
                            std::initializer_list<const char*> common_objects,
                            bool (*is_common)(const std::string& key)) {
  *this = TaskSettings{};
  for (const auto& [key, value] : j.items()) {
    if (!value.is_object()) {
      if (!is_common(key)) loose_[key] = value;
      continue;
    }
    bool common = false;
    for (const char* name : common_objects) common = common || key == name;
    if (!common) sections_[key] = value;
  }
}

std::optional<nlohmann::json> TaskSettings::writtenBefore(const std::string& key,
                                                          const nlohmann::json& fields) const {
  if (const auto found = sections_.find(key); found != sections_.end()) return found->second;
  nlohmann::json older = nlohmann::json::object();
  for (const auto& [field, value] : fields.items()) {
    if (const auto found = loose_.find(field); found != loose_.end()) older[field] = *found;
  }
  if (older.empty()) return std::nullopt;
  return older;
}

void TaskSettings::forgetWrittenBefore(const std::string& key, const nlohmann::json& fields) {
  sections_.erase(key);
  for (const auto& [field, value] : fields.items()) loose_.erase(field);
}

}  // namespace ascope
