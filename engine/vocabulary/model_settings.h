#pragma once
// The model settings of a run as the task that trains it defines them. A TrainingConfig carries
// them without knowing their type: shared code (the session, the run folder, the GUI) never looks
// inside; the task reads and edits them as its own struct, and config.json keeps them under that
// struct's own key ("vit", "text", "translator", …), so a new task with a new model adds its
// settings without touching this file or TrainingConfig.
//
// A settings struct T has `static constexpr const char* kConfigKey` (its key in config.json) and
// nlohmann to_json / from_json (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT).
#include <nlohmann/json.hpp>

#include <any>
#include <map>
#include <string>
#include <utility>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/json_integral_settings.h"

namespace ascope {

class ModelSettings {
 public:
  /// The settings as T, to read or edit in place: the T held, else T read from the config.json
  /// section kept under T::kConfigKey, else T's defaults. Settings of another type held before
  /// are kept as their section. Throws nlohmann's exceptions for a section of the wrong shape
  /// (validateConfig reports them).
  template <class T>
  T& as() {
    if (T* held = std::any_cast<T>(&value_)) return *held;
    T value = get<T>();
    keepHeldAsSection();
    value_ = std::move(value);
    key_ = T::kConfigKey;
    write_ = [](const std::any& v) { return nlohmann::json(std::any_cast<const T&>(v)); };
    sections_.erase(key_);
    return *std::any_cast<T>(&value_);
  }

  /// A copy of the settings as T, read the same way as as<T>().
  template <class T>
  T get() const {
    if (const T* held = std::any_cast<T>(&value_)) return *held;
    const auto found = sections_.find(T::kConfigKey);
    if (found == sections_.end()) return T{};
    T value{};
    integralSettings(found->second, nlohmann::json(T{})).get_to(value);
    return value;
  }

  /// get<T>(), with a section of the wrong shape as an error naming its key and field instead of
  /// an exception ("model settings \"vit.layers\" must be a whole number, got \"six\""), and a
  /// number too large for its field refused instead of narrowed.
  template <class T>
  Expected<T> read() const {
    const auto found = sections_.find(T::kConfigKey);
    const bool from_section = !std::any_cast<T>(&value_) && found != sections_.end();
    const std::string prefix = std::string(T::kConfigKey) + ".";
    if (from_section) {
      if (Status s = checkSettingTypes(found->second, nlohmann::json(T{}), prefix); !s.ok()) {
        return Error{"model settings " + s.error()};
      }
    }
    try {
      T value = get<T>();
      if (from_section) {
        const nlohmann::json read_back(value);
        const Status s =
            checkSettingRanges(integralSettings(found->second, read_back), read_back, prefix);
        if (!s.ok()) return Error{"model settings " + s.error()};
      }
      return value;
    } catch (const nlohmann::json::exception& e) {
      return Error{std::string("model settings \"") + T::kConfigKey + "\": " + jsonErrorText(e)};
    }
  }

  /// Replaces the settings with `value`.
  template <class T>
  void set(T value) {
    as<T>() = std::move(value);
  }

  /// Adds every section to `j`, the settings held under their key.
  void writeTo(nlohmann::json& j) const;
  /// Keeps every member of `j` that is an object and not named in `common_objects` as a section
  /// for the task to read (as<T>, get<T>).
  void readFrom(const nlohmann::json& j, std::initializer_list<const char*> common_objects);

 private:
  void keepHeldAsSection();

  std::map<std::string, nlohmann::json> sections_;  ///< by key, as config.json had them
  std::any value_;                                  ///< the settings the task asked for
  std::string key_;                                 ///< value_'s key
  nlohmann::json (*write_)(const std::any&) = nullptr;
};

}  // namespace ascope
