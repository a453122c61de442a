#pragma once
// Settings read from a JSON file (a run's config.json) are checked against the settings as they
// are written before nlohmann converts them: its own messages name no setting ("type must be
// number, but is string"), and it narrows a number into a smaller integer without a word
// ("epochs": 1e15 read as -1530494976). Settings read from config.json pass through
// checkSettingTypes, integralSettings and, once read, checkSettingRanges.
#include <nlohmann/json.hpp>

#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// `input` with every floating-point number that stands where `defaults` (the settings as they
/// are written) has an integer replaced by its integral part; a number outside 64 bits throws
/// nlohmann's out_of_range, which readers report like any other bad setting.
nlohmann::json integralSettings(const nlohmann::json& input, const nlohmann::json& defaults);

/// OK when every setting of `input` that `defaults` also has is of its kind: an object, an array
/// (of elements like the default's first), true/false, a string, a number, or a whole number (a
/// float with no fraction counts). Errors name the setting by its dotted path after `prefix` and
/// show the value: "\"optimization.lr\" must be a number, got \"fast\"".
Status checkSettingTypes(const nlohmann::json& input, const nlohmann::json& defaults,
                         const std::string& prefix = "");

/// OK when every whole number of `input` (after integralSettings) reads back unchanged in
/// `read_back` (the settings read, written again): a setting whose C++ type is narrower than the
/// number changes it. "\"epochs\" is 1000000000000000, too large for this setting".
Status checkSettingRanges(const nlohmann::json& input, const nlohmann::json& read_back,
                          const std::string& prefix = "");

/// nlohmann's message without its "[json.exception.type_error.302] " tag: text for a person.
std::string jsonErrorText(const std::exception& e);

}  // namespace ascope
