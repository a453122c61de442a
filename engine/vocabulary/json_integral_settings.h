#pragma once
// nlohmann converts a floating-point number to an integer setting with a plain cast, which is
// undefined when the value does not fit ("epochs": 1e99). Settings read from config.json pass
// through integralSettings first.
#include <nlohmann/json.hpp>

namespace ascope {

/// `input` with every floating-point number that stands where `defaults` (the settings as they
/// are written) has an integer replaced by its integral part; a number outside 64 bits throws
/// nlohmann's out_of_range, which readers report like any other bad setting.
nlohmann::json integralSettings(const nlohmann::json& input, const nlohmann::json& defaults);

}  // namespace ascope
