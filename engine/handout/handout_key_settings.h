#pragma once
// The few settings of a run a student reads first, named for people ("Learning rate", "Layers")
// instead of config.json's keys (`optimization.adam_eps`, `splits.layout`), which the handout
// keeps below them for whoever wants every one.
#include <vector>

#include "engine/handout/handout_data.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// Task, data, preset, length, batch, learning rate (optimizer, schedule), seed, a pretrained
/// model, and the model's shape as the task names its fields; `task` may be null (a run of a task
/// this build does not know): its shape is then left out.
std::vector<HandoutSetting> keySettingsOf(const TrainingConfig& config, const TaskDescriptor* task);

}  // namespace ascope
