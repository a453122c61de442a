#pragma once
// Whether a config.json is a run's: a Hugging Face model folder has a config.json too, and read
// as a run's settings it opened as "Images · ViT" with every setting at its default, or compared
// as "99 differing settings".
#include <nlohmann/json.hpp>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// OK when `config` (read from `path`) is an object naming its "task" as a string. Otherwise an
/// error for a person: a pretrained model folder is named as one (with what to do with it instead),
/// anything else as not a run's settings.
Status checkRunConfigJson(const nlohmann::json& config, const std::string& path);

}  // namespace ascope
