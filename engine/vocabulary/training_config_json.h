#pragma once
// config.json's settings read back without exceptions (the readers of a run folder), beside
// TrainingConfig's to_json / from_json (engine/vocabulary/training_config.h).
#include <nlohmann/json.hpp>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// Every common setting of `j` read through the one field table of training_config_json.cpp:
/// its JSON kind checked against the field as written, a whole number with a fraction refused,
/// and no whole number narrowed, with errors naming the setting ('"optimization.lr" must be a
/// number, got "fast"'); settings absent from older runs keep their defaults, and the task's
/// section stays for the task to read (TaskSettings::read). Ranges and names are validateConfig's.
/// from_json(TrainingConfig) is this, throwing nlohmann's type_error with the message.
Expected<TrainingConfig> readTrainingConfig(const nlohmann::json& j);

}  // namespace ascope
