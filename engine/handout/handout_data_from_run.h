#pragma once
// The one place that reads a run folder into the handout's own model (handout_data.h): metrics,
// test figures, bookmarks, learning-rate changes, head statistics, ablation, settings, and each
// stored probe set as a frame. When the run folder's vocabulary changes, this file follows it and
// the rest of engine/handout stays as it is.
#include <functional>
#include <string>
#include <vector>

#include "engine/handout/handout_data.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct AttentionGroup;
struct TaskDescriptor;
struct TrainingConfig;

/// The checks every reader of a run makes of its settings (checkRunSettings,
/// engine/tasks/registry/run_config_reader.h, which is not linked here), given the settings and
/// the path of the config.json they came from.
using RunSettingsCheck =
    std::function<Status(const TrainingConfig& config, const std::string& config_path)>;

/// Everything of the run folder `run_dir` but the attention frames (HandoutData::frames lists
/// where they are). `task_of` gives the run's task (null: a task this build does not know), which
/// names the groups and the accuracy; it is also returned in `task`. Errors when `run_dir` is not
/// a run folder or `check_settings` (when set) refuses its settings, as infer, evaluate and the
/// window would; what cannot be read is a warning.
Expected<HandoutData> readHandoutData(
    const std::string& run_dir,
    const std::function<const TaskDescriptor*(const std::string& task_id)>& task_of,
    const RunSettingsCheck& check_settings, const TaskDescriptor*& task);

/// The group of a snapshot as the page names it: the task's title and axes for it (the run's own
/// name where the task has none, or is unknown: `task` null), and whether it is causal.
HandoutGroup handoutGroupOf(const AttentionGroup& group, const TaskDescriptor* task);

/// The probe set stored at `source`: every probe sample's attention of every group, with the
/// rollout through each layer added for every self-attention group (as the window's "· rollout"),
/// its image, prediction, decoding and the step's positional encoding. Groups not yet in `groups`
/// are appended to it; a probe's HandoutAttention::group indexes it. A malformed group is left out
/// and named in `warnings`.
Expected<HandoutFrame> readHandoutFrame(const HandoutFrameSource& source,
                                        const TaskDescriptor* task,
                                        std::vector<HandoutGroup>& groups,
                                        std::vector<std::string>& warnings);

}  // namespace ascope
