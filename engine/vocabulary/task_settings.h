#pragma once
// The settings of a run that the task training it defines: its model's (layers, heads, …) and its
// data's and evaluation's (a tokenizer's minimum word count, a translation's languages, an image
// task's augmentation). A TrainingConfig carries them without knowing their types: shared code
// (the session, the run folder, the GUI) never looks inside; the task reads and edits each as its
// own struct, and config.json keeps each under that struct's own key ("vit", "text",
// "translator", "translation_data", …), so a task with new settings adds a struct without
// touching this file or TrainingConfig.
//
// A settings struct T has `static constexpr const char* kConfigKey` (its key in config.json) and
// nlohmann to_json / from_json (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT).
//
// Run folders written before the data settings became the task's have them as top-level keys of
// config.json ("min_freq": 2, "augment": true): a struct whose section is absent reads its fields
// from those keys, by the fields' names, so such a run opens and resumes with its own settings.
#include <nlohmann/json.hpp>

#include <any>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/json_integral_settings.h"

namespace ascope {

class TaskSettings {
 public:
  /// The settings as T, to read or edit in place: the T held, else T read as get<T>() does.
  /// Throws nlohmann's exceptions for settings of the wrong shape (validateConfig reports them).
  template <class T>
  T& as() {
    const std::string key = T::kConfigKey;
    if (auto held = held_.find(key); held != held_.end())
      return *std::any_cast<T>(&held->second.value);
    T value = get<T>();
    forgetWrittenBefore(key, nlohmann::json(T{}));
    Held& held = held_[key];
    held.value = std::move(value);
    held.write = [](const std::any& v) { return nlohmann::json(std::any_cast<const T&>(v)); };
    return *std::any_cast<T>(&held.value);
  }

  /// A copy of the settings as T: the T held, else the section config.json kept under
  /// T::kConfigKey, else T's fields among an older config.json's top-level keys, else T's
  /// defaults.
  template <class T>
  T get() const {
    if (const T* held = heldAs<T>()) return *held;
    const std::optional<nlohmann::json> written = writtenBefore(T::kConfigKey, nlohmann::json(T{}));
    if (!written) return T{};
    T value{};
    integralSettings(*written, nlohmann::json(T{})).get_to(value);
    return value;
  }

  /// get<T>(), with settings of the wrong shape as an error naming their key and field instead
  /// of an exception ("settings \"vit.layers\" must be a whole number, got \"six\""), and a
  /// number too large for its field refused instead of narrowed.
  template <class T>
  Expected<T> read() const {
    const nlohmann::json defaults(T{});
    const std::optional<nlohmann::json> written =
        heldAs<T>() ? std::nullopt : writtenBefore(T::kConfigKey, defaults);
    const std::string prefix = hasSection(T::kConfigKey) ? std::string(T::kConfigKey) + "." : "";
    if (written) {
      if (Status s = checkSettingTypes(*written, defaults, prefix); !s.ok()) {
        return Error{"settings " + s.error()};
      }
    }
    try {
      T value = get<T>();
      if (written) {
        const nlohmann::json read_back(value);
        const Status s =
            checkSettingRanges(integralSettings(*written, read_back), read_back, prefix);
        if (!s.ok()) return Error{"settings " + s.error()};
      }
      return value;
    } catch (const nlohmann::json::exception& e) {
      return Error{std::string("settings \"") + T::kConfigKey + "\": " + jsonErrorText(e)};
    }
  }

  /// Replaces the settings T with `value`.
  template <class T>
  void set(T value) {
    as<T>() = std::move(value);
  }

  /// Adds every section to `j`, the settings held under their key, and the older top-level keys
  /// no settings held have taken over.
  void writeTo(nlohmann::json& j) const;
  /// Keeps every member of `j` that is an object and not named in `common_objects` as a section
  /// for the task to read (as<T>, get<T>), and every other member that `is_common` does not claim
  /// as an older config.json's top-level task setting.
  void readFrom(const nlohmann::json& j, std::initializer_list<const char*> common_objects,
                bool (*is_common)(const std::string& key));

 private:
  struct Held {
    std::any value;
    nlohmann::json (*write)(const std::any&) = nullptr;
  };

  template <class T>
  const T* heldAs() const {
    const auto held = held_.find(T::kConfigKey);
    return held == held_.end() ? nullptr : std::any_cast<T>(&held->second.value);
  }
  bool hasSection(const std::string& key) const { return sections_.count(key) > 0; }
  /// The section under `key`, else the members of the older top-level keys named in `fields`;
  /// nullopt when there is neither.
  std::optional<nlohmann::json> writtenBefore(const std::string& key,
                                              const nlohmann::json& fields) const;
  /// Drops the section under `key` and the older top-level keys named in `fields`: the held
  /// settings replace them.
  void forgetWrittenBefore(const std::string& key, const nlohmann::json& fields);

  std::map<std::string, nlohmann::json> sections_;   ///< by key, as config.json had them
  nlohmann::json loose_ = nlohmann::json::object();  ///< an older config.json's top-level ones
  std::map<std::string, Held> held_;                 ///< by key: the settings the task asked for
};

}  // namespace ascope
